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
  ``_power.html`` (report_html.py).

The templates stay the one definition: the renderer uses a function only while the SHA-256
of the sources it would load for that template (a game directory's override included) is the
digest in :data:`WRITERS` (pbem.render.plain.fits), and Jinja otherwise. A template edited
without this module is still rendered right, through Jinja; tests/games/b5cgs/test_b5cgs_writers.py
then fails until the functions and the digests follow (it compares both renderings over played
games and every branch)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .report_html import html
from .report_text import subject, text

Context = Mapping[str, Any]
Filters = Mapping[str, Callable[..., str]]

#: template name -> (the function writing it, the template sources it is written from, the
#: SHA-256 of those sources when it was written: pbem.render.plain.sources_digest).
WRITERS: dict[str, tuple[Callable[[Context, Filters], str], tuple[str, ...], str]] = {
    "turn_report.subject.txt": (subject, ("turn_report.subject.txt",),
        "c9cbb1472bbd2fb1d4807304a9eaf3cf22f9c8ef2b910e344dae5aabfd32c126"),
    "turn_report.txt": (text, ("turn_report.txt", "_turn_notes.txt", "_board.txt",
                               "_power.txt", "footer.txt"),
                        "9ab1c9245d3499e41178743fa2ef14ceb9e0a953994ac0570b26acdc1bdb9f2a"),
    "turn_report.html": (html, ("turn_report.html", "layout.html", "macros.html",
                                "_turn_notes.html", "_board_rolls.html", "_board_map.html",
                                "_map.html", "_board_units.html", "_power.html"),
                         "b7ad1ddcfa4ee7878e654c3cf91579f8a799af394057f3b2e197bc5381ced231"),
}
