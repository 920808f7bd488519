"""The keys the engine reads from a finished game's result (``state["result"]``).

A game ends by setting ``result`` in its state to a mapping; it may hold any keys of its own
(4000 A.D.'s scores, the Ashes' populations), and the engine reads these: who won (``winners``,
the powers, empty when nobody did), why (``reason``, the game's word: ``cluster``,
``agreement``, ...) and on which turn (``turn``, where the game records it). The audit's
summary (pbem.audit.verify) and the game master's status line (pbem.host.gmops) say them.

A cancelled game (:func:`cancelled`) ends as the game's own agreed end would (its scores, its
reveals) but with no winner and the reason ``cancelled``, in the result and in every event
that names winners.
"""

# No ``from __future__ import annotations`` here (issue 30, "Fast start"): a TypedDict's string
# annotations are each compiled (typing.ForwardRef) as the class is made, ~123 compiles in a
# process that loads a game; evaluated annotations cost none.

import copy
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

#: The ``reason`` of a cancelled game (pbem gm cancel, a players' cancel vote).
CANCELLED = "cancelled"


class GameResult(TypedDict, total=False):
    """A finished game's result, as far as the engine reads it (every key optional)."""

    winners: list[str]
    reason: str
    turn: int


def cancelled(state: Mapping[str, Any], events: Sequence[Mapping[str, Any]]
              ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A game's agreed end (``state`` and ``events`` as its ``end_game`` gave them) made a
    cancellation: ``result`` and every event naming ``winners`` say nobody won, ``cancelled``."""
    new = copy.deepcopy(dict(state))
    if isinstance(new.get("result"), dict):
        new["result"] = {**new["result"], "winners": [], "reason": CANCELLED}
    out = [{**e, "winners": [], "reason": CANCELLED} if "winners" in e else dict(e)
           for e in events]
    return new, out
