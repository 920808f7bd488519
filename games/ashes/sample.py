"""Random legal play of The Ashes of Empire (the ``sample_orders`` hook, docs/plugins.md): a
body a player could write from his own view alone: reinforcements placed, then one move of
every kind the rules have (none, exchange, colonise, conquer with survivors sent on, reorganise)
and now and then a retreat order. The property tests play with it (tests/support/ashes_play.py)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

PREFIX = "planet:"
View = Mapping[str, Any]


def _bare(name: str) -> str:
    return name[len(PREFIX):]


class _Table:
    """What the viewer holds, as bare card codes."""

    def __init__(self, view: View) -> None:
        self.cards: Mapping[str, Any] = view["cards"]
        me = view["viewer"]
        self.hand = {_bare(c): int(n) for c, n in view["you"]["hand"].items()}
        self.cols = {_bare(c): int(n) for c, n in view["powers"][me]["colonies"].items()}
        self.galaxy = [_bare(c) for c in view["galaxy"]]
        self.enemy = [_bare(c) for p, info in view["powers"].items() if p != me
                      for c in info["colonies"]]

    def limit(self, card: str) -> int:
        return 2 * int(self.cards[card]["population"])

    def reach(self, src: str, target: str) -> bool:
        return int(self.cards[target]["number"]) in self.cards[src]["reach"]["D"]


def _place(t: _Table, count: int, rng: random.Random) -> tuple[dict[str, int], dict[str, int]]:
    """(placements, ships on every card after them)."""
    ships = {**t.hand, **t.cols}
    place: dict[str, int] = {}
    for _ in range(count):
        room = [c for c in sorted(ships) if ships[c] < t.limit(c)]
        if not room:
            break
        c = rng.choice(room)
        ships[c] += 1
        place[c] = place.get(c, 0) + 1
    return place, ships


def _colonise(t: _Table, hand: dict[str, int], rng: random.Random) -> dict[str, Any] | None:
    card = rng.choice(sorted(hand))
    give: dict[str, int] = {}
    budget = min(6, t.limit(card) - hand[card])
    for c in sorted(hand):
        if c != card and hand[c] and budget > 0:
            k = rng.randint(0, min(hand[c], budget))
            if k:
                give[c] = k
                budget -= k
    return {"colonise": card, "ships": give} if hand[card] + sum(give.values()) >= 1 else None


def _conquer(t: _Table, hand: dict[str, int], cols: dict[str, int], rng: random.Random
             ) -> dict[str, Any] | None:
    targets = t.galaxy + t.enemy
    routes = [(g, s) for g in targets for s in sorted(cols) if cols[s] and t.reach(s, g)]
    move: dict[str, Any] | None = None
    if routes:
        g, s = rng.choice(routes)
        move = {"conquer": g, "from": s, "ships": rng.randint(1, min(6, cols[s]))}
    else:  # from the hand: only a target no colony reaches
        homes = [(g, s) for g in targets for s in sorted(hand)
                 if t.reach(s, g) and not any(t.reach(c, g) for c in cols)]
        total = sum(hand.values())
        if homes and total:
            g, s = rng.choice(homes)
            take: dict[str, int] = {}
            budget = rng.randint(1, min(6, total))
            for c in sorted(hand):
                k = min(hand[c], budget)
                if k:
                    take[c] = k
                    budget -= k
            move = {"conquer": g, "from": s, "ships": take}
    if move is not None and t.galaxy and rng.random() < 0.5:
        others = [g for g in t.galaxy if g != move["conquer"]]
        if others:
            move["survivors_to"] = rng.choice(others)
    return move


def _reorganise(t: _Table, ships: dict[str, int], rng: random.Random) -> dict[str, Any] | None:
    pool = sum(ships.values())
    new = {c: 0 for c in ships}
    for c in rng.sample(sorted(ships), len(ships)):
        k = min(t.limit(c), pool)
        k = rng.randint(0, k) if rng.random() < 0.5 else k
        new[c] = k
        pool -= k
    return {"reorganise": new} if pool == 0 else None


def sample_orders(view: View, rng: random.Random) -> dict[str, Any] | None:
    """A legal order body from ``view`` alone; ``{}`` in the steps before play (the file
    carries the chance contribution only); None when the viewer has no step to order."""
    window = view.get("window") or {}
    if view.get("result") is not None or view.get("viewer") not in (window.get("due") or []):
        return None
    if window.get("kind") in ("setup", "deal"):
        return {}
    t = _Table(view)
    place, ships = _place(t, int(view["you"]["reinforcements"]), rng)
    body: dict[str, Any] = {"place": place}
    options = ["none", "exchange", "colonise", "conquer", "conquer", "conquer", "reorganise"]
    if rng.random() < 0.3:  # standing placement: plan only on the ships there before it
        body, ships = {}, {**t.hand, **t.cols}
        options = ["none", "exchange", "conquer", "conquer"]
    hand = {c: ships[c] for c in t.hand}
    cols = {c: ships[c] for c in t.cols}
    kind = rng.choice(options)
    move: dict[str, Any] | None = None
    if kind == "exchange":
        move = {"exchange": rng.choice(sorted(hand))}
    elif kind == "colonise":
        move = _colonise(t, hand, rng)
    elif kind == "conquer":
        move = _conquer(t, hand, cols, rng)
    elif kind == "reorganise":
        move = _reorganise(t, ships, rng)
    if move is not None:
        body["move"] = move
    if rng.random() < 0.2:
        body["retreat"] = rng.sample(sorted(hand), len(hand))
    return body
