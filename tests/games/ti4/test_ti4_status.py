"""The status phase and the game's end (games/ti4/status.py, objectives.py; RULES.md
T39-T41, T48-T53), named after the seed's rules, on a real 4-player stand-in game."""

from __future__ import annotations

from typing import Any

from games.ti4.board import Board
from games.ti4.status import status
from games.ti4.strategy import draft
from games.ti4.table import Table
from tests.support.ti4_table import table_game

PREFS = {"red": ["commerce", "blockade"], "blue": ["command", "research"],
         "green": ["warfare", "industry"], "yellow": ["counsel", "dominion"]}


def ready(**table: Any) -> tuple[dict[str, Any], Any, Board, Table]:
    """After the draft (initiative: blue, yellow, red, green), with table fields replaced."""
    data, cat, board, t = table_game(4)
    t, _ = draft(t, data, PREFS)
    return data, cat, board, Table.from_data({**t.to_data(), **table})


def test_home_planets_condition() -> None:
    """"You can only score public objectives if you control every planet in your home system.
    Secret objectives have no such restriction.\""""
    data, cat, board, t = ready(publics=["o1-purse"])
    t = t.with_seat("red", trade_goods=11, secrets=("s-hoard",))
    d = board.edit()
    d.owner["aurel-minor"] = "blue"
    lost = d.freeze()
    r = status(t, lost, data, cat, {"red": {"public": "o1-purse", "secret": "s-hoard"}})
    red = r.table.players["red"]
    assert red.scored == ("s-hoard",) and red.vp == 1 and red.trade_goods == 5
    said = [e for e in r.events if e["type"] == "not-scored"]
    assert said[0]["to"] == ["red"] and "home system" in said[0]["text"]
    r = status(t, board, data, cat, {"red": {"public": "o1-purse", "secret": "s-hoard"}})
    assert r.table.players["red"].scored == ("o1-purse", "s-hoard")
    assert r.table.players["red"].vp == 2


def test_spend_objectives_paid_when_scored_each_once() -> None:
    """"'Spend' objectives are paid when you score them, not from earlier spending. Each
    objective can be scored only once per player.\""""
    data, cat, board, t = ready(publics=["o1-coin", "o1-purse"])
    t = t.with_seat("red", trade_goods=4)
    pay = {"resources": {"exhaust": ["aurel", "aurel-minor"], "trade_goods": 4}}
    r = status(t, board, data, cat, {"red": {"public": "o1-coin", **pay}})
    assert r.table.players["red"].scored == ("o1-coin",)
    assert r.table.players["red"].trade_goods == 0
    t2 = Table.from_data({**r.table.to_data(), "players": {
        **r.table.to_data()["players"]}}).with_seat("red", trade_goods=20)
    r2 = status(t2, r.board, data, cat, {"red": {"public": "o1-coin", **pay}})
    assert r2.table.players["red"].scored == ("o1-coin",)
    assert any("not scored" in e["text"] or e["type"] == "not-scored" for e in r2.events)
    short = t.with_seat("red", trade_goods=0)
    r3 = status(short, board, data, cat, {"red": {"public": "o1-coin", **pay}})
    assert r3.table.players["red"].vp == 0


def test_ten_vp_ends_at_once_and_tie_rule() -> None:
    """"The game ends the moment a player reaches it; on a simultaneous tie, earliest in
    initiative order wins": yellow (initiative 2) and red (3) could both reach 10; yellow
    scores first and wins, red scores nothing, nothing more happens."""
    data, cat, board, t = ready(publics=["o1-purse"])
    for p in ("yellow", "red"):
        t = t.with_seat(p, vp=9, trade_goods=5)
    r = status(t, board, data, cat, {p: {"public": "o1-purse"} for p in ("yellow", "red")})
    assert r.table.winner == "yellow" and r.table.ended
    assert r.table.players["red"].vp == 9 and r.table.players["red"].scored == ()
    assert r.table.publics == t.publics and r.board is not None
    assert [e["type"] for e in r.events][-1] == "victory"


def test_game_ends_when_no_objective_is_left_to_reveal() -> None:
    """"If none are left to reveal, the game ends and the most VP wins (ties: earliest
    initiative)."""
    data, cat, board, t = ready(public_deck=[])
    t = t.with_seat("red", vp=4).with_seat("green", vp=4).with_seat("blue", vp=3)
    r = status(t, board, data, cat, {})
    assert r.table.ended and r.table.winner == "red"      # red 3 before green 4


def test_reveal_tokens_back_gain_two_redistribute_ready_repair_return() -> None:
    """Status steps 2 and 4-8: the speaker reveals the next objective; tokens come back off
    the board; +2 each (never past 16) and a redistribution; planets readied; units repaired;
    strategy cards returned."""
    data, cat, board, t = ready()
    d = board.edit()
    d.place_token("S02", "red")
    d.exhausted.add("aurel")
    d.damage(("space", "H2"), "blue", "bastion")
    d.pools["blue"] = {"tactic": 8, "fleet": 4, "strategy": 3}
    board = d.freeze()
    nxt = t.public_deck[0]
    r = status(t, board, data, cat, {"red": {"pools": {"tactic": 1, "fleet": 5,
                                                       "strategy": 4}},
                                     "green": {"pools": {"tactic": 9, "fleet": 0,
                                                         "strategy": 0}}})
    b = r.board
    assert r.table.publics[-1] == nxt and r.table.public_deck == t.public_deck[1:]
    assert not b.tokens and b.pools["red"] == {"tactic": 1, "fleet": 5, "strategy": 4}
    assert b.tokens_of("blue") == 16 and b.pools["blue"]["tactic"] == 9
    assert b.pools["green"] == {"tactic": 5, "fleet": 3, "strategy": 2}   # split refused
    assert any(e["type"] == "pools-kept" and e["to"] == ["green"] for e in r.events)
    assert not b.exhausted and not b.to_data()["damaged"]["space"]
    assert all(not s.cards and not s.used and not s.passed for s in r.table.players.values())
    assert r.table.round == 2
