"""4000 A.D.'s turn report, game master's summary and map written without Jinja
(games/fourthousand_ad/writers.py, the presenter's ``writers``) are what its templates write:
whole mails of played games rendered both ways, byte for byte; every branch of the templates
over contexts of those games; and a game directory's override of one of the sources is
rendered by Jinja."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from markupsafe import Markup

from pbem.render import mails, plain
from pbem.render.environment import Renderer, keepsake
from tests.support.ad_driver import AD, Table, random_body
from tests.support.report_scenario import (
    CHECKPOINT,
    GAME,
    PLAYERS,
    alliances_game,
    golden_game,
    wild_game,
)
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

WRITERS = AD.presenter.writers
LONG_CHECKPOINT = CHECKPOINT.replace("Q" * 86, "Q" * 120)


def _jinja_renderer() -> Renderer:
    return jinja_renderer("4000ad", WRITERS)


def _resolutions() -> list[tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]]:
    """The scripted games' resolutions and random games of every version, to their ends."""
    out = []
    for play in (golden_game, wild_game, alliances_game):
        out += [(r.before, r.after, r.events) for r in play()[1]]
    for seed, (variant, options) in enumerate([
            ("independents-4", {}), ("wild-4", {"mode": "sequential"}), ("alliances-2", {}),
            ("independents-3", {"destinations": "free"})]):
        rng, table = random.Random(seed), Table(variant, **options)
        for _ in range(14):
            if AD.is_over(table.state):
                break
            before = table.state
            events = table.play(**{p: random_body(table, p, rng)
                                   for p in AD.powers_due(before)})
            out.append((before, table.state, events))
    return out


#: who missed the turn just resolved (the summary's "missed this turn", a report's notes)
NMR = {"pavo": {"turn": 3, "stale": ["warp 2 <gone>"], "escrow": ["1"], "alerted": True,
                "total": 2, "in_a_row": 1},
       "algol": {"turn": 3, "total": 1, "in_a_row": 1}}


def _game(index: int) -> dict[str, Any]:
    return [GAME, {**GAME, "checkpoint": None, "deadline": None, "seq": 3},
            {**GAME, "checkpoint": LONG_CHECKPOINT, "missed": {}, "title": "test-game"},
            {**GAME, "title": "Tom & Jerry's <war>", "press": {"algol": 2, "pavo": 1},
             "nmr": NMR, "missed": {"pavo": 2, "algol": 1}}][index % 4]


def _player(power: str) -> dict[str, Any]:
    return PLAYERS.get(power, {"name": "", "email": f"{power}@example.org", "tz": None})


def test_the_writers_fit_the_bundled_templates() -> None:
    assert_writers_fit("4000ad", WRITERS, "games/fourthousand_ad/writers.py")


def test_reports_of_played_games_are_the_same_with_or_without_jinja() -> None:
    """Every reader's report and the game master's summary (its map.svg), one power and
    several, four sets of game facts (with and without a deadline, a checkpoint, press, missed
    turns): the whole mail, byte for byte."""
    count = same_both_ways(AD, _resolutions(), lambda i, power: (_game(i), _player(power)))
    assert count > 300


def _kept() -> Keeping:
    renderer = Keeping("4000ad")
    for index, (before, after, events) in enumerate(_resolutions()[::3]):
        powers = list(after["powers"])
        for readers in ([powers[0]], powers[:2]):
            mails.turn_report(renderer, AD, before, after, events, readers,
                              _player(readers[0]), _game(index))
        mails.gm_summary(renderer, AD, before, after, events, _game(index))
    return renderer


def _contexts() -> list[dict[str, Any]]:
    return _kept().kept


NOTES = {
    "gm": ["The deadline moved to <Friday> & later."],
    "missed": ["Pavo missed turn 3: its standing orders were played."],
    "order": ["Pavo", "Antares"],
    "earlier": ["On turn 2 Algol's fleet <arrived>."],
    "standing": ["Algol sent no orders: the standing file (seq 2) was used."],
    "chance": {"step": 4, "draws": ["A die for <battle> at Hamal: 5."],
               "missing": ["Your value was not in the file"], "verify": "Run pbem dice verify."},
}


