"""The galaxy as 80-column text: ring by ring from the centre, each ring clockwise from north,
one entry per system (galaxy_cells decides what each shows, from the public parts of a view).

    Ring 1
      S07 (1,-1)  alpha wormhole
          farro 2/0, red, exhausted; on it: red 2 trooper
          in space: red 2 frigate, 1 tender; blue 1 wing
          command tokens: red

An empty system with no planet takes one line. Every line is at most 78 characters.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

from .galaxy_cells import ANOMALY_WORDS, Cell, cells, units_words

WIDTH = 78
INDENT = "      "


def _wrap(text: str, first: str, more: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=more,
                         break_on_hyphens=False, break_long_words=True) or [first.rstrip()]


def _marks(c: Cell) -> list[str]:
    marks = []
    if c.centre:
        marks.append("the centre")
    if c.home_of:
        marks.append(f"home of {c.home_of}")
    if c.anomaly:
        marks.append(ANOMALY_WORDS.get(c.anomaly, c.anomaly))
    marks += [f"{w} wormhole" for w in c.wormholes]
    if c.locked_by:
        marks.append(f"locked by {c.locked_by}")
    return marks


def _head(c: Cell, more: str = "") -> str:
    """``  S07 (0,-2)   alpha wormhole`` and ``more`` after a semicolon."""
    text = "; ".join(x for x in (", ".join(_marks(c)), more) if x)
    return f"  {c.system + ' (' + str(c.at[0]) + ',' + str(c.at[1]) + ')':<12}" \
        + (" " + text if text else "")


def _quiet(c: Cell) -> bool:
    """Nobody is there: no ships, no tokens, no lock, no planet held or occupied."""
    return not (c.ships or c.tokens or c.locked_by
                or any(p.owner or p.ground for p in c.planets))


def system_lines(c: Cell) -> list[str]:
    if _quiet(c):  # one line: its planets, nobody's, after its marks
        planets = ", ".join(f"{p.id} {p.resources}/{p.influence}" for p in c.planets)
        return _wrap(_head(c, planets), "", INDENT)
    out = _wrap(_head(c), "", INDENT)
    for p in c.planets:
        text = (f"{p.id} {p.resources}/{p.influence}, "
                + (p.owner or "nobody's") + (", exhausted" if p.exhausted else ""))
        if p.ground:
            text += "; on it: " + "; ".join(f"{s.power} {units_words(s)}" for s in p.ground)
        out += _wrap(text, INDENT + "  ", INDENT + "    ")
    if c.ships:
        out += _wrap("in space: " + "; ".join(f"{s.power} {units_words(s)}" for s in c.ships),
                     INDENT + "  ", INDENT + "    ")
    if c.tokens:
        out += _wrap("command tokens: " + ", ".join(c.tokens), INDENT + "  ", INDENT + "    ")
    return out


def render(view: Mapping[str, Any]) -> list[str]:
    """The galaxy's lines."""
    all_cells = cells(view)
    out = [f"{len(all_cells)} systems, ring by ring from the centre, each ring clockwise from "
           "north.", "(q,r): its hex (0,0 the centre). Planets: resources/influence, owner;",
           "a system nobody holds or occupies takes one line (its planets are nobody's)."]
    ring = -1
    for c in all_cells:
        if c.ring != ring:
            ring = c.ring
            out.append(f"Ring {ring}")
        out += system_lines(c)
    return out
