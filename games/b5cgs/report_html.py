"""Babylon 5 CGS's turn report as HTML, written as ``turn_report.html`` (with ``layout.html``,
``macros.html``, ``_turn_notes.html``, ``_board_rolls.html``, ``_board_map.html``,
``_map.html``, ``_board_units.html`` and ``_power.html``) writes it, and the game master's
summary as ``gm_summary.html`` (with ``_gm_missed.html`` and the same board partials), every
value escaped as Jinja's autoescape escapes it: the writers of games/b5cgs/writers.py, which
says when they are used."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from pbem.game.partials import Context, Filters, escaped, notes_html
from pbem.game.partials import layout as _layout

_e = escaped  # (short: the writer escapes every value it prints)


def _dash(value: Any) -> str:
    """``{{ x if x is not none else "-" }}``."""
    return "-" if value is None else _e(value)


_B5H2 = '<h2 style="margin:12px 0 4px 0;font-size:16px;">'
_TH6 = '<th style="padding:2px 6px;">'
_TD6 = '<td style="padding:2px 6px;">'
_TH8 = '<th style="padding:2px 8px;">'
_TD8 = '<td style="padding:2px 8px;">'
_SCROLL = '<div style="overflow-x:auto;max-width:100%;">'


def rolls_html(shared: Context) -> str:
    """``_board_rolls.html``."""
    if not shared["rolls"]:
        return ""
    out = [f"{_B5H2}Dice (every roll, to recheck against this step's published chance)</h2>\n"
           f'{_SCROLL}<table style="border-collapse:collapse;font-size:13px;">\n'
           f'<tr><th style="padding:2px 6px;text-align:left;">label</th>{_TH6}die</th>{_TH6}'
           f'faces</th>{_TH6}result</th><th style="padding:2px 6px;text-align:left;">for</th>'
           "</tr>\n"]
    out.extend(f'<tr><td style="padding:2px 6px;font-family:monospace;">{_e(r["label"])}</td>'
               f'{_TD6}{_e(r["count"])} x {_e(r["die"])}</td>'
               f'{_TD6}{_e(" ".join(map(str, r["faces"])))}</td>{_TD6}{_e(r["shown"])}</td>'
               f'{_TD6}{_e(r["for"])}</td></tr>\n' for r in shared["rolls"])
    out.append("</table></div>\n")
    return "".join(out)


def map_html(map_svg: Any, shared: Context) -> str:
    """``_board_map.html`` (with ``_map.html``)."""
    return "".join(map_parts(map_svg, shared))


def map_parts(map_svg: Any, shared: Context) -> list[str]:
    """``map_html`` in parts: the inline map (markup: the template prints it as it is; ~33
    KB) is one of them, so the report's one join copies it, not each step of its writing."""
    out = f"{_B5H2}The map</h2>\n"
    if map_svg:
        return [f'{out}<div style="margin:8px 0;max-width:100%;overflow-x:auto;">',
                map_svg if isinstance(map_svg, Markup) else _e(map_svg),
                '</div>\n<p style="margin:2px 0 8px 0;font-size:12px;color:#4b5563;">The same '
                "picture is attached as map.svg, for mail programs that do not show it here."
                "</p>\n"]
    lines = "".join(f"{_e(line)}\n" for line in shared["map"])
    letters = ", ".join(f"{_e(x['letter'])} {_e(x['name'])}" for x in shared["letters"])
    return [(f'{out}<p style="margin:4px 0;">The map as text:</p>\n'
            '<pre style="margin:4px 0;padding:8px;background-color:#f3f4f6;font-size:11px;'
            'line-height:1.2;overflow-x:auto;overflow-x:auto;max-width:100%">'
            f"{lines}</pre>\n"
            '<p style="margin:4px 0;font-size:13px;">Each unit is named by its id, as orders '
            "name it, with :N a ship's facing (1 north, then clockwise); its colour is its "
            "owner's. Letters (under the unit on the text map, * when crippled): "
            f"{letters}. e economy, d damage, m mine(field), G jumpgate, B5 Babylon 5; ::::: a "
            "face-down piece.</p>\n")]


