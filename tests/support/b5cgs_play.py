"""Random legal play of Babylon 5 CGS for the property tests: a random order body a player
could write from his own view (starting fleet, builds and repairs, moves and jumps, volleys with
else targets, victory declarations), each entry kept only if the referee's own check
(``normalize_orders`` on that view) accepts the body with it, and whole games played with the
practice chance."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from tests.support.b5cgs_driver import PLUGIN, PracticeChance


def random_orders(view: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal order body for the viewer: the game's own ``sample_orders``
    (games/b5cgs/sample.py), which random play of every game uses too."""
    return PLUGIN.sample_orders(view, rng) or {}


def play(variant: str, seed: int, limit: int = 24
         ) -> Iterator[tuple[dict[str, Any], dict[str, Any], dict[str, Any],
                             list[dict[str, Any]]]]:
    """(before, orders, after, events) for every step of a game to its end: the set-up, then
    random legal turns until a victory or ``limit`` steps, when the players agree to end it
    (pbem gm end)."""
    rng = random.Random(seed)
    state = PLUGIN.setup(variant, {"game_id": f"prop-{seed}"})
    for _ in range(limit):
        if PLUGIN.is_over(state):
            return
        orders = {}
        for p in PLUGIN.powers_due(state):
            body = random_orders(PLUGIN.view(state, p), rng)
            norm, problems = PLUGIN.normalize_orders(body, PLUGIN.view(state, p))
            assert problems == [], (body, problems)
            orders[p] = norm
        result = PLUGIN.resolve(json.loads(json.dumps(state)), orders,
                                PracticeChance(f"seed-{seed}", state["turn"]))
        yield state, orders, result.state, result.events
        state = result.state
    if not PLUGIN.is_over(state):
        end = PLUGIN.end_game(state, "agreement")
        yield state, {}, end.state, end.events


Step = tuple[dict[str, Any], dict[str, Any], dict[str, Any], list[dict[str, Any]]]


@functools.cache
def played(variant: str, seed: int, limit: int = 24) -> tuple[Step, ...]:
    """``play(variant, seed, limit)``'s steps, played once for the process: the tests that read
    one game share it (they read it, never change it: a state is resolved into a new one)."""
    return tuple(play(variant, seed, limit))


UNITS = ("ship", "base")


def check(state: dict) -> None:
    """No Economy Reserve negative, no hex with two units, every token in one place (a hex of
    the map, never Babylon 5's, or its owner's Scrap Yard), no type beyond the pack's count."""
    pack = state["pack"]["tokens"]
    on_map = {h for s in state["map"]["slots"] for h in s["hexes"]}
    b5 = state["map"]["b5_hex"]
    for p, me in state["powers"].items():
        assert isinstance(me["reserve"], int) and me["reserve"] >= 0, (p, me["reserve"])
    seen: dict[str, str] = {}
    counts: dict[str, int] = {}
    for tid, t in state["tokens"].items():
        counts[t["type"]] = counts.get(t["type"], 0) + 1
        if t["hex"] is None:
            assert t["scrap"] and pack[t["type"]].get("upkeep", 0) > 0, (tid, t)
            continue
        assert not t["scrap"], (tid, t)
        assert t["hex"] in on_map and t["hex"] != b5, (tid, t)
        if pack[t["type"]]["kind"] in UNITS:
            assert t["hex"] not in seen, ("two units in", t["hex"], seen.get(t["hex"]), tid)
            seen[t["hex"]] = tid
    for ttype, n in counts.items():
        assert n <= pack[ttype]["count"], (ttype, n)
