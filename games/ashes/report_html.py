"""The Ashes of Empire's turn report as HTML, written as ``turn_report.html`` (with
``layout.html``, ``macros.html`` and the partials it includes: ``_turn_notes.html``,
``_map.html``, ``_tables.html``, ``_power.html``) writes it, every value escaped as Jinja's
autoescape escapes it: the writer of games/ashes/writers.py, which says when it is used."""

from __future__ import annotations

from typing import Any

from pbem.game.partials import Context, Filters, escaped, layout
from pbem.game.partials import notes_html as _notes_html

_e = escaped  # (short: the writer escapes every value it prints)


def _joined(items: Any, sep: str) -> str:
    """Jinja's ``join`` filter under autoescape: each item escaped (markup passes)."""
    return sep.join(_e(i if hasattr(i, "__html__") else str(i)) for i in items)


_H2 = '<h2 style="margin:12px 0 4px 0;font-size:16px;">'
_TD = '<td style="padding:2px 8px;">'
_TH = '<th style="padding:2px 8px;">'
_THL = '<th style="padding:2px 8px;text-align:left;">'


def _tables_html(s: Context) -> list[str]:
    """``_tables.html``: the neutral galaxy and the empires."""
    out = [f"{_H2}The neutral galaxy ({_e(s['deck_count'])} cards in the black hole)</h2>\n"
           '<table style="border-collapse:collapse;">\n'
           f"<tr>{_THL}planet</th>{_TH}number</th>{_TH}population</th>{_TH}neutral ships</th>"
           f"{_THL}line D</th></tr>\n"]
    out.extend(f"<tr>{_TD}{_e(p['code'])}</td>{_TD}{_e(p['number'])}</td>{_TD}"
               f"{_e(p['population'])}</td>{_TD}{_e(p['ships'])}</td>{_TD}"
               f"{_joined(p['reach'], ' ')}</td></tr>\n" for p in s["galaxy"])
    out.append(f"</table>\n{_H2}Empires</h2>\n")
    for e in s["empires"]:
        out.append(f'<p style="margin:4px 0;"><strong>{_e(e["name"])}</strong>'
                   f'{" (conceded)" if e["conceded"] else ""}: {_e(e["homeplanets"])} '
                   f"homeplanets with {_e(e['home_ships'])} ship(s); {_e(e['ships'])} in play.\n")
        out.extend(f"<br>colony {_e(c['code'])} (planet {_e(c['number'])}, population "
                   f"{_e(c['population'])}): {_e(c['ships'])}/{_e(c['limit'])} ships; line D "
                   f"{_joined(c['reach'], ' ')}" for c in e["colonies"])
        out.append("</p>\n")
    return out


def _power_html(r: Context) -> list[str]:
    """``_power.html``: one reader's hand, reach and order form."""
    out = [f"{_H2}{_e(r['name'])}: your hand (only you see it)</h2>\n"
           '<table style="border-collapse:collapse;">\n']
    out.extend(f"<tr>{_TD}{_e(c['code'])}</td>{_TD}planet {_e(c['number'])}</td>{_TD}"
               f"population {_e(c['population'])}</td>{_TD}{_e(c['ships'])}/{_e(c['limit'])} "
               f"ships</td>{_TD}line D {_joined(c['reach'], ' ')}</td></tr>\n"
               for c in r["hand"])
    out.append(f'</table>\n<p style="margin:4px 0;">Population of your empire: '
               f"{_e(r['population'])}. Next reinforcements: {_e(r['reinforcements'])} "
               f"({_e(r['stock'])} of 108 in stock).</p>\n")
    if r["targets"]:
        out.append('<ul style="margin:0;padding-left:22px;">\n')
        out.extend(f"<li>from {_e(t['from'])}: "
                   f"{_joined(t['targets'], ', ') or 'nothing to attack'}</li>\n"
                   for t in r["targets"])
        out.append("</ul>")
    if r["order_form"]:
        out.append('<pre style="margin:8px 0 0 0;padding:8px;background-color:#f3f4f6;'
                   "white-space:pre-wrap;overflow-wrap:anywhere;max-width:100%;overflow-x:auto;"
                   f'max-width:100%">{_e(r["order_form"])}</pre>')
    return out


def _body(c: Context) -> list[str]:
    s, game = c["shared"], c["game"]
    out = [f'<h1 style="margin:0 0 8px 0;font-size:20px;">Turn '
           f"{_e(c['first']['resolved_turn'])}</h1>\n"
           '<ul style="margin:0;padding-left:22px;">\n']
    out.extend(f"<li>{_e(line)}</li>\n" for line in s["events"])
    out.append("</ul>\n")
    if s["window"]:
        out.append(f'<p style="margin:8px 0;">Next: {_e(s["window"]["label"])}.</p>')
    out += _notes_html(c["notes"])
    if c["map_svg"]:
        out.append(f'<div style="margin:8px 0;max-width:100%;overflow-x:auto;">'
                   f"{_e(c['map_svg'])}</div>\n"
                   '<p style="margin:2px 0 8px 0;font-size:12px;color:#4b5563;">The same '
                   "picture is attached as map.svg, for mail programs that do not show it "
                   "here.</p>\n")
    out += _tables_html(s)
    for r in c["reports"]:
        out += _power_html(r)
    if game["deadline"]:
        out.append(f'<p style="margin:8px 0;">Orders are due {_e(game["deadline"]["utc"])}.</p>')
    return out


def html(c: Context, filters: Filters) -> str:
    """``turn_report.html`` in ``layout.html``."""
    game = c["game"]
    return layout(c, _body(c), f"Sent by the referee of {_e(game['id'])}. Reply to this mail "
                  "with your signed orders as plain text.")
