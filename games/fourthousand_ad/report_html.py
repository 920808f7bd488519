"""4000 A.D.'s turn report and game master's summary as HTML, written as ``turn_report.html``
and ``gm_summary.html`` (with ``layout.html``, ``macros.html`` and the partials they include)
write them, every value escaped as Jinja's autoescape escapes it: the writers of
games/fourthousand_ad/writers.py, which says when they are used."""

from __future__ import annotations

from typing import Any

from pbem.game.marks import for_readers
from pbem.game.partials import UL as _UL
from pbem.game.partials import Context, Filters, escaped, gm_missed_html, layout
from pbem.game.partials import h2 as _h2
from pbem.game.partials import keepsake_html as _keepsake_html
from pbem.game.partials import notes_html as _notes_html

_e = escaped  # (short: the writer escapes every value it prints)


def _s(flag: Any) -> str:
    return "s" if flag else ""


def _power_html(r: Context, many: bool) -> list[str]:
    who = f"{r['name']}: " if many else ""
    out = [_h2(f"{who}Your warps"), "\n", _UL]
    for w in r["own_warps"]:
        if w["free"]:
            out.append(f'<li style="margin:0 0 5px 0;">Warp {_e(w["key"])}: free</li>\n')
            continue
        note = (f'<br /><span style="font-size:13px;color:#4b5563;">{_e(w["note"])}</span>'
                if w["note"] else "")
        out.append(f'<li style="margin:0 0 5px 0;"><strong>Warp {_e(w["key"])}</strong>: '
                   f'{_e(w["ships"])} ship{_s(w["ships"] != 1)} from {_e(w["from"])} (sector '
                   f'{_e(w["sector"])}), left on turn {_e(w["departed"])}, travelled '
                   f'{_e(w["travelled"])} sector{_s(w["travelled"] != 1)}; commitment <code '
                   'style="font-family:Menlo,Consolas,monospace;font-size:13px;">'
                   f'{_e(w["commitment"])}</code>.{note}</li>\n')
    forecast = r["forecast"]
    out += ["</ul>\n", _h2(f"{who}Your economy"), "\n",
            f'<p style="margin:0 0 4px 0;">Held: {_e(forecast["held_text"])}</p>\n'
            f'<p style="margin:0 0 4px 0;"><strong>{_e(forecast["line"])}</strong></p>\n'
            f'<p style="margin:0;">Missed turns: {_e(r["missed"])}</p>\n']
    return out


_TABLE = ('<table cellpadding="0" cellspacing="0" style="width:100%;border-collapse:collapse;'
          'font-size:13px;">\n')
_TH = '<th style="padding:2px 4px;">'
_THR = '<th style="padding:2px 4px;text-align:right;">'
_TD = '<td style="padding:2px 4px;">'
_TDR = '<td style="padding:2px 4px;text-align:right;">'
_ROW = '<tr style="border-top:1px solid #e5e7eb;vertical-align:top;">'


def _reach_html(reach: Context) -> list[str]:
    out = [_h2("Reach next turn"), "\n",
           '<p style="margin:0 0 4px 0;font-size:13px;color:#4b5563;">The sectors where each '
           "warp in hyperspace can come out next turn (the step it makes then). ▲ upper level "
           "(yellow), ▼ lower level (red); <strong>!</strong> a sector with a star of yours in "
           "it.</p>\n"]
    if reach["warps"]:
        out += [_TABLE, f'<tr style="text-align:left;color:#6b7280;">{_TH}warp</th>{_THR}ships'
                f"</th>{_TH}left</th>{_THR}step</th>{_TH}can come out in</th></tr>\n"]
        for w in reach["warps"]:
            strong = _e(w["strong"])
            bold = "font-weight:bold;" if w["mine"] else ""
            cells = []
            for c in w["sectors"]:
                yours = c["yours"]
                cells.append(
                    '<span style="display:inline-block;margin:0 3px 2px 0;padding:0 3px;'
                    f"border:1px solid {strong};background-color:"
                    f"{'#fecaca' if yours else _e(w['light'])};"
                    f"{'font-weight:bold;' if yours else ''}\" title=\"{_e(c['sector'])}\">"
                    f"{_e(c['short'])}{'!' if yours else ''}</span>")
            if not w["sectors"]:
                cells.append(_e(w["text"]))
            out.append(f'{_ROW}<td style="padding:2px 4px;border-left:4px solid {strong};{bold}">'
                       f'{_e(w["label"])}</td>{_TDR}{_e(w["ships"])}</td>{_TD}{_e(w["from"])} '
                       f'({_e(w["from_short"])})</td>{_TDR}{_e(w["step"])}</td>{_TD}'
                       f'{"".join(cells)}</td></tr>\n')
        out.append("</table>\n")
    else:
        out.append('<p style="margin:0;">No warp is in hyperspace.</p>\n')
    out += [_h2("Distances from your stars"), "\n",
            '<p style="margin:0 0 4px 0;font-size:13px;color:#4b5563;">The sectors 2 and 3 turns '
            "away from each sector holding a star of yours (a star of the same sector is 1 turn "
            "away; <code>pbem distance FROM TO</code> counts any other journey).</p>\n"]
    if reach["distances"]:
        out += [_TABLE, f'<tr style="text-align:left;color:#6b7280;">{_TH}your stars</th>{_TH}'
                f"sector</th>{_TH}2 turns</th>{_TH}3 turns</th></tr>\n"]
        for r in reach["distances"]:
            turns = "".join(f"{_TD}{_e(t['text'])}</td>" for t in r["turns"])
            out.append(f"{_ROW}{_TD}{_e(r['stars_text'])}</td>{_TD}{_e(r['short'])}</td>"
                       f"{turns}</tr>\n")
        out.append("</table>\n")
    else:
        out.append('<p style="margin:0;">You hold no star.</p>\n')
    return out


