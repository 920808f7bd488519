"""The galaxy as an SVG hex map, written in Python (string building, no template loop): the
``map.svg`` template only frames what ``drawing`` returns.

Flat-topped hexes in axial coordinates ``(q, r)`` (galaxy.py: ``(0, -1)`` is north): a system's
centre is at ``(1.5 q, sqrt3 (r + q/2))`` hex radii. Each hex shows its id, its wormholes
(α, β), its anomaly (a fill and a word), the centre and the homes (a border in the owner's
colour); its planets, each with a disc in the owner's colour (a ring when exhausted, grey when
nobody holds it), resources/influence and the units on it; the ships in its space per owner
(``2f 1te``: counts per unit kind, by the legend's letters); the command tokens on it (a square
per owner). A legend under the map says all of that. Every text is 11 px or more at the
drawing's natural size (about 600 px wide for 19 systems, 780 for 37).

The map is public in v1, so the drawing is the same for every reader: ``drawing`` keeps the
last few by the digest of what they were made from, and every reader of one resolution gets
the same objects (pbem.render draws ``map.svg`` once for them; a CSS rule marks the reader's
own pieces: classes ``dot p-POWER`` and ``name p-POWER``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from markupsafe import Markup, escape

from pbem.game.shared import SharedParts

from .galaxy_cells import (
    ANOMALY_WORDS,
    WORMHOLE_MARKS,
    Cell,
    abbreviations,
    cells,
    colours,
    factions,
    seats,
    units_text,
    units_words,
)
from .galaxy_cells import names as power_names

SIZE = 66.0  # hex radius in pixels
MARGIN = 12.0
TOP = 34.0  # room for the title
SQRT3 = math.sqrt(3.0)
LINE = 12.0
MIN_WIDTH = 600.0
FILLS = {"asteroid-field": "#e7e5e4", "supernova": "#fed7aa", "nebula": "#ede9fe",
         "gravity-rift": "#cbd5e1", None: "#f8fafc"}
CENTRE_FILL = "#fef3c7"
GREY = "#9ca3af"
INK = "#1f2933"


def _pts(x: float, y: float) -> str:
    return " ".join(f"{x + SIZE * math.cos(math.radians(60 * i)):.1f},"
                    f"{y + SIZE * math.sin(math.radians(60 * i)):.1f}" for i in range(6))


def _text(x: float, y: float, body: str, *, size: int = 11, fill: str = INK,
          extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}"{extra}>'
            f"{body}</text>")


def _title(c: Cell, names: Mapping[str, str]) -> str:
    """The hex's tooltip: everything it shows, in words."""
    parts = [c.system + (" (the centre)" if c.centre else "")]
    if c.home_of:
        parts.append(f"home of {names.get(c.home_of, c.home_of)}")
    if c.anomaly:
        parts.append(ANOMALY_WORDS.get(c.anomaly, c.anomaly))
    parts += [f"{w} wormhole" for w in c.wormholes]
    for p in c.planets:
        who = names.get(p.owner, p.owner) if p.owner else "nobody"
        parts.append(f"{p.id} {p.resources}/{p.influence} ({who}"
                     + (", exhausted" if p.exhausted else "") + ")"
                     + "".join(f"; {names.get(s.power, s.power)}: {units_words(s)}"
                               for s in p.ground))
    parts += [f"in space, {names.get(s.power, s.power)}: {units_words(s)}" for s in c.ships]
    if c.tokens:
        parts.append("command tokens: " + ", ".join(names.get(t, t) for t in c.tokens))
    if c.locked_by:
        parts.append(f"locked by {names.get(c.locked_by, c.locked_by)}")
    return "; ".join(parts)


