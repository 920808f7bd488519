"""Babylon 5 CGS's turn report and map written without Jinja (games/b5cgs/writers.py, the
presenter's ``writers``) are what its templates write: whole mails of played games rendered
both ways, byte for byte; every branch of the templates over contexts of those games; and a
game directory's override of one of the sources is rendered by Jinja."""

from __future__ import annotations

import functools
import importlib
import itertools
from pathlib import Path
from typing import Any

import pytest
from markupsafe import Markup

from pbem.render import mails, plain
from pbem.render.environment import Renderer
from tests.support.b5cgs_driver import PLUGIN
from tests.support.b5cgs_play import played
from tests.support.writers import (
    Keeping,
    assert_writers_fit,
    jinja_renderer,
    overridden,
    same_both_ways,
    same_branches,
    varied_deadline,
    varied_notes,
)

WRITERS = PLUGIN.presenter.writers
INSTANCE = "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"
GAMES = [
    {"game_id": "b5-test", "title": "B5 test", "deadline": None, "checkpoint": None, "seq": 3,
     "instance": INSTANCE},
    {"game_id": "b5-late", "title": "Tom & Jerry's <war>", "deadline": "2026-12-02T18:00:00Z",
     "checkpoint": None, "seq": 4, "instance": INSTANCE, "missed": {"minbari": 1}},
]
PLAYERS = [{"name": "", "email": "", "tz": ""},
           {"name": "Ann <the first>", "email": "ann@example.org", "tz": "Europe/Paris"}]


def _jinja_renderer() -> Renderer:
    return jinja_renderer("b5cgs", WRITERS)


def _resolutions() -> list[tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]]:
    """Random legal games of every variant, to their ends (or the players' agreement), played
    once for the process (tests/support/b5cgs_play.played)."""
    out = []
    for seed, variant in enumerate(["basic-2", "modular-3", "basic-4", "modular-4"]):
        out += [(before, after, events) for before, _, after, events in played(variant, seed, 10)]
    return out


def test_the_writers_fit_the_bundled_templates() -> None:
    assert_writers_fit("b5cgs", WRITERS, "games/b5cgs/writers.py")


