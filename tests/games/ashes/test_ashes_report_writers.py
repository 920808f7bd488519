"""The Ashes of Empire's turn report and map written without Jinja (games/ashes/writers.py,
the presenter's ``writers``) are what its templates write: whole mails of played games
rendered both ways, byte for byte; every branch of the templates over contexts of those games;
and a game directory's override of one of the sources is rendered by Jinja."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from markupsafe import Markup

from pbem.render import mails, plain
from pbem.render.environment import Renderer, keepsake
from tests.support.ashes_driver import PLUGIN
from tests.support.ashes_play import play
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
CHECKPOINT = ("pbem-checkpoint game=ashes-test length=53 "
              "head=9c41d2a07b3e55f1c0de4b6a8e2f719a3c5d0b8e6f4a2c1d9e7b5a3f1c0d2e4b\n"
              " sig=" + "Q" * 86 + "\n")
LONG_CHECKPOINT = CHECKPOINT.replace("Q" * 86, "Q" * 120)
GAME = {"game_id": "ashes-test", "title": "Ashes <& test>", "deadline": "2026-12-02T18:00:00Z",
        "checkpoint": CHECKPOINT, "missed": {"red": 1},
        "instance": "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"}
PLAYER = {"name": "Ann Example", "email": "ann@example.org", "tz": "Europe/Paris"}


def _jinja_renderer() -> Renderer:
    return jinja_renderer("ashes", WRITERS)


def _resolutions() -> list[tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]]:
    """Random legal games of both modes: two to their ends, two for their first steps."""
    out = []
    for variant, seed, whole in (("rounds-2", 1, True), ("sequential-3", 2, True),
                                 ("rounds-4", 3, False), ("sequential-5", 4, False)):
        steps = [(before, after, events) for before, _, after, events
                 in play(variant, seed, limit=400 if whole else 24, to_the_end=whole)]
        out += steps if len(steps) <= 40 else steps[:20] + steps[20:-1:7] + steps[-1:]
    return out


def _game(index: int) -> dict[str, Any]:
    return [GAME, {**GAME, "checkpoint": None, "deadline": None, "seq": 3},
            {**GAME, "checkpoint": LONG_CHECKPOINT, "missed": {}, "title": "ashes-test"}][index % 3]


def test_the_writers_fit_the_bundled_templates() -> None:
    assert_writers_fit("ashes", WRITERS, "games/ashes/writers.py")


def test_reports_of_played_games_are_the_same_with_or_without_jinja() -> None:
    """Every reader's report and the game master's summary (its map.svg), one power and
    several, three sets of game facts: the whole mail, byte for byte."""
    count = same_both_ways(PLUGIN, _resolutions(), lambda i, _power: (_game(i), PLAYER))
    assert count > 300


def _contexts() -> list[dict[str, Any]]:
    renderer = Keeping("ashes")
    resolutions = _resolutions()
    ends = [r for r in resolutions if PLUGIN.is_over(r[1])]
    for index, (before, after, events) in enumerate(resolutions[::2] + ends):
        powers = list(after["powers"])
        for readers in ([powers[index % len(powers)]], powers[:2]):
            mails.turn_report(renderer, PLUGIN, before, after, events, readers, PLAYER,
                              _game(index))
    return renderer.kept


NOTES = {
    "gm": ["The deadline moved to <Friday> & later."],
    "missed": ["Red missed turn 3: its standing orders were played."],
    "order": ["Red", "Blue <2>"],
    "earlier": ["On turn 2 Blue's fleet <arrived>."],
    "standing": ["Green sent no orders: the standing file (seq 2) was used."],
    "chance": {"step": 4, "draws": ["A die for <battle> at B1: 5."],
               "missing": ["Your value was not in the file"], "verify": "Run pbem dice verify."},
}


def _varied(ctx: dict[str, Any], i: int) -> dict[str, Any]:
    """``ctx`` with one combination of the notes, deadline, checkpoint, titles, map and a
    conceded empire."""
    notes, deadline = varied_notes(NOTES, i), varied_deadline(i)
    checkpoint = [None, keepsake(CHECKPOINT, "checkpoint.txt"),
                  keepsake(LONG_CHECKPOINT, "checkpoint.txt")][i // 3 % 3]
    game = {**ctx["game"], "deadline": deadline, "checkpoint": checkpoint,
            "game_title": ["The Ashes of Empire", ""][i % 2],
            "title": ["Tom & Jerry's <war>", ctx["game"]["id"]][i // 2 % 2]}
    empires = [{**e, "conceded": e["conceded"] or (i // 11 % 2 == 1 and n == 0)}
               for n, e in enumerate(ctx["shared"]["empires"])]  # (random play concedes not)
    return {**ctx, "notes": notes, "game": game, "shared": {**ctx["shared"], "empires": empires},
            "map_svg": [ctx["map_svg"], None][i // 7 % 2]}


def test_every_branch_is_written_as_the_templates_write_it() -> None:
    """The contexts of played games' reports (results, conceded empires, empty colonies and
    galaxies, retreat lists, targets or none, order forms or none, one reader and two), each
    with combinations of what the templates branch on besides (notes, deadline, checkpoint,
    titles, the inline map)."""
    renderer = _jinja_renderer()
    contexts = _contexts()
    assert len(contexts) > 20
    shared = [c["shared"] for c in contexts]
    reports = [r for c in contexts for r in c["reports"]]
    assert any(s["result"] for s in shared) and any(not s["window"] for s in shared)
    assert any(not s["events"] for s in shared) and any(s["window"] for s in shared)
    assert any(not e["colonies"] for s in shared for e in s["empires"])
    assert any(e["colonies"] for s in shared for e in s["empires"])
    assert any(p["ships"] for s in shared for p in s["galaxy"])
    assert any(not p["ships"] for s in shared for p in s["galaxy"])
    assert any(r["retreat"] for r in reports) and any(not r["retreat"] for r in reports)
    assert any(r["targets"] for r in reports) and any(not r["targets"] for r in reports)
    assert any(not t["targets"] for r in reports for t in r["targets"])
    assert any(r["order_form"] for r in reports) and any(not r["order_form"] for r in reports)
    checked = same_branches(WRITERS, renderer, contexts, _varied,
                            lambda n: itertools.chain(range(0, 64, 5), [63, 5 + n % 59]))
    assert checked > 400


def test_values_are_escaped_as_jinja_escapes_them() -> None:
    """Markup passes through, text with <, &, quotes is escaped, in every value the HTML
    writes."""
    renderer = _jinja_renderer()
    ctx = _varied(_contexts()[0], 63)
    s = ctx["shared"]
    odd = {"code": "<A&>", "number": 7, "population": "'3'", "ships": '"2"', "limit": 4,
           "reach": ["<B>", Markup("<i>C</i>"), 5]}
    ctx["shared"] = {**s, "events": ["Red's <fleet> & \"friends\" arrived.",
                                     Markup("<b>kept</b>")],
                     "galaxy": [*s["galaxy"], odd], "window": {"label": "<x>", "due": ["r&d"]},
                     "empires": [{**s["empires"][0], "name": "<Red & co>", "colonies": [odd]}]}
    ctx["reports"] = [{**r, "name": "Red <1>", "hand": [odd], "retreat": ["<Z>"],
                       "order_form": "a: <b> & 'c'",
                       "targets": [{"from": "<A>", "targets": ["x&y", "<z>"]}]}
                      for r in ctx["reports"]]
    ctx["subject"] = "[g] Turn <3> & 'more'"
    for name in ("turn_report.subject.txt", "turn_report.txt", "turn_report.html"):
        assert plain.render(name, ctx, WRITERS) == renderer.render(name, ctx)


@pytest.mark.parametrize("source", ["_power.html", "_tables.txt", "turn_report.txt", "map.svg"])
def test_an_override_in_the_game_directory_is_rendered_by_jinja(tmp_path: Path,
                                                                source: str) -> None:
    """A game directory's own copy of a source the writers were written from (changed) is
    no source they fit: the renderer loads the templates, and the mail says what the
    override says; the other templates are still written without Jinja."""
    renderer = overridden("ashes", WRITERS, tmp_path, source)
    before, after, events = _resolutions()[0]
    power = next(iter(after["powers"]))
    mail = mails.turn_report(renderer, PLUGIN, before, after, events, [power], PLAYER, GAME)
    part = {"_power.html": mail.html, "_tables.txt": mail.text, "turn_report.txt": mail.text,
            "map.svg": next(a[2].decode() for a in mail.attachments if a[0] == "map.svg")}
    assert "Our own words." in part[source]
    assert "env" in vars(renderer)  # Jinja rendered the override