def _hex(c: Cell, x: float, y: float, col: Mapping[str, str], names: Mapping[str, str],
         abbr: Mapping[str, str]) -> str:
    fill = CENTRE_FILL if c.centre else FILLS.get(c.anomaly, FILLS[None])
    stroke, width, dash = "#94a3b8", "1", ""
    if c.home_of:
        stroke, width = col.get(c.home_of, INK), "3"
    if c.locked_by:
        stroke, width, dash = col.get(c.locked_by, INK), "2.5", ' stroke-dasharray="6 4"'
    out = [f'<g class="system" id="sys-{escape(c.system)}">'
           f"<title>{escape(_title(c, names))}</title>",
           f'<polygon points="{_pts(x, y)}" fill="{fill}" stroke="{stroke}" '
           f'stroke-width="{width}"{dash}/>']
    head = escape(c.system)
    if c.centre:
        head += " centre"
    elif c.home_of:
        head += " home"
    out.append(_text(x, y - SIZE * 0.62, head, size=12,
                     extra=' font-weight="bold" text-anchor="middle" class="sysid"'))
    if c.wormholes:
        marks = " ".join(WORMHOLE_MARKS.get(w, w) for w in c.wormholes)
        out.append(f'<circle cx="{x + SIZE * 0.5:.1f}" cy="{y - SIZE * 0.5:.1f}" r="9" '
                   f'fill="#f5f3ff" stroke="#7c3aed" stroke-width="1.5"/>')
        out.append(_text(x + SIZE * 0.5, y - SIZE * 0.5 + 4, escape(marks), size=12,
                         fill="#6d28d9", extra=' text-anchor="middle" class="wormhole"'))
    # each line: (its kind: "disc" or "ring" a planet, "sub" the units on the planet above,
    # "" centred; the planet's colour; the text)
    lines: list[tuple[str, str, str]] = []
    if c.anomaly:
        lines.append(("", "", f'<tspan font-style="italic" fill="#475569">'
                      f"{escape(ANOMALY_WORDS.get(c.anomaly, c.anomaly))}</tspan>"))
    for p in c.planets:
        colour = col.get(p.owner, INK) if p.owner else GREY
        disc = "ring" if p.exhausted else "disc"
        lines.append((disc, colour, f"{escape(p.id)} {p.resources}/{p.influence}"))
        for s in p.ground:  # the units on the planet, under it
            lines.append(("sub", "", f'<tspan fill="{col.get(s.power, INK)}" '
                          f'class="name p-{escape(s.power)} ground">'
                          f"{escape(units_text(s, abbr))}</tspan>"))
    for s in c.ships:
        lines.append(("", "", f'<tspan fill="{col.get(s.power, INK)}" font-weight="bold" '
                      f'class="name p-{escape(s.power)} ships">'
                      f"{escape(units_text(s, abbr))}</tspan>"))
    top, bottom = y - SIZE * 0.38, y + SIZE * 0.5
    step = min(LINE, (bottom - top) / max(1, len(lines) - 1)) if len(lines) > 1 else LINE
    for i, (kind, colour, body) in enumerate(lines):
        ly = top + i * step + 4
        tx = x - SIZE * 0.62
        if kind == "sub":
            out.append(_text(tx + 14, ly, body))
        elif kind:
            fill = "#ffffff" if kind == "ring" else colour
            out.append(f'<circle cx="{tx:.1f}" cy="{ly - 4:.1f}" r="4.5" fill="{fill}" '
                       f'stroke="{colour}" stroke-width="2" class="planet"/>')
            out.append(_text(tx + 8, ly, body))
        else:
            out.append(_text(x, ly, body, extra=' text-anchor="middle"'))
    if c.tokens:
        n = len(c.tokens)
        left = x - (n * 14 - 4) / 2
        for i, t in enumerate(c.tokens):
            out.append(f'<rect x="{left + i * 14:.1f}" y="{y + SIZE * 0.62:.1f}" width="10" '
                       f'height="10" fill="{col.get(t, INK)}" stroke="{INK}" stroke-width="0.8" '
                       f'class="dot p-{escape(t)} token"><title>command token of '
                       f"{escape(names.get(t, t))}</title></rect>")
    out.append("</g>\n")
    return "".join(out)


def _wrap(words: str, width: int) -> list[str]:
    out, line = [], ""
    for w in words.split():
        if line and len(line) + 1 + len(w) > width:
            out.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    return out + ([line] if line else [])


