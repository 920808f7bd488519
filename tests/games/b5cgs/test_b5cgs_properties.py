"""Properties of Babylon 5 CGS over random legal games to the end (tests/support/b5cgs_play.py:
every entry accepted by the referee's own check; the set-up, random turns, then a victory or the
players' agreement): after every step no Economy Reserve is negative, no hex holds two units,
every token is in exactly one place (on the map in a hex of the map, never Babylon 5's, or in
its owner's Scrap Yard) and no type has more tokens than the pack has (no proxies, C1.33); the
resolution is deterministic given the chance inputs and survives a JSON round trip; and the
order check never raises on anything."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pbem import canonical
from tests.support.b5cgs_driver import PLUGIN, PracticeChance, new_game
from tests.support.b5cgs_play import check, play

VARIANTS = st.sampled_from(["basic-3", "basic-4", "modular-3", "basic-2"])
# The seed is the whole input: shrinking it teaches nothing, so it is skipped.
SETTINGS = settings(max_examples=4, deadline=None, phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow])
@SETTINGS
@given(VARIANTS, st.integers(0, 10**6))
def test_random_games_end_with_the_economy_and_the_map_consistent(variant, seed):
    steps = 0
    for _, _, after, _ in play(variant, seed):
        steps += 1
        check(after)
        assert json.loads(json.dumps(after)) == after
    assert PLUGIN.is_over(after) and after["result"]["winners"]
    assert steps >= 2


@SETTINGS
@given(VARIANTS, st.integers(0, 10**6))
def test_determinism_given_the_chance_inputs(variant, seed):
    for before, orders, after, events in play(variant, seed, limit=12):
        copy = json.loads(json.dumps(before))
        if orders:  # a step resolved with every due power's orders
            again = PLUGIN.resolve(copy, orders, PracticeChance(f"seed-{seed}", before["turn"]))
        else:  # the players' agreement that ends a game with no winner by then
            again = PLUGIN.end_game(copy, "agreement")
        assert canonical.encode(again.state) == canonical.encode(after)
        assert canonical.encode(again.events) == canonical.encode(events)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-10**9, 10**9) | st.text(max_size=8)
    | st.integers(4000, 4500).map(lambda n: 10**n) | st.floats()
    | st.sampled_from(["t1", "t7", "0,1", "1,-1", "ea-hyperion", "base-4", "economic"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["start", "record", "allocate", "move", "fire", "contested", "unit",
                         "to", "facing", "flip", "jump", "fleet", "sweep", "target", "with",
                         "else", "build", "repair", "token", "hex", "by", "declare",
                         "default", "allow", "deny", "x"]) | st.text(max_size=4),
        inner, max_size=5),
    max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(JSONISH)
def test_normalize_orders_never_raises_and_names_every_problem(body):
    state = new_game("basic-3")
    view = PLUGIN.view(state, state["current"])
    norm, problems = PLUGIN.normalize_orders(body, view)
    assert all(p.message and isinstance(p.path, str) for p in problems)
    assert isinstance(norm, dict)
