"""The keys the engine reads from a finished game's result (``state["result"]``).

A game ends by setting ``result`` in its state to a mapping; it may hold any keys of its own
(4000 A.D.'s scores, the Ashes' populations), and the engine reads these: who won (``winners``,
the powers, empty when nobody did), why (``reason``, the game's word: ``cluster``,
``agreement``, ...) and on which turn (``turn``, where the game records it). The audit's
summary (pbem.audit.verify) and the game master's status line (pbem.host.gmops) say them.
"""

from __future__ import annotations

from typing import TypedDict


class GameResult(TypedDict, total=False):
    """A finished game's result, as far as the engine reads it (every key optional)."""

    winners: list[str]
    reason: str
    turn: int
