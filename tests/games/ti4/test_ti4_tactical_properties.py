"""Random legal tactical actions on the stand-in galaxy (games/ti4/tactical.py, RULES.md T29):
every order the generator writes is accepted, and after every action the units stay within
their plastic limits, each player keeps 16 command tokens or fewer (8 here, none lost), every
planet has one owner and ground forces of one player at most, a system holds ships of one
player at most (unless a combat ran out of rounds), and the same dice give the same board and
events."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ti4 import pack
from games.ti4.board import Board, planet, space, start
from games.ti4.galaxy import reach
from games.ti4.movement import capacity_excess, fleet_size, ship_owners, situation
from games.ti4.production import docks
from games.ti4.tactical import tactical_action
from games.ti4.units import Catalog, cost_of
from pbem.game.practice import PracticeChance

PACK = pack.standin()
PLAYERS = {"red": "aurel", "blue": "brannock", "green": "cassiel", "white": "drummond"}
CAT = Catalog.from_pack(PACK, "small-4", ["H1", "H2", "H3", "H4"])


def random_order(b: Board, player: str, rnd: random.Random) -> dict[str, Any]:
    """A legal tactical action for ``player``, chosen at random."""
    free = [s for s in sorted(CAT.galaxy.tiles) if not b.holds_token(s, player)]
    here = situation(b, CAT, player)
    reached = sorted({dest for sid in CAT.galaxy.tiles
                      for uid, n in b.stack(space(sid), player).items() if n
                      for dest in reach(CAT.galaxy, sid, CAT.unit(uid, player).move, here)})
    theirs = [s for s in reached if any(b.owner.get(p) not in (None, player)
                                        for p in CAT.planets_in(s))]
    active = rnd.choice(theirs if theirs and rnd.random() < 0.6 else
                        reached if reached and rnd.random() < 0.7 else free)
    moves: list[dict[str, Any]] = []
    fleet = fleet_size(b, CAT, active, player)
    taken: dict[tuple[str, str], int] = {}
    for sid in sorted(CAT.galaxy.tiles):
        if sid == active:
            continue
        for uid, n in sorted(b.stack(space(sid), player).items()):
            spec = CAT.unit(uid, player)
            if not spec.in_fleet or not n or rnd.random() < 0.3:
                continue
            path = reach(CAT.galaxy, sid, spec.move, here).get(active)
            k = min(rnd.randint(1, n), b.pool(player, "fleet") - fleet)
            if path is None or k < 1:
                continue
            fleet += k
            mv: dict[str, Any] = {"path": path, "ships": {uid: k}}
            room = k * spec.capacity
            carry: dict[str, int] = {}
            for cu, cn in sorted(b.stack(space(sid), player).items()):
                if CAT.unit(cu, player).needs_capacity:
                    c = min(room, cn - taken.get((sid, cu), 0), rnd.randint(0, cn))
                    if c > 0:
                        carry[cu] = c
                        taken[(sid, cu)] = taken.get((sid, cu), 0) + c
                        room -= c
            lift: dict[str, dict[str, int]] = {}
            for pid in CAT.planets_in(sid):
                for gu, gn in sorted(b.stack(planet(pid), player).items()):
                    if CAT.unit(gu, player).ground:
                        c = min(room, gn - taken.get((pid, gu), 0), rnd.randint(0, gn))
                        if c > 0:
                            lift[pid] = {gu: c}
                            taken[(pid, gu)] = taken.get((pid, gu), 0) + c
                            room -= c
            if carry:
                mv["carry"] = carry
            if lift:
                mv["lift"] = lift
            moves.append(mv)
    order: dict[str, Any] = {"activate": active}
    if moves:
        order["move"] = moves
    after = dict(b.stack(space(active), player))
    for mv in moves:
        for part in (mv["ships"], mv.get("carry", {}), *mv.get("lift", {}).values()):
            for u, n in part.items():
                after[u] = after.get(u, 0) + n
    planets = CAT.planets_in(active)
    troops = after.get("trooper", 0)
    if planets and troops and rnd.random() < 0.8:
        order["invade"] = {rnd.choice(planets): {"trooper": rnd.randint(1, troops)}}
    guns = {u: n for u, n in after.items() if CAT.unit(u, player).bombardment and n}
    if planets and guns and rnd.random() < 0.5:
        order["bombard"] = {rnd.choice(planets): guns}
    capacity, where = docks(b, CAT, active, player)
    if where and rnd.random() < 0.8:
        buildable = sorted(u for u, s in CAT.units.items() if s.cost is not None)
        build: dict[str, int] = {}
        for _ in range(rnd.randint(1, capacity)):
            u = rnd.choice(buildable)
            build[u] = build.get(u, 0) + 1
        order["produce"] = build
    return order


STANDING = {"red": {"hits": ["sustain", "wing", "trooper"], "retreat": {"at_most": 1}},
            "blue": {"hits": ["picket", "sustain"]},
            "green": {"retreat": {"at_most": 2, "to": ["S01"]}, "space_cannon": False},
            "white": {}}


def with_batteries(b: Board) -> Board:
    """The set-up board plus a battery (space cannon, planetary shield) on every home planet,
    so that cannon fire and shields come up in random play."""
    d = b.edit()
    for pid, player in sorted(b.owner.items()):
        d.add(planet(pid), player, "battery")
    return d.freeze()


def check_invariants(b: Board, stalemate: bool) -> None:
    for player in PLAYERS:
        assert b.tokens_of(player) == 8 <= 16
        for uid, spec in CAT.units.items():
            if not spec.two_for_one:
                assert b.total(player, uid) <= spec.limit, (player, uid)
    for pid in CAT.planets:
        holders = [p for p in b.players_at(planet(pid))
                   if any(CAT.unit(u, p).ground for u in b.stack(planet(pid), p))]
        assert len(holders) <= 1, (pid, holders)
        assert b.owner.get(pid) in (None, *PLAYERS)
    for sid in CAT.galaxy.tiles:
        for player in PLAYERS:
            assert capacity_excess(b, CAT, sid, player) == ({}, {}), (sid, player)
            assert fleet_size(b, CAT, sid, player) <= b.pool(player, "fleet"), (sid, player)
    for place in b.places():
        for player in b.players_at(place):
            for uid, n in b.stack(place, player).items():
                assert 0 <= b.damaged_count(place, player, uid) <= n
    if not stalemate:
        for sid in CAT.galaxy.tiles:
            assert len(ship_owners(b, CAT, sid)) <= 1, sid


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_legal_tactical_actions_keep_the_boards_invariants(seed: int) -> None:
    rnd = random.Random(seed)
    b = with_batteries(start(PACK, CAT, PLAYERS))
    for step in range(16):
        player = sorted(PLAYERS)[step % len(PLAYERS)]
        if b.pool(player, "tactic") < 1:
            b = b.tokens_back()
        order = random_order(b, player, rnd)
        money = max(8, cost_of(order.get("produce", {}), CAT.specs(player)))
        out = tactical_action(b, CAT, player, order, STANDING,
                              PracticeChance("ti4", str(seed), step), resources=money)
        assert not out.problems, (order, out.problems)
        again = tactical_action(b, CAT, player, order, STANDING,
                                PracticeChance("ti4", str(seed), step), resources=money)
        assert again.board == out.board and again.events == out.events
        assert json.dumps(out.board.to_data(), sort_keys=True) \
            == json.dumps(again.board.to_data(), sort_keys=True)
        assert 0 <= out.spent <= money
        check_invariants(out.board, any(e["type"] == "stalemate" for e in out.events))
        b = out.board
