"""A line chart of one count per power over the steps, as inline SVG drawn here (no library, no
download). Each line ends in the power's name, and each power has its own dash pattern, so the
chart reads without colour (and in print); a table with the same numbers follows it on the page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

W, H = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 96, 16, 34
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")


def line_chart(title: str, series: Mapping[str, Sequence[int | None]],
               colours: Mapping[str, str], labels: Sequence[str]) -> str:
    """``series``: per power, one value per step (None: not known at that step)."""
    values = [v for vs in series.values() for v in vs if v is not None]
    top = max([1, *values])
    n = max((len(vs) for vs in series.values()), default=0)
    span_x = W - LEFT - RIGHT
    span_y = H - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (span_x * i / (n - 1) if n > 1 else span_x / 2)

    def y(v: int) -> float:
        return TOP + span_y * (1 - v / top)

    parts = [f'<svg class="chart" viewBox="0 0 {W} {H}" role="img" '
             f'aria-label="{escape(title)}">',
             f"<title>{escape(title)}</title>"]
    for tick in sorted({0, top // 2, top}):
        parts.append(f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
                     'class="grid"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick}'
                     "</text>")
    step = max(1, n // 8)
    for i in range(0, n, step):
        parts.append(f'<text x="{x(i):.1f}" y="{H - 12}" text-anchor="middle">'
                     f"{escape(labels[i] if i < len(labels) else str(i))}</text>")
    ends: list[tuple[float, str, str]] = []
    for k, (power, vs) in enumerate(series.items()):
        colour = escape(colours.get(power, "#333"))
        dash = DASHES[k % len(DASHES)]
        points = [(x(i), y(v)) for i, v in enumerate(vs) if v is not None]
        if not points:
            continue
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                     f'stroke-width="2.5"{dash_attr}><title>{escape(power)}</title></polyline>')
        for px, py in points:
            parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="2.5" fill="{colour}"/>')
        last = next(v for v in reversed(vs) if v is not None)
        ends.append((points[-1][1], f"{power} {last}", colour))
    placed: list[float] = []
    for py, text, colour in sorted(ends):
        at = max([py, *[p + 13 for p in placed]])  # keep the end labels from overlapping
        placed.append(at)
        parts.append(f'<text x="{W - RIGHT + 6}" y="{at + 4:.1f}" fill="{colour}" '
                     f'class="end">{escape(text)}</text>')
    parts.append("</svg>")
    return "".join(parts)
