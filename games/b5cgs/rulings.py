"""The rulings a player may meet in a problem or a report, each cited by a sentence he can read
(never a bare code): ``cite("E6")``. The whole text, with the rulebook's lines, is RULES.md,
which ``pbem rules b5cgs`` prints."""

from __future__ import annotations

from pbem.game.presentation import cite_ruling

GAME = "b5cgs"
RULINGS = {
    "E3": "a ship may be built into a hex of a face-down map piece, which it exposes; a base "
          "and non-unit tokens only into hexes of face-up pieces",
    "E6": "you fire only at other players' tokens",
}


def cite(code: str) -> str:
    """``(our ruling E6: ...; pbem rules b5cgs)`` (pbem.game.presentation.cite_ruling)."""
    return cite_ruling(GAME, code, RULINGS[code])
