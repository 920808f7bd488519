"""Babylon 5 CGS's turn report as plain text and its subject, written as ``turn_report.txt``
(with ``_turn_notes.txt``, ``_board.txt``, ``_power.txt`` and ``footer.txt``) and
``turn_report.subject.txt`` write them, and the game master's summary as ``gm_summary.txt``
(with ``_board.txt``, ``_gm_missed.txt`` and ``footer_gm.txt``) and its subject: the writers of
games/b5cgs/writers.py, which says when they are used."""

from __future__ import annotations

from typing import Any

from pbem.game.partials import Context, Filters, Para, notes_text


def subject(c: Context, filters: Filters) -> str:
    """``turn_report.subject.txt``."""
    game = c["game"]
    return (f"[{game['id']}] {game['game_title']}: step {c['first']['resolved_turn']} resolved"
            + (" (game over)" if c["shared"]["result"] else ""))


def _dash(value: Any) -> Any:
    return "-" if value is None else value


def board_text(para: Para, s: Context) -> str:
    """``_board.txt``: the dice, the map, the units, the pieces and the banks."""
    out = []
    if s["rolls"]:
        out.append("DICE (every roll, to recheck against this step's published chance)\n")
        out.extend(f"{line}\n" for r in s["rolls"] for line in r["lines"])
        out.append("\n")
    out.append("THE MAP\n")
    if s["map"]:
        out.append(f"{s['map_block']}\n")
    letters = ", ".join(str(x["text"]) for x in s["letters"])
    out += ["\n", para("Each hex: its name (as orders write it), its map elements, the unit in "
                       "it by its id (as orders name it) with :N a ship's facing (1 north, then "
                       "clockwise to 6 north-west), and under it the owner's letter, * when "
                       f"crippled. Letters: {letters}. e economy, d damage, m mine(field), G "
                       "jumpgate, B5 Babylon 5; ::::: a face-down piece (nobody knows what it "
                       "is).", 2, "  "),
            "\n\nUNITS ON THE MAP\n"]
    out.extend(f"{line}\n" for u in s["legend"] for line in u["lines"])
    if not s["legend"]:
        out.append("  None.\n")
    out.append("\nMAP PIECES\n")
    # (the template's own ``format``: printf-style, as here)
    out.extend("  slot %2d at %-6s %s\n" % (p["slot"], p["centre"], p["title"])  # noqa: UP031
               for p in s["pieces"])
    out.append("\nSCORING BANKS                 gross  upkeep    net  reserve\n")
    for b in s["banks"]:
        out.append("  %-26s %5s  %6s  %5s  %7s%s\n" % (  # noqa: UP031
            b["name"][:26], _dash(b["gross"]), _dash(b["upkeep"]), _dash(b["net"]),
            b["reserve"], " (surrendered)" if b["surrendered"] else ""))
        if b["scrap"]:
            out.append(para("Scrap Yard: " + ", ".join(map(str, b["scrap"])), 6, "    ") + "\n")
        if b["war_tokens"]:
            out.append(para("War Tokens held from: " + ", ".join(map(str, b["war_tokens"])),
                            6, "    ") + "\n")
    return "".join(out)


def power_text(para: Para, r: Context) -> str:
    """``_power.txt`` for one of the reader's powers."""
    banks = r["banks"]
    out = [f"{str(r['name']).upper()} ({r['letter']})",
           ": the set-up step" if r["setup"] else "",
           f"\n  Your banks: gross {_dash(banks['gross'])}, upkeep {_dash(banks['upkeep'])}, "
           f"net {_dash(banks['net'])}, reserve {banks['reserve']}.\n"]
    if r["threats"]:
        out.append("\n  THREATS IN RANGE (enemy units whose weapons reach yours, by range and "
                   "arc)\n")
        for u in r["threats"]:
            out.append(f"    {u['label']} {u['title']} at {u['hex']}:"
                       + ("" if u["threats"] else " none") + "\n")
            out.extend(para(f"{t['label']} {t['title']} at {t['hex']}: {t['text']}",
                            10, "      - ") + "\n" for t in u["threats"])
    if r["purchase_lines"]:
        out.append("\n")
        out.extend(f"{line}\n" for line in r["purchase_lines"])
    if r["order_form"]:
        out.append(f"\n----- 8< ----- order file: {r['name']}, step {r['turn']} ----- 8< -----\n"
                   f"{r['order_form']}\n----- 8< ----- end of order file ----- 8< -----\n")
    return "".join(out)


#: The board every reader of a resolution shares (``once`` in the template), for the last
#: common part written: (that object, the ``para`` it was wrapped with, its text), one tuple
#: replaced whole. The writer holds the object, so its id is not reused while it is kept;
#: nobody changes a common part.
_ONCE: list[tuple[Any, Any, str]] = [(None, None, "")]


def _board(para: Para, common: Context) -> str:
    kept = _ONCE[0]
    if kept[0] is not common or kept[1] is not para:
        kept = _ONCE[0] = (common, para, board_text(para, common))
    return kept[2]


def gm_subject(c: Context, filters: Filters) -> str:
    """``gm_summary.subject.txt``."""
    game = c["game"]
    return (f"[{game['id']}] {game['game_title']}: referee summary, step "
            f"{c['resolved_turn']}\n")


def gm_text(c: Context, filters: Filters) -> str:
    """``gm_summary.txt`` (with ``_gm_missed.txt`` and ``footer_gm.txt``)."""
    para = filters["para"]
    game, gm = c["game"], c["gm"]
    out = [f"{game['game_title']} · {game['title']}: step {c['resolved_turn']}\n\n"
           "EVENTS (everything, private ones marked)\n"]
    out.extend(para(line, 4, "  ") + "\n" for line in gm["events"])
    out += ["\n", _board(para, gm["common"])]
    if c["missed_now"]:
        out.append("\nMISSED THIS TURN\n")
        out.extend(para(line, 4, "  - ") + "\n" for line in c["missed_now"])
    out.append(f"\n-- \nSent to the game master of {game['id']}: the whole state and every "
               "event,\nprivate ones marked. Do not forward it to a player.\n")
    return "".join(out)


def text(c: Context, filters: Filters) -> str:
    """``turn_report.txt``."""
    para = filters["para"]
    game, s = c["game"], c["shared"]
    out = [f"{game['game_title']} · {game['title']}\n\nSTEP {c['first']['resolved_turn']}",
           f" (round {s['round']})" if s["round"] else "", "\n"]
    out.extend(para(line, 4, "  ") + "\n" for line in s["events"])
    if not s["events"]:
        out.append("  Nothing you could see happened.\n")
    window = s["window"]
    if window:
        out.append(f"\nNext: {window['label']} (orders from "
                   f"{', '.join(map(str, window['due']))}).\n")
    out += notes_text(para, c["notes"])
    out += ["\n", _board(para, s["common"])]
    for r in c["reports"]:
        out += ["\n", power_text(para, r)]
    if game["deadline"]:
        out.append(f"\nOrders are due {game['deadline']['utc']}.\n")
    out.append(f"\n-- \nSent by the referee of {game['id']}. Reply with your signed orders as "
               "plain\ntext (the block `pbem orders sign` prints); HTML-only mail is not read.\n")
    return "".join(out)
