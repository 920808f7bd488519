"""4000 A.D.'s turn report and game master's summary as plain text and their subjects, written
as ``turn_report.txt``, ``turn_report.subject.txt``, ``gm_summary.txt`` and
``gm_summary.subject.txt`` (with the partials they include) write them: the writers of
games/fourthousand_ad/writers.py, which says when they are used."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.game.partials import Context, Filters, Para
from pbem.game.partials import gm_missed_text as _gm_missed_text
from pbem.game.partials import keepsake_text as _keepsake_text
from pbem.game.partials import notes_text as _notes_text


def subject(c: Context, filters: Filters) -> str:
    game, first = c["game"], c["first"]
    out = (f"[{game['id']}] Turn {first['resolved_turn']} report for "
           + " and ".join(str(r["name"]) for r in c["reports"]))
    if first["result"]:
        out += " — the game is over"
    elif game["deadline"] and first["due"]:
        out += f" — orders due {game['deadline']['utc']}"
    return out


def _starmap_text(para: Para, s: Context) -> list[str]:
    out = ["THE STAR FIELD  ▲ upper level (yellow)  ▼ lower level (red)  * home star\n"
           "  ○ circle, + cross (resources); holder and ships; - nobody; lower case:\n"
           "  ships of an eliminated power waiting to surrender; & other ships there too\n"]
    out.extend(f"{line}\n" for line in s["map_text"])
    if s["map_notes"]:
        out.append("  Stars with more than one power's ships, or ships waiting to surrender:\n")
        out.extend(para(note, 6, "    ") + "\n" for note in s["map_notes"])
    out.append("  Holders: " + ", ".join(f"{x['abbr']} {x['name']}" for x in s["legend"])
               + "\n")
    return out


def _power_text(para: Para, r: Context, many: bool) -> list[str]:
    who = f"{str(r['name']).upper()}: " if many else ""
    out = [f"\n{who}YOUR WARPS\n"]
    for w in r["own_warps"]:
        if w["free"]:
            out.append(f"  warp {w['key']}  free\n")
        else:
            out.append(para(w["line"], 10, "  ") + "\n")
            if w["note"]:
                out.append(para(w["note"], 10) + "\n")
    forecast = r["forecast"]
    out.append(f"\n{who}YOUR ECONOMY\n")
    out.append(para(f"held: {forecast['held_text']}", 8, "  ") + "\n")
    out.append(para(forecast["line"], 4, "  ") + "\n")
    out.append(f"  missed turns: {r['missed']}\n")
    return out


def _reach_text(reach: Context) -> list[str]:
    out = ["\nREACH NEXT TURN — the sectors where each warp in hyperspace can come out\n"
           "  (▲ upper level, ▼ lower level; ! a sector with a star of yours in it)\n"]
    out.extend(f"{line}\n" for line in reach["warps_text"])
    out.append("\nDISTANCES FROM YOUR STARS — the sectors 2 and 3 turns away (the same\n"
               "  sector is 1 turn; `pbem distance FROM TO` counts any other journey)\n")
    out.extend(f"{line}\n" for line in reach["distances_text"])
    return out


def text(c: Context, filters: Filters) -> str:
    para = filters["para"]
    game, first, reports, s, player = c["game"], c["first"], c["reports"], c["shared"], c["player"]
    many = len(reports) > 1
    out = [f"{game['game_title']} · {game['title']} · {first['variant_title']}\n",
           f"Report on turn {first['resolved_turn']}",
           " (a production turn)" if first["resolved_production"] else "",
           f", for {player['name']}" if player["name"] else "", ".\n"]
    for r in reports:
        out.append(f"You are {str(r['name']).upper()} ({r['colour']}), home star {r['home']}.\n")
        if r["home_warning"]:
            out.append(para(f"WARNING: {r['home_warning']}", 2) + "\n")
        elif not r["alive"] and many:
            out.append(f"{r['name']} has been eliminated.\n")
    deadline = game["deadline"]
    if first["result"]:
        out.append(para(first["result"]["line"], 0) + "\n")
    elif not first["alive"]:
        out.append("You have been eliminated: no more orders are taken from you.\n")
    elif first["due"] and deadline:
        local = f" ({deadline['local']} your time)" if deadline["local"] else ""
        out.append(para(f"Orders for turn {first['next_turn']} are due {deadline['utc']}{local}.",
                        0) + "\n")
    elif not first["due"]:
        out.append(para("No orders are due from you now (waiting for "
                        + ", ".join(str(x) for x in first["waiting_for"]) + ").", 0) + "\n")
    out += _notes_text(para, c["notes"])
    out.append(f"\nWHAT HAPPENED ON TURN {first['resolved_turn']}"
               + (" (production turn)" if first["resolved_production"] else "") + "\n")
    if s["events"]:
        # Jinja's format filter is %: kept as it is, so every value prints as it does there
        out.extend(para(e, 6, "%4d. " % i) + "\n"  # noqa: UP031
                   for i, e in enumerate(s["events"], 1))
    else:
        out.append("  Nothing you could see happened.\n")
    out.append("\n")
    out += _starmap_text(para, s)
    for r in reports:
        out += _power_text(para, r, many)
    out.append("\nOTHER POWERS' WARPS — where they could come out next turn\n")
    for w in s["other_warps"]:
        out.append(para(w["head"], 4, "  ") + "\n")
        if w["where"]:
            out.append(para(w["where"], 4) + "\n")
        if w["note"]:
            out.append(para(w["note"], 4) + "\n")
    if not s["other_warps"]:
        out.append("  None in hyperspace.\n")
    out += _reach_text(s["reach"])
    out.append("\nPOWERS\n  power     home       ships  stars  warps  status\n")
    for p in s["powers"]:
        out.append("  %-9s %-10s %5d  %5d  %5d  %s" % (  # noqa: UP031 - Jinja's format
            p["name"], p["home"], p["ships"], p["stars"], p["warps"], p["status"])
            + ("  <- you" if p["mine"] else "") + "\n")
    if s["alliances"]:
        out.append("\nALLIANCES YOU KNOW OF\n")
        out.extend(para(a, 4, "  ") + "\n" for a in s["alliances"])
    checkpoint = game["checkpoint"]
    if checkpoint:
        out.append("\n" + _keepsake_text(checkpoint, "CHECKPOINT signed by the referee"))
    for r in reports:
        if not r["order_form"]:
            continue
        name = r["name"]
        out.append(f"\nORDERS FOR TURN {r['next_turn']}"
                   + (f" ({str(name).upper()})" if many else "") + "\n"
                   "Save the lines between the scissors as a file, edit, check and sign with\n"
                   "`pbem orders`, then reply to this mail with the signed block.\n"
                   f"----- 8< ----- order file: {name}, turn {r['next_turn']} ----- 8< -----\n"
                   f"{r['order_form']}\n----- 8< ----- end of order file ----- 8< -----\n")
    out.append("\nAttached: " + ("view-POWER.json (each power's view, for `--view`)" if many
                                 else "view.json (your view: `pbem orders ... --view view.json`)")
               + ",\nmap.svg (the star field)"
               + (", checkpoint.txt (the signed checkpoint)"
                  if checkpoint and checkpoint["attached"] else "") + ".\n")
    out.append(f"\n-- \nSent by the referee of {game['id']}. Reply with your signed orders as "
               "plain\ntext (the block `pbem orders sign` prints); HTML-only mail is not read.\n")
    return "".join(out)


def gm_subject(c: Context, filters: Filters) -> str:
    """``gm_summary.subject.txt``."""
    gm = c["gm"]
    out = f"[{c['game']['id']}] GM summary: turn {c['resolved_turn']} resolved"
    if gm["result"]:
        return out + ", game over"
    due = len(gm["due"])
    return out + f", {due} power{'s' if due != 1 else ''} due for turn {gm['turn']}"


def _counts(counts: Mapping[str, Any]) -> str:
    return ", ".join(f"{p} {n}" for p, n in counts.items())


def _lines(para: Para, lines: list[Any]) -> list[str]:
    return [para(line, 4, "  ") + "\n" for line in lines] or ["  None.\n"]


def gm_text(c: Context, filters: Filters) -> str:
    """``gm_summary.txt`` (with ``_keepsakes.txt``, ``_starmap.txt`` and ``_gm_missed.txt``)."""
    para = filters["para"]
    game, gm = c["game"], c["gm"]
    out = [f"{game['game_title']} · {game['title']} · {gm['variant_title']}\n"
           f"GAME MASTER SUMMARY: turn {c['resolved_turn']} resolved.\n"
           "Everything, secrets included: do not forward this mail to a player.\n"]
    if gm["result"]:
        out.append(para(gm["result"]["line"], 0) + "\n")
    else:
        out.append(para(f"Due for turn {gm['turn']}: "
                        + ", ".join(str(x) for x in gm["due"]) + ".", 0) + "\n")
    if game["deadline"]:
        out.append(f"Deadline: {game['deadline']['utc']}.\n")
    out.append("\nALL EVENTS, IN ORDER (private ones marked)\n")
    # Jinja's format filter is %: kept as it is, so every value prints as it does there
    out.extend(para(e, 6, "%4d. " % i) + "\n"  # noqa: UP031
               for i, e in enumerate(gm["events"], 1))
    if not gm["events"]:
        out.append("  None.\n")
    out.append("\n")
    out += _starmap_text(para, gm)
    out.append("\nWARPS IN HYPERSPACE\n")
    out += _lines(para, gm["warps"])
    out.append("\nPOWERS\n  power     home       ships  stars  warps  status\n")
    out.extend("  %-9s %-10s %5d  %5d  %5d  %s\n" % (  # noqa: UP031 - Jinja's format
        p["name"], p["home"], p["ships"], p["stars"], p["warps"], p["status"])
        for p in gm["powers"])
    out.append(_gm_missed_text(para, c["missed_now"]))
    if c["missed"]:
        out.append(f"  missed turns: {_counts(c['missed'])}\n")
    if c["press"]:
        out.append(f"  press sent (messages; content never shown): {_counts(c['press'])}\n")
    out.append("\nPRIVATE: ALLIANCES, PROPOSALS, PERMISSIONS, VOTES\n")
    out += _lines(para, gm["private"])
    out.append("\nSECRETS BY POWER (plugin.secrets; escrow blobs shortened, full in "
               "state.json)\n")
    out.extend(f"  {s['power']}: {s['short']}\n" for s in gm["secrets"])
    if not gm["secrets"]:
        out.append("  None.\n")
    if game["checkpoint"]:
        out.append("\n" + _keepsake_text(game["checkpoint"], "CHECKPOINT"))
    out.append("\nAttached: state.json (the whole state), events.json (every event), "
               "map.svg.\n")
    return "".join(out)