def _varied(ctx: dict[str, Any], i: int) -> dict[str, Any]:
    """``ctx`` with one combination of the notes, deadline, checkpoint and reader name."""
    notes, deadline = varied_notes(NOTES, i), varied_deadline(i)
    checkpoint = [None, keepsake(CHECKPOINT, "checkpoint.txt"),
                  keepsake(LONG_CHECKPOINT, "checkpoint.txt")][i // 3 % 3]
    game = {**ctx["game"], "deadline": deadline, "checkpoint": checkpoint,
            "game_title": ["4000 A.D.", ""][i % 2],
            "title": ["Tom & Jerry's <war>", ctx["game"]["id"]][i // 2 % 2]}
    player = {**ctx["player"], "name": ["", "Ann <the first>"][i // 5 % 2]}
    return {**ctx, "notes": notes, "game": game, "player": player}


def test_every_branch_is_written_as_the_templates_write_it() -> None:
    """The contexts of played games' reports (results, eliminations, production turns,
    alliances, warps in flight, one reader and two), each with combinations of what the
    templates branch on besides (notes, deadline, checkpoint, titles, the reader's name)."""
    renderer = _jinja_renderer()
    contexts = _contexts()
    assert len(contexts) > 20
    assert any(c["first"]["result"] for c in contexts)
    assert any(not r["alive"] for c in contexts for r in c["reports"])
    assert any(c["shared"]["alliances"] for c in contexts)
    assert any(c["shared"]["other_warps"] for c in contexts)
    checked = same_branches(WRITERS, renderer, contexts, _varied,
                            lambda n: itertools.chain(range(0, 64, 7), [63, 5 + n % 59]))
    assert checked > 400


def test_values_are_escaped_as_jinja_escapes_them() -> None:
    """Markup passes through, text with <, &, quotes is escaped, in every value the HTML
    writes."""
    renderer = _jinja_renderer()
    ctx = _varied(_contexts()[0], 63)
    ctx["shared"] = {**ctx["shared"],
                     "events": ["Algol's <fleet> & \"friends\" arrived.", Markup("<b>kept</b>")],
                     "alliances": ["Pavo + <Antares>", "Algol & Regulus"]}
    ctx["subject"] = "[g] Turn <3> & 'more'"
    for name in ("turn_report.txt", "turn_report.html"):
        assert plain.render(name, ctx, WRITERS) == renderer.render(name, ctx)


def _varied_gm(ctx: dict[str, Any], i: int) -> dict[str, Any]:
    """A summary's ``ctx`` with one combination of what its templates branch on: the
    deadline, checkpoint and titles, missed turns (so far and this turn), press, one power due
    or several, and each list of the summary empty or not."""
    checkpoint = [None, keepsake(CHECKPOINT, "checkpoint.txt"),
                  keepsake(LONG_CHECKPOINT, "checkpoint.txt")][i // 3 % 3]
    game = {**ctx["game"], "deadline": varied_deadline(i), "checkpoint": checkpoint,
            "game_title": ["4000 A.D.", ""][i % 2],
            "title": ["Tom & Jerry's <war>", ctx["game"]["id"]][i // 2 % 2]}
    gm = dict(ctx["gm"])
    for bit, key in enumerate(("events", "warps", "private", "secrets")):
        if i >> bit & 1 and i % 5 == 0:
            gm[key] = []
    if i % 7 == 1:
        gm["due"] = gm["due"][:1]
    return {**ctx, "game": game, "gm": gm,
            "missed": [{}, {"Pavo": 2, "Algol <& co>": 1}][i // 4 % 2],
            "press": [{}, {"Algol": 3}, {"Pavo": 1, "Tom & <Jerry>": 2}][i % 3],
            "missed_now": [[], ["Pavo <missed> turn 3 & more.", "Algol missed turn 3."]][
                i // 8 % 2]}


def test_every_branch_of_the_summary_is_written_as_the_templates_write_it() -> None:
    """The game master's summaries of played games (early and late turns, games over,
    warps, alliances and proposals, escrowed secrets), each with combinations of what the
    templates branch on besides (deadline, checkpoint, titles, missed turns, press, empty
    lists, one power due)."""
    gms = _kept().gms
    assert len(gms) > 20
    assert any(c["gm"]["result"] for c in gms) and any(not c["gm"]["result"] for c in gms)
    for key in ("warps", "private", "secrets"):
        assert any(c["gm"][key] for c in gms), key
    assert any(c["missed_now"] for c in gms) and any(c["press"] for c in gms)
    checked = same_branches(WRITERS, _jinja_renderer(), gms, _varied_gm,
                            lambda n: itertools.chain(range(0, 48, 5), [1, 8, 15, 47 - n % 40]),
                            "gm_summary")
    assert checked > 400


def test_summary_values_are_escaped_as_jinja_escapes_them() -> None:
    """Markup passes through, text with <, &, quotes is escaped, in every value the
    summary's HTML writes (and the text keeps them as they are)."""
    renderer = _jinja_renderer()
    ctx = _varied_gm(_kept().gms[-1], 47)
    hostile = "Tom & <Jerry> \"the 'cat'\""
    gm = ctx["gm"]
    ctx["gm"] = {**gm, "events": [f"{hostile} arrived.", Markup("<b>kept</b>")],
                 "warps": [hostile], "private": [hostile, Markup("<i>p</i>")],
                 "secrets": [{"power": hostile, "secret": "<s&>", "short": "<s&>"}],
                 "due": [hostile, "Pavo"], "turn": "<5>", "variant_title": hostile,
                 "result": None,
                 "powers": [{**p, "name": hostile, "home": "<h>", "status": "a & b",
                             "strong": "#<f>"} for p in gm["powers"]]}
    ctx["missed"] = {hostile: 2}
    ctx["resolved_turn"] = "<4>"
    ctx["game"] = {**ctx["game"], "id": "g&<id>"}
    for result in (None, {**(gm["result"] or {}), "line": hostile}):
        ctx["gm"] = {**ctx["gm"], "result": result}
        subject = renderer.render("gm_summary.subject.txt", ctx)
        assert plain.render("gm_summary.subject.txt", ctx, WRITERS) == subject
        ctx["subject"] = "[g] GM <3> & 'more'"
        for name in ("gm_summary.txt", "gm_summary.html"):
            assert plain.render(name, ctx, WRITERS) == renderer.render(name, ctx), name


@pytest.mark.parametrize("source", ["_power.html", "turn_report.txt", "map.svg",
                                    "gm_summary.subject.txt", "gm_summary.txt",
                                    "_gm_missed.html", "_starmap.txt"])
def test_an_override_in_the_game_directory_is_rendered_by_jinja(tmp_path: Path,
                                                                source: str) -> None:
    """A game directory's own copy of a source the writers were written from (changed) is
    no source they fit: the renderer loads the templates, and the mail says what the
    override says; the other templates are still written without Jinja."""
    renderer = overridden("4000ad", WRITERS, tmp_path, source)
    r = golden_game()[1][0]
    mail = mails.turn_report(renderer, AD, r.before, r.after, r.events, ["algol"],
                             PLAYERS["algol"], GAME)
    summary = mails.gm_summary(renderer, AD, r.before, r.after, r.events, GAME)
    part = {"_power.html": mail.html, "turn_report.txt": mail.text,
            "map.svg": next(a[2].decode() for a in mail.attachments if a[0] == "map.svg"),
            "gm_summary.subject.txt": summary.subject, "gm_summary.txt": summary.text,
            "_gm_missed.html": summary.html, "_starmap.txt": summary.text}
    assert "Our own words." in part[source]
    assert "env" in vars(renderer)  # Jinja rendered the override


PROBE = """
import sys
from pbem.render import mails
from pbem.render.environment import Renderer
from tests.support.ad_driver import AD
from tests.support.report_scenario import GAME, PLAYERS, golden_game
for r in golden_game()[1]:
    renderer = Renderer("4000ad")
    for power in r.after["powers"]:
        mails.turn_report(renderer, AD, r.before, r.after, r.events, [power],
                          PLAYERS.get(power), GAME)
    mails.gm_summary(renderer, AD, r.before, r.after, r.events, {**GAME, "press": {"algol": 1}})
print([m for m in ("jinja2", "pbem.render.jinjaenv") if m in sys.modules])
"""


def test_a_game_turns_mails_import_no_jinja() -> None:
    """Every report and the game master's summary of a played game's resolutions, rendered in
    a process of their own, as a game-turn renders them: the writers write them all, so the
    process never imports jinja2 (docs/plugins.md, "Writers")."""
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          check=True, timeout=120, cwd=Path(__file__).parents[3])
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout
