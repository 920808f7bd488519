"""The star field from a view: the 12 areas in 4 rows of 3, each an upper (yellow) sector over a
lower (red) one, as cells for the HTML and SVG maps and as 80-column text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .words import (
    HOME_MARK,
    LEVEL_TINT,
    LOWER,
    UPPER,
    abbr,
    colours,
    power_name,
    symbols,
)

View = Mapping[str, Any]

MAP_COLUMN = 26  # characters per area in the text map: 3 areas + 2 spaces = 80 columns


def area_grid(view: View) -> list[list[str]]:
    """Areas in board order, 4 rows of 3 (from the stars' own sector data)."""
    areas: list[str] = []
    for star in view["stars"].values():
        if star["area"] not in areas:
            areas.append(star["area"])
    return [areas[i:i + 3] for i in range(0, len(areas), 3)]


def stars_in(view: View, area: str) -> list[tuple[str, Mapping[str, Any]]]:
    """An area's stars, upper level first, in board order."""
    mine = [(n, s) for n, s in view["stars"].items() if s["area"] == area]
    levels = []
    for _, s in mine:
        if s["level"] not in levels:
            levels.append(s["level"])
    return sorted(mine, key=lambda ns: levels.index(ns[1]["level"]))


def star_cell(view: View, name: str, readers: Sequence[str]) -> dict[str, Any]:
    star = view["stars"][name]
    upper = star["level"] == upper_level(view)
    ships = {p: n for p, n in star["ships"].items() if n > 0}
    shown = star["holder"] or (sorted(ships, key=lambda p: -ships[p])[0] if ships else None)
    strong, light = colours(view, shown)
    others = {p: n for p, n in ships.items() if p != shown}
    return {
        "name": name,
        "marker": UPPER if upper else LOWER,
        "level": star["level"],
        "sector": star["sector"],
        "home": star["home_of"] is not None,
        "home_of": star["home_of"],
        "symbols": symbols(star),
        "holder": star["holder"],
        "shown": shown,
        "abbr": abbr(shown) if shown else "",
        "ships": ships.get(shown, 0) if shown else 0,
        "others": others,
        "mine": shown in readers,
        "strong": strong,
        "light": light,
        "level_tint": LEVEL_TINT.get(star["level"], "#ffffff"),
    }


def upper_level(view: View) -> str:
    for s in view["stars"].values():
        return str(s["level"]) if s["level"] == "yellow" else "yellow"
    return "yellow"


def star_map(view: View, readers: Sequence[str]) -> list[list[dict[str, Any]]]:
    """Rows of areas, each {"area", "upper", "lower", "stars": [cells]} for HTML and SVG.

    The cells depend on the readers only through ``mine``: the rest is drawn once for a star
    field and its colours (every reader's view of one resolution shows the same public
    stars) and each call gets its own copies with its readers' ``mine``."""
    grid = _grid(view)
    return [[{"area": area["area"], "stars": [{**cell, "mine": cell["shown"] in readers}
                                              for cell in area["stars"]]}
             for area in row] for row in grid]


_LAST_GRID: list[Any] = [None, None, None]  # stars, colours, cells (with no reader)
_LAST_SOURCE: list[Any] = [None, None]  # the stars and powers of the view _LAST_GRID last fitted


def _grid(view: View) -> list[list[dict[str, Any]]]:
    if _LAST_SOURCE[0] is view["stars"] and _LAST_SOURCE[1] is view["powers"]:
        # the very view last found equal (a report asks for the grid several times per
        # reader; views are never changed once made: docs/plugins.md)
        return _LAST_GRID[2]  # type: ignore[no-any-return]
    colours_now = {p: info.get("colour") for p, info in view["powers"].items()}
    stars, colours_then, grid = _LAST_GRID
    if grid is not None and stars == view["stars"] and colours_then == colours_now:
        _LAST_SOURCE[:] = [view["stars"], view["powers"]]
        return grid  # type: ignore[no-any-return]
    grid = [[{"area": area, "stars": [star_cell(view, n, ()) for n, _ in stars_in(view, area)]}
             for area in row] for row in area_grid(view)]
    kept = {n: {**star, "ships": dict(star["ships"])} for n, star in view["stars"].items()}
    _LAST_GRID[:] = [kept, colours_now, grid]
    _LAST_SOURCE[:] = [view["stars"], view["powers"]]
    return grid


_LAST_NEUTRAL: list[Any] = [None, None]  # the grid of _LAST_GRID, its cells without ``mine``


def neutral_grid(view: View) -> list[list[dict[str, Any]]]:
    """The star field's cells without ``mine``: what map.svg draws for any reader (the reader's
    own stars are marked by a CSS rule). Made from the stars and colours every view of a
    resolution shows alike, and the same object for every reader of the same star field, so
    the renderer finds the drawing of its cells by identity. Never changed once made."""
    grid = _grid(view)
    if _LAST_NEUTRAL[0] is not grid:
        _LAST_NEUTRAL[:] = [grid, [[{**area, "stars": [{k: v for k, v in s.items() if k != "mine"}
                                                        for s in area["stars"]]}
                                    for area in row] for row in grid]]
    return _LAST_NEUTRAL[1]  # type: ignore[no-any-return]


_LAST_TEXT: list[Any] = [None, None]  # the grid of _LAST_GRID, its text map


def field_text(view: View) -> list[str]:
    """``star_map_text`` for any readers: the text map marks no reader's stars, so it is
    drawn once per star field (the grid of ``_grid``, the same object while the stars and
    colours are equal) and each caller gets a copy of its lines."""
    grid = _grid(view)
    if _LAST_TEXT[0] is not grid:
        _LAST_TEXT[:] = [grid, star_map_text(view, (), grid)]
    return list(_LAST_TEXT[1])


def _cell_text(cell: Mapping[str, Any]) -> str:
    name = cell["name"] + (HOME_MARK if cell["home"] else "")
    holder = f"{cell['abbr']} {cell['ships']:>3}" if cell["shown"] else "-"
    if cell["shown"] and not cell["holder"]:
        holder = f"{cell['abbr'].lower()} {cell['ships']:>3}"
    if cell["others"]:
        holder += "&"
    return f"{cell['marker']} {name:<10} {cell['symbols']:<2} {holder}"


def star_map_text(view: View, readers: Sequence[str],
                  grid: list[list[dict[str, Any]]] | None = None) -> list[str]:
    """The star field in at most 80 columns: areas A–L in 4 rows of 3, each area's upper (▲)
    and lower (▼) stars with resources, holder and ships. ``grid``: ``star_map(view, readers)``
    if the caller has it already."""
    lines: list[str] = []
    for row in grid if grid is not None else star_map(view, readers):
        lines.append("".join(f" {c['area']:<{MAP_COLUMN - 1}}" for c in row).rstrip())
        for i in range(max(len(c["stars"]) for c in row)):
            parts = []
            for c in row:
                text = _cell_text(c["stars"][i]) if i < len(c["stars"]) else ""
                parts.append(f" {text:<{MAP_COLUMN - 1}}")
            lines.append("".join(parts).rstrip())
    return lines


def map_notes(view: View, readers: Sequence[str],
              grid: list[list[dict[str, Any]]] | None = None) -> list[str]:
    """Stars where more than one power has ships, or ships wait to surrender."""
    notes = []
    for row in grid if grid is not None else star_map(view, readers):
        for area in row:
            for c in area["stars"]:
                if not c["others"] and (c["holder"] or not c["shown"]):
                    continue
                present = {c["shown"]: c["ships"], **c["others"]}
                who = ", ".join(f"{power_name(p)} {n}" for p, n in present.items())
                held = (f"held by {power_name(c['holder'])}" if c["holder"]
                        else "held by nobody")
                notes.append(f"{c['name']}: {who} ({held})")
    return notes


_LAST_NOTES: list[Any] = [None, None]  # the neutral grid of neutral_grid, its notes


def field_notes(view: View) -> list[str]:
    """``map_notes`` for any readers: the notes read no reader's marks, so they are written
    once per star field (``neutral_grid``, the same object while the stars and colours are
    equal) and each caller gets a copy of them."""
    grid = neutral_grid(view)
    if _LAST_NOTES[0] is not grid:
        _LAST_NOTES[:] = [grid, map_notes(view, (), grid)]
    return list(_LAST_NOTES[1])


def legend(view: View) -> list[dict[str, str]]:
    return [
        {"power": p, "name": power_name(p), "abbr": abbr(p), "colour": info["colour"],
         "strong": colours(view, p)[0], "light": colours(view, p)[1], "home": info["home"]}
        for p, info in view["powers"].items()
    ]
