"""4000 A.D.'s hooks for the game archive (pbem.archive.hooks): numbers, colours, event
sentences and the star map of a step, all from the public view and the public events.

The map reuses the presenter's star-field data (area grid, star cells, power colours): the 12
areas in 4 rows of 3, each an upper (yellow) sector over a lower (red) one with two stars each.
A star shows its holder's colour and a three-letter label with its ships; a fleet in hyperspace
is a dashed marker by the star it left, and a dashed ring in its colour around every star it
could come out at on the next turn (the view's ``could_arrive_next``); a fleet that arrived this
step is an arrow from the star it left (from the view before) to the star it reached.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from .presenter import (
    COLOURS,
    NEUTRAL,
    Voice,
    abbr,
    area_grid,
    colours,
    sentence,
    star_cell,
    stars_in,
)

View = Mapping[str, Any]
Event = Mapping[str, Any]

AREA_W, AREA_H = 220, 150
PAD = 10
LEGEND = ("* home star · ○ circle, + cross: resources · arrow: a fleet that came out this turn, "
          "from the star it left · dashed ring: a star a fleet in hyperspace could reach next")
ARRIVING = ("arrival", "battle", "tie", "diverted", "held_in_hyperspace")


def archive_summary(view: View, events: Sequence[Event]) -> dict[str, dict[str, int]]:
    built: dict[str, int] = {}
    for e in events:
        if e.get("type") == "production":
            built[str(e["power"])] = built.get(str(e["power"]), 0) + int(e["ships"])
    return {p: {"ships": int(info["ships"]), "stars": len(info["stars_held"]),
                "ships built": built.get(p, 0), "fleets in hyperspace": int(
                    info["warps_in_flight"])}
            for p, info in view["powers"].items()}


def archive_colours(view: View) -> dict[str, str]:
    return {p: COLOURS.get(info["colour"], NEUTRAL)[0] for p, info in view["powers"].items()}


def archive_event(event: Event, view: View | None) -> str:
    version = str(view["version"]) if view is not None else "independents"
    return sentence(event, Voice(()), version)


def _positions(view: View) -> dict[str, tuple[float, float]]:
    at: dict[str, tuple[float, float]] = {}
    for r, row in enumerate(area_grid(view)):
        for c, area in enumerate(row):
            names = [n for n, _ in stars_in(view, area)]
            for i, name in enumerate(names):
                x = PAD + c * AREA_W + (60 if i % 2 == 0 else 160)
                y = PAD + r * AREA_H + (42 if i < 2 else 112)
                at[name] = (x, y)
    return at


def archive_map(before: View | None, view: View, events: Sequence[Event]) -> str:
    grid = area_grid(view)
    width = PAD * 2 + AREA_W * max(len(row) for row in grid)
    height = PAD * 2 + AREA_H * len(grid) + 22
    at = _positions(view)
    held = sum(1 for s in view["stars"].values() if s["holder"])
    label = (f"Star map after turn {view['turn']}: {len(view['stars'])} stars, {held} held; "
             f"{sum(1 for ws in view['warps'].values() for w in ws.values() if w)} fleets in "
             "hyperspace")
    out = [f'<svg class="map" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="{escape(label)}"><title>{escape(label)}</title>',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" '
           'fill="#1b1f24"/></marker></defs>']
    for r, row in enumerate(grid):
        for c, area in enumerate(row):
            ax, ay = PAD + c * AREA_W, PAD + r * AREA_H
            out.append(f'<rect x="{ax}" y="{ay}" width="{AREA_W}" height="{AREA_H / 2}" '
                       'fill="#fffbea" stroke="#d0d7de"/>')
            out.append(f'<rect x="{ax}" y="{ay + AREA_H / 2}" width="{AREA_W}" '
                       f'height="{AREA_H / 2}" fill="#fff1f0" stroke="#d0d7de"/>')
            out.append(f'<text x="{ax + 6}" y="{ay + 14}" font-weight="700">{escape(area)}</text>')
    # fleets that arrived this step: from the star they left (the view before) to the star
    for e in events:
        if e.get("type") not in ARRIVING or before is None:
            continue
        for fleet in e.get("fleets", []):
            warp = (before["warps"].get(fleet["power"]) or {}).get(str(fleet["warp"]))
            if not warp or warp["from"] not in at or e["star"] not in at:
                continue
            (x1, y1), (x2, y2) = at[warp["from"]], at[e["star"]]
            d = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
            x2, y2 = x2 - (x2 - x1) * 18 / d, y2 - (y2 - y1) * 18 / d  # stop at the star's edge
            strong = colours(view, fleet["power"])[0]
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2:.1f}" y2="{y2:.1f}" '
                       f'stroke="{strong}" stroke-width="3" marker-end="url(#arrow)" '
                       'opacity="0.85">'
                       f'<title>{escape(fleet["power"])} warp {fleet["warp"]}: '
                       f'{escape(warp["from"])} to {escape(e["star"])}</title></line>')
    # fleets in hyperspace: a marker by the star each left, and a dashed ring in its colour
    # around every star it could come out at next turn (one ring per fleet, widening)
    rings: dict[str, int] = {}
    for owner, slots in view["warps"].items():
        strong = colours(view, owner)[0]
        for key, w in slots.items():
            if not w or w["from"] not in at:
                continue
            x0, y0 = at[w["from"]]
            fx, fy = x0 + (20 if int(key) % 2 else -20), y0 - 27
            reach = [s for s in w["could_arrive_next"] if s in at]
            text = (f"{owner} warp {key}: {w['ships_total']} ships from {w['from']}, "
                    f"{w['travelled']} of at most {w['furthest']} turns out; could come out "
                    f"next turn at {', '.join(reach) or 'no star (lost if it does not arrive)'}")
            for target in reach:
                tx, ty = at[target]
                n = rings[target] = rings.get(target, 0) + 1
                out.append(f'<circle cx="{tx}" cy="{ty}" r="{16 + 4 * n}" fill="none" '
                           f'stroke="{strong}" stroke-width="2" stroke-dasharray="3 3">'
                           f"<title>{escape(text)}</title></circle>")
            out.append(f'<g><title>{escape(text)}</title><rect x="{fx - 18}" y="{fy - 8}" '
                       f'width="36" height="16" rx="8" fill="#fff" stroke="{strong}" '
                       f'stroke-width="2" stroke-dasharray="4 2"/><text x="{fx}" y="{fy + 4}" '
                       f'text-anchor="middle" font-size="10">{escape(abbr(owner))} '
                       f'{w["ships_total"]}</text></g>')
    for name, (x, y) in at.items():
        cell = star_cell(view, name, ())
        fill = cell["strong"] if cell["holder"] else "#ffffff"
        ink = "#ffffff" if cell["holder"] else "#1b1f24"
        ships = f"{cell['abbr']} {cell['ships']}" if cell["shown"] else "empty"
        others = " ".join(f"+{abbr(p)} {n}" for p, n in cell["others"].items())
        home = " (home)" if cell["home"] else ""
        desc = (f"{name}{home}, sector {cell['sector']}, {cell['symbols'] or 'no resources'}: "
                f"held by {cell['holder'] or 'nobody'}; ships {ships} {others}".strip())
        out.append(f'<g><title>{escape(desc)}</title>'
                   f'<circle cx="{x}" cy="{y}" r="15" fill="{fill}" stroke="{cell["strong"]}" '
                   f'stroke-width="{3 if cell["home"] else 1.5}"/>'
                   f'<text x="{x}" y="{y + 4}" text-anchor="middle" fill="{ink}" '
                   f'font-size="10" font-weight="700">{escape(cell["abbr"] or cell["symbols"])}'
                   f'</text><text x="{x}" y="{y + 28}" text-anchor="middle">{escape(name)}'
                   f'{"*" if cell["home"] else ""}</text>'
                   f'<text x="{x}" y="{y + 40}" text-anchor="middle" font-size="10">'
                   f'{escape(ships if cell["shown"] else "")} {escape(others)}</text></g>')
    out.append(f'<text x="{PAD}" y="{height - 8}" font-size="11">{escape(LEGEND)}</text>')
    out.append("</svg>")
    return "".join(out)
