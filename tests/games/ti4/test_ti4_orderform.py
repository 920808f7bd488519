"""The pre-filled order form (games/ti4/orderform.py) lists only what the reader may do now,
and what it fills in is accepted by the referee's own check (the plugin's ``normalize_orders``
on the plugin's view)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
import yaml

from games.ti4 import actions, orderform, orders, strategy
from games.ti4.board import Board
from games.ti4.table import Table
from tests.support.ti4_views import played, position, state, view


def _form(v: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    text = orderform.order_form(v, 7)
    assert text and max(len(line) for line in text.splitlines()) <= 80
    loaded = yaml.safe_load(text)
    assert loaded["power"] == v["viewer"] and loaded["seq"] == 7
    return text, loaded["orders"]


def _accepted(v: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    text, body = _form(v)
    _, problems = orders.normalize_orders(body, v)
    assert problems == []
    return text, body


def _action_phase() -> tuple[dict[str, Any], Table, Board]:
    pack, table, board = position("small-4")
    table, _ = strategy.draft(table, pack, {})
    return pack, actions.start(table, pack), board


def test_the_strategy_form_ranks_every_card_and_is_accepted() -> None:
    pack, table, board = position("small-4")
    text, body = _accepted(view(state("small-4", pack, table, board, phase="strategy"), "blue"))
    assert sorted(body["draft"]) == sorted(pack["strategy_cards"])
    assert "# get 2 this round" in text and "- command    # initiative 1" in text


def test_no_pass_before_the_strategic_action_and_the_readied_cards_offered() -> None:
    pack, table, board = _action_phase()
    me = str(table.turn)
    text, body = _accepted(view(state("small-4", pack, table, board), me))
    cards = table.players[me].cards
    assert "pass" not in body["action"] and body["action"]["strategic"] == cards[0]
    assert "you can't pass until you've done your strategic action" in text
    assert f"play a readied card of yours: {', '.join(cards)}." in text
    assert "to take the Custodians (6 influence, 1 VP" in " ".join(
        line.strip("# ") for line in text.splitlines())


def test_pass_once_every_card_is_used() -> None:
    pack, table, board = _action_phase()
    me = str(table.turn)
    table = table.with_seat(me, used=table.players[me].cards)
    text, body = _accepted(view(state("small-4", pack, table, board), me))
    assert body["action"] == {"pass": True}
    assert "STRATEGIC" not in text and "PASS: allowed" in text


def test_the_systems_offered_hold_no_token_of_yours_and_no_one_elses_lock() -> None:
    pack, table, board = _action_phase()
    me = str(table.turn)
    other = next(p for p in table.seats if p != me)
    d = board.edit()
    d.place_token("S01", me)
    board = d.freeze()
    table = replace(table, locked={"S02": other, "S04": me})
    v = view(state("small-4", pack, table, board), me)
    offered = orderform.activatable(v, board, me)
    assert "S01" not in offered and "S02" not in offered and "S04" in offered
    assert len(offered) == 19 - 2
    d = board.edit()
    d.pools[me]["tactic"] = 0
    assert orderform.activatable(v, d.freeze(), me) == []
    text, _ = _form(view(state("small-4", pack, table, d.freeze()), me))
    assert "TACTICAL: none: your tactic pool is empty." in text


def test_the_secondary_offered_with_its_cost_and_refused_when_the_pool_is_empty() -> None:
    pack, table, board = _action_phase()
    me = str(table.turn)
    other = next(p for p in table.seats if p != me)
    pending = {"player": me, "card": "warfare", "choices": []}
    text, body = _accepted(view(state("small-4", pack, table, board, phase="secondary",
                                      pending=pending), other))
    assert body["secondary"] == {"follow": False, "choices": [{}]}
    assert "costs 1 strategy token(s); you have 2" in text and "produce_at_home" in text
    d = board.edit()
    d.pools[other]["strategy"] = 0
    text, body = _accepted(view(state("small-4", pack, table, d.freeze(), phase="secondary",
                                      pending=pending), other))
    assert body["secondary"] == {"follow": False} and "You cannot follow it" in text


def test_only_the_objectives_scorable_now_are_filled_in() -> None:
    pack, table, board = _action_phase()
    d = board.edit()
    for pid in ("abren", "bellis", "corvo", "dassa", "elmin"):
        d.owner[pid] = "red"  # red holds 2 home planets + 5: 7 planets
    board = d.freeze()
    table = replace(table, publics=("o1-spread", "o1-lush"))
    table = table.with_seat("red", secrets=("s-lush",))
    v = view(state("small-4", pack, table, board, phase="status"), "red")
    publics, secrets, why = orderform.scorable(v)
    assert publics == ["o1-spread"] and secrets == []
    assert why["o1-lush"] == "you control 2 such planets, not 4"
    assert why["s-lush"] == "you control 2 such planets, not 3"
    text, body = _accepted(v)
    assert body["status"]["public"] == "o1-spread" and "secret" not in body["status"]
    assert sum(body["status"]["pools"].values()) == 8 + 2
    # without every home planet, no public objective is scorable
    d = board.edit()
    d.owner["aurel-minor"] = "blue"
    v = view(state("small-4", pack, table, d.freeze(), phase="status"), "red")
    publics, _, why = orderform.scorable(v)
    assert publics == [] and "home system" in why["o1-spread"]


def test_the_agendas_outcomes_and_the_planets_that_can_vote() -> None:
    pack, table, board = _action_phase()
    table = replace(table, agenda_deck=("a-tariff", "a-charter", "a-seat"))
    d = board.edit()
    d.exhausted.add("aurel-minor")
    board = d.freeze()
    v = view(state("small-4", pack, table, board, phase="agenda"), "red")
    text, body = _accepted(v)
    assert "ballots[0] a-tariff (law): outcomes for, against" in text
    assert "ballots[1] a-charter (law): outcomes red, blue, green, yellow" in text
    assert "a-seat" not in text
    assert "Planets that can vote: aurel (1)." in text
    assert [b["outcome"] for b in body["agenda"]["ballots"]] == ["for", "red"]
    assert ("ties" in body["agenda"]) == (table.speaker == "red")


@pytest.mark.parametrize("seed", [1, 5])
def test_every_form_of_a_played_game_is_accepted_as_it_is(seed: int) -> None:
    forms = 0
    for _, after, _ in played("small-4", steps=80, seed=seed):
        for p in after["table"]["seats"] if after["table"] else ():
            v = view(after, p)
            if p in v["due"]:
                _accepted(v)
                forms += 1
    assert forms > 20


def test_not_due_no_form_and_before_the_deal_nothing_to_choose() -> None:
    pack, table, board = _action_phase()
    me = str(table.turn)
    other = next(p for p in table.seats if p != me)
    assert orderform.order_form(view(state("small-4", pack, table, board), other), 1) == ""
    setup = next(iter(played("small-3", steps=1)))[0]
    text, body = _form(view(setup, "red"))
    assert body == {} and "Nothing to choose" in text



def test_each_fleet_with_the_systems_its_ships_can_reach() -> None:
    pack, table, board = _action_phase()
    d = board.edit()
    d.place_token("S01", "red")  # red may not activate S01 again
    board = d.freeze()
    v = view(state("small-4", pack, table, board), "red")
    systems = orderform.activatable(v, board, "red")
    (line,) = orderform.fleets(v, board, "red", systems)
    assert line.startswith("H1: 1 frigate, 1 tender, 2 wing; frigate (move 2) to ")
    frigate = line.split("frigate (move 2) to ")[1].split(";")[0].split(", ")
    assert "S01" not in frigate and "S02" in frigate and "S05" not in frigate  # asteroids
    assert "tender (move 1) to S02, S11" in line and "wing (" not in line
