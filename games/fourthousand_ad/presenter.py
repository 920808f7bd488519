"""The index of 4000 A.D.'s presentation building blocks, for the tools and tests that use one
of them by name (``ad_module("presenter").sentence``). The blocks live in modules named for what
they hold; present.py wires them to the contract's mails:

* words.py: names, abbreviations, colours, plurals, the reader's ``Voice``
* sentences.py: every event as a plain sentence
* starmap.py: the star field as cells (HTML, SVG) and 80-column text
* threats.py: the reader's warps and the other powers' threat lists
* reach.py: where each warp can come out next turn, distances from the reader's stars
* powers.py: production forecast, the powers table, alliances, the home-star warning
* orderform.py: the pre-filled order form and the receipt's restated orders
* contexts.py: whole mail contexts (report, shared part, welcome, GM summary, result)
* writers.py: the turn report's templates and map.svg written without Jinja while the
  templates are the ones they were written from (the presenter's ``writers``; the text in
  report_text.py, the HTML in report_html.py)

Every function takes a view (``plugin.view(state, power)``) and the events that power may see
(``plugin.view_events``); none reads a state, the clock or a file.
"""

from __future__ import annotations

from .contexts import (
    gm,
    public_proposals,
    report,
    result_context,
    reveal_lines,
    shared,
    star_field_parts,
    welcome,
)
from .orderform import order_form, receipt_lines
from .powers import alliance_lines, forecast, home_warning, powers_table
from .reach import distances, reach, warp_reach
from .sentences import sentence, sentences
from .starmap import (
    MAP_COLUMN,
    area_grid,
    legend,
    map_notes,
    neutral_grid,
    star_cell,
    star_map,
    star_map_text,
    stars_in,
)
from .threats import other_warps, own_warps, threats
from .words import (
    COLOURS,
    NEUTRAL,
    Voice,
    abbr,
    and_list,
    cap,
    colours,
    plural,
    power_name,
    short_hex,
    symbols,
)

__all__ = [
    "COLOURS", "MAP_COLUMN", "NEUTRAL", "Voice", "abbr", "alliance_lines", "and_list",
    "area_grid", "cap", "colours", "distances", "forecast", "gm", "home_warning", "legend",
    "map_notes", "neutral_grid", "order_form", "other_warps", "own_warps", "plural", "power_name",
    "powers_table", "public_proposals", "reach", "receipt_lines", "report", "result_context",
    "reveal_lines", "sentence", "sentences", "shared", "short_hex", "star_cell",
    "star_field_parts", "star_map",
    "star_map_text", "stars_in", "symbols", "threats", "warp_reach", "welcome",
]
