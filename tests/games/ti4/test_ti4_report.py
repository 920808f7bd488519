"""TI4's mails (games/ti4/present.py, sentences.py, templates/): rendered by the engine from
the plugin's own views over games played with random legal orders; every line of a text part
within 80 columns; a power's report holds his secret objectives and none of another power's
secrets; every event type in words, every die under its label."""

from __future__ import annotations

import functools
import glob
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from games.ti4 import orderform, present, sentences
from pbem.game import registry
from pbem.render import mails
from tests.support.ti4_views import played

GAME = {"game_id": "views", "title": "Views", "deadline": None, "checkpoint": None,
        "missed": {}, "instance": "i-views"}
TI4 = Path(__file__).resolve().parents[3] / "games" / "ti4"


@functools.cache
def _game(variant: str, seed: int, steps: int) -> list[tuple[dict[str, Any], dict[str, Any],
                                                                list[dict[str, Any]]]]:
    return list(played(variant, steps=steps, seed=seed))


def test_every_event_type_of_the_rules_core_and_the_plugin_has_a_sentence() -> None:
    emitted: set[str] = set()
    for path in glob.glob(str(TI4 / "*.py")):
        src = Path(path).read_text()
        emitted |= set(re.findall(r'"type": "([a-z_-]+)"', src))
        emitted |= set(re.findall(r'\bevent\("([a-z_-]+)"', src))
        emitted |= set(re.findall(r'\.say\("([a-z_-]+)"', src))
    assert emitted - {"roll"} <= set(sentences.SENTENCES)
    assert {"pick", "move", "hits", "vote", "deal", "phase"} <= emitted


def test_the_sentences_read_the_events_own_fields() -> None:
    seen: set[str] = set()
    for _, _, events in _game("small-4", 3, 160):
        for e in events:
            make = sentences.SENTENCES.get(e["type"])
            if make is not None:
                line = make(e)  # no fallback: every field it reads is there
                assert line and (line[0].isupper() or line[0].isdigit()), line
                seen.add(e["type"])
    assert {"pick", "phase", "strategic", "pass", "deal"} <= seen


def test_a_sentence_falls_back_to_the_events_text() -> None:
    assert sentences.sentence({"type": "move", "text": "red moves."}) == "Red moves."
    assert sentences.sentence({"type": "unknown-kind", "text": "it happened."}) == \
        "It happened."
    draws = {"type": "chance", "step": 9, "draws": [{"label": "combat:S01:r1:red:wing",
                                                     "kind": "roll", "result": [4]}]}
    assert sentences.sentence(draws) == "Public draws of step 9: combat:S01:r1:red:wing [4]."
    roll = {"type": "roll", "label": "combat:S01:r1:red:frigate", "die": "d10", "count": 2,
            "result": [7, 3], "why": "space combat round 1"}
    assert sentences.sentence(roll) == \
        "combat:S01:r1:red:frigate  2 d10 (space combat round 1): 7, 3"


def _reports(variant: str, seed: int, steps: int, every: int = 7
             ) -> list[tuple[str, dict[str, Any], mails.RenderedMail]]:
    plugin = registry.load("ti4")
    renderer = mails.Renderer("ti4")
    out = []
    for i, (before, after, events) in enumerate(_game(variant, seed, steps)):
        if i % every and not any(e["type"] == "roll" for e in events):
            continue
        for p in plugin.powers_of(after):
            mail = mails.turn_report(renderer, plugin, before, after, events, [p], {}, GAME)
            out.append((p, after, mail))
    return out


@pytest.mark.parametrize("variant,seed", [("small-4", 3), ("large-6", 2)])
def test_reports_fit_80_columns_and_attach_the_galaxy(variant: str, seed: int) -> None:
    for _, _, mail in _reports(variant, seed, 90):
        assert max(len(line) for line in mail.text.splitlines()) <= 80
        (svg,) = [body for name, _, body in mail.attachments if name == "map.svg"]
        ET.fromstring(svg)
        assert "<svg" in mail.html and "THE GALAXY" in mail.text


