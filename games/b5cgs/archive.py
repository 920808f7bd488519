"""Babylon 5 CGS's hooks for the game archive (pbem.archive.hooks): numbers, the colours the
reports use, the reports' own event sentences and the hex map of each step (the mails'
``map.svg`` template, with the step's moves and fire drawn), all from the public view and
the public events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from . import mapmodel, sentences, threats
from .present import board

View = Mapping[str, Any]
Event = Mapping[str, Any]
TEMPLATES = Path(__file__).resolve().parent / "templates"


@cache
def _template() -> jinja2.Template:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True)
    return env.get_template("map.svg")


def archive_summary(view: View, events: Sequence[Event]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for p in view["seats"]:
        banks = view["powers"][p].get("banks") or {}
        out[p] = {"units on the map": len(threats.units(view, p)),
                  "reserve": int(banks.get("reserve") or view["powers"][p].get("reserve") or 0),
                  "net income": int(banks.get("net") or 0)}
    return out


def archive_colours(view: View) -> dict[str, str]:
    return {p: c["strong"] for p, c in mapmodel.colours(view).items()}


#: What the sentences read of a view, empty: ids stand for names (a step whose state a public
#: export withholds).
NO_VIEW: Mapping[str, Any] = {"powers": {}, "tokens": {}, "pack": {"tokens": {}}}


def archive_event(event: Event, view: View | None) -> str:
    """The event as the reports say it (a move: "Earth Alliance's Hyperion Cr. (t7) moved
    (standard) from 1,1 to 1,0, facing 1.")."""
    if event.get("type") == "roll":
        return sentences.roll_line(event, view)
    return sentences.sentence(event, view if view is not None else NO_VIEW)


def archive_map(before: View | None, view: View, events: Sequence[Event]) -> str:
    drawing = board(view, events)["drawing"]
    title = ("The map at the start" if before is None
             else f"The map after step {before.get('turn')}")
    svg = _template().render(**drawing, title=title, turn=view.get("turn"), readers_css="")
    return svg[svg.index("<svg"):]
