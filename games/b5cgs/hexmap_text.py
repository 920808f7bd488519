"""The hex map as plain text, within 80 columns, for the text part of a report.

The board is flat-topped hexes in axial coordinates ``(q, r)`` (games/b5cgs/hexes.py): hex
columns are ``q``, and a column's hexes sit half a hex lower than the column to its left.
Each hex is drawn as a block of four lines, six or seven characters wide::

    2,-1     its name, as orders write it
    e4 d3    its map elements (":::::" on a face-down piece: nothing of what it is)
    t1:3     the unit in it, by its id as orders name it, and a ship's facing
     R*      the unit's owner by his letter, * when it is crippled

so the column to the right starts two lines lower. Thirteen hex columns (a 13-piece map) fit at
six characters each; the fifteen of a 19-piece map are drawn in two bands, west and east.
The legend under the map (written by the presenter) says which unit each label is.

The drawing takes only cells (``mapmodel.Cell``): what a cell shows was decided from the view by
mapmodel, so this module cannot show anything the view does not hold.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

WIDTH = 80
FACEDOWN = ":::::"


def _cell_width(columns: int) -> int:
    for width in (7, 6):
        if columns * width <= WIDTH - 2:
            return width
    raise ValueError(f"a map {columns} hex columns wide does not fit in {WIDTH} columns")


def render(cells: Sequence[Mapping[str, Any]]) -> list[str]:
    """The map's lines (none longer than 78 characters). ``cells``: dicts with ``hex`` (q, r),
    ``name``, ``exposed``, ``marks`` (short element codes) and ``unit`` (label or None).

    A map wider than twelve hex columns (the 19-piece map has fifteen) is drawn in two bands,
    west and east, sharing their middle column, so every hex keeps a readable cell."""
    if not cells:
        return []
    try:
        frame = _frame(tuple(c["hex"] for c in cells), tuple(str(c["name"]) for c in cells))
    except TypeError:  # a hex given as a list: not a key, so no frame to keep
        frame = _frame.__wrapped__(tuple(tuple(c["hex"]) for c in cells),
                                   tuple(str(c["name"]) for c in cells))
    out: list[str] = []
    for head, band in frame:
        out += head
        out += _overlay(band, cells) if band.blank else _band([cells[i] for i in band.cells])
    return out


class _Band(NamedTuple):
    """One band of a map's frame: which cells it draws (indices), where each goes (its first
    line and its column), the cell width, and the band drawn as if every hex were face down
    and empty (each line's column pieces, and the lines), or () where two cells share a
    place (the band is then drawn whole, in order)."""

    cells: tuple[int, ...]
    places: tuple[tuple[int, int], ...]
    inner: int
    blank: tuple[tuple[str, ...], ...]
    lines: tuple[str, ...]


@functools.lru_cache(maxsize=64)
def _frame(hexes: tuple[Any, ...], names: tuple[str, ...]
           ) -> tuple[tuple[tuple[str, ...], _Band], ...]:
    """The bands of a map with these hexes and names (the same every step of a game, and in
    every game on a map of that shape), each with the lines above it."""
    qs = sorted({int(h[0]) for h in hexes})
    everyone = range(len(hexes))
    if len(qs) * 6 <= WIDTH - 2:
        return (((), _band_frame(hexes, names, tuple(everyone))),)
    mid = qs[len(qs) // 2]
    west = tuple(i for i in everyone if int(hexes[i][0]) <= mid)
    east = tuple(i for i in everyone if int(hexes[i][0]) >= mid)
    return (((f"  west (columns q <= {mid}):",), _band_frame(hexes, names, west)),
            (("", f"  east (columns q >= {mid}):"), _band_frame(hexes, names, east)))


def _band_frame(hexes: tuple[Any, ...], names: tuple[str, ...], cells: tuple[int, ...]
                ) -> _Band:
    facedown = [{"hex": hexes[i], "name": names[i], "exposed": False, "marks": [],
                 "unit": None, "owner": None} for i in cells]
    places, inner, grid = _grid(facedown)
    if len(set(places)) < len(places):
        return _Band(cells, (), inner, (), ())
    return _Band(cells, tuple(places), inner, tuple(tuple(line) for line in grid),
                 tuple("".join(line).rstrip() for line in grid))


def _overlay(band: _Band, cells: Sequence[Mapping[str, Any]]) -> list[str]:
    """The band's lines: its blank drawing, with what differs from it drawn over it (an
    exposed hex's marks, a unit and its owner: each as ``_pieces`` draws it; the names are
    the blank's)."""
    lines = list(band.lines)
    changed: dict[int, list[str]] = {}
    inner = band.inner
    for i, (top, col) in zip(band.cells, band.places, strict=True):
        c = cells[i]
        exposed, unit, owner = c["exposed"], c["unit"], c.get("owner")
        if not (exposed or unit or owner):
            continue  # as drawn in the blank
        for line, text in ((top + 1, (" ".join(c["marks"]) or ".") if exposed else None),
                           (top + 2, unit), (top + 3, owner)):
            if text:
                row = changed.get(line)
                if row is None:
                    row = changed[line] = list(band.blank[line])
                row[col] = str(text)[:inner].center(inner) + " "
    for line, row in changed.items():
        lines[line] = "".join(row).rstrip()
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _pieces(c: Mapping[str, Any], inner: int) -> tuple[str, str, str, str]:
    """A cell's four lines within its column (``inner`` characters and a space): its name,
    its marks (or a face-down piece's), its unit and its unit's owner (blanks if none)."""
    marks = (" ".join(c["marks"]) or ".") if c["exposed"] else FACEDOWN
    unit, owner = c["unit"], c.get("owner")
    blank = " " * (inner + 1)
    return (str(c["name"])[:inner].center(inner) + " ", marks[:inner].center(inner) + " ",
            str(unit)[:inner].center(inner) + " " if unit else blank,
            str(owner)[:inner].center(inner) + " " if owner else blank)


def _grid(cells: Sequence[Mapping[str, Any]]
          ) -> tuple[list[tuple[int, int]], int, list[list[str]]]:
    """Each cell's place (first line, column), the cell width less its space, and the band's
    lines as column pieces. Each hex column is ``inner`` characters and a space (a cell's
    text centred over the ``inner``), and a column's hexes are four lines apart, so no two
    cells of a map share a place; a line is its columns' pieces joined, blanks where no cell
    is."""
    qs = [int(c["hex"][0]) for c in cells]
    halves = [2 * int(c["hex"][1]) + int(c["hex"][0]) for c in cells]
    qmin, hmin = min(qs), min(halves)
    columns = max(qs) - qmin + 1
    width = _cell_width(columns)
    inner = width - 1
    rows = 2 * (max(halves) - hmin) + 4
    grid = [[" " * width] * columns for _ in range(rows)]
    places = [(2 * (h - hmin), q - qmin) for q, h in zip(qs, halves, strict=True)]
    for c, (top, col) in zip(cells, places, strict=True):
        for line, piece in enumerate(_pieces(c, inner), top):
            grid[line][col] = piece
    return places, inner, grid


def _band(cells: Sequence[Mapping[str, Any]]) -> list[str]:
    """A band drawn whole: every cell in order."""
    lines = ["".join(line).rstrip() for line in _grid(cells)[2]]
    while lines and not lines[-1]:
        lines.pop()
    return lines