def test_every_die_is_listed_under_its_label() -> None:
    checked = 0
    plugin = registry.load("ti4")
    renderer = mails.Renderer("ti4")
    for before, after, events in _game("small-4", 3, 160):
        rolls = [e for e in events if e["type"] == "roll"]
        if not rolls:
            continue
        mail = mails.turn_report(renderer, plugin, before, after, events, ["red"], {}, GAME)
        text = " ".join(mail.text.split())
        for r in rolls:
            assert " ".join(sentences.roll_line(r).split()) in text
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("variant,seed", [("small-4", 3), ("small-3", 7)])
def test_a_report_holds_its_readers_secrets_and_no_one_elses(variant: str, seed: int) -> None:
    plugin = registry.load("ti4")
    shown = 0
    for p, after, mail in _reports(variant, seed, 120, every=5):
        table = after["table"]
        if not table:
            continue
        text = mail.text + mail.html  # (view.json holds the pack: every id, no holder)
        mine = table["players"][p]["secrets"]
        for oid in mine:
            assert oid in mail.text  # "YOUR SECRET OBJECTIVES"
            shown += 1
        for q in plugin.powers_of(after):
            if q == p:
                continue
            theirs = set(table["players"][q]["secrets"]) - set(mine)
            for oid in theirs:
                assert not re.search(rf"\b{re.escape(oid)}\b", text), (p, q, oid)
            for secret in plugin.secrets(after, q):
                assert secret not in text
        for hidden in plugin.hidden(after):
            assert hidden not in text
    assert shown > 0


def test_the_game_masters_summary_welcome_and_last_mail() -> None:
    plugin = registry.load("ti4")
    renderer = mails.Renderer("ti4")
    game = _game("small-4", 3, 40)
    first = game[0][0]
    for p in plugin.powers_of(first):
        welcome = mails.welcome(renderer, plugin, first, [p], {}, GAME)
        assert "orders:" in welcome.text and "Welcome" in welcome.text
        assert max(len(line) for line in welcome.text.splitlines()) <= 80
    before, after, events = game[-1]
    summary = mails.gm_summary(renderer, plugin, before, after, events, GAME)
    for p in plugin.powers_of(after):
        for oid in after["table"]["players"][p]["secrets"]:
            assert oid in summary.text
    assert max(len(line) for line in summary.text.splitlines()) <= 80
    private = next((b, a, e) for b, a, e in game if any(x.get("_visible_to") for x in e))
    summary = mails.gm_summary(renderer, plugin, *private, GAME)
    marked = [x for x in private[2] if x.get("_visible_to")]
    assert sum("[only " in line for line in summary.text.splitlines()) >= len(marked)
    ended = plugin.end_game(after, "agreed")
    for p in plugin.powers_of(after):
        last = mails.game_end(renderer, plugin, ended.state, ended.events, [p], {}, GAME, [])
        assert "THE GAME IS OVER" in last.text
        assert max(len(line) for line in last.text.splitlines()) <= 80


def test_the_presenter_words_objectives_and_the_title() -> None:
    assert present.describe({"test": "control_planets", "count": 4, "trait": "lush"}) == \
        "control 4 lush planets"
    assert present.describe({"test": "spend", "resources": 8}) == "spend 8 resources"
    assert present.describe({"test": "ships_in_systems", "count": 3, "adjacent_to": "C0"}) == \
        "ships in 3 systems adjacent to C0"
    first = _game("small-3", 7, 1)[0][0]
    view = registry.load("ti4").view(first, "red")
    assert present.PRESENTER.title(view) == \
        "3 players, small-3, ti4-standin (stand-in components, not TI4)"


def test_the_shared_part_is_made_once_from_the_public_view_for_every_reader() -> None:
    before, after, events = _game("small-4", 3, 40)[-1]
    plugin = registry.load("ti4")
    views = {p: {**plugin.view(after, p), "instance": "i"} for p in plugin.powers_of(after)}
    public = [e for e in events if not e.get("_visible_to")]
    made = {p: present.common(v, public) for p, v in views.items()}
    assert len({id(m) for m in made.values()}) == 1
    assert present.public_view(views["red"]) == present.public_view(views["blue"])
    assert "you" not in present.public_view(views["red"])


def test_receipts_say_the_orders_in_words() -> None:
    view = registry.load("ti4").view(_game("small-3", 7, 1)[0][0], "red")
    lines = orderform.receipt_lines({"draft": ["warfare", "command"]}, view)
    assert lines == ["Strategy cards, most wanted first: warfare, command."]
    assert orderform.receipt_lines({"action": {"pass": True}}, view) == ["Action: pass."]
    assert orderform.receipt_lines(
        {"action": {"tactical": {"activate": "S01"}}}, view) == \
        ["Action: a tactical action, activating S01."]
    assert orderform.receipt_lines({"secondary": {"follow": True}}, view) == \
        ["Secondary: follow."]
    assert orderform.receipt_lines({}, view) == \
        ["No orders: your standing answers and the defaults."]
