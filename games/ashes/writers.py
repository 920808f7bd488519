"""The Ashes of Empire's turn report written without Jinja, exactly as its templates write it
(issue 30, "a game-turn near its floor"): the presenter's ``writers`` (docs/plugins.md,
"Writers"), as 4000 A.D. does (games/fourthousand_ad/writers.py).

Why: Jinja's rendering of ``turn_report.html`` and ``turn_report.txt`` (partials, escaped
values, loops over the galaxy and the empires) was the largest part of an Ashes step's mail
cost. Each template is a function giving the same text (trim_blocks, lstrip_blocks,
keep_trailing_newline, autoescape for .html and .svg: pbem.render.jinjaenv):

* ``turn_report.subject.txt``, ``map.svg``, and ``turn_report.txt`` with ``_turn_notes.txt``,
  ``_tables.txt``, ``_power.txt`` and ``footer.txt`` (here);
* ``turn_report.html`` with ``layout.html``, ``macros.html``, ``_turn_notes.html``,
  ``_map.html``, ``_tables.html`` and ``_power.html`` (report_html.py).

The templates stay the one definition: the renderer uses a function only while the SHA-256
of the sources it would load for that template (a game directory's override included) is the
digest in :data:`WRITERS` (pbem.render.plain.fits), and Jinja otherwise. A template edited
without this module is still rendered right, through Jinja; tests/games/ashes/
test_ashes_report_writers.py then fails until the functions and the digests follow (it
compares both renderings over played games and every branch)."""

from __future__ import annotations

from pbem.game.partials import Context, Filters, Writer
from pbem.game.partials import notes_text as _notes_text

from .report_html import html


def subject(c: Context, filters: Filters) -> str:
    """``turn_report.subject.txt`` (its newline follows a block tag: trimmed)."""
    game = c["game"]
    return (f"[{game['id']}] {game['game_title']}: turn {c['first']['resolved_turn']} resolved"
            + (" (game over)" if c["shared"]["result"] else ""))


def map_svg(c: Context, filters: Filters) -> str:
    """``map.svg``: the card table cardtable.py drew (and escaped), placed as it is."""
    return f"{c['svg']}\n"


def _reach(card: Context) -> str:
    return " ".join(str(n) for n in card["reach"])


def _planet(c: Context) -> str:
    # Jinja's format filter is %: kept as it is, so every value prints as it does there
    return "%-3s planet %2d  population %s" % (  # noqa: UP031
        c["code"], c["number"], c["population"])


def _tables_text(s: Context) -> list[str]:
    """``_tables.txt``: the neutral galaxy and the empires."""
    out = [f"THE NEUTRAL GALAXY ({s['deck_count']} cards in the black hole)\n"]
    out.extend(f"  {_planet(p)}" + (f"  {p['ships']} neutral ship(s)" if p["ships"] else "")
               + f"  line D: {_reach(p)}\n" for p in s["galaxy"])
    out.append("\nEMPIRES\n")
    for e in s["empires"]:
        out.append(f"  {e['name']}{' (conceded)' if e['conceded'] else ''}: "
                   f"{e['homeplanets']} homeplanets with {e['home_ships']} ship(s); "
                   f"{e['ships']} ship(s) in play\n")
        out.extend(f"    colony {_planet(c)}  {c['ships']}/{c['limit']} ship(s)  line D: "
                   f"{_reach(c)}\n" for c in e["colonies"])
        if not e["colonies"]:
            out.append("    no colonies\n")
    return out


def _power_text(r: Context) -> list[str]:
    """``_power.txt``: one reader's hand, reach and order form."""
    out = [f"{str(r['name']).upper()}: YOUR HAND (only you see it)\n"]
    out.extend(f"  {_planet(c)}  {c['ships']}/{c['limit']} ship(s)  line D: {_reach(c)}\n"
               for c in r["hand"])
    out.append(f"  Population of your empire: {r['population']}. Next reinforcements: "
               f"{r['reinforcements']} ({r['stock']} of 108 in stock).\n")
    if r["retreat"]:
        out.append("  Ships sent home go first to: "
                   + ", ".join(str(x) for x in r["retreat"]) + ".\n")
    if r["targets"]:
        out.append("  WITHIN REACH (line D)\n")
        out.extend("    from %-3s: " % (t["from"],)  # noqa: UP031 - Jinja's format
                   + (", ".join(str(x) for x in t["targets"]) or "nothing to attack") + "\n"
                   for t in r["targets"])
    if r["order_form"]:
        out.append(f"\n----- 8< ----- order file: {r['name']}, turn {r['turn']} ----- 8< -----\n"
                   f"{r['order_form']}\n----- 8< ----- end of order file ----- 8< -----\n")
    return out


def text(c: Context, filters: Filters) -> str:
    """``turn_report.txt``."""
    para = filters["para"]
    game, s = c["game"], c["shared"]
    out = [f"{game['game_title']} · {game['title']}\n\nTURN {c['first']['resolved_turn']}\n"]
    out.extend(para(line, 4, "  ") + "\n" for line in s["events"])
    if not s["events"]:
        out.append("  Nothing you could see happened.\n")
    window = s["window"]
    if window:
        out.append(f"Next: {window['label']} (orders from "
                   + ", ".join(str(p).capitalize() for p in window["due"]) + ").\n")
    out += _notes_text(para, c["notes"])
    out.append("\n")
    out += _tables_text(s)
    for r in c["reports"]:
        out.append("\n")
        out += _power_text(r)
    if game["deadline"]:
        out.append(f"Orders are due {game['deadline']['utc']}.\n")
    out.append(f"\n-- \nSent by the referee of {game['id']}. Reply with your signed orders as "
               "plain\ntext (the block `pbem orders sign` prints); HTML-only mail is not read.\n")
    return "".join(out)


#: template name -> (the function writing it, the template sources it is written from, the
#: SHA-256 of those sources when it was written: pbem.render.plain.sources_digest).
WRITERS: dict[str, Writer] = {
    "turn_report.subject.txt": (subject, ("turn_report.subject.txt",),
        "2bbfa0d57a999dc859d52a8dd4ca2943d3d5237cff8977ad2d0516b32a349bb8"),
    "turn_report.txt": (text, ("turn_report.txt", "_turn_notes.txt", "_tables.txt",
                               "_power.txt", "footer.txt"),
                        "807844e18dd504ee688bb8433dc900a7be3e278df5f7b0da1d03b59b55e3b32b"),
    "turn_report.html": (html, ("turn_report.html", "layout.html", "macros.html",
                                "_turn_notes.html", "_map.html", "_tables.html", "_power.html"),
                         "914802169e2b5628ce9ac3a9cc1490477331c0c1a67c0310deda82e17a06e15d"),
    "map.svg": (map_svg, ("map.svg",),
                "d4cd142091ac14c04220fa7c8b6a9c1aa3f081e2b3312bd1c3af09aba2cb4ee6"),
}
