"""The action phase's order (games/ti4/actions.py, effects.py; RULES.md T36-T47), named after
the seed's rules, on a real 4-player stand-in game."""

from __future__ import annotations

from typing import Any

from games.ti4 import actions
from games.ti4.actions import Result, act
from games.ti4.board import Board
from games.ti4.strategy import draft
from games.ti4.table import Table
from tests.support.ti4_table import Dice, table_game

PREFS = {"red": ["commerce", "blockade"], "blue": ["command", "research"],
         "green": ["warfare", "industry"], "yellow": ["counsel", "dominion"]}


def phase() -> tuple[dict[str, Any], Any, Board, Table]:
    data, cat, board, table = table_game(4)
    t, _ = draft(table, data, PREFS)
    return data, cat, board, actions.start(t, data)


def codes(r: Result) -> set[str]:
    return {p.code for p in r.problems}


def test_turns_in_initiative_order() -> None:
    """"In initiative order (lowest card number first), each player takes one action.\""""
    data, cat, board, t = phase()
    assert t.turn == "blue"            # command, initiative 1
    r = act(t, board, data, cat, "red", {"pass": True})
    assert codes(r) == {"not-your-turn"} and r.table is t


def test_no_pass_before_strategic_action() -> None:
    """"You can't pass until you've done your strategic action": with two cards, both."""
    data, cat, board, t = phase()
    r = act(t, board, data, cat, "blue", {"pass": True})
    assert codes(r) == {"pass-strategic"} and r.table is t and r.board is board
    r = act(t, board, data, cat, "blue", {"strategic": "command"})
    assert not r.problems and r.table.turn == "yellow"
    t = r.table.with_seat("blue", used=("command", "research"))
    t = Table.from_data({**t.to_data(), "turn": "blue"})
    r = act(t, r.board, data, cat, "blue", {"pass": True})
    assert not r.problems and r.table.players["blue"].passed


def test_secondary_costs_a_strategy_token() -> None:
    """"Every other player may then do the secondary, which usually costs a token from their
    strategy pool"; a player with an empty strategy pool may not; one who declines pays
    nothing."""
    data, cat, board, t = phase()
    t = Table.from_data({**t.to_data(), "turn": "red"})
    d = board.edit()
    d.pools["yellow"]["strategy"] = 0
    board = d.freeze()
    r = act(t, board, data, cat, "red", {"strategic": "commerce"},
            secondaries={"blue": {"follow": True}, "yellow": {"follow": True}})
    assert not r.problems
    # red's 3 commodities, +1 by his trait and +1 by Seed Vaults; blue has no extra (T73)
    assert r.table.players["red"].trade_goods == 3 and r.table.players["red"].commodities == 5
    assert r.table.players["blue"].commodities == 2 and r.board.pool("blue", "strategy") == 1
    assert r.table.players["green"].commodities == 0 and r.board.pool("green", "strategy") == 2
    assert r.table.players["yellow"].commodities == 0
    assert [e["player"] for e in r.events if e["type"] == "secondary-skipped"] == ["yellow"]
    assert "commerce" in r.table.players["red"].used
    again = act(r.table.with_seat("red", passed=False),
                r.board, data, cat, "red", {"strategic": "commerce"})
    assert codes(again) in ({"strategic-card"}, {"not-your-turn"})


def test_tokens_never_above_16() -> None:
    """"Command tokens are limited to 16": the command card's 3 tokens stop at the limit."""
    data, cat, board, t = phase()
    d = board.edit()
    d.pools["blue"] = {"tactic": 7, "fleet": 5, "strategy": 3}
    board = d.freeze()
    r = act(t, board, data, cat, "blue", {"strategic": "command", "choices": [
        {"pools": {"fleet": 1}}, {}]})
    assert not r.problems and r.board.tokens_of("blue") == 16
    assert r.board.pools["blue"] == {"tactic": 7, "fleet": 6, "strategy": 3}


def test_a_refused_primary_changes_nothing() -> None:
    data, cat, board, t = phase()
    r = act(t, board, data, cat, "blue", {"strategic": "command", "choices": [
        {}, {"tokens": 2, "exhaust": ["drummond"]}]})
    assert codes(r) == {"pay-planet"} and r.table is t and r.board is board


def test_everyone_passes_and_the_phase_ends() -> None:
    """"Round and round, until everyone has passed"; a passed player takes no more turns."""
    data, cat, board, t = phase()
    order = ["blue", "yellow", "red", "green"]
    seen = []
    while t.turn is not None:
        p = t.turn
        seen.append(p)
        unused = [c for c in t.players[p].cards if c not in t.players[p].used]
        r = act(t, board, data, cat, p, {"strategic": unused[0]} if unused else {"pass": True})
        assert not r.problems, r.problems
        t, board = r.table, r.board
    assert seen == order * 3
    assert any(e["type"] == "phase-end" for e in r.events)


def test_tactical_action_as_a_turn_pays_production_and_respects_locks() -> None:
    """A tactical action in the phase: the pay names planets (in order) then trade goods; a
    system another player locked this round cannot be activated."""
    data, cat, board, t = phase()
    t = Table.from_data({**t.to_data(), "turn": "red", "locked": {"S02": "green"}})
    order = {"activate": "S02", "move": [{"path": ["H1", "S02"], "ships": {"frigate": 1}}]}
    r = act(t, board, data, cat, "red", {"tactical": order}, chance=Dice())
    assert codes(r) == {"activate-locked"}
    t = Table.from_data({**t.to_data(), "locked": {}})
    r = act(t, board, data, cat, "red", {"tactical": {"activate": "H1", "produce": {"wing": 2}},
                                         "pay": {"exhaust": ["aurel"]}}, chance=Dice())
    assert not r.problems, r.problems
    assert "aurel" in r.board.exhausted and r.board.count(("space", "H1"), "red", "wing") == 4


def test_custodians_cost_6_influence_and_give_1_vp() -> None:
    """"Spend 6 influence to remove the Custodians: you gain 1 VP, and agenda phases start from
    then on"; trade goods count as influence here; too little is refused."""
    data, cat, board, t = phase()
    t = Table.from_data({**t.to_data(), "turn": "red"}).with_seat("red", trade_goods=5)
    order = {"activate": "S02", "move": [{"path": ["H1", "S02"], "ships": {"frigate": 1}}]}
    r = act(t, board, data, cat, "red", {"tactical": order, "custodians": {"trade_goods": 4}},
            chance=Dice())
    assert codes(r) == {"custodians-cost"}
    r = act(t, board, data, cat, "red", {"tactical": order, "custodians": {
        "exhaust": ["aurel"], "trade_goods": 5}}, chance=Dice())
    assert not r.problems, r.problems
    assert r.table.custodians_taken and r.table.players["red"].vp == 1
    assert r.table.players["red"].trade_goods == 0 and "aurel" in r.board.exhausted


def test_malformed_actions_and_payments_are_refused_not_crashed() -> None:
    data, cat, board, t = phase()
    assert codes(act(t, board, data, cat, "blue", ["pass"])) == {"action-kind"}
    assert codes(act(t, board, data, cat, "blue", {"dance": 1})) == {"action-kind"}
    order = {"activate": "H2", "produce": {"wing": 2}}
    r = act(t, board, data, cat, "blue", {"tactical": order, "pay": {"exhaust": "brannock"}},
            chance=Dice())
    assert codes(r) == {"pay-shape"} and r.table is t
    r = act(t, board, data, cat, "blue", {"strategic": "command", "choices": [
        {}, {"tokens": 1, "exhaust": [["x"]]}]})
    assert codes(r) == {"pay-shape"}
