"""Random legal play of The Ashes of Empire for the property tests: a random order a player
could write from his own view (every option a-d), and whole games to the end."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from tests.support.ashes_driver import PLUGIN, PracticeChance, check_conservation

PREFIX = "planet:"


def bare(name: str) -> str:
    return name[len(PREFIX):]


def random_orders(view: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal order body from ``view`` alone (what the player's tool could write)."""
    if view["window"]["kind"] in ("setup", "deal"):
        return {}
    cards = view["cards"]
    me = view["viewer"]
    hand = {bare(c): n for c, n in view["you"]["hand"].items()}
    cols = {bare(c): n for c, n in view["powers"][me]["colonies"].items()}

    def limit(c: str) -> int:
        return 2 * int(cards[c]["population"])

    ships = {**hand, **cols}
    place: dict[str, int] = {}
    for _ in range(view["you"]["reinforcements"]):
        room = [c for c in sorted(ships) if ships[c] < limit(c)]
        if not room:
            break
        c = rng.choice(room)
        ships[c] += 1
        place[c] = place.get(c, 0) + 1
    body: dict[str, Any] = {"place": place}
    options = ["none", "exchange", "colonise", "conquer", "conquer", "conquer", "reorganise"]
    if rng.random() < 0.3:  # standing placement: plan only on the ships there before it
        body = {}
        ships = {**hand, **cols}
        options = ["none", "exchange", "conquer", "conquer"]
    hand_now = {c: ships[c] for c in hand}
    cols_now = {c: ships[c] for c in cols}
    galaxy = [bare(c) for c in view["galaxy"]]
    enemy = [bare(c) for p, info in view["powers"].items() if p != me
             for c in info["colonies"]]
    kind = rng.choice(options)
    move: dict[str, Any] | None = None
    if kind == "exchange":
        move = {"exchange": rng.choice(sorted(hand_now))}
    elif kind == "colonise":
        card = rng.choice(sorted(hand_now))
        give: dict[str, int] = {}
        budget = min(6, limit(card) - hand_now[card])
        for c in sorted(hand_now):
            if c != card and hand_now[c] and budget > 0:
                k = rng.randint(0, min(hand_now[c], budget))
                if k:
                    give[c] = k
                    budget -= k
        if hand_now[card] + sum(give.values()) >= 1:
            move = {"colonise": card, "ships": give}
    elif kind == "conquer":
        def reach(src: str, t: str) -> bool:
            return int(cards[t]["number"]) in cards[src]["reach"]["D"]
        routes = [(t, s) for t in galaxy + enemy for s in sorted(cols_now)
                  if cols_now[s] and reach(s, t)]
        if routes:
            t, s = rng.choice(routes)
            move = {"conquer": t, "from": s, "ships": rng.randint(1, min(6, cols_now[s]))}
        else:
            homes = [(t, s) for t in galaxy + enemy for s in sorted(hand_now)
                     if reach(s, t) and not any(reach(c, t) for c in cols_now)]
            total = sum(hand_now.values())
            if homes and total:
                t, s = rng.choice(homes)
                take: dict[str, int] = {}
                budget = rng.randint(1, min(6, total))
                for c in sorted(hand_now):
                    k = min(hand_now[c], budget)
                    if k:
                        take[c] = k
                        budget -= k
                move = {"conquer": t, "from": s, "ships": take}
        if move is not None and galaxy and rng.random() < 0.5:
            others = [g for g in galaxy if g != move["conquer"]]
            if others:
                move["survivors_to"] = rng.choice(others)
    elif kind == "reorganise":
        pool = sum(ships.values())
        new = {c: 0 for c in ships}
        for c in rng.sample(sorted(ships), len(ships)):
            k = min(limit(c), pool)
            k = rng.randint(0, k) if rng.random() < 0.5 else k
            new[c] = k
            pool -= k
        if pool == 0:
            move = {"reorganise": new}
    if move is not None:
        body["move"] = move
    if rng.random() < 0.2:
        body["retreat"] = rng.sample(sorted(hand_now), len(hand_now))
    return body


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
