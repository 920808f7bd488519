"""The star field as the HTML table every 4000 A.D. mail shows (turn report, welcome, game
master's summary, game end), written here once per star field for every reader.

The table is the same for every reader but for the bold on the reader's own stars: each such
place is written as ``pbem.game``'s mark (``mark(power, text)``), which the templates resolve per
reader with ``for_readers(readers)`` (docs/plugins.md, "The map"). So one table is written per
star field (``starmap.neutral_grid``'s cells, the same object while the stars and colours are
equal), its notes and legend; a Jinja loop over the 48 stars cost several times as much for
the same bytes (issue 30). Every text is escaped as Jinja's autoescape does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

from pbem.game.marks import mark

Grid = Sequence[Sequence[Mapping[str, Any]]]

_LAST: list[Any] = [None, None, None, None]  # grid, notes, legend, the table


def star_field(grid: Grid, notes: Sequence[str], legend: Sequence[Mapping[str, Any]]
               ) -> Markup:
    """The table of the star field ``grid`` (``neutral_grid``), its caption, the powers'
    legend and the ``notes`` under it, with the reader's own stars marked (``mark``)."""
    if _LAST[0] is grid and _LAST[1] == notes and _LAST[2] == legend:
        return _LAST[3]  # type: ignore[no-any-return]
    out = ['<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;'
           'border-collapse:collapse;table-layout:fixed;">\n']
    for row in grid:
        out.append("<tr>\n")
        for area in row:
            out.append('<td style="vertical-align:top;padding:2px;border:1px solid #d1d5db;">\n'
                       '<div style="font-size:11px;font-weight:bold;color:#6b7280;'
                       f'padding:0 2px;">{escape(area["area"])}</div>\n')
            out += [_star(s) for s in area["stars"]]
            out.append("</td>\n")
        out.append("</tr>\n")
    out.append('</table>\n<p style="margin:4px 0 0 0;font-size:12px;color:#4b5563;">▲ upper '
               "level (yellow) · ▼ lower level (red) · * home star · ○ circle, + cross · bold: "
               "yours · lower case: ships of an eliminated power · &amp; other ships there "
               'too</p>\n<p style="margin:4px 0 0 0;font-size:12px;">')
    for power in legend:
        out.append('<span style="display:inline-block;margin:0 8px 2px 0;padding:0 4px;'
                   f'background-color:{escape(power["light"])};border-left:4px solid '
                   f'{escape(power["strong"])};">{escape(power["abbr"])} '
                   f'{escape(power["name"])}</span>')
    out.append("</p>\n")
    if notes:
        out.append('<ul style="margin:4px 0 0 0;padding-left:18px;font-size:13px;">\n')
        out += [f"<li>{escape(note)}</li>\n" for note in notes]
        out.append("</ul>\n")
    table = Markup("".join(out))  # noqa: S704 - escaped piece by piece
    _LAST[:] = [grid, list(notes), [dict(r) for r in legend], table]
    return table


def _star(s: Mapping[str, Any]) -> str:
    shown = s["shown"]
    background = s["light"] if shown else s["level_tint"]
    border = s["strong"] if shown else "#e5e7eb"
    colour = "#b45309" if s["level"] == "yellow" else "#b91c1c"
    home = '<span title="home star">*</span>' if s["home"] else ""
    ships = ""
    if shown:
        who = s["abbr"] if s["holder"] else s["abbr"].lower()
        ships = (f'<span style="float:right;color:#1f2933;">{escape(who)} {escape(s["ships"])}'
                 f'{"&amp;" if s["others"] else ""}</span>')
    return (f'<div style="margin:1px 0;padding:2px 3px;background-color:{escape(background)};'
            f'border-left:4px solid {escape(border)};font-size:12px;line-height:1.25;'
            f'{mark(shown, "font-weight:bold;")}">\n<span style="color:{colour};">'
            f'{escape(s["marker"])}</span> {escape(s["name"])}{home}<br />\n'
            '<span style="font-size:11px;color:#4b5563;">'
            f'{escape(s["symbols"] or "·")}</span>\n{ships}</div>\n')
