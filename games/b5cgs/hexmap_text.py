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

from collections.abc import Mapping, Sequence
from typing import Any

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
    qs = sorted({int(c["hex"][0]) for c in cells})
    if len(qs) * 6 <= WIDTH - 2:
        return _band(cells)
    mid = qs[len(qs) // 2]
    west = [c for c in cells if int(c["hex"][0]) <= mid]
    east = [c for c in cells if int(c["hex"][0]) >= mid]
    return [f"  west (columns q <= {mid}):", *_band(west), "",
            f"  east (columns q >= {mid}):", *_band(east)]


def _band(cells: Sequence[Mapping[str, Any]]) -> list[str]:
    places = [(int(c["hex"][0]), 2 * int(c["hex"][1]) + int(c["hex"][0])) for c in cells]
    qmin = min(q for q, _ in places)
    hmin = min(h for _, h in places)
    columns = max(q for q, _ in places) - qmin + 1
    width = _cell_width(columns)
    inner = width - 1
    rows = 2 * (max(h for _, h in places) - hmin) + 4
    # Column by column: each hex column is ``width`` characters (its text centred over the
    # first ``inner``, a space after: a blank when there is no text), and a column's hexes
    # are four lines apart, so no two cells share a place; a line is its columns' pieces
    # joined, blanks where no cell is.
    blank = " " * width
    grid = [[blank] * columns for _ in range(rows)]
    for c, (q, h) in zip(cells, places, strict=True):
        top, col = 2 * (h - hmin), q - qmin
        marks = (" ".join(c["marks"]) or ".") if c["exposed"] else FACEDOWN
        grid[top][col] = str(c["name"])[:inner].center(inner) + " "
        grid[top + 1][col] = marks[:inner].center(inner) + " "
        unit, owner = c["unit"], c.get("owner")
        if unit:
            grid[top + 2][col] = str(unit)[:inner].center(inner) + " "
        if owner:
            grid[top + 3][col] = str(owner)[:inner].center(inner) + " "
    lines = ["".join(line).rstrip() for line in grid]
    while lines and not lines[-1]:
        lines.pop()
    return lines