def units_html(shared: Context) -> str:
    """``_board_units.html``."""
    out = [f'{_B5H2}Units on the map</h2>\n<ul style="margin:0;padding-left:22px;'
           'font-size:13px;">\n']
    out.extend(f"<li>{_e(u['text'])}</li>\n" for u in shared["legend"])
    if not shared["legend"]:
        out.append("<li>None.</li>\n")
    out.append(f'</ul>\n{_B5H2}Scoring banks</h2>\n{_SCROLL}<table style="border-collapse:'
               'collapse;">\n<tr><th style="padding:2px 8px;text-align:left;">empire</th>'
               f"{_TH8}gross</th>{_TH8}upkeep</th>{_TH8}net</th>{_TH8}reserve</th>"
               '<th style="padding:2px 8px;text-align:left;">Scrap Yard</th></tr>\n')
    out.extend(f"<tr>{_TD8}{_e(b['name'])}{' (surrendered)' if b['surrendered'] else ''}</td>"
               f"{_TD8}{_dash(b['gross'])}</td>{_TD8}{_dash(b['upkeep'])}</td>"
               f"{_TD8}{_dash(b['net'])}</td>{_TD8}{_e(b['reserve'])}</td>"
               f"{_TD8}{_e(', '.join(map(str, b['scrap'])))}</td></tr>\n"
               for b in shared["banks"])
    out.append("</table></div>\n")
    return "".join(out)


_TDL = '<td style="padding:2px 6px;">'
_TDR = '<td style="text-align:right;padding:2px 6px;">'
_THL = '<th style="text-align:left;padding:2px 6px;">'
_THR = '<th style="text-align:right;padding:2px 6px;">'


def _threat_line(u: Context) -> str:
    found = u["threats"]
    those = ("; ".join(f"{_e(t['label'])} {_e(t['title'])} at {_e(t['hex'])} ({_e(t['text'])})"
                       for t in found) if found else "none")
    return f"<li>{_e(u['label'])} {_e(u['title'])} at {_e(u['hex'])}: {those}</li>\n"


def power_html(r: Context) -> str:
    """``_power.html`` for one of the reader's powers."""
    banks = r["banks"]
    out = [f"{_B5H2}{_e(r['name'])} ({_e(r['letter'])})</h2>\n"
           f'<p style="margin:4px 0;">Your banks: gross {_dash(banks["gross"])}, upkeep '
           f'{_dash(banks["upkeep"])}, net {_dash(banks["net"])}, reserve '
           f'{_e(banks["reserve"])}.</p>\n']
    if r["threats"]:
        out.append('<p style="margin:4px 0;"><strong>Threats in range</strong> (enemy units '
                   "whose weapons reach yours, by range and arc):</p>\n"
                   '<ul style="margin:0;padding-left:22px;">\n')
        out.extend(map(_threat_line, r["threats"]))
        out.append("</ul>")
    if r["purchases"]:
        out.append('<p style="margin:8px 0 4px 0;"><strong>What you can buy</strong>: cost, '
                   "upkeep, defense rating (undamaged/crippled), weapons (heavy reach 2 hexes, "
                   "laser 1: value undamaged/crippled and arcs), movement, how many are left."
                   f'</p>\n{_SCROLL}<table style="border-collapse:collapse;font-size:13px;">\n'
                   f"<tr>{_THL}Type</th>{_THL}Kind</th>{_THR}Cost</th>{_THR}Upkeep</th>"
                   f"{_THL}DR</th>{_THL}Heavy</th>{_THL}Laser</th>{_THL}Moves</th>{_THR}Left"
                   "</th></tr>\n")
        out.extend(f"<tr>{_TDL}{_e(p['title'])} ({_e(p['type'])})</td>{_TDL}{_e(p['kind'])}"
                   f"{', economy ' + _e(p['economy']) if p['economy'] else ''}</td>"
                   f"{_TDR}{_e(p['cost'])}</td>{_TDR}{_e(p['upkeep'])}</td>{_TDL}{_e(p['dr'])}"
                   f"</td>{_TDL}{_e(p['heavy'])}</td>{_TDL}{_e(p['laser'])}</td>{_TDL}"
                   f"{_e(p['moves'])}</td>{_TDR}{_e(p['left'])}</td></tr>\n"
                   for p in r["purchases"])
        out.append("</table></div>")
    if r["order_form"]:
        out.append('<pre style="margin:8px 0 0 0;padding:8px;background-color:#f3f4f6;'
                   f'overflow-x:auto;max-width:100%">{_e(r["order_form"])}</pre>')
    return "".join(out)


