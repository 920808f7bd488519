"""Babylon 5 CGS's turn report written without Jinja, exactly as its templates write it (issue
30, "a B5 step ≤ 1.5× a 4000 A.D. game-turn"): the presenter's ``writers`` (docs/plugins.md,
"Writers").

Why: a step renders a report per reader, and Jinja's rendering of ``turn_report.html``,
``turn_report.txt``, ``map.svg`` and the subject was a third of the report's cost. Each is a
function giving the same text (trim_blocks, lstrip_blocks, autoescape for .html and .svg:
pbem.render.jinjaenv):

* ``turn_report.subject.txt``, and ``turn_report.txt`` with ``_turn_notes.txt``,
  ``_board.txt``, ``_power.txt`` and ``footer.txt`` (report_text.py);
* ``turn_report.html`` with ``layout.html``, ``macros.html``, ``_turn_notes.html``,
  ``_board_rolls.html``, ``_board_map.html``, ``_map.html``, ``_board_units.html`` and
  ``_power.html`` (report_html.py);
* ``map.svg``, putting together what hexmap_svg.py drew (here);
* the game master's summary, ``gm_summary.subject.txt``, ``gm_summary.txt`` (report_text.py)
  and ``gm_summary.html`` (report_html.py): since the reports' board parts are written here,
  not drawn with the renderer's ``once``, the summary's would otherwise be drawn by Jinja
  again each step.

The templates stay the one definition: the renderer uses a function only while the SHA-256
of the sources it would load for that template (a game directory's override included) is the
digest in :data:`WRITERS` (pbem.render.plain.fits), and Jinja otherwise. A template edited
without this module is still rendered right, through Jinja; tests/games/b5cgs/test_b5cgs_writers.py
then fails until the functions and the digests follow (it compares both renderings over played
games and every branch)."""

from __future__ import annotations

from pbem.game.partials import Context, Filters, Writer, escaped

from .report_html import gm_html, html
from .report_text import gm_subject, gm_text, subject, text

_e = escaped  # (short: the writer escapes every value it prints)


def _unit(u: Context) -> str:
    x, y, r, strong, power = _e(u["x"]), _e(u["y"]), u["r"], _e(u["strong"]), _e(u["power"])
    crippled = u["crippled"]
    fill = _e(u["light"]) if crippled else strong
    dashed = ' stroke-dasharray="3 2"' if crippled else ""
    if u["base"]:
        dot = (f'<rect x="{_e(u["x"] - r)}" y="{_e(u["y"] - r)}" width="{_e(2 * r)}" '
               f'height="{_e(2 * r)}" fill="{fill}" stroke="{strong}" stroke-width="1.5"'
               f'{dashed} class="dot p-{power}"/>\n')
    else:
        dot = (f'<circle cx="{x}" cy="{y}" r="{_e(r)}" fill="{fill}" stroke="{strong}" '
               f'stroke-width="1.5"{dashed} class="dot p-{power}"/>\n')
    if u["tip_x"] is not None:
        dot += (f'<line x1="{x}" y1="{y}" x2="{_e(u["tip_x"])}" y2="{_e(u["tip_y"])}" '
                'stroke="#111827" stroke-width="2.5" class="facing"/>\n')
    return (f'{dot}<text x="{x}" y="{_e(u["y"] + 4)}" fill="{strong if crippled else "#ffffff"}" '
            f'class="name p-{power}">{_e(u["label"])}</text>\n')


_DASHES = {"fire": ' stroke-dasharray="5 3"', "jump": ' stroke-dasharray="2 3"'}


def _line(x: Context) -> str:
    kind = x["kind"]
    return (f'<line x1="{_e(x["x1"])}" y1="{_e(x["y1"])}" x2="{_e(x["x2"])}" y2="{_e(x["y2"])}" '
            f'stroke="{_e(x["strong"])}" stroke-width="{"1.5" if kind == "fire" else "3"}"'
            f'{_DASHES.get(kind, "")} marker-end="url(#b5-arrow)" opacity="0.9" '
            f'class="{_e(kind)}"><title>{_e(x["title"])}</title></line>\n')


