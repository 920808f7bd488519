"""The Babylon 5 CGS order file: checking it against the player's view and normalising it.

(M1 skeleton: only the empty body is accepted.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem

from .turn import default_orders

SECTIONS = ("start", "record", "allocate", "move", "fire", "contested")


def normalize_orders(body: object, view: Mapping[str, Any]) -> tuple[dict[str, Any],
                                                                     list[Problem]]:
    if not isinstance(body, Mapping):
        return default_orders(), [Problem("shape", "", "orders are a mapping of sections: "
                                          + ", ".join(SECTIONS))]
    problems = [Problem("unknown-section", str(k)[:40], f"no section {str(k)[:40]!r} in "
                        f"Babylon 5 CGS orders (sections: {', '.join(SECTIONS)})")
                for k in body if k not in SECTIONS]
    return default_orders(), problems
