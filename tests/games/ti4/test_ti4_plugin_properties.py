"""Random legal games of TI4 through the plugin (games/ti4/sample.py's orders, checked by the
referee's own ``normalize_orders``, resolved with the engine's fair chance from fixed inputs),
each to its end or the step limit, then ended by agreement. Every state keeps the invariants
(tests/support/ti4_play.py ``check``: command tokens never above 16, units within their
plastic limits, one seated owner per planet, no negative trade goods); the same inputs give
the same game to the byte; the windows are the ones STATE.md lists; and hidden draws never
reach a view."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import canonical
from tests.support.ti4_play import PLUGIN, check, play

KINDS = {"setup", "deal", "strategy", "action", "secondary", "status", "agenda"}


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), variant=st.sampled_from(sorted(PLUGIN.variants())))
def test_random_legal_games_keep_the_invariants(seed: int, variant: str) -> None:
    rounds = 0
    for before, _orders, after, events in play(variant, seed, limit=160):
        check(after)
        window = PLUGIN.window(before)
        assert window is not None and window.kind in KINDS
        assert all(e["type"] for e in events)
        rounds = max(rounds, int(after["round"]))
    assert PLUGIN.is_over(after)
    assert rounds >= 2, "random play reaches a second round"


@pytest.mark.parametrize("seed", [3, 11])
def test_the_same_inputs_give_the_same_game_to_the_byte(seed: int) -> None:
    first = [canonical.encode(after) for _b, _o, after, _e in play("small-4", seed, limit=70)]
    again = [canonical.encode(after) for _b, _o, after, _e in play("small-4", seed, limit=70)]
    assert first == again and len(first) > 60


def test_a_game_replayed_from_its_orders_gives_the_same_states() -> None:
    """Each step's orders resolved again on a JSON copy of the step's state give the same
    state: nothing but the state, the orders and the chance decides a step."""
    from tests.support.conformance import real_chance

    key = (5).to_bytes(4, "big") * 8
    for before, orders, after, _events in play("small-3", 5, limit=60):
        if not orders:  # the ending by agreement
            continue
        window = PLUGIN.window(before)
        assert window is not None
        again = PLUGIN.resolve(json.loads(json.dumps(before)), orders,
                               real_chance(int(before["turn"]), list(window.due), key))
        assert canonical.encode(again.state) == canonical.encode(after)


def test_a_long_random_game_plays_agenda_phases_once_the_custodians_are_taken() -> None:
    """Over enough seeds someone takes the Custodians and an agenda phase is voted."""
    kinds: set[str] = set()
    for seed in range(40):
        for before, _o, after, _e in play("small-3", seed, limit=400):
            check(after)
            w = PLUGIN.window(before)
            kinds.add(w.kind if w else "over")
        if "agenda" in kinds:
            break
    assert "agenda" in kinds
