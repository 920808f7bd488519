"""Fragments a resolution's mails share are drawn once, with the same bytes as drawn whole:
4000 A.D.'s star field in map.svg (the same for every reader: the reader's own stars are marked
by CSS) is written once per star field and put into each reader's map.svg, and each view is
computed once per state and power; 4000 A.D.'s HTML star field is written once and marked per
reader, and partials drawn once with Renderer.once (B5's text board) are the same for every
reader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from markupsafe import Markup

from pbem.game import marks, registry
from pbem.game.practice import PracticeChance
from pbem.render import mails
from pbem.store import replay
from tests.support.pbem_host import Host, at


def _departed(tmp_path: Path) -> tuple[Host, Any, dict[str, Any]]:
    """A 4000 A.D. game whose first turn every power played with a departure: the host, the
    plugin and the state after it."""
    host = Host(tmp_path)
    for power in host.powers:
        body = {"depart": host.depart(power, host.state()["powers"][power]["home"], 3,
                                      "Hamal" if power == "algol" else "Vega")}
        assert host.submit(power, body, at(1)).verdict == "accepted"
    assert host.run(at(2))[0].status == "resolved"
    plugin = registry.load("4000ad")
    return host, plugin, replay.load_state(plugin, host.game()).state


def test_the_map_from_a_shared_star_field_is_the_map_drawn_whole(tmp_path):
    host, plugin, state = _departed(tmp_path)
    renderer = mails.Renderer("4000ad")
    pres = mails.presenter(plugin)
    readers = [[p] for p in host.powers] + [host.powers[:2], []]
    fields = []
    for group in readers:
        view = renderer.view(plugin, state, group[0] if group else None)
        drawing = pres.map_context(dict(view), group, None)
        fields.append(drawing["field_svg"])
        ctx = {**drawing, "title": "t", "turn": view["turn"], "readers_css": mails.READERS_CSS}
        whole = renderer.render("map.svg", ctx)  # the template's own path: no cells given
        shared = mails._svg(renderer, pres, view, group, "t")
        css = "".join(f".p-{p}.dot{{stroke-width:2}}.p-{p}.name{{font-weight:bold}}"
                      for p in sorted(group))
        assert shared == [("map.svg", "image/svg+xml",
                           whole.replace(mails.READERS_CSS, css).encode())]
    # One star field for every reader of the state: it was written once.
    assert all(f is fields[0] for f in fields) and fields[0].count("<g>") == 12


def test_each_view_is_computed_once_per_state_and_power(tmp_path):
    host = Host(tmp_path)
    plugin = registry.load("4000ad")
    state = host.state()
    renderer = mails.Renderer("4000ad")
    first = {p: renderer.view(plugin, state, p) for p in [*host.powers, None]}
    again = {p: renderer.view(plugin, state, p) for p in [*host.powers, None]}
    assert all(first[p] is again[p] for p in first)
    assert all(first[p] == plugin.view(dict(state), p) for p in first)
    other = dict(state)  # an equal state that is another object: computed afresh
    assert renderer.view(plugin, other, host.powers[0]) is not first[host.powers[0]]


def test_the_html_star_field_is_drawn_once_and_marked_per_reader(tmp_path):
    """The turn report's HTML star field (games/fourthousand_ad/starfield_html.py) is written
    once per star field for every reader and the summary; each reader's report resolves its
    marks: bold on the reader's own stars, on no other, and no mark character is left in any
    mail."""
    host, plugin, state = _departed(tmp_path)
    renderer = mails.Renderer("4000ad")
    game = {"game_id": "g", "title": "G", "deadline": None, "checkpoint": None, "missed": {},
            "instance": "0" * 32}
    made = {p: mails.turn_report(renderer, plugin, state, state, [], [p], {"name": p}, game)
            for p in host.powers}
    made["gm"] = mails.gm_summary(renderer, plugin, state, state, [], game)
    tables = [plugin.presenter.shared([renderer.view(plugin, state, p)], [], [p])
              ["star_field_html"] for p in host.powers]
    assert all(t is tables[0] for t in tables)  # written once for every reader
    assert marks.has_marks(tables[0])
    html_row = "font-size:12px;line-height:1.25;"  # the start of each star's row
    for who, mail in made.items():
        assert not marks.has_marks(mail.html) and not marks.has_marks(mail.text)
        readers = [] if who == "gm" else [who]
        view = plugin.view(dict(state), None if who == "gm" else who)
        grid = plugin.presenter.star_map(view, readers)
        cells = [cell for row in grid for area in row for cell in area["stars"]]
        rows = [line for line in mail.html.splitlines() if html_row in line]
        assert len(rows) == len(cells)
        assert [("font-weight:bold;" in line) for line in rows] == [c["mine"] for c in cells]
        assert any(c["mine"] for c in cells) == bool(readers)


def test_marks_resolve_for_the_readers_only():
    text = marks.mark("algol", "<b>") + "x" + marks.mark("pavo", "y") + marks.mark(None, "z")
    assert marks.for_readers(text, ["algol"]) == "&lt;b&gt;x"
    assert marks.for_readers(text, ["pavo", "vega"]) == "xy"
    assert marks.for_readers(text, []) == "x"
    assert isinstance(marks.for_readers(text, []), Markup)


def test_once_renders_a_partial_once_per_equal_context(tmp_path):
    """Renderer.once: the same text for a context equal to one it has seen (identity first,
    then ==), a new rendering for any other, and the partial sees only what it is given."""
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "_part.html").write_text(
        "{% for l in legend %}{{ l.abbr }} {{ l.name }}{% endfor %} y={{ ly }}\n")
    renderer = mails.Renderer("4000ad", tmp_path)
    legend = [{"strong": "#000", "abbr": "ALG", "name": "Algol"}]
    first = renderer.once("_part.html", legend=legend, ly=10)
    assert renderer.once("_part.html", legend=legend, ly=10) is first
    assert renderer.once("_part.html", legend=[dict(legend[0])], ly=10) is first
    other = renderer.once("_part.html", legend=legend, ly=20)
    assert other is not first and "y=20" in other and "y=10" not in other
    renamed = renderer.once("_part.html", legend=[{**legend[0], "name": "Vega"}], ly=10)
    assert "Vega" in renamed and "Algol" not in renamed
    assert len(renderer.cache.parts["_part.html"]) == 3


def test_b5s_text_board_is_drawn_once_for_every_reader():
    """A B5 step: every power's report and the GM summary share one text board (_board.txt)
    when the readers see the same events, through the renderer's ``once`` where the
    templates are rendered by Jinja (B5's writers, used while its templates are the bundled
    ones, draw it once by their own: tests/games/b5cgs/test_b5cgs_writers.py)."""
    plugin = registry.load("b5cgs")
    state = plugin.setup("basic-4", {"game_id": "once"})
    for step in range(3):
        orders = {p: plugin.default_orders(state, p) for p in plugin.powers_due(state)}
        before = state
        result = plugin.resolve(json.loads(json.dumps(state)), orders,
                                PracticeChance("b5cgs", "once", step))
        state = result.state
    renderer = mails.Renderer("b5cgs")
    renderer._plain = dict.fromkeys(plugin.presenter.writers, False)  # the templates' once
    game = {"game_id": "once", "title": "G", "deadline": None, "checkpoint": None,
            "missed": {}, "instance": "0" * 32}
    powers = list(plugin.view(dict(state), None)["powers"])
    made = [mails.turn_report(renderer, plugin, before, state, result.events, [p],
                              {"name": p}, game) for p in powers]
    made.append(mails.gm_summary(renderer, plugin, before, state, result.events, game))
    seen = [plugin.view_events(list(result.events), p) for p in powers]
    if all(events == seen[0] for events in seen):
        assert len(renderer.cache.parts["_board.txt"]) == 1
    assert all("THE MAP" in m.text and not marks.has_marks(m.html) for m in made)


def test_the_view_before_is_made_only_for_a_presenter_that_reads_it():
    """turn_report hands report() the view before the resolution made on first read: B5's
    presenter never reads it, so no view of the state before is made; 4000 A.D.'s reads one
    field of it, which is the view's, only where the view after does not say it (sequential
    play: contexts.resolved_production)."""
    for game, read, options in (("b5cgs", False, {}), ("4000ad", False, {}),
                                ("4000ad", True, {"mode": "sequential"})):
        plugin = registry.load(game)
        variant = {"b5cgs": "basic-4", "4000ad": "independents-4"}[game]
        before = plugin.setup(variant, {"game_id": "later", **options})
        orders = {p: plugin.default_orders(before, p) for p in plugin.powers_due(before)}
        result = plugin.resolve(json.loads(json.dumps(before)), orders,
                                PracticeChance(game, "later", 0))
        renderer = mails.Renderer(game)
        game_facts = {"game_id": "later", "title": "G", "deadline": None, "checkpoint": None,
                      "missed": {}, "instance": "0" * 32}
        power = plugin.powers_due(before)[0]
        mails.turn_report(renderer, plugin, before, result.state, result.events, [power],
                          {"name": power}, game_facts)
        assert renderer.cache.views.holds(before, power) == read
