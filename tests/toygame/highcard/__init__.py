"""High Card: the toy game under tests/ that proves pbem's plugin contract is complete.

Deliberately unlike 4000 A.D.: a hidden hand instead of a board, no map, one kind of step, no
commitments. Each round every player plays one card from a hand only it can see; the highest
card takes the round. A face-down card (the kitty) is known to the referee alone until the end.
docs/plugins.md cites it beside rock, paper, scissors (tests/games/rps), which it walks through.
"""

from __future__ import annotations

from .plugin import HighCard

PLUGIN = HighCard()

__all__ = ["PLUGIN"]
