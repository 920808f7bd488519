"""The GamePlugin object for 4000 A.D. (filled in by the rules core)."""

from __future__ import annotations

from .board import Board, default_board


class FourThousandAD:
    id = "4000ad"
    title = "4000 A.D."

    @property
    def board(self) -> Board:
        return default_board()