def _legend(view: Mapping[str, Any], col: Mapping[str, str], names: Mapping[str, str],
            abbr: Mapping[str, str], y: float, width: float) -> tuple[str, float]:
    out = []
    per_row = max(1, int((width - 20) // 250))
    seats = list(col)
    for i, p in enumerate(seats):
        lx, ly = 10 + (i % per_row) * 250, y + (i // per_row) * 18
        out.append(f'<rect x="{lx}" y="{ly:.1f}" width="12" height="12" fill="{col[p]}" '
                   f'class="dot p-{escape(p)}"/>')
        out.append(_text(lx + 17, ly + 11, escape(names.get(p, p)),
                         extra=f' class="name p-{escape(p)}"'))
    y += ((len(seats) + per_row - 1) // per_row) * 18 + 8
    chars = int((width - 20) / 6.2)
    units = ", ".join(f"{a} {u}" for u, a in sorted(abbr.items(), key=lambda kv: kv[1]))
    notes = [
        "Planet: disc in its owner's colour (a ring: exhausted; grey: nobody's), then "
        "resources/influence; under it, indented, the units on it.",
        f"Units: count and letters ({units}); (1d): damaged. Square: a command token.",
        "\u03b1 \u03b2: wormholes. Fills: pale yellow the centre, stone asteroid field, "
        "orange supernova, lilac nebula, grey gravity rift. Thick border: a home system; "
        "dashed: locked this round.",
    ]
    for note in notes:
        for line in _wrap(note, chars):
            out.append(_text(10, y + 11, escape(line), fill="#4b5563"))
            y += 15
    return "\n".join(out), y


def build(view: Mapping[str, Any]) -> dict[str, Any]:
    """The drawing (``width``, ``height``, ``body``: the SVG inside the frame) of a view's
    galaxy, made from its public parts only (``pack``, ``variant``, ``board``, ``table``)."""
    all_cells = cells(view)
    col, names, abbr = colours(view), power_names(view), abbreviations(view["pack"])
    xs = [SIZE * 1.5 * c.at[0] for c in all_cells]
    ys = [SIZE * SQRT3 * (c.at[1] + c.at[0] / 2) for c in all_cells]
    span = max(xs) - min(xs) + 2 * SIZE
    width = max(span + 2 * MARGIN, MIN_WIDTH)
    dx = (width - span) / 2 + SIZE - min(xs)
    dy = TOP + SIZE * SQRT3 / 2 + 4 - min(ys)
    hexes = [_hex(c, x + dx, y + dy, col, names, abbr)
             for c, x, y in zip(all_cells, xs, ys, strict=True)]
    map_bottom = max(ys) + dy + SIZE * SQRT3 / 2 + 14
    legend, end = _legend(view, col, names, abbr, map_bottom, width)
    body = Markup('<g class="galaxy" font-family="Helvetica, Arial, sans-serif">\n'  # noqa: S704
                  + "".join(hexes) + "</g>\n" + legend + "\n")
    return {"width": round(width, 1), "height": round(end + 10, 1), "body": body,
            "systems": len(all_cells)}


#: Recent drawings (pbem.game.shared): one resolution's readers (and the game master) share
#: one, so the map is drawn once per resolution.
_DRAWN: SharedParts[dict[str, Any]] = SharedParts()


def public_parts(view: Mapping[str, Any]) -> tuple[Any, ...]:
    """What the drawing reads of a view: all of it public."""
    table = view.get("table") or {}
    return (view["variant"], view["pack"], view.get("board"), seats(view), factions(view),
            table.get("locked") or {})


def drawing(view: Mapping[str, Any]) -> dict[str, Any]:
    """``build``'s drawing, the same object for every view with equal public parts."""
    return _DRAWN.get(public_parts(view), lambda: build(view))


def document(drawing_: Mapping[str, Any], title: str, css: str = "") -> str:
    """The whole SVG document, as the ``map.svg`` template frames it (the archive's map)."""
    w, h = drawing_["width"], drawing_["height"]
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" class="map natural" width="{w}" '
            f'height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{escape(title)}" '
            'font-family="Helvetica, Arial, sans-serif">\n'
            f"<title>{escape(title)}</title>\n<style>{css}</style>\n"
            f'<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>\n'
            f'<text x="10" y="22" font-size="15" font-weight="bold" fill="{INK}">'
            f"{escape(title)}</text>\n{drawing_['body']}</svg>\n")
