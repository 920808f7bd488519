"""4000 A.D. (1972) as a pbem game plugin: board data, rules core, per-power view."""

from __future__ import annotations

from .board import default_board
from .plugin import FourThousandAD

PLUGIN = FourThousandAD()

__all__ = ["PLUGIN", "default_board"]
