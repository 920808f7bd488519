"""What a game may use of pbem's base layer, through the game layer (a game imports only
``pbem.game``, ``pbem.protocol`` and ``pbem.errors``: tests/test_layers.py).

``canonical`` is canonical JSON and its digests (a component pack's digest, a canonical-order
copy of a state); ``digits`` and ``whole_arg`` read whole numbers as people write them (ASCII
digits only: pbem.numbers).
"""

from __future__ import annotations

from pbem import canonical
from pbem.numbers import digits, whole_arg

__all__ = ["canonical", "digits", "whole_arg"]
