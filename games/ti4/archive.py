"""TI4's hooks for the game archive (pbem.archive.hooks): each step's numbers, the powers'
colours, the reports' own event sentences and the galaxy of each step (the mails' map, drawn
by galaxy_svg), all from the public view and the public events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import galaxy_svg, sentences
from .galaxy_cells import colours, seats

View = Mapping[str, Any]
Event = Mapping[str, Any]


def archive_summary(view: View, events: Sequence[Event]) -> dict[str, dict[str, int]]:
    """Per power: VP, planets held, ships in space, trade goods (the first two charted)."""
    table, board = view.get("table") or {}, view.get("board") or {}
    pack = view["pack"]
    out = {}
    for p in seats(view):
        seat = (table.get("players") or {}).get(p) or {}
        ships = sum(n for by in (board.get("space") or {}).values()
                    for u, n in (by.get(p) or {}).items() if pack["units"][u]["kind"] == "ship")
        out[p] = {"VP": int(seat.get("vp", 0)),
                  "planets": sum(1 for o in (board.get("owner") or {}).values() if o == p),
                  "ships": ships, "trade goods": int(seat.get("trade_goods", 0))}
    return out


def archive_colours(view: View) -> dict[str, str]:
    return colours(view)


def archive_event(event: Event, view: View | None) -> str:
    return sentences.sentence(event)


def archive_map(before: View | None, view: View, events: Sequence[Event]) -> str:
    """The galaxy after the step, as an inline ``<svg>`` (before the deal: the layout, the
    homes in seat order, no units yet)."""
    title = ("The galaxy at the start" if before is None
             else f"The galaxy after step {before.get('turn')}")
    svg = galaxy_svg.document(galaxy_svg.drawing(view), title)
    return svg[svg.index("<svg"):]
