"""Property-based tests over random legal 4000 A.D. games played to the end (hypothesis).

Each example plays a whole game with random but legal orders, every order checked by
``normalize_orders`` against the power's view exactly as on receipt, and checks after every
resolution: ships are conserved, no power has more than two warps in flight or makes more than
one departure a turn (arrivals with random ``on_tie``, concessions with random ``surrender:``
stars), resolution is deterministic to the byte, the state survives a JSON round trip, and
the order view gives every power the view's verdict.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem.game import views
from tests.support.ad_driver import AD, Table, conserved, random_body

VARIANTS = ["alliances-2", "alliances-4", "independents-3", "independents-4", "wild-4"]


def same_verdict_with_the_order_view(state: dict, body: dict, rng: random.Random) -> None:
    """The order view (pbem.game.views) gives the view's verdict, problems and sentences
    included, for every power (due or not) on this body and on one with a departure of too many
    ships, from another star, or for a warp in flight."""
    bodies = [body]
    if "depart" in body:
        wrong = json.loads(json.dumps(body))
        change = rng.choice(["ships", "from", "warp"])
        wrong["depart"][change] = {"ships": 10**4, "from": rng.choice(list(AD.board.stars)),
                                   "warp": rng.choice([1, 2, 3])}[change]
        bodies.append(wrong)
    for power in state["powers"]:
        for b in bodies:
            assert (AD.normalize_orders(b, views.order_view(AD, state, power))
                    == AD.normalize_orders(b, AD.view(state, power))), (power, b)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1),
       mode=st.sampled_from(["simultaneous", "sequential"]))
def test_random_legal_games_keep_the_invariants(variant, seed, mode):
    rng = random.Random(seed)
    t = Table(variant, mode=mode)
    for _ in range(160):
        if AD.is_over(t.state):
            break
        orders = {}
        for power in AD.powers_due(t.state):
            body = random_body(t, power, rng)
            norm, problems = t.check(power, body)
            assert not problems, [str(p) for p in problems]
            orders[power] = norm
            same_verdict_with_the_order_view(t.state, body, rng)
        before = canonical.encode(t.state)
        first = AD.resolve(t.state, orders)
        again = AD.resolve(json.loads(before), json.loads(json.dumps(orders)))
        assert canonical.encode(first.state) == canonical.encode(again.state)
        assert canonical.encode(first.events) == canonical.encode(again.events)
        assert canonical.encode(t.state) == before, "resolve must not mutate its input"
        t.state = first.state
        assert json.loads(json.dumps(t.state)) == t.state
        assert conserved(t.state), t.state["tally"]
        for warps in t.state["warps"].values():
            assert set(warps) == {"1", "2"}, "never more than the two warps of the rules"
        departures = Counter((e["power"], e["turn"]) for e in first.events
                             if e["type"] == "departure")
        assert all(n == 1 for n in departures.values()), departures
        for warps in t.state["warps"].values():
            for w in warps.values():
                assert w is None or 1 <= w["travelled"] <= AD.board.furthest(w["sector"])
    if not AD.is_over(t.state):
        t.state = AD.end_game(t.state, "ended by the test").state
    assert t.state["result"] is not None
    assert conserved(t.state)