_DANGER = {"win": "background-color:#fecaca;color:#7f1d1d;",
           "equal": "background-color:#fde68a;color:#78350f;",
           "hold": "background-color:#d1fae5;color:#065f46;",
           "ally": "background-color:#dbeafe;color:#1e3a8a;"}


def _other_warps_html(s: Context) -> list[str]:
    out = [_h2("Other powers' warps"), "\n"]
    for w in s["other_warps"]:
        out.append(f'<div style="margin:0 0 8px 0;padding:6px 8px;border-left:4px solid '
                   f'{_e(w["strong"])};background-color:{"#fef2f2" if w["alarm"] else "#f9fafb"};'
                   f'">\n<p style="margin:0;"><strong>{_e(w["owner_name"])} warp {_e(w["key"])}'
                   f'</strong>: {_e(w["ships"])} ship{_s(w["ships"] != 1)}, left {_e(w["from"])} '
                   f'(sector {_e(w["sector"])}) on turn {_e(w["departed"])}, travelled '
                   f'{_e(w["travelled"])}.</p>\n')
        threats = w["threats"]
        if threats:
            out.append(f'<p style="margin:4px 0 0 0;font-size:14px;">Next turn it could come out '
                       f"at any of these {len(threats)} stars, {_e(w['next_distance'])} sectors "
                       f"from {_e(w['sector'])}:</p>\n"
                       '<p style="margin:2px 0 0 0;font-size:14px;">\n')
            for t in threats:
                if t["mine"]:
                    out.append('<span style="display:inline-block;margin:1px 2px;padding:0 4px;'
                               f'font-weight:bold;{_e(_DANGER[t["danger"]])}">{_e(t["star"])} — '
                               f'yours: {_e(t["verdict"])}</span>')
                else:
                    holder = (f" ({_e(str(t['holder']).capitalize())})" if t["holder"] else "")
                    out.append('<span style="display:inline-block;margin:1px 2px;padding:0 4px;'
                               'background-color:#ffffff;border:1px solid #e5e7eb;">'
                               f'{_e(t["star"])}{holder}</span>')
            out.append("</p>\n")
            if not w["threatened"]:
                out.append('<p style="margin:2px 0 0 0;font-size:13px;color:#4b5563;">None of '
                           "them is yours.</p>")
        if w["note"]:
            out.append('<p style="margin:4px 0 0 0;font-size:13px;color:#92400e;">'
                       f'{_e(w["note"])}</p>')
        out.append("</div>\n")
    if not s["other_warps"]:
        out.append('<p style="margin:0;">None in hyperspace.</p>\n')
    return out


