"""The star map as SVG: the pieces the ``map.svg`` template puts together, written here.

The drawing is the star field (12 areas in 4 rows of 3, each an upper sector over a lower one,
with its stars), the reach over it (a badge per warp in each sector it can come out in next
turn), the powers' legend, and under it the reach's legend and the distances from the reader's
stars. The star field is the same for every reader of one resolution (the reader's own stars
are marked by a CSS rule the engine adds), so it is written once per star field (``field``:
by the identity of ``starmap.neutral_grid``'s cells, which stay the same object while the stars
and colours are equal); the rest is the reader's and written per drawing. A template loop drew
the same elements at several times the cost (issue 30: the map was a sixth of a game-turn).

Every text is escaped as Jinja's autoescape does (``markupsafe.escape``), so the pieces are
the bytes the template wrote when it drew them itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

W, H = 190, 140  # an area's width and height (two sectors of H / 2)
HALF = H // 2
TOP = 34  # room for the title
WIDTH = 3 * W + 20
ROWS_SHOWN = 4  # the board's rows of areas
LEGEND_Y = TOP + ROWS_SHOWN * H + 20
BADGES = 4  # reach badges drawn per sector; more are counted ("+2")

Grid = Sequence[Sequence[Mapping[str, Any]]]


def size(reach: Mapping[str, Any] | None) -> tuple[int, int]:
    """The drawing's width and height: the areas, the powers' legend (56), and with a reach its
    legend (44) and the distance table (one row per sector of the reader's stars)."""
    extra = 0
    if reach:
        extra = 84 + 16 * max(len(reach["distances"]), 1) if reach["for_power"] else 44
    return WIDTH, TOP + ROWS_SHOWN * H + 56 + extra


_LAST_FIELD: list[Any] = [None, None]  # the grid drawn last, its SVG


def field(grid: Grid) -> Markup:
    """The areas with their stars (no reach): one ``<g>`` per area, row by row. Drawn once per
    grid object (``starmap.neutral_grid`` hands every reader of a star field the same one,
    never changed once made)."""
    if _LAST_FIELD[0] is not grid:
        out: list[str] = []
        for ri, row in enumerate(grid):
            for ai, area in enumerate(row):
                out.append(_area(10 + ai * W, TOP + ri * H, area))
        _LAST_FIELD[:] = [grid, Markup("".join(out))]  # noqa: S704 - escaped piece by piece
    return _LAST_FIELD[1]  # type: ignore[no-any-return]


def _area(x: int, y: int, area: Mapping[str, Any]) -> str:
    out = [f'<g>\n<rect x="{x}" y="{y}" width="{W}" height="{HALF}" fill="#fffbea" '
           f'stroke="#d1d5db"/>\n<rect x="{x}" y="{y + HALF}" width="{W}" height="{HALF}" '
           f'fill="#fff1f0" stroke="#d1d5db"/>\n<text x="{x + 4}" y="{y + 13}" font-size="12" '
           f'font-weight="bold" fill="#6b7280">{escape(area["area"])}</text>\n']
    for i, s in enumerate(area["stars"]):
        sx = x + 22 + (i % 2) * (W // 2 - 6)
        sy = y + (i // 2) * HALF + 28
        shown = s["shown"]
        strong = escape(s["strong"])
        power = f" p-{escape(shown)}" if shown else ""
        if s["home"]:
            out.append(f'<circle cx="{sx}" cy="{sy}" r="12" fill="none" '
                       f'stroke="{strong if shown else "#6b7280"}" stroke-width="1.5"/>')
        what = str(escape(s["symbols"]))  # (a str: Markup + str would escape the str)
        if shown:
            who = s["abbr"] if s["holder"] else s["abbr"].lower()
            what += f" {escape(who)} {escape(s['ships'])}{'&amp;' if s['others'] else ''}"
        out.append(f'<circle cx="{sx}" cy="{sy}" r="8" fill="{strong if shown else "#ffffff"}" '
                   f'stroke="#374151" stroke-width="0.8" class="dot{power}"/>\n'
                   f'<text x="{sx + 15}" y="{sy - 2}" font-size="12" fill="#1f2933" '
                   f'class="name{power}">{escape(s["name"])}{"*" if s["home"] else ""}</text>\n'
                   f'<text x="{sx + 15}" y="{sy + 12}" font-size="11" fill="#4b5563">{what}'
                   '</text>\n')
    out.append("</g>\n")
    return "".join(out)


_LAST_SPOTS: list[Any] = [None, None]  # the grid read last, its badge rows (``_spots``)


def _spots(grid: Grid) -> list[tuple[str, int, int]]:
    """Where each sector's badges go, in drawing order (row by row, area by area, upper level
    first): the sector, its area's x, the badges' y (under the level's first star). Once per
    grid object (``field``'s reason: the same object for every reader of a star field)."""
    if _LAST_SPOTS[0] is not grid:
        spots = []
        for ri, row in enumerate(grid):
            for ai, area in enumerate(row):
                x, y = 10 + ai * W, TOP + ri * H
                for li, s in enumerate(area["stars"][::2]):
                    spots.append((s["sector"], x, y + li * HALF + 48))
        _LAST_SPOTS[:] = [grid, spots]
    return _LAST_SPOTS[1]  # type: ignore[no-any-return]


def reach_badges(grid: Grid, reach: Mapping[str, Any]) -> Markup:
    """The reader's reach over the areas, in one group: each sector's badges under its first
    and third star (one per level), at most ``BADGES`` and a count of the rest."""
    tags_of = reach["sector_tags"]
    out = ['<g class="reach">\n']
    for sector, x, by in _spots(grid) if tags_of else ():
        tags = tags_of.get(sector)
        if not tags:
            continue
        for ti, t in enumerate(tags[:BADGES]):
            bx = x + 4 + ti * 46
            fill = "#fecaca" if t["yours"] else escape(t["light"])
            dashed = "" if t["mine"] else ' stroke-dasharray="3 2"'
            bold = ' font-weight="bold"' if t["mine"] or t["yours"] else ""
            out.append(f'<g><rect x="{bx}" y="{by}" width="43" height="16" rx="3" '
                       f'fill="{fill}" stroke="{escape(t["strong"])}" '
                       f'stroke-width="1.5"{dashed}/>\n<text x="{bx + 4}" '
                       f'y="{by + 12}" font-size="11" fill="#1f2933"{bold}>'
                       f'{escape(t["tag"])}{"!" if t["yours"] else ""}</text></g>\n')
        if len(tags) > BADGES:
            out.append(f'<text x="{x + W - 22}" y="{by + 12}" font-size="11" '
                       f'fill="#1f2933">+{len(tags) - BADGES}</text>')
    out.append("</g>\n")
    return Markup("".join(out))  # noqa: S704 - escaped piece by piece


_LAST_LEGEND: list[Any] = [None, None]  # the legend drawn last, its SVG


def legend(rows: Sequence[Mapping[str, Any]]) -> Markup:
    """The powers' legend and the caption under the star field (the same for every reader:
    drawn again only for a legend of other values)."""
    if _LAST_LEGEND[0] != rows:
        out = []
        for i, row in enumerate(rows):
            out.append(f'<rect x="{10 + i * 120}" y="{LEGEND_Y}" width="12" height="12" '
                       f'fill="{escape(row["strong"])}"/>\n<text x="{26 + i * 120}" '
                       f'y="{LEGEND_Y + 11}" font-size="12" fill="#1f2933">'
                       f'{escape(row["abbr"])} {escape(row["name"])}</text>\n')
        out.append(f'<text x="10" y="{LEGEND_Y + 32}" font-size="11" fill="#6b7280">Upper level '
                   "(yellow) above, lower level (red) below in each area; ring: home star; "
                   "○ circle, + cross</text>\n")
        _LAST_LEGEND[:] = [[dict(r) for r in rows], Markup("".join(out))]  # noqa: S704
    return _LAST_LEGEND[1]  # type: ignore[no-any-return]


def reach_legend(reach: Mapping[str, Any]) -> Markup:
    """What a badge means, and for a reader the distances from his stars."""
    ry = LEGEND_Y + 44
    out = [f'<g class="reach-legend">\n<rect x="10" y="{ry}" width="43" height="16" rx="3" '
           f'fill="#ffffff" stroke="#374151" stroke-width="1.5"/>\n<text x="14" y="{ry + 12}" '
           'font-size="11" font-weight="bold" fill="#1f2933">ABC 1</text>\n'
           f'<text x="60" y="{ry + 12}" font-size="11" fill="#1f2933">in a sector: warp 1 of '
           "ABC can come out there next turn. Solid, bold: yours;</text>\n"
           f'<text x="60" y="{ry + 26}" font-size="11" fill="#1f2933">dashed: another '
           "power's; red with !: it reaches a sector with a star of yours.</text>\n</g>\n"]
    if reach["for_power"]:
        out.append(_distances(reach["distances"], ry + 50))
    return Markup("".join(out))  # noqa: S704 - escaped piece by piece


def _distances(rows: Sequence[Mapping[str, Any]], ty: int) -> str:
    out = ['<g class="distances">\n'
           f'<text x="10" y="{ty}" font-size="12" font-weight="bold" fill="#1f2933">Distances '
           "from your stars (▲ upper, ▼ lower level; same sector: 1 turn)</text>\n"]
    for x, head in ((10, "your stars"), (200, "sector"), (250, "2 turns"), (370, "3 turns")):
        out.append(f'<text x="{x}" y="{ty + 16}" font-size="11" font-weight="bold" '
                   f'fill="#6b7280">{head}</text>\n')
    for i, r in enumerate(rows):
        yy = ty + 32 + i * 16
        out.append(f'<text x="10" y="{yy}" font-size="11" fill="#1f2933">'
                   f'{escape(r["stars_text"])}</text>\n<text x="200" y="{yy}" font-size="11" '
                   f'fill="#1f2933">{escape(r["short"])}</text>\n')
        for j, t in enumerate(r["turns"]):
            out.append(f'<text x="{250 + j * 120}" y="{yy}" font-size="11" fill="#1f2933">'
                       f'{escape(t["text"])}</text>')
    if not rows:
        out.append(f'<text x="10" y="{ty + 32}" font-size="11" fill="#1f2933">You hold no '
                   "star.</text>\n")
    out.append("</g>\n")
    return "".join(out)
