"""What keeps a standing file (``turn: standing``) from being judged at all, as the referee and
the player's tool say it (docs/protocol.md, "Standing files"): a game that declares no standing
sections, a section the game does not declare standing (each named by its path), or a
fair-chance value (a value belongs to one step). Pure: the game's declared sections are given.

The referee's judge (pbem.host.accept) says the same sentences; the player's tool
(``pbem orders check`` and ``sign --view``) says them before the file is mailed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pbem.errors import Problem


def standing_problems(game: str, sections: Iterable[str], body: Mapping[Any, Any],
                      entropy: object) -> list[Problem]:
    """Every reason a standing file of ``game`` is refused before its orders are checked."""
    declared = tuple(sections)
    if not declared:
        return [Problem("standing", "turn", f"game {game} takes no standing files: give the "
                        "turn your orders are for")]
    out = [Problem("not-standing", f"orders.{key}", f"{key} is not a standing section of this "
                   f"game (a standing file holds only {', '.join(declared)}): send it in a "
                   "file for the open turn") for key in body if key not in declared]
    if entropy is not None:
        out.append(Problem("standing", "entropy", "a standing file carries no fair-chance "
                           "value (it belongs to one step): send it in a file for the open "
                           "turn"))
    return out