def test_reports_of_played_games_are_the_same_with_or_without_jinja() -> None:
    """Every reader's report and the game master's summary (its map.svg), one power and
    several, two sets of game facts: the whole mail, byte for byte."""
    count = same_both_ways(PLUGIN, _resolutions(),
                           lambda i, _power: (GAMES[i % 2], PLAYERS[i // 2 % 2]))
    assert count > 200


@functools.cache
def _kept() -> Keeping:
    """The contexts of reports and summaries of a third of the resolutions, rendered once for
    the file's tests (each reads them, none changes them: each varies a copy)."""
    renderer = Keeping("b5cgs")
    for index, (before, after, events) in enumerate(_resolutions()[::3]):
        powers = list(after["powers"])
        for readers in ([powers[0]], powers[:2]):
            mails.turn_report(renderer, PLUGIN, before, after, events, readers,
                              PLAYERS[0], GAMES[index % 2])
        mails.gm_summary(renderer, PLUGIN, before, after, events, GAMES[index % 2])
    return renderer


def _contexts() -> list[dict[str, Any]]:
    return _kept().kept


NOTES = {
    "gm": ["The deadline moved to <Friday> & later."],
    "missed": ["Minbari missed step 3: its standing orders were played."],
    "order": ["Minbari", "Earth Alliance"],
    "earlier": ["On step 2 the <Minbari> moved."],
    "standing": ["Minbari sent no orders: the standing file (seq 2) was used."],
    "chance": {"step": 4, "draws": ["A die for <fire> at 1,1: 5."],
               "missing": ["Your value was not in the file"], "verify": "Run pbem dice verify."},
}


def _varied(ctx: dict[str, Any], i: int) -> dict[str, Any]:
    """``ctx`` with one combination of the notes, deadline, titles and the map's presence."""
    notes, deadline = varied_notes(NOTES, i), varied_deadline(i)
    game = {**ctx["game"], "deadline": deadline,
            "game_title": ["Babylon 5 CGS", ""][i % 2],
            "title": ["Tom & Jerry's <war>", ctx["game"]["id"]][i // 2 % 2]}
    return {**ctx, "notes": notes, "game": game,
            "map_svg": ctx["map_svg"] if i // 3 % 2 else None}


def test_every_branch_is_written_as_the_templates_write_it() -> None:
    """The contexts of played games' reports (set-up steps, dice, threats, purchases, order
    forms, results, one reader and two), each with combinations of what the templates branch
    on besides (notes, deadline, titles, the inline map or the text one)."""
    renderer = _jinja_renderer()
    contexts = _contexts()
    assert len(contexts) > 20
    assert any(c["shared"]["result"] for c in contexts)
    assert any(c["shared"]["rolls"] for c in contexts)
    assert any(c["shared"]["window"] for c in contexts)
    assert any(c["shared"]["round"] for c in contexts)
    assert any(not c["shared"]["events"] for c in contexts)
    assert any(r["threats"] for c in contexts for r in c["reports"])
    assert any(r["purchases"] for c in contexts for r in c["reports"])
    assert any(r["order_form"] for c in contexts for r in c["reports"])
    checked = same_branches(WRITERS, renderer, contexts, _varied,
                            lambda n: itertools.chain(range(0, 64, 7), [63, 5 + n % 59]))
    assert checked > 200


def test_every_branch_of_the_summary_is_written_as_the_templates_write_it() -> None:
    """The game master's summaries of played games, each with and without missed turns, the
    inline map, and titles holding what is escaped."""
    renderer = _jinja_renderer()
    gms = _kept().gms
    assert len(gms) > 10
    for ctx in gms:
        for i in range(8):
            game = {**ctx["game"], "game_title": ["Babylon 5 CGS", ""][i % 2],
                    "title": ["Tom & Jerry's <war>", ctx["game"]["id"]][i // 2 % 2]}
            varied = {**ctx, "game": game, "map_svg": ctx["map_svg"] if i // 4 else None,
                      "missed_now": [[], ["Minbari <missed> step 3 & more."]][i % 2]}
            subject = renderer.render("gm_summary.subject.txt", varied)
            assert plain.render("gm_summary.subject.txt", varied, WRITERS) == subject
            varied["subject"] = " ".join(subject.split())
            for name in ("gm_summary.txt", "gm_summary.html"):
                assert plain.render(name, varied, WRITERS) == renderer.render(name, varied), (
                    name, i)


def test_the_board_is_written_once_for_every_reader() -> None:
    """A step's reports and the game master's summary whose readers see the same board share
    one common part, and the writers write its board (text, dice, units and banks) once for
    all of them: the text every mail carries is the one the first reader's mail was given."""
    report_text = importlib.import_module("b5cgs.report_text")
    before, after, events = _resolutions()[3]
    renderer = Renderer("b5cgs")
    made = [mails.turn_report(renderer, PLUGIN, before, after, events, [p], PLAYERS[0],
                              GAMES[0]) for p in after["powers"]]
    kept = report_text._ONCE[0][2]
    assert kept and "THE MAP" in kept
    made.append(mails.gm_summary(renderer, PLUGIN, before, after, events, GAMES[0]))
    assert report_text._ONCE[0][2] is kept
    assert all(kept.rstrip() in "\n".join(x.rstrip() for x in m.text.splitlines())
               for m in made)


def test_every_branch_of_the_map_is_drawn_as_the_template_draws_it() -> None:
    """The maps of played games (ships and bases, facing lines, moves, jumps and fire), and
    each again with every unit's crippling turned over, the lines' kinds taking turns (fire
    too) and its title, labels and the lines' titles holding what is escaped."""
    renderer = _jinja_renderer()
    maps = _kept().maps
    units = [u for m in maps for u in m["units"]]
    assert {(u["base"], u["tip_x"] is None) for u in units} >= {(True, True), (False, False)}
    assert {x["kind"] for m in maps for x in m["lines"]} >= {"jump", "move"}
    for m in maps:
        assert plain.render("map.svg", m, WRITERS) == renderer.render("map.svg", m)
        odd = {**m, "title": "Tom & Jerry's <war>", "readers_css": "a>b",
               "units": [{**u, "label": "<t1>", "crippled": not u["crippled"]}
                         for u in m["units"]],
               "lines": [{**x, "title": "a \"b\" & <c>", "kind": ["fire", "jump", "move"][i % 3]}
                         for i, x in enumerate(m["lines"])]}
        assert plain.render("map.svg", odd, WRITERS) == renderer.render("map.svg", odd)


def test_values_are_escaped_as_jinja_escapes_them() -> None:
    """Markup passes through, text with <, &, quotes is escaped, in every value the HTML
    writes."""
    renderer = _jinja_renderer()
    ctx = _varied(_contexts()[0], 63)
    ctx["shared"] = {**ctx["shared"],
                     "events": ["Minbari's <fleet> & \"friends\" moved.", Markup("<b>kept</b>")],
                     "window": {"label": "the <Minbari> & co", "due": ["a<b", "c&d"]}}
    ctx["subject"] = "[g] Step <3> & 'more'"
    for name in ("turn_report.txt", "turn_report.html"):
        if name in WRITERS:
            assert plain.render(name, ctx, WRITERS) == renderer.render(name, ctx)


@pytest.mark.parametrize("source", ["_power.html", "_board.txt", "turn_report.subject.txt",
                                    "map.svg", "_gm_missed.html"])
def test_an_override_in_the_game_directory_is_rendered_by_jinja(tmp_path: Path,
                                                                source: str) -> None:
    """A game directory's own copy of a source the writers were written from (changed) is
    no source they fit: the renderer loads the templates, and the mail says what the
    override says; the other templates are still written without Jinja."""
    renderer = overridden("b5cgs", WRITERS, tmp_path, source)
    before, after, events = _resolutions()[2]
    power = list(after["powers"])[0]
    mail = mails.turn_report(renderer, PLUGIN, before, after, events, [power], PLAYERS[0],
                             GAMES[0])
    summary = mails.gm_summary(renderer, PLUGIN, before, after, events, GAMES[0])
    part = {"_power.html": mail.html, "_board.txt": mail.text, "turn_report.subject.txt":
            mail.subject, "_gm_missed.html": summary.html,
            "map.svg": next(a[2].decode() for a in mail.attachments if a[0] == "map.svg")}
    assert "Our own words." in part[source]
    assert "env" in vars(renderer)  # Jinja rendered the override
