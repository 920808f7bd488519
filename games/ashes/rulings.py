"""The rulings a player may meet in a problem or a report, each cited by a sentence he can read
(never a bare code): ``cite("A5")``. The whole text, with the rulebook's lines, is RULES.md,
which ``pbem rules ashes`` prints."""

from __future__ import annotations

from pbem.game.presentation import cite_ruling

GAME = "ashes"
RULINGS = {
    "A5": "the ships of a conquest come from one colony whose line D shows the target; a "
          "homeplanet may be shown only when no colony of yours reaches it",
}


def cite(code: str) -> str:
    """``(our ruling A5: ...; pbem rules ashes)`` (pbem.game.presentation.cite_ruling)."""
    return cite_ruling(GAME, code, RULINGS[code])
