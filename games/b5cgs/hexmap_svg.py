"""The hex map as SVG: the geometry the ``map.svg`` template draws.

Flat-topped hexes in axial coordinates ``(q, r)`` (games/b5cgs/hexes.py: direction 1 is north,
then clockwise): a hex's centre is at ``(1.5 q, sqrt3 (r + q/2))`` hex radii. This module turns
the cells of ``mapmodel`` into numbers (hex paths, piece borders, unit discs, facing pointers)
and the template only draws them, so the drawing is checked here, in Python, and the template
stays free of arithmetic. The hexes themselves (most of the map) are written here as SVG
(``_hexes_svg``): a template loop cost three times as much. They are small by design, since
the map goes twice into every mail (inline and attached), and draw what the polygons drew
before them pixel for pixel (headless Chromium, 60 played maps): each hex a short path of the
same six corners (``hex_path``), painted in the same order, its fill and class set once per
run of hexes of one kind, the names grouped by fill, numbers without a needless ``.0`` (110
bytes a hex where the polygons took 195). Their numbers depend on the layout alone (the places
of the hexes and their pieces: every step of a game, and every game on a map of that shape),
so they are computed and written once per layout (``_layout``).
Face-down pieces are grey hexes with their names only: a cell carries nothing else about them
(mapmodel decides that from the view).

What happened in the step is drawn over the map (``step_lines``): a solid arrow for each unit
that moved, a dotted one for a jump, a thin dashed line from each firing unit to its target.
Every text is at least 11 px at the drawing's natural size, and sits inside its hex (names
above the unit, marks below it); reports show the drawing at that size in a box that scrolls
sideways on a narrow screen.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup, escape

SIZE = 34.0  # hex radius in pixels (texts of 11 px fit inside a hex)
MARGIN = 14.0
TOP = 34.0  # room for the title
SQRT3 = math.sqrt(3.0)
DIRS = {1: (0, -1), 2: (1, -1), 3: (1, 0), 4: (0, 1), 5: (-1, 1), 6: (-1, 0)}


def centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * 1.5 * q, SIZE * SQRT3 * (r + q / 2)


def corner(x: float, y: float, i: int, scale: float = 1.0) -> tuple[float, float]:
    """Corner ``i`` (0 east, then clockwise in screen coordinates, 60 degrees apart)."""
    a = math.radians(60 * i)
    return x + SIZE * scale * math.cos(a), y + SIZE * scale * math.sin(a)


#: Each corner's offset from a hex's centre: ``corner`` at scale 1, computed once.
_OFFSETS = tuple((SIZE * math.cos(math.radians(60 * i)), SIZE * math.sin(math.radians(60 * i)))
                 for i in range(6))


@functools.lru_cache(maxsize=1024)
def _hex_shape(x: float, y: float) -> tuple[str, tuple[tuple[float, float], ...]]:
    """The hex centred at ``(x, y)``: its polygon's points and its six corners (``corner``'s,
    the same floats), computed once per place: every drawing of a board has the same hexes."""
    corners = tuple((x + ox, y + oy) for ox, oy in _OFFSETS)
    return _pts(corners), corners


def side(direction: int) -> tuple[int, int]:
    """The two corners bounding the side facing ``direction`` (1 north: corners 4 and 5)."""
    first = (4 + direction - 1) % 6
    return first, (first + 1) % 6


def pointer(x: float, y: float, direction: int, length: float) -> tuple[float, float]:
    """The point ``length`` radii from the centre towards side ``direction``."""
    a = math.radians(270 + 60 * (direction - 1))
    return x + SIZE * length * math.cos(a), y + SIZE * length * math.sin(a)


def _pts(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def step_lines(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]
               ) -> list[dict[str, str]]:
    """What the step's visible events did on the map, as lines between hex names: each unit
    that moved or jumped (from where it started the step to where the view has it now) and
    each volley (every firing unit to its target). Hexes the view does not place are left
    out."""
    tokens = view.get("tokens") or {}

    def at(tid: Any) -> str | None:
        hex_ = (tokens.get(str(tid)) or {}).get("hex")
        return str(hex_) if hex_ is not None else None

    moves: dict[str, dict[str, str]] = {}
    fire: list[dict[str, str]] = []
    for e in events:
        kind = e.get("type")
        if kind in ("moved", "jumped") and isinstance(e.get("from"), str):
            tid = str(e.get("token"))
            first = moves.get(tid)
            moves[tid] = {"from": first["from"] if first else str(e["from"]),
                          "kind": "jump" if kind == "jumped" or (first and first["kind"]
                                                                 == "jump") else "move",
                          "power": str(e.get("power", "")), "token": tid}
        elif kind == "volley":
            target = at(e.get("target"))
            for shooter in e.get("with") or []:
                source = at(shooter)
                if source and target and source != target:
                    fire.append({"from": source, "to": target, "kind": "fire",
                                 "power": str(e.get("power", "")), "token": str(shooter)})
    out = []
    for tid, m in moves.items():
        end = at(tid)
        if end and end != m["from"]:
            out.append({**m, "to": end})
    return out + fire


def border_path(borders: Sequence[Mapping[str, float]]) -> str:
    """The map-piece edges as the ``d`` of one SVG path: a move and a line per edge (the line
    implicit after the move, numbers without a needless ``.0``), each edge once (an edge
    between two pieces is in ``borders`` from the hexes on both sides). Eight edges a line,
    so that no line of the HTML passes the 998 bytes a mail line may hold and the part goes
    out unencoded (pbem.mail.compose)."""
    seen: set[tuple[tuple[float, float], ...]] = set()
    out = []
    for b in borders:
        ends = ((b["x1"], b["y1"]), (b["x2"], b["y2"]))
        edge = tuple(sorted(ends))
        if edge not in seen:
            seen.add(edge)
            out.append(f"M{_num(b['x1'])} {_num(b['y1'])} {_num(b['x2'])} {_num(b['y2'])}")
    return "\n".join("".join(out[i:i + 8]) for i in range(0, len(out), 8))


@functools.lru_cache(maxsize=64)
def _borders(pieces: tuple[tuple[int, int, Any], ...], dx: float, dy: float
             ) -> tuple[tuple[dict[str, float], ...], str]:
    """The map-piece edges of hexes ``(q, r, piece)`` shifted by ``(dx, dy)``, and their
    ``border_path``: drawn once per layout of the pieces (the same every step until a piece
    is placed). The dicts are never changed."""
    piece = {(q, r): name for q, r, name in pieces}
    borders = []
    for q, r, name in pieces:
        x, y = centre(q, r)
        corners = _hex_shape(x + dx, y + dy)[1]
        for d, (sq, sr) in DIRS.items():
            other = piece.get((q + sq, r + sr), _NONE)
            if other is _NONE or other != name:
                a, b = side(d)
                (x1, y1), (x2, y2) = corners[a], corners[b]
                borders.append({"x1": round(x1, 1), "y1": round(y1, 1), "x2": round(x2, 1),
                                "y2": round(y2, 1)})
    return tuple(borders), border_path(borders)


_NONE = object()


#: A hex's fill and class by what it is: (fill, class) of (b5, exposed).
_KINDS = {(True, True): ("#fde68a", "hex"), (True, False): ("#fde68a", "hex facedown"),
          (False, True): ("#f8fafc", "hex"), (False, False): ("#9ca3af", "hex facedown")}
#: The hex names' fill, exposed or face down.
_NAME_FILL = {True: "#4b5563", False: "#f9fafb"}


def _num(v: float) -> str:
    """``v`` to one decimal, as the map writes numbers: without a needless ``.0``."""
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def number(v: float) -> float | int:
    """``v`` rounded to one decimal, an int when whole (printed without a needless ``.0``)."""
    r = round(v, 1)
    return int(r) if r.is_integer() else r


def hex_path(x: float, y: float) -> str:
    """The hex centred at ``(x, y)`` as the ``d`` of an SVG path: its six corners (``corner``'s,
    to one decimal, as the polygon it replaced had them), the first a move, the rest lines
    (implicit after the move, ``H`` along the flat top and bottom), closed. The same shape as
    ``<polygon points=...>`` at less than half the bytes."""
    c = [(_num(cx), _num(cy)) for cx, cy in _hex_shape(x, y)[1]]
    (x0, y0), (x1, y1), (x2, y2), (x3, y3), (x4, y4), (x5, y5) = c
    out = [f"M{x0} {y0} {x1} {y1}", f"H{x2}" if y2 == y1 else f"L{x2} {y2}",
           f"L{x3} {y3} {x4} {y4}", f"H{x5}" if y5 == y4 else f" {x5} {y5}", "z"]
    return "".join(out)


@dataclass(frozen=True)
class _Spot:
    """One hex of a layout, placed: its centre, its path, where its name and marks go, the
    heads of its SVG elements (the numbers written), and the hex as drawn (``_drawn``) for
    each content it was drawn with."""

    x: float
    y: float
    d: str
    name_x: float
    name_y: float
    marks_y: float
    path: str
    name: str
    marks: str
    drawn: dict[tuple[Any, bool, str], _Drawn] = field(default_factory=dict)


@dataclass(frozen=True)
class _Drawn:
    """A hex as drawn: its entry in the drawing's ``hexes`` (never changed: every drawing of
    that hex with that content shares it), its kind (the fill and class of its run), its path
    and its name and marks as SVG."""

    entry: dict[str, Any]
    kind: tuple[str, str]
    exposed: bool
    path: str
    name: str
    marks: str


@dataclass(frozen=True)
class _Layout:
    """The geometry of a board, the same for every drawing of hexes at these places with
    these pieces (every step of a game, and every game on a map of the same shape): the
    shift that puts the map in the picture, its size, each hex placed (in (q, r) order) and
    the map-piece edges."""

    dx: float
    dy: float
    width: float
    height: float
    spots: tuple[_Spot, ...]
    borders: tuple[dict[str, float], ...]
    path: str


@functools.lru_cache(maxsize=64)
def _layout(hexes: tuple[tuple[int, int], ...], pieces: tuple[Any, ...]) -> _Layout:
    """The layout of hexes ``(q, r)`` in (q, r) order, each in its piece."""
    places = tuple((q, r, piece) for (q, r), piece in zip(hexes, pieces, strict=True))
    xs = [centre(q, r)[0] for q, r, _ in places]
    ys = [centre(q, r)[1] for q, r, _ in places]
    dx = MARGIN + SIZE - min(xs)
    dy = TOP + SIZE - min(ys)
    spots = []
    for q, r, _ in places:
        x, y = centre(q, r)
        x, y = x + dx, y + dy
        d = hex_path(x, y)
        name_x, name_y = number(x), number(y - SIZE * 0.55)
        marks_y = number(y + SIZE * 0.78)
        spots.append(_Spot(x, y, d, name_x, name_y, marks_y, f'<path d="{escape(d)}"/>\n',
                           f'<text x="{name_x}" y="{name_y}">',
                           f'<text x="{name_x}" y="{marks_y}">'))
    borders, path = _borders(places, dx, dy)
    return _Layout(dx, dy, max(xs) - min(xs) + 2 * (MARGIN + SIZE),
                   TOP + max(ys) - min(ys) + 2 * SIZE + MARGIN, tuple(spots), borders, path)


def _drawn(spot: _Spot, key: tuple[Any, bool, str]) -> _Drawn:
    """The hex at ``spot`` with this content (``key``: its name, whether it is exposed, its
    marks joined), drawn and kept per content at its spot (the face-down hexes, most of a
    map, are the same every step of every game on a map of this shape; an exposed one stays
    the same from step to step): ``drawing`` looks it up there first."""
    name, exposed, joined = str(key[0]), key[1], key[2]
    shown = joined.split(" ")
    b5, gate = "B5" in shown, "G" in shown and exposed
    marks = joined if exposed else ""
    if len(spot.drawn) >= 64:
        spot.drawn.clear()
    made = _Drawn({"d": spot.d, "exposed": exposed, "name": name,
                   "name_x": spot.name_x, "name_y": spot.name_y, "marks": marks,
                   "marks_x": spot.name_x, "marks_y": spot.marks_y, "gate": gate, "b5": b5},
                  _KINDS[b5, exposed], exposed, spot.path,
                  f"{spot.name}{escape(name)}</text>\n",
                  f"{spot.marks}{escape(marks)}</text>\n" if marks else "")
    spot.drawn[key] = made
    return made


def _hexes_svg(drawn: Sequence[_Drawn]) -> Markup:
    """The hexes and their names and marks as SVG, for ``map.svg``: the one part of the
    drawing written here rather than in the template, because it is most of the map.

    Each hex is a short path (``hex_path``) in the order the hexes are painted ((q, r): a hex
    painted later covers half of its neighbour's edge, so the order is kept and the picture
    is the one the polygons drew), its fill and class set once per run of hexes of one kind
    (a ``<g>``), the stroke once for all. Names are grouped by their fill (exposed, face
    down) and the marks by theirs: texts never overlap, so their order draws nothing
    different. Every element is a line of its own (a mail line holds 998 bytes at most)."""
    out = ['<g class="hexes" stroke="#cbd5e1" stroke-width="0.8">\n']
    kind: tuple[str, str] | None = None
    names: dict[bool, list[str]] = {False: [], True: []}
    marks = []
    for d in drawn:
        if d.kind != kind:
            if kind is not None:
                out.append("</g>\n")
            kind = d.kind
            out.append(f'<g fill="{kind[0]}" class="{kind[1]}">\n')
        out.append(d.path)
        names[d.exposed].append(d.name)
        if d.marks:
            marks.append(d.marks)
    if kind is not None:
        out.append("</g>\n")
    out.append('</g>\n<g class="hex-names" font-size="11" text-anchor="middle">\n')
    for exposed in (False, True):
        if names[exposed]:
            out += [f'<g fill="{_NAME_FILL[exposed]}">\n', *names[exposed], "</g>\n"]
    if marks:
        out += ['<g font-weight="bold" fill="#1e40af" class="marks">\n', *marks, "</g>\n"]
    out.append("</g>\n")
    return Markup("".join(out))  # noqa: S704 - every value escaped (_drawn)


def drawing(cells: Sequence[Mapping[str, Any]], colours: Mapping[str, Mapping[str, str]],
            lines: Sequence[Mapping[str, str]] = ()) -> dict[str, Any]:
    """The ``map.svg`` context: ``width``, ``height``, ``hexes``, ``hexes_svg`` (the hexes
    written), ``borders`` (map-piece edges; ``border_path`` draws them as one SVG path),
    ``units``, ``lines`` (``step_lines`` placed) and ``legend``. ``colours``: power ->
    {strong, light, letter, name}. Numbers are rounded to one decimal, ints when whole (the
    SVG writes no needless ``.0``)."""
    if not cells:
        return {"width": 200, "height": 80, "hexes": [], "hexes_svg": _hexes_svg([]),
                "borders": [], "border_path": "",
                "units": [],
                "lines": [], "legend": [], "map_top": number(TOP), "map_bottom": 40}
    places, ordered = _ordered(cells)
    layout = _layout(places, tuple(map(_PIECE, ordered)))
    dx, dy = layout.dx, layout.dy
    drawn, units = [], []
    for c, spot in zip(ordered, layout.spots, strict=True):
        key = (c["name"], bool(c["exposed"]), " ".join(c["marks"]))
        made = spot.drawn.get(key)
        drawn.append(made if made is not None else _drawn(spot, key))
        unit = c.get("token")
        if unit:
            x, y = spot.x, spot.y
            col = colours.get(str(unit["power"]), {"strong": "#374151", "light": "#e5e7eb"})
            facing = unit.get("facing")
            tip = pointer(x, y, int(facing), 0.8) if facing else None
            units.append({
                "x": number(x), "y": number(y), "power": str(unit["power"]),
                "label": str(unit["label"]), "base": unit["kind"] == "base",
                "crippled": bool(unit["crippled"]), "strong": col["strong"],
                "light": col["light"], "r": number(SIZE * 0.5),
                "tip_x": number(tip[0]) if tip else None,
                "tip_y": number(tip[1]) if tip else None,
            })
    placed = []
    where = ({str(c["name"]): centre(int(c["hex"][0]), int(c["hex"][1])) for c in cells}
             if lines else {})
    for line in lines:
        if line["from"] not in where or line["to"] not in where:
            continue
        (ax, ay), (bx, by) = where[line["from"]], where[line["to"]]
        x1, y1, x2, y2 = ax + dx, ay + dy, bx + dx, by + dy
        dist = max(1.0, math.hypot(x2 - x1, y2 - y1))
        stop = SIZE * 0.55  # end at the unit's edge, not on its label
        col = colours.get(line["power"], {"strong": "#374151"})
        placed.append({"x1": number(x1), "y1": number(y1),
                       "x2": number(x2 - (x2 - x1) * stop / dist),
                       "y2": number(y2 - (y2 - y1) * stop / dist),
                       "kind": line["kind"], "strong": col["strong"],
                       "title": f"{line['token']} of {col.get('name', line['power'])}: "
                                + {"move": "moved", "jump": "jumped",
                                   "fire": "fired"}[line["kind"]]
                                + f" from {line['from']} to {line['to']}"})
    width, height = layout.width, layout.height
    legend = [{"power": p, **dict(c)} for p, c in colours.items()]
    return {"width": number(max(width, 170.0 * max(1, len(legend)) + 20, 420.0)),
            "height": number(height + 100), "map_bottom": number(height + 8),
            "hexes": [d.entry for d in drawn], "hexes_svg": _hexes_svg(drawn),
            "borders": list(layout.borders), "border_path": layout.path,
            "units": units, "lines": placed,
            "legend": legend, "map_top": number(TOP)}


_HEX, _PIECE = operator.itemgetter("hex"), operator.itemgetter("piece")


def _ordered(cells: Sequence[Mapping[str, Any]]
             ) -> tuple[tuple[tuple[int, int], ...], Sequence[Mapping[str, Any]]]:
    """The places ``(q, r)`` and the cells by place, one cell a place (the last given).
    mapmodel's cells are so already, their places tuples of ints: they are taken as they
    are."""
    places = tuple(map(_HEX, cells))
    if type(places[0]) is tuple and all(map(operator.lt, places, places[1:])):
        return places, cells
    raw = sorted({(int(c["hex"][0]), int(c["hex"][1])): c for c in cells}.items())
    return tuple(place for place, _ in raw), [c for _, c in raw]