def _body(c: Context) -> list[str]:
    game, first, reports, s, player = c["game"], c["first"], c["reports"], c["shared"], c["player"]
    many = len(reports) > 1
    turn = _e(first["resolved_turn"])
    production = first["resolved_production"]
    out = [f'<h1 style="margin:0 0 4px 0;font-size:21px;">Turn {turn} report',
           ' <span style="font-size:14px;font-weight:normal;color:#6b7280;">(production turn)'
           "</span>" if production else "", "</h1>\n",
           f'<p style="margin:0 0 6px 0;color:#4b5563;font-size:14px;">'
           f"{_e(first['variant_title'])}",
           f" · for {_e(player['name'])}" if player["name"] else "", "</p>\n"]
    for r in reports:
        out.append(f'<div style="margin:6px 0 0 0;padding:6px 10px;background-color:'
                   f'{_e(r["light"])};border-left:6px solid {_e(r["strong"])};">\n'
                   f'<p style="margin:0;font-size:17px;">You are <strong>{_e(r["name"])}</strong> '
                   f'({_e(r["colour"])}), home star {_e(r["home"])}.</p>\n')
        if r["home_warning"]:
            out.append('<p style="margin:4px 0 0 0;padding:4px 6px;background-color:#fee2e2;'
                       f'color:#7f1d1d;"><strong>Warning:</strong> {_e(r["home_warning"])}</p>\n')
        elif not r["alive"]:
            out.append(f'<p style="margin:4px 0 0 0;"><strong>{_e(r["name"])} has been '
                       "eliminated.</strong></p>\n")
        out.append("</div>\n")
    deadline = game["deadline"]
    if first["result"]:
        out.append('<p style="margin:6px 0;padding:6px 8px;background-color:#fef3c7;"><strong>'
                   f'{_e(first["result"]["line"])}</strong></p>\n')
    elif not first["alive"]:
        out.append('<p style="margin:6px 0;">You have been eliminated: no more orders are taken '
                   "from you.</p>\n")
    elif first["due"] and deadline:
        local = f" ({_e(deadline['local'])} your time)" if deadline["local"] else ""
        out.append('<p style="margin:6px 0;padding:6px 8px;background-color:#eff6ff;">Orders for '
                   f"turn {_e(first['next_turn'])} are due <strong>{_e(deadline['utc'])}</strong>"
                   f"{local}.</p>\n")
    elif not first["due"]:
        out.append('<p style="margin:6px 0;">No orders are due from you now (waiting for '
                   f'{_e(", ".join(str(x) for x in first["waiting_for"]))}).</p>\n')
    out += _notes_html(c["notes"])
    out += ["\n", _h2(f"What happened on turn {first['resolved_turn']}"
                      + (" (production turn)" if production else "")), "\n"]
    if s["events"]:
        out.append('<ol style="margin:0;padding-left:24px;">\n')
        out.extend(f'<li style="margin:0 0 5px 0;">{_e(e)}</li>\n' for e in s["events"])
        out.append("</ol>\n")
    else:
        out.append('<p style="margin:0;">Nothing you could see happened.</p>\n')
    out += ["\n", _h2("The star field"), "\n",
            _e(for_readers(s["star_field_html"], c["readers"])), "\n"]
    for r in reports:
        out += _power_html(r, many)
    out.append("\n")
    out += _other_warps_html(s)
    out += _reach_html(s["reach"])
    out += ["\n", _h2("Powers"), "\n", _TABLE,
            f'<tr style="text-align:left;color:#6b7280;">{_TH}power</th>{_TH}home</th>{_THR}'
            f"ships</th>{_THR}stars</th>{_THR}warps</th>{_TH}status</th></tr>\n"]
    for p in s["powers"]:
        out.append(f'<tr style="border-top:1px solid #e5e7eb;'
                   f'{"font-weight:bold;" if p["mine"] else ""}"><td style="padding:2px 4px;'
                   f'border-left:4px solid {_e(p["strong"])};">{_e(p["name"])}</td>{_TD}'
                   f'{_e(p["home"])}</td>{_TDR}{_e(p["ships"])}</td>{_TDR}{_e(p["stars"])}</td>'
                   f'{_TDR}{_e(p["warps"])}</td>{_TD}{_e(p["status"])}</td></tr>\n')
    out.append("</table>\n")
    if s["alliances"]:
        out += [_h2("Alliances you know of"), "\n", _UL]
        out.extend(f"<li>{_e(a)}</li>" for a in s["alliances"])
        out.append("</ul>\n")
    out += [_keepsake_html(game["checkpoint"], "Checkpoint signed by the referee"), "\n"]
    for r in reports:
        if not r["order_form"]:
            continue
        out += [_h2(f"Orders for turn {r['next_turn']}" + (f" ({r['name']})" if many else "")),
                "\n<p style=\"margin:0 0 6px 0;font-size:14px;\">Save this as a file, edit it, "
                "check and sign it with <code>pbem orders</code>, then reply to this mail with "
                "the signed block.</p>\n"
                '<pre style="margin:0;padding:8px;background-color:#f3f4f6;border:1px solid '
                "#e5e7eb;font-family:Menlo,Consolas,monospace;font-size:12px;line-height:1.35;"
                'white-space:pre;overflow-x:auto;overflow-x:auto;max-width:100%">'
                f"{_e(r['order_form'])}</pre>\n"]
    return out


