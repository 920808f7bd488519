"""Command-line interface: one module per command group, each with ``register(subparsers)``."""