def map_svg(c: Context, filters: Filters) -> str:
    """``map.svg``: the pieces hexmap_svg.drawing gave (present.map_context) put together."""
    width, height, title = _e(c["width"]), _e(c["height"]), _e(c["title"])
    ly = c["map_bottom"] + 8
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
           f'class="map natural" width="{width}" height="{height}" viewBox="0 0 {width} '
           f'{height}" role="img" aria-label="{title}" font-family="Helvetica, Arial, '
           f'sans-serif">\n<title>{title}</title>\n<style>{_e(c["readers_css"])}</style>\n'
           '<defs><marker id="b5-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
           'markerHeight="6" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" '
           'fill="#111827"/></marker></defs>\n'
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>\n'
           f'<text x="10" y="22" font-size="15" font-weight="bold" fill="#1f2933">{title}'
           f'</text>\n{_e(c["hexes_svg"])}<path class="pieces" d="{_e(c["border_path"])}" '
           'fill="none" stroke="#1f2933" stroke-width="2"/>\n'
           '<g class="units" font-size="11" font-weight="bold" text-anchor="middle">\n']
    out.extend(map(_unit, c["units"]))
    out.append('</g>\n<g class="happened">\n')
    out.extend(map(_line, c["lines"]))
    out.append("</g>\n")
    for i, x in enumerate(c["legend"]):
        out.append(f'<rect x="{10 + i * 170}" y="{_e(ly)}" width="12" height="12" '
                   f'fill="{_e(x["strong"])}"/>\n<text x="{26 + i * 170}" y="{_e(ly + 11)}" '
                   f'font-size="11" fill="#1f2933">{_e(x["letter"])} {_e(x["name"])}</text>\n')
    grey = '" font-size="11" fill="#4b5563">'
    out.append(f'<text x="10" y="{_e(ly + 28)}{grey}Disc: ship (line: its facing); square: '
               f'base; pale, dashed: crippled.</text>\n<text x="10" y="{_e(ly + 42)}{grey}'
               "Arrow: moved this step (dotted: jumped); thin dashed: fire.</text>\n"
               f'<text x="10" y="{_e(ly + 56)}{grey}Grey: face-down piece. e economy, d '
               f'damage, m mine(field),</text>\n<text x="10" y="{_e(ly + 70)}{grey}G '
               "jumpgate, B5 Babylon 5.</text>\n</svg>\n")
    return "".join(out)


#: template name -> (the function writing it, the template sources it is written from, the
#: SHA-256 of those sources when it was written: pbem.render.plain.sources_digest).
WRITERS: dict[str, Writer] = {
    "turn_report.subject.txt": (subject, ("turn_report.subject.txt",),
        "c9cbb1472bbd2fb1d4807304a9eaf3cf22f9c8ef2b910e344dae5aabfd32c126"),
    "turn_report.txt": (text, ("turn_report.txt", "_turn_notes.txt", "_board.txt",
                               "_power.txt", "footer.txt"),
                        "9ab1c9245d3499e41178743fa2ef14ceb9e0a953994ac0570b26acdc1bdb9f2a"),
    "turn_report.html": (html, ("turn_report.html", "layout.html", "macros.html",
                                "_turn_notes.html", "_board_rolls.html", "_board_map.html",
                                "_map.html", "_board_units.html", "_power.html"),
                         "b7ad1ddcfa4ee7878e654c3cf91579f8a799af394057f3b2e197bc5381ced231"),
    "gm_summary.subject.txt": (gm_subject, ("gm_summary.subject.txt",),
        "889b16e4041dc737c597532b4b63b9ce0e1db5f52cc67b84798a68f387d49ae4"),
    "gm_summary.txt": (gm_text, ("gm_summary.txt", "_board.txt", "_gm_missed.txt",
                                 "footer_gm.txt"),
                       "b44415ece48d39d06653ab2cd317d0db83716ea31985e044a6b9e4698c8ea794"),
    "gm_summary.html": (gm_html, ("gm_summary.html", "layout.html", "_board_rolls.html",
                                  "_board_map.html", "_map.html", "_board_units.html",
                                  "_gm_missed.html"),
                        "be4ff69f973d9c7a66a554344bf7b0318a45dd9e907719395fb48b835732b485"),
    "map.svg": (map_svg, ("map.svg",),
                "b21f7f01265b3e5bc1bad3ea2a90c9e8f14530f45d6d5369976f701cc2d041da"),
}
