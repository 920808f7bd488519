"""Effect primitives as strategy cards and agendas use them (games/ti4/effects.py; RULES.md
T36-T39), on a real 4-player stand-in game."""

from __future__ import annotations

from typing import Any

from games.ti4.effects import apply
from games.ti4.table import Table
from tests.support.ti4_table import table_game

DATA, CAT, BOARD, TABLE = table_game(4)


def run(effects: list[dict[str, Any]], choices: list[dict[str, Any]], player: str = "red",
        table: Table = TABLE) -> tuple[Table, Any, list[dict[str, Any]], set[str]]:
    t, b, events, problems = apply(effects, table, BOARD, DATA, CAT, player, choices, "choices")
    return t, b, events, {p.code for p in problems}


def test_tokens_go_to_the_pools_named_the_rest_to_tactic() -> None:
    _, b, _, bad = run([{"do": "gain_tokens", "count": 3}], [{"pools": {"fleet": 1,
                                                                       "strategy": 1}}])
    assert not bad and b.pools["red"] == {"tactic": 4, "fleet": 4, "strategy": 3}
    assert run([{"do": "gain_tokens", "count": 3}], [{"pools": {"hand": 1}}])[3] \
        == {"token-pools"}


def test_buy_tokens_with_influence_and_trade_goods() -> None:
    """Leadership-like: "1 token per 3 influence spent"; trade goods count as influence."""
    rich = TABLE.with_seat("red", trade_goods=4)
    t, b, _, bad = run([{"do": "buy_tokens", "influence_per_token": 3}],
                       [{"tokens": 2, "exhaust": ["aurel", "aurel-minor"], "trade_goods": 4}],
                       table=rich)
    assert not bad and b.tokens_of("red") == 10 and t.players["red"].trade_goods == 0
    assert {"aurel", "aurel-minor"} <= b.exhausted
    assert run([{"do": "buy_tokens", "influence_per_token": 3}],
               [{"tokens": 1, "exhaust": ["aurel"]}])[3] == {"pay-short"}


def test_research_needs_prerequisites_and_pays_resources() -> None:
    _, _, _, bad = run([{"do": "research", "count": 1, "cost": 0}], [{"tech": "tgreen3"}])
    assert bad == {"research-prerequisite"}
    t, b, _, bad = run([{"do": "research", "count": 1, "cost": 4}],
                       [{"tech": "tgreen2", "exhaust": ["aurel", "aurel-minor"]}])
    assert not bad and t.players["red"].techs == ("tgreen1", "tgreen2")
    assert run([{"do": "research", "count": 1, "cost": 0}], [{"tech": "tgreen1"}])[3] \
        == {"research-tech"}


def test_structures_on_own_planets_within_plastic() -> None:
    _, b, _, bad = run([{"do": "place_structure", "unit": "battery"}], [{"planet": "aurel"}])
    assert not bad and b.count(("planet", "aurel"), "red", "battery") == 1
    assert run([{"do": "place_structure", "unit": "battery"}], [{"planet": "brannock"}])[3] \
        == {"structure-planet"}


def test_peek_is_private_and_secrets_stop_at_the_limit() -> None:
    """A peek at the agenda deck goes to the player only; "at most 3 in total (scored plus
    unscored) ... draw over that and you return" it."""
    _, _, events, _ = run([{"do": "peek_agendas", "count": 2}], [])
    assert events[0]["to"] == ["red"] and events[0]["agendas"] == list(TABLE.agenda_deck[:2])
    t, _, events, _ = run([{"do": "draw_secret", "count": 3}], [])
    assert len(t.players["red"].secrets) == 3
    assert [e["type"] for e in events] == ["secret-drawn", "secret-drawn", "secret-returned"]
    assert len(t.secret_deck) == len(TABLE.secret_deck) - 2


def test_score_public_now_and_vp_if_control() -> None:
    """The dominion-like card: score 1 public objective now, and VP for holding a planet."""
    t = Table.from_data({**TABLE.to_data(), "publics": ["o1-purse"]}).with_seat(
        "red", trade_goods=5)
    t2, _, _, bad = run([{"do": "score_public_now"}], [{"objective": "o1-purse"}], table=t)
    assert not bad and t2.players["red"].vp == 1 and t2.players["red"].trade_goods == 0
    t3, _, _, bad = run([{"do": "vp_if_control", "planet": "aurel", "vp": 1}], [])
    assert not bad and t3.players["red"].vp == 1
    assert run([{"do": "vp_if_control", "planet": "concord", "vp": 1}], [])[0] \
        .players["red"].vp == 0


def test_lock_recover_speaker_and_tech_only_primitives() -> None:
    t, _, _, bad = run([{"do": "lock_system"}, {"do": "choose_speaker"}],
                       [{"system": "S02"}, {"speaker": "green"}])
    assert not bad and t.locked == {"S02": "red"} and t.speaker == "green"
    d = BOARD.edit()
    d.place_token("S02", "red")
    board = d.freeze()
    t, b, _, problems = apply([{"do": "recover_token"}], TABLE, board, DATA, CAT, "red",
                              [{"system": "S02"}], "choices")
    assert not problems and not b.tokens and b.pools["red"]["tactic"] == 3
    assert run([{"do": "unit_move", "unit": "tender", "bonus": 1}], [])[3] \
        == {"effect-unsupported"}
