"""The round a step's events carry (games/ti4/step.py; RULES.md T52, T60, T84): the round the
step was played in. The status phase moves the round on at its end ("Then a new round begins
with the strategy phase"), or the agenda phase after it once the Custodians are taken ("After
the second agenda, each player readies all their exhausted planets ... Then a new round begins
with the strategy phase"): the events of that step are still the old round's, and so is its
report's heading; only the announcement of the new round's strategy phase carries the new one.
A game recorded under rules version 1 plays on as it began (its events carried the new round).
"""

from __future__ import annotations

from typing import Any

import pytest

from pbem.game import registry, versions
from pbem.render import mails
from tests.support.ti4_play import PLUGIN, resolve_step

State = dict[str, Any]
KEY = b"r" * 32
GAME = {"game_id": "rounds", "title": "Rounds", "deadline": None, "checkpoint": None,
        "missed": {}, "instance": "i-rounds"}


def to_status(version: int, custodians: bool) -> State:
    """Round 1 on every player's defaults, up to its status step (the Custodians taken by
    then, with ``custodians``)."""
    state = PLUGIN.setup("small-3", {"game_id": "rounds", "rules_version": version})
    for _ in range(60):
        if state["phase"] == "status":
            break
        state = resolve_step(state, None, KEY).state
    assert state["phase"] == "status" and state["round"] == 1
    state["table"]["custodians_taken"] = custodians
    return state


def rounds(events: list[dict[str, Any]]) -> set[int]:
    """The rounds the step's events carry, but the announcement of a phase."""
    return {e["round"] for e in events if e["type"] != "phase"}


def test_new_games_record_rules_version_2_and_version_1_games_play_on() -> None:
    assert versions.rules_version(PLUGIN) == 2
    assert versions.versions_supported(PLUGIN) == (1, 2)
    assert PLUGIN.setup("small-3", {"game_id": "g"})["options"]["rules_version"] == 2
    old = PLUGIN.setup("small-3", {"game_id": "g", "rules_version": 1})
    assert old["options"]["rules_version"] == 1


@pytest.mark.parametrize("version,played_in", [(2, 1), (1, 2)])
def test_the_status_step_that_ends_a_round_carries_that_round(version: int,
                                                              played_in: int) -> None:
    state = to_status(version, custodians=False)
    r = resolve_step(state, None, KEY)
    assert (r.state["phase"], r.state["round"]) == ("strategy", 2)
    assert rounds(r.events) == {played_in}
    (phase,) = [e for e in r.events if e["type"] == "phase"]
    assert (phase["phase"], phase["round"]) == ("strategy", 2)


@pytest.mark.parametrize("version,played_in", [(2, 1), (1, 2)])
def test_the_agenda_step_carries_the_round_it_was_played_in(version: int,
                                                            played_in: int) -> None:
    status = resolve_step(to_status(version, custodians=True), None, KEY)
    assert (status.state["phase"], status.state["round"]) == ("agenda", 1)
    assert rounds(status.events) == {1}
    r = resolve_step(status.state, None, KEY)
    assert (r.state["phase"], r.state["round"]) == ("strategy", 2)
    assert {e["type"] for e in r.events} >= {"abstain", "ready", "phase"}
    assert rounds(r.events) == {played_in}
    (phase,) = [e for e in r.events if e["type"] == "phase"]
    assert (phase["phase"], phase["round"]) == ("strategy", 2)


def test_the_agenda_steps_report_is_headed_with_its_round() -> None:
    """STEP n (round 1) over the agenda step of round 1, whose report announces round 2's
    strategy phase; the step that follows (round 2's strategy) is headed round 2."""
    status = resolve_step(to_status(2, custodians=True), None, KEY)
    before = status.state
    agenda = resolve_step(before, None, KEY)
    renderer = mails.Renderer("ti4")
    plugin = registry.load("ti4")
    turn = before["turn"]
    mail = mails.turn_report(renderer, plugin, before, agenda.state, agenda.events, ["red"],
                             {}, GAME)
    assert f"STEP {turn} (round 1)" in mail.text
    assert f"Step {turn} (round 1)</h1>" in mail.html
    assert "Round 2: the strategy phase begins" in " ".join(mail.text.split())
    draft = resolve_step(agenda.state, None, KEY)
    mail = mails.turn_report(renderer, plugin, agenda.state, draft.state, draft.events,
                             ["red"], {}, GAME)
    assert f"STEP {turn + 1} (round 2)" in mail.text