#: The parts every reader of a resolution shares (``once`` in the template), for the last
#: common part written: (that object, its dice, its units and banks), one tuple replaced
#: whole. The writer holds the object, so its id is not reused while it is kept; nobody
#: changes a common part.
_ONCE: list[tuple[Any, str, str]] = [(None, "", "")]


def _board_parts(common: Context) -> tuple[str, str]:
    kept = _ONCE[0]
    if kept[0] is not common:
        kept = _ONCE[0] = (common, rolls_html(common), units_html(common))
    return kept[1], kept[2]


def _body(c: Context) -> list[str]:
    s, game = c["shared"], c["game"]
    rolls, units = _board_parts(s["common"])
    out = [f'<h1 style="margin:0 0 8px 0;font-size:20px;">Step '
           f"{_e(c['first']['resolved_turn'])}",
           f" (round {_e(s['round'])})" if s["round"] else "",
           '</h1>\n<ul style="margin:0;padding-left:22px;">\n']
    out.extend(f"<li>{_e(line)}</li>\n" for line in s["events"])
    if not s["events"]:
        out.append("<li>Nothing you could see happened.</li>\n")
    out.append("</ul>\n")
    if s["window"]:
        out.append(f'<p style="margin:8px 0;">Next: {_e(s["window"]["label"])}.</p>')
    out += notes_html(c["notes"])
    out += [rolls, *map_parts(c["map_svg"], s), units]
    out.extend(power_html(r) for r in c["reports"])
    if game["deadline"]:
        out.append(f'<p style="margin:8px 0;">Orders are due {_e(game["deadline"]["utc"])}.</p>')
    return out


def gm_html(c: Context, filters: Filters) -> str:
    """``gm_summary.html`` (with ``_gm_missed.html``) in ``layout.html``."""
    gm, game = c["gm"], c["game"]
    rolls, units = _board_parts(gm["common"])
    out = [f'<h1 style="margin:0 0 8px 0;font-size:20px;">Referee summary, step '
           f'{_e(c["resolved_turn"])}</h1>\n<ul style="margin:0;padding-left:22px;">\n']
    out.extend(f"<li>{_e(line)}</li>\n" for line in gm["events"])
    out += ["</ul>\n", rolls, *map_parts(c["map_svg"], gm), units]
    if c["missed_now"]:
        out.append(f'{_B5H2}Missed this turn</h2>\n<ul style="margin:0;padding-left:22px;">\n')
        out.extend(f"<li>{_e(line)}</li>\n" for line in c["missed_now"])
        out.append("</ul>\n")
    return _layout(c, out, f"Sent to the game master of {_e(game['id'])}: the whole state and "
                   "every event, private ones marked. Do not forward it to a player.")


def html(c: Context, filters: Filters) -> str:
    """``turn_report.html`` in ``layout.html``."""
    return _layout(c, _body(c), f"Sent by the referee of {_e(c['game']['id'])}. Reply to this "
                   "mail with your signed orders as plain text.")


