"""Properties of The Ashes of Empire over random legal games to the end, in both modes: every
card in exactly one place and no planet over its stacking limit after every step
(ashes_driver.check_conservation), every ship accounted for by the events, determinism given
the chance inputs, JSON round trips, no leak of a hand or the deck into another player's view or
events, and an order checker that never raises."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from pbem import canonical
from tests.support.ashes_driver import PLUGIN, PracticeChance, arranged, ships
from tests.support.ashes_driver import orders as ordersmod
from tests.support.ashes_play import play

VARIANTS = st.sampled_from(["sequential-2", "sequential-4", "rounds-3", "rounds-6"])
# The seed is the whole input: shrinking it teaches nothing, so it is skipped.
SETTINGS = settings(max_examples=8, deadline=None, phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow])


def ledger(events, power):
    """Ships gained and lost by ``power`` as the public events tell it."""
    delta = 0
    for e in events:
        kind = e["type"]
        if "_visible_to" in e:
            continue
        if kind == "reinforcement" and e["power"] == power:
            delta += e["received"]
        elif kind in ("drew", "conquered", "retreat") and e["power"] == power:
            delta -= e["eliminated"]
        elif kind == "battle":
            if e["power"] == power:
                delta -= len(e["attacker_dice"]) - e["attacker_left"]
            elif e["defender"] == power:
                delta -= len(e["defender_dice"]) - e["defender_left"]
    return delta


@SETTINGS
@given(VARIANTS, st.integers(0, 10**6))
@example("sequential-4", 280)  # a proof's draw won the game before the battle (ruling A21)
def test_random_games_end_and_conserve_cards_and_ships(variant, seed):
    steps = 0
    for before, _, after, events in play(variant, seed):
        steps += 1
        assert json.loads(json.dumps(after)) == after
        for p in after["seats"]:
            assert ships(after, p) - ships(before, p) == ledger(events, p), (p, events)
    assert PLUGIN.is_over(after) and after["result"]["winners"]
    assert steps >= 2


@SETTINGS
@given(VARIANTS, st.integers(0, 10**6))
def test_determinism_given_the_chance_inputs(variant, seed):
    for before, orders, after, events in play(variant, seed, limit=40, to_the_end=False):
        again = PLUGIN.resolve(json.loads(json.dumps(before)), orders,
                               PracticeChance(f"seed-{seed}", before["turn"]))
        assert canonical.encode(again.state) == canonical.encode(after)
        assert canonical.encode(again.events) == canonical.encode(events)
        if PLUGIN.is_over(after):
            break


@SETTINGS
@given(VARIANTS, st.integers(0, 10**6))
def test_whole_game_leak_sweep(variant, seed):
    """No view or event for B names a card in A's hand, or a deck card B did not see go
    under (the deck's order and contents are the referee's). The one thing B may see is
    what he did himself or what everyone saw: in the round mode the card B exchanged, or a card
    everyone saw go under (a revolution, a proof), may be drawn by A later in the same round,
    and the event of its going under still names it (at the table too, everyone who counts the
    draws knows who took the bottom card of a short deck)."""
    for _, orders, after, events in play(variant, seed):
        if PLUGIN.is_over(after):
            break
        for b in after["seats"]:
            shown = canonical.dumps(PLUGIN.view(after, b)) + canonical.dumps(
                PLUGIN.view_events(events, b))
            mine = {m["exchange"] for m in [orders.get(b, {}).get("move")] +
                    orders.get(b, {}).get("else", []) if m and "exchange" in m}
            mine |= {e["planet"][len("planet:"):] for e in events
                     if e["type"] in ("revolution", "proof")}
            for a in after["seats"]:
                if a != b:
                    for card in set(after["powers"][a]["hand"]) - mine:
                        assert f"planet:{card}" not in shown, (b, a, card)
            for card in after["deck"]:
                if after["under"].get(card) not in ("public", b):
                    assert f"planet:{card}" not in shown, (b, "deck", card)
        public = canonical.dumps(PLUGIN.view(after, None)) + canonical.dumps(
            PLUGIN.view_events(events, None))
        seen = {e["planet"] for e in events if e["type"] in ("revolution", "proof")}
        for secret in PLUGIN.hidden(after) + [s for p in after["seats"]
                                              for s in PLUGIN.secrets(after, p)]:
            assert secret in seen or secret not in public


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-10**9, 10**9) | st.text(max_size=8)
    | st.integers(4000, 4500).map(lambda n: 10**n) | st.floats()
    | st.sampled_from(["A1", "planet:B2", "D4", "exchange", "conquer", "from", "ships"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["place", "move", "else", "retreat", "exchange", "colonise",
                         "conquer", "from", "ships", "survivors_to", "reorganise", "D4",
                         "A1", "x"]) | st.text(max_size=4)
        | st.integers(4400, 4401).map(lambda n: 10**n), inner, max_size=5),
    max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(JSONISH)
def test_normalize_orders_never_raises_and_names_every_problem(body):
    state = arranged(hands={"red": {"D4": 2, "C2": 0, "G3": 0}}, colonies={"red": {"A2": 3}})
    view = PLUGIN.view(state, "red")
    # the checks themselves, without normalize_orders' last-resort guard, so a gap shows here
    norm, problems = ordersmod._normalize(body, view)
    assert PLUGIN.normalize_orders(body, view) == (norm, problems)
    assert all(p.message and isinstance(p.path, str) for p in problems)
    if not problems:
        assert set(norm) == {"place", "move", "else", "retreat"}
