"""Random legal play of The Ashes of Empire for the property tests: a random order a player
could write from his own view (every option a-d), and whole games to the end."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from tests.support.ashes_driver import PLUGIN, PracticeChance, check_conservation


def random_orders(view: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal order body for the viewer: the game's own ``sample_orders``
    (games/ashes/sample.py), which random play of every game uses too."""
    return PLUGIN.sample_orders(view, rng) or {}


def play(variant: str, seed: int, limit: int = 600, to_the_end: bool = True
         ) -> Iterator[tuple[dict[str, Any], dict[str, Any], dict[str, Any], list[Any]]]:
    """(state before, orders, state after, events) for every step of a random legal game."""
    rng = random.Random(seed)
    state = PLUGIN.setup(variant, {"game_id": f"prop-{seed}"})
    for _ in range(limit):
        if PLUGIN.is_over(state):
            return
        orders = {}
        for p in PLUGIN.powers_due(state):
            view = PLUGIN.view(state, p)
            body = random_orders(view, rng)
            norm, problems = PLUGIN.normalize_orders(body, view)
            assert problems == [], (body, problems)
            orders[p] = norm
        chance = PracticeChance(f"seed-{seed}", state["turn"])
        result = PLUGIN.resolve(state, json.loads(json.dumps(orders)), chance)
        check_conservation(result.state)
        yield state, orders, result.state, result.events
        state = result.state
    if to_the_end:
        raise AssertionError(f"no end after {limit} steps")
