"""4000 A.D.'s turn report and game master's summary written without Jinja, exactly as its
templates write them (issue 30, "a game-turn near its floor"): the presenter's ``writers``
(docs/plugins.md, "Writers").

Why: a game-turn renders four reports and a summary, and Jinja's rendering of
``turn_report.html`` and ``turn_report.txt`` (a few hundred escaped values, partials and
macros a report) was the largest part of their cost. Each of these templates is a function
giving the same text (trim_blocks, lstrip_blocks, autoescape for .html: pbem.render.jinjaenv):

* ``turn_report.subject.txt``, and ``turn_report.txt`` with ``_keepsakes.txt``,
  ``_turn_notes.txt``, ``_starmap.txt``, ``_power.txt``, ``_reach.txt`` and ``footer.txt``
  (report_text.py);
* ``turn_report.html`` with ``layout.html``, ``macros.html``, ``_turn_notes.html``,
  ``_power.html`` and ``_reach.html`` (report_html.py);
* ``map.svg``, putting together what starmap_svg.py wrote (here): the reports' map and the
  summary's;
* the game master's summary, ``gm_summary.subject.txt`` and ``gm_summary.txt`` with
  ``_keepsakes.txt``, ``_starmap.txt`` and ``_gm_missed.txt`` (report_text.py), and
  ``gm_summary.html`` with ``layout.html``, ``macros.html`` and ``_gm_missed.html``
  (report_html.py): written once a game-turn, through Jinja it cost 0.46 ms of a ~9.7 ms
  game-turn.

The templates stay the one definition: the renderer uses a function only while the SHA-256
of the sources it would load for that template (a game directory's override included) is the
digest in :data:`WRITERS` (pbem.render.plain.fits), and Jinja otherwise. A template edited
without this module is still rendered right, through Jinja;
tests/games/4000ad/test_report_writers.py then fails until the functions and the digests
follow (it compares both renderings over played games and every branch)."""

from __future__ import annotations

from pbem.game.partials import Context, Filters, Writer, escaped

from .report_html import gm_html, html
from .report_text import gm_subject, gm_text, subject, text


def map_svg(c: Context, filters: Filters) -> str:
    """``map.svg``: the pieces starmap_svg wrote (present.map_context) put together."""
    width, height, title = escaped(c["width"]), escaped(c["height"]), escaped(c["title"])
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
            f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            'style="max-width:100%;height:auto" font-family="Helvetica, Arial, sans-serif">\n'
            f"<title>{title}</title>\n<style>{escaped(c['readers_css'])}</style>\n"
            f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>\n'
            f'<text x="10" y="22" font-size="15" font-weight="bold" fill="#1f2933">{title}'
            f"</text>\n{escaped(c['field_svg'])}{escaped(c['reach_svg'])}{escaped(c['legend_svg'])}"
            f"{escaped(c['reach_legend_svg'])}</svg>\n")


#: template name -> (the function writing it, the template sources it is written from, the
#: SHA-256 of those sources when it was written: pbem.render.plain.sources_digest).


WRITERS: dict[str, Writer] = {
    "turn_report.subject.txt": (
        subject, ("turn_report.subject.txt",),
        "5d9c0bfc1cdf1f8666c161902959612b46c1b4bc16460d5f5c55c0a9b59d5fa7"),
    "turn_report.txt": (text, ("turn_report.txt", "_keepsakes.txt", "_turn_notes.txt",
                               "_starmap.txt", "_power.txt", "_reach.txt", "footer.txt"),
                        "f237db29759345743bf1bb84fc77ca69e91d2bc38a979b3364b06d1d55a70db3"),
    "turn_report.html": (html, ("turn_report.html", "layout.html", "macros.html",
                                "_turn_notes.html", "_power.html", "_reach.html"),
                         "a02ed0647a9da9cbad174f07d06fbe7f0c37bbcfcfefb0bd68c01a68a5c49e80"),
    "gm_summary.subject.txt": (
        gm_subject, ("gm_summary.subject.txt",),
        "ca12ca6d03c4027d7379c3e7a5bb09ce773912002416fca231fa14b9aebb8195"),
    "gm_summary.txt": (gm_text, ("gm_summary.txt", "_keepsakes.txt", "_starmap.txt",
                                 "_gm_missed.txt"),
                       "5e99c5839ccc48f27e2cf23e5f7225bbda43e68b54808c4d9517ef433a5307e1"),
    "gm_summary.html": (gm_html, ("gm_summary.html", "layout.html", "macros.html",
                                  "_gm_missed.html"),
                        "b262fe29a8ea1a64a792975b0fecf094609ce859027b4cbec55401cf36174fdb"),
    "map.svg": (map_svg, ("map.svg",),
                "966770323b9f13899df41f506af023a6175f90f8717b073f4b77d1b1e43224ca"),
}
