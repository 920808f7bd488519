"""The Ashes of Empire's hooks for the game archive (pbem.archive.hooks): numbers, colours by
the power's name, the reports' own event sentences and the card table of each step, all from
the public view and the public events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import cardtable
from .present import sentence

View = Mapping[str, Any]
Event = Mapping[str, Any]


def archive_summary(view: View, events: Sequence[Event]) -> dict[str, dict[str, int]]:
    return {p: {"ships in play": int(info["ships_in_play"]),
                "colonies": len(info["colonies"]),
                "homeplanets": int(info["homeplanets"]),
                "colony population": int(info["colony_population"])}
            for p, info in view["powers"].items()}


def archive_colours(view: View) -> dict[str, str]:
    seats = list(view.get("seats") or [])
    return {p: cardtable.colour(p, seats)[0] for p in seats}


def archive_event(event: Event, view: View | None) -> str:
    return sentence(event)


def archive_map(before: View | None, view: View, events: Sequence[Event]) -> str:
    title = None if before is None else f"The table after turn {before.get('turn')}"
    return cardtable.svg(view, events, title)