def html(c: Context, filters: Filters) -> str:
    game, reports = c["game"], c["reports"]
    checkpoint = game["checkpoint"]
    footer = ("Attached: " + ("view.json (your view, for <code>pbem orders --view</code>)"
                              if len(reports) == 1 else "view-POWER.json (each power's view)")
              + ", map.svg (the star field)"
              + (", checkpoint.txt" if checkpoint and checkpoint["attached"] else "")
              + ". Reply with your signed orders as plain text.")
    return layout(c, _body(c), footer)


def _items(lines: list[Any]) -> str:
    return "".join(f"<li>{_e(line)}</li>" for line in lines) or "<li>None.</li>"


def _gm_body(c: Context) -> list[str]:
    game, gm = c["game"], c["gm"]
    out = ['<h1 style="margin:0 0 4px 0;font-size:21px;">Game master summary: turn '
           f'{_e(c["resolved_turn"])}</h1>\n<p style="margin:0 0 6px 0;padding:6px 8px;'
           'background-color:#fef2f2;color:#7f1d1d;font-size:14px;">Everything, secrets '
           "included: do not forward this mail to a player.</p>\n"]
    if gm["result"]:
        out.append(f'<p style="margin:0 0 6px 0;"><strong>{_e(gm["result"]["line"])}</strong>'
                   "</p>\n")
    else:
        deadline = game["deadline"]
        out.append(f'<p style="margin:0 0 6px 0;">Due for turn {_e(gm["turn"])}: '
                   + ", ".join(_e(x) for x in gm["due"]) + "."
                   + (f" Deadline {_e(deadline['utc'])}." if deadline else "") + "</p>\n")
    out += [_h2("All events"), '\n<ol style="margin:0;padding-left:24px;">\n']
    out.extend(f'<li style="margin:0 0 4px 0;">{_e(e)}</li>' for e in gm["events"])
    out += ["</ol>\n", _h2("The star field"), "\n",
            _e(for_readers(gm["star_field_html"], c["readers"])),
            _h2("Warps in hyperspace"), "\n", _UL, _items(gm["warps"]), "</ul>\n",
            _h2("Powers"), "\n", _TABLE,
            f'<tr style="text-align:left;color:#6b7280;">{_TH}power</th>{_TH}home</th>{_THR}'
            f"ships</th>{_THR}stars</th>{_THR}warps</th>{_TH}status</th>{_THR}missed</th>"
            "</tr>\n"]
    missed = c["missed"]
    out.extend(f'<tr style="border-top:1px solid #e5e7eb;"><td style="padding:2px 4px;'
               f'border-left:4px solid {_e(p["strong"])};">{_e(p["name"])}</td>{_TD}'
               f'{_e(p["home"])}</td>{_TDR}{_e(p["ships"])}</td>{_TDR}{_e(p["stars"])}</td>'
               f'{_TDR}{_e(p["warps"])}</td>{_TD}{_e(p["status"])}</td>{_TDR}'
               f'{_e(missed.get(p["name"], 0))}</td></tr>\n' for p in gm["powers"])
    out.append("</table>\n")
    if c["press"]:
        out.append('<p style="margin:6px 0 0 0;font-size:13px;">Press sent this turn (messages; '
                   "content never shown): "
                   + ", ".join(f"{_e(p)} {_e(n)}" for p, n in c["press"].items()) + "</p>\n")
    out += [_h2("Private: alliances, proposals, permissions, votes"), "\n", _UL,
            _items(gm["private"]), "</ul>\n", _h2("Secrets by power"),
            '\n<ul style="margin:0;padding-left:20px;font-size:13px;">\n',
            "".join(f'<li>{_e(s["power"])}: <code style="word-break:break-all;">'
                    f'{_e(s["secret"])}</code></li>' for s in gm["secrets"]) or "<li>None.</li>",
            "</ul>\n", gm_missed_html(c["missed_now"]),
            _keepsake_html(game["checkpoint"], "Checkpoint"), "\n"]
    return out


def gm_html(c: Context, filters: Filters) -> str:
    """``gm_summary.html`` (with ``_gm_missed.html``) in ``layout.html``."""
    return layout(c, _gm_body(c), "Attached: state.json (the whole state), events.json (every "
                  "event), map.svg.")
