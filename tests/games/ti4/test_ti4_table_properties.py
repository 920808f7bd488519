"""Random legal rounds of the table (strategy, actions by strategic actions and passes with
random secondaries, status with random scoring and splits, agendas once the Custodians are
taken): every action the generator writes with its default choices is accepted, and after
every step each player has 16 command tokens or fewer, no VP is ever lost, no player scores an
objective twice, no commodities above his commodity value (traits and technologies counted) and
no technology twice (free ones from traits, technologies and laws included), and the same seed
plays the same game (RULES.md T30-T60, T73-T76)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ti4 import actions, pack, traits
from games.ti4.agenda import agenda_phase
from games.ti4.board import POOLS, Board
from games.ti4.status import status
from games.ti4.strategy import draft
from games.ti4.table import Table
from pbem.game.practice import PracticeChance
from tests.support.ti4_table import table_game

STANDIN = pack.standin()


def check(table: Table, board: Board, before: dict[str, int]) -> dict[str, int]:
    for p, seat in table.players.items():
        assert seat.commodities <= traits.commodity_value(STANDIN, table, p)
        assert len(seat.techs) == len(set(seat.techs))
        assert board.tokens_of(p) <= 16, (p, board.pools[p])
        assert all(v >= 0 for v in board.pools[p].values())
        assert seat.vp >= before.get(p, 0)
        assert len(seat.scored) == len(set(seat.scored))
        assert seat.trade_goods >= 0
    return {p: s.vp for p, s in table.players.items()}


def mine(board: Board, player: str) -> list[str]:
    return sorted(p for p, o in board.owner.items() if o == player and p not in board.exhausted)


def choices_for(card: str, table: Table, board: Board, player: str,
                rnd: random.Random) -> list[dict[str, Any]]:
    if card == "command":
        return [{"pools": {rnd.choice(POOLS): 1}}, {}]
    if card == "counsel":
        return [{"speaker": rnd.choice(table.seats)}, {}]
    if card == "industry":
        planets = mine(board, player) or sorted(p for p, o in board.owner.items() if o == player)
        return [{"planet": rnd.choice(planets)}] if planets and rnd.random() < 0.5 else []
    if card == "blockade":
        return [{}, {"planets": sorted(p for p, o in board.owner.items() if o == player)[:2]}]
    return []


def play(seed: int, rounds: int = 6) -> tuple[Table, Board, list[str]]:
    rnd = random.Random(seed)
    players = rnd.choice((3, 4, 5, 6))
    data, cat, board, table = table_game(players, PracticeChance("ti4", str(seed), 0))
    cards = sorted(data["strategy_cards"])
    vp: dict[str, int] = {}
    log: list[str] = []
    for rnd_no in range(rounds):
        if table.ended:
            break
        prefs = {p: rnd.sample(cards, rnd.randint(0, len(cards))) for p in table.seats}
        table, _ = draft(table, data, prefs)
        table = actions.start(table, data)
        while table.turn is not None and not table.ended:
            p = table.turn
            seat = table.players[p]
            unused = [c for c in seat.cards if c not in seat.used]
            follow = {o: {"follow": rnd.random() < 0.5} for o in table.seats if o != p}
            if unused:
                card = rnd.choice(unused)
                r = actions.act(table, board, data, cat, p, {
                    "strategic": card, "choices": choices_for(card, table, board, p, rnd)},
                    secondaries=follow)
                if r.problems:
                    r = actions.act(table, board, data, cat, p, {"strategic": card},
                                    secondaries=follow)
            else:
                r = actions.act(table, board, data, cat, p, {"pass": True})
            assert not r.problems, r.problems
            table, board = r.table, r.board
            vp = check(table, board, vp)
            log += [e["text"] for e in r.events]
        if table.ended:
            break
        picks: dict[str, dict[str, Any]] = {}
        for p in table.seats:
            seat = table.players[p]
            pay = {"exhaust": mine(board, p), "trade_goods": seat.trade_goods}
            options = [o for o in table.publics if o not in seat.scored]
            total = board.tokens_of(p) + 2
            cut = sorted(rnd.randint(0, min(total, 16)) for _ in range(2))
            picks[p] = {"public": rnd.choice(options) if options else None,
                        "secret": rnd.choice(seat.secrets) if seat.secrets else None,
                        "resources": pay, "influence": pay,
                        "pools": {"tactic": cut[0], "fleet": cut[1] - cut[0],
                                  "strategy": min(total, 16) - cut[1]}}
        r = status(table, board, data, cat, picks)
        assert not r.problems
        table, board = r.table, r.board
        vp = check(table, board, vp)
        log += [e["text"] for e in r.events]
        if rnd_no == 1:
            table = replace(table, custodians_taken=True)
        if table.custodians_taken and not table.ended:
            ballots: dict[str, list[dict[str, Any]]] = {}
            for p in table.seats:
                planets = mine(board, p)
                rnd.shuffle(planets)
                half = len(planets) // 2
                ballots[p] = [{"outcome": rnd.choice(("for", "against")),
                               "exhaust": planets[:half]},
                              {"outcome": rnd.choice(table.seats), "exhaust": planets[half:]}]
            first = table.agenda_deck[:2]
            kinds = [data["agendas"][a]["outcome"] for a in first]
            for p in ballots:
                for k, kind in enumerate(kinds):
                    if k < 2 and kind == "elect_planet":
                        ballots[p][k]["outcome"] = sorted(board.owner)[0]
                    elif k < 2 and kind == "elect_player":
                        ballots[p][k]["outcome"] = rnd.choice(table.seats)
                    else:
                        ballots[p][k]["outcome"] = rnd.choice(("for", "against"))
                ballots[p] = ballots[p][:len(kinds)]
            r = agenda_phase(table, board, data, cat, ballots)
            assert not r.problems, r.problems
            table, board = r.table, r.board
            vp = check(table, board, vp)
            log += [e["text"] for e in r.events]
    return table, board, log


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_legal_rounds_keep_the_tables_invariants(seed: int) -> None:
    table, board, log = play(seed)
    again = play(seed)
    assert json.dumps(table.to_data()) == json.dumps(again[0].to_data())
    assert board == again[1] and log == again[2]


def test_a_long_game_reaches_its_end() -> None:
    """Played long enough, a game ends: by 10 VP or when no objective is left to reveal."""
    table, _, log = play(7, rounds=40)
    assert table.ended and table.winner in table.seats
    assert any("wins" in line for line in log)


UNIT_EFFECT = st.one_of(
    st.builds(lambda u, b: {"do": "unit_combat", "unit": u, "bonus": b},
              st.sampled_from(sorted(STANDIN["units"])), st.integers(0, 12)),
    st.builds(lambda u, b: {"do": "unit_move", "unit": u, "bonus": b},
              st.sampled_from(sorted(STANDIN["units"])), st.integers(0, 3)),
    st.builds(lambda u, c: {"do": "unit_cost", "unit": u, "cost": c},
              st.sampled_from(sorted(STANDIN["units"])), st.sampled_from([0.5, 1, 2, 5])))


@settings(max_examples=40, deadline=None)
@given(st.lists(UNIT_EFFECT, max_size=6), st.lists(st.sampled_from(sorted(
    STANDIN["technologies"])), max_size=5, unique=True))
def test_random_traits_keep_every_unit_within_its_bounds(effects: list[dict[str, Any]],
                                                         techs: list[str]) -> None:
    """Any unit traits (which the pack's check accepts) with any technologies give units whose
    combat values stay 1-10, whose move is never below the pack's (or its upgrade's), and whose
    cost is the last one named (T71, T73)."""
    data = {**STANDIN, "factions": {**STANDIN["factions"], "aurel": {
        **STANDIN["factions"]["aurel"], "traits": effects}}}
    fields = traits.unit_fields(data, "aurel", techs)
    ups = {u: f for t in techs for u, f in [(data["technologies"][t]["effect"].get("unit"),
                                             data["technologies"][t]["effect"])]
           if f["do"] == "unit_override"}
    for uid, base in data["units"].items():
        mine = {**base, **fields.get(uid, {})}
        if mine.get("combat"):
            assert 1 <= mine["combat"]["value"] <= 10
        assert mine["move"] >= int(ups.get(uid, {}).get("move", base["move"]))
        costs = [e["cost"] for e in effects if e["do"] == "unit_cost" and e["unit"] == uid]
        if costs:
            assert mine["cost"] == costs[-1]
    assert not pack.check_components(data)
