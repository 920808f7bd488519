"""Whole turns through the plugin (turn.py): the phases in order on one working copy, the
input never changed, determinism given the chance, and a game played for several rounds with
starting fleets, exploring moves and jumps keeping the invariants (economy never negative, one
unit per hex, no more tokens than exist, nothing hidden in any view)."""

from __future__ import annotations

import json

from pbem import canonical
from tests.support.b5cgs_driver import PLUGIN, PracticeChance, dealt, movement, setupmod, where

EA = "earth-alliance"


def starting(st, power):
    """Buy what fits: a jump-capable ship and a transport on free homeworld hexes."""
    hw = [h for h in setupmod.homeworld_hexes(st, power)
          if not any(t["hex"] == h for t in st["tokens"].values())]
    emp = st["powers"][power]["empire"]
    ships = [t for t, x in st["pack"]["tokens"].items()
             if x["empire"] == emp and x["kind"] == "ship"]
    jumpers = [t for t in ships if st["pack"]["tokens"][t]["jump"][0]]
    picks = (jumpers[:1] + [t for t in ships if t not in jumpers][:1])
    return [{"token": t, "hex": h, "facing": 1} for t, h in zip(picks, hw, strict=False)]


def moves(st, power):
    """Each ship: the first legal standard movement that leaves its hex (sorted), if any."""
    out, taken = [], set()
    for tid, tok in sorted(st["tokens"].items()):
        if tok["owner"] != power or tok["hex"] is None or where.kind(st, tid) != "ship":
            continue
        for to, facing in sorted(movement.standard_moves(st, tid)):
            if to == tok["hex"] or to in taken:
                continue
            if movement.plan(st, power, {"unit": tid, "to": to, "facing": facing},
                             set())[0] is not None:
                out.append({"unit": tid, "to": to, "facing": facing, "flip": 2})
                taken.add(to)
                break
    return out


def play(variant="basic-3", turns=12, game="t", version=None):
    """``turns`` turns of play after the deal; under rules version 3 the starting-fleet steps
    come first (ruling R7) and are in the trail too."""
    st = dealt(variant, version=version)
    trail = []
    fleets = len(st["seats"]) if st["phase"] == "fleet" else 0
    for step in range(turns + fleets):
        if PLUGIN.is_over(st):
            break
        power = PLUGIN.powers_due(st)[0]
        body = {"move": moves(st, power)}
        if setupmod.fleet_due(PLUGIN.view(st, power)):
            body = {"start": starting(st, power)}
        orders, problems = PLUGIN.normalize_orders(body, PLUGIN.view(st, power))
        assert problems == [], (power, problems)
        before = canonical.encode(st)
        r = PLUGIN.resolve(st, {power: orders}, PracticeChance(game, step))
        assert canonical.encode(st) == before
        trail.append((st, orders, r))
        st = r.state
    return st, trail


def invariants(st):
    units = [t["hex"] for tid, t in st["tokens"].items()
             if t["hex"] is not None and where.kind(st, tid) in ("ship", "base")]
    assert len(units) == len(set(units)), "one unit per hex (B4.35)"
    for p, me in st["powers"].items():
        assert me["reserve"] >= 0, p
    for ttype, t in st["pack"]["tokens"].items():
        assert setupmod.in_play(st, ttype) <= t["count"], ttype
    assert json.loads(json.dumps(st)) == st


def test_a_game_of_several_rounds_keeps_the_invariants():
    st, trail = play(turns=12)
    assert st["round"] >= 4
    explored = [e for _, _, r in trail for e in r.events if e["type"] == "explored"]
    assert explored, "ships moving out explore face-down pieces"
    for _, _, r in trail:
        invariants(r.state)
        for power in [*r.state["seats"], None]:
            shown = canonical.dumps(PLUGIN.view(r.state, power))
            shown += canonical.dumps(PLUGIN.view_events(r.events, power))
            for secret in PLUGIN.hidden(r.state):
                assert secret not in shown


def test_resolution_is_deterministic_given_the_chance():
    _, one = play(turns=8, game="same")
    _, two = play(turns=8, game="same")
    assert [canonical.encode(r.state) for _, _, r in one] == [
        canonical.encode(r.state) for _, _, r in two]
    assert [canonical.encode(r.events) for _, _, r in one] == [
        canonical.encode(r.events) for _, _, r in two]


def test_every_event_carries_the_step_and_round():
    _, trail = play(turns=4)
    for before, _, r in trail:
        assert all(e["turn"] == before["turn"] for e in r.events)
        assert all("round" in e for e in r.events)


def test_the_phases_run_in_order():
    """Rules version 3: each starting fleet in its own step, then the turns (ruling R7);
    versions 1 and 2: the starting fleet first in the first turn, before Record Keeping."""
    _, trail = play(turns=1)
    fleet = [e["type"] for e in trail[0][2].events]
    assert fleet[0] == "fleet_begins" and "placed" in fleet and "turn_begins" not in fleet
    assert [e["type"] for e in trail[-2][2].events][-1] == "play_begins"
    types = [e["type"] for e in trail[-1][2].events]
    assert types[0] == "turn_begins" and types[-1] == "turn_ends" and "placed" not in types
    _, trail = play(turns=1, version=2)
    types = [e["type"] for e in trail[0][2].events]
    assert types[0] == "turn_begins" and types[-1] == "turn_ends"
    assert types.index("placed") < max(i for i, t in enumerate(types) if t == "economy")


def test_end_by_agreement_names_the_highest_gross_economy():
    st, _ = play(turns=3)
    r = PLUGIN.end_game(st, "agreed by all")
    assert PLUGIN.is_over(r.state) and r.state["result"]["reason"] == "agreement"
    assert r.state["result"]["winners"]
    assert any(e["type"] == "revealed" for e in r.events)
