"""pbem: a play-by-email turn processor for hidden-movement space strategy games."""

__version__ = "0.1.0"
