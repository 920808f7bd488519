"""The strategy phase and initiative (games/ti4/strategy.py, table.py; RULES.md T30-T35), named
after the seed's rules."""

from __future__ import annotations

import json

import pytest

from games.ti4.strategy import draft, picks_per_player, preference_problems
from games.ti4.table import Table, initiative
from tests.support.ti4_table import table_game


@pytest.mark.parametrize(("players", "picks"), [(3, 2), (4, 2), (5, 1), (6, 1)])
def test_pick_counts_by_player_count(players: int, picks: int) -> None:
    """"Each player picks 1 strategy card (5–8 players pick 1; 3–4 players pick 2).\""""
    data, _, _, table = table_game(players)
    assert picks_per_player(data, players) == picks
    t, events = draft(table, data, {})
    assert all(len(t.players[p].cards) == picks for p in t.seats)
    taken = [c for p in t.seats for c in t.players[p].cards]
    assert len(taken) == len(set(taken)) == picks * players
    assert [e["player"] for e in events if e["type"] == "pick"][:players] \
        == table.speaker_order()


def test_picks_follow_ranked_preferences_in_speaker_order() -> None:
    """"Speaker first, then clockwise": the speaker gets his first choice even when another
    player ranks it first too; the next takes his first card still on the table."""
    data, _, _, table = table_game(5)
    prefs = {"red": ["warfare"], "blue": ["warfare", "research"], "green": ["research"]}
    t, _ = draft(table, data, prefs)
    assert t.players["red"].cards == ("warfare",)
    assert t.players["blue"].cards == ("research",)
    assert t.players["green"].cards == ("command",)   # his list spent: the lowest left


def test_trade_good_on_unchosen_cards() -> None:
    """"Then put 1 trade good on each card nobody took"; the one who takes such a card later
    takes its trade goods."""
    data, _, _, table = table_game(5)
    t, events = draft(table, data, {})
    left = {"blue", "green", "red", "yellow", "white"}
    assert left == set(t.seats)
    assert t.card_goods == {"blockade": 1, "dominion": 1, "research": 1}
    assert {e["card"] for e in events if e["type"] == "card-goods"} == set(t.card_goods)
    t2, _ = draft(t, data, {})
    assert t2.card_goods == {"blockade": 2, "dominion": 2, "research": 2}
    t3, events = draft(t, data, {"red": ["dominion"]})
    assert t3.players["red"].trade_goods == 1 and "dominion" not in t3.card_goods
    assert t3.card_goods == {"blockade": 2, "industry": 1, "research": 2}


def test_last_pick_forced() -> None:
    """3-4 players picking 2 of 8 cards: the last pick has one card left and is taken
    without asking, whatever the player ranked."""
    data, _, _, table = table_game(4)
    prefs = {"yellow": ["command", "counsel"]}
    t, events = draft(table, data, prefs)
    last = [e for e in events if e["type"] == "pick"][-1]
    assert last["player"] == "yellow" and last["how"] == "forced"
    assert not t.card_goods


def test_preferences_checked_every_problem_at_once() -> None:
    data, _, _, _ = table_game(4)
    found = preference_problems(data, {"red": ["warfare", "nope", "warfare"], "blue": "x"})
    assert sorted(p.code for p in found) == ["draft-card", "draft-list", "draft-twice"]


def test_initiative_order_is_by_lowest_card() -> None:
    """"In initiative order (lowest card number first)"; a player holding two cards goes by the
    lower one."""
    data, _, _, table = table_game(4)
    t, _ = draft(table, data, {"red": ["dominion", "blockade"], "blue": ["command"],
                               "green": ["warfare"], "yellow": ["counsel"]})
    assert t.players["red"].cards == ("dominion", "blockade")
    assert initiative(t, data["strategy_cards"]) == ["blue", "yellow", "green", "red"]


def test_table_canonical_form_round_trips() -> None:
    data, _, _, table = table_game(4)
    t, _ = draft(table, data, {})
    raw = json.dumps(t.to_data(), sort_keys=True)
    assert Table.from_data(json.loads(raw)) == t
    assert json.dumps(Table.from_data(json.loads(raw)).to_data(), sort_keys=True) == raw
