"""The Move phase (D4): standard movement, jumps, exploration, hex activation, mines.

(M1 skeleton: the phase does nothing yet.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.game.chance import Chance


def move_phase(st: dict[str, Any], power: str, entries: Sequence[Any], chance: Chance
               ) -> list[dict[str, Any]]:
    return []
