"""Helpers for The Ashes of Empire tests: scripted chance (dice and deck order) and arranged
positions, so every rule can be shown on a table laid out by hand.

``ScriptedChance`` implements the game's chance shape (public/secret labelled streams with
below/roll/shuffle) from a script: the deck order the shuffle must produce, the first player's
seat and the dice of each labelled roll. A draw the script does not cover fails the test.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from pbem.game import registry

PLUGIN: Any = registry.load("ashes")
rules = importlib.import_module("ashes.rules")
position = importlib.import_module("ashes.position")
deckmod = importlib.import_module("ashes.deck")
orders = importlib.import_module("ashes.orders")
view = importlib.import_module("ashes.view")
PracticeChance = importlib.import_module("ashes.chance").PracticeChance
CARDS = {c["code"]: c for c in deckmod.standin()["cards"]}
T = TypeVar("T")


class ScriptError(AssertionError):
    pass


class ScriptedStream:
    def __init__(self, owner: ScriptedChance, scope: str, label: str) -> None:
        self.owner, self.scope, self.label = owner, scope, label

    def below(self, n: int) -> int:
        self.owner.drawn.append((self.scope, self.label, "below", n))
        values = self.owner.below.get(self.label)
        if not values:
            raise ScriptError(f"unscripted below({n}) on {self.label!r}")
        return int(values.pop(0))

    def roll(self, faces: Sequence[int], count: int = 1) -> list[int]:
        self.owner.drawn.append((self.scope, self.label, "roll", count))
        values = self.owner.dice.get(self.label)
        if values is None or len(values) < count:
            raise ScriptError(f"unscripted roll of {count} on {self.label!r}")
        out, self.owner.dice[self.label] = values[:count], values[count:]
        assert all(v in faces for v in out)
        return list(out)

    def shuffle(self, items: Sequence[T]) -> list[T]:
        self.owner.drawn.append((self.scope, self.label, "shuffle", len(items)))
        if self.owner.deck is None:
            raise ScriptError(f"unscripted shuffle on {self.label!r}")
        order = list(self.owner.deck)
        assert sorted(map(str, order)) == sorted(map(str, items)), "not a permutation"
        return order  # type: ignore[return-value]


class ScriptedChance:
    """Scripted draws: ``deck`` (the shuffled order, top first), ``first`` (seat index),
    ``dice`` (label -> faces in order)."""

    def __init__(self, deck: Sequence[str] | None = None, first: int = 0,
                 dice: Mapping[str, Sequence[int]] | None = None) -> None:
        self.deck = list(deck) if deck is not None else None
        self.below: dict[str, list[int]] = {"first-player": [first]}
        self.dice: dict[str, list[int]] = {k: list(v) for k, v in (dice or {}).items()}
        self.drawn: list[tuple[str, str, str, int]] = []

    def public(self, label: str) -> ScriptedStream:
        return ScriptedStream(self, "public", label)

    def secret(self, label: str) -> ScriptedStream:
        return ScriptedStream(self, "secret", label)


def standin_order() -> list[str]:
    return sorted(CARDS, key=lambda c: CARDS[c]["number"])


def arranged(variant: str = "sequential-2", *, hands: Mapping[str, Mapping[str, int]],
             colonies: Mapping[str, Mapping[str, int]] | None = None,
             galaxy: Mapping[str, int] | None = None, deck_top: Sequence[str] = (),
             active: str | None = None, turn: int = 5, deck_size: int | None = None,
             rules_version: int | None = None) -> dict[str, Any]:
    """A state in play with the given hands, colonies and galaxy; hands and the galaxy are
    filled up (3 and 8) in planet-number order, and the deck holds ``deck_top`` first, then
    every other card in planet-number order. ``deck_size`` cuts the deck short: the surplus
    cards become 1-ship colonies dealt round the seats (every card stays in one place).
    ``rules_version``: the version the game records (default: the current one)."""
    options: dict[str, Any] = {"game_id": "ashes-test"}
    if rules_version is not None:
        options["rules_version"] = rules_version
    state = PLUGIN.setup(variant, options)
    state = copy.deepcopy(state)
    seats = state["seats"]
    used: set[str] = set()
    for p, hand in hands.items():
        state["powers"][p]["hand"] = dict(sorted(hand.items()))
        used |= set(hand)
    for p, cols in (colonies or {}).items():
        state["powers"][p]["colonies"] = dict(sorted(cols.items()))
        used |= set(cols)
    gal = dict(galaxy or {})
    used |= set(gal) | set(deck_top)
    rest = [c for c in standin_order() if c not in used]
    for p in seats:
        hand = state["powers"][p]["hand"]
        while len(hand) < 3:
            hand[rest.pop(0)] = 0
        state["powers"][p]["hand"] = dict(sorted(hand.items()))
    while len(gal) < 8:
        gal[rest.pop(0)] = 0
    state["galaxy"] = dict(sorted(gal.items()))
    deck = list(deck_top) + rest
    if deck_size is not None:
        keep, surplus = deck[:deck_size], deck[deck_size:]
        deck = keep
        for i, c in enumerate(surplus):
            state["powers"][seats[i % len(seats)]]["colonies"][c] = 1
        for p in seats:
            cols = state["powers"][p]["colonies"]
            state["powers"][p]["colonies"] = dict(sorted(cols.items()))
    state["deck"] = deck
    state["phase"] = "play"
    state["turn"] = turn
    state["first"] = active or seats[0]
    if state["mode"] == "sequential":
        state["active"] = active or seats[0]
    else:
        state["round"] = 2
    check_conservation(state)
    return state


def check_conservation(state: Mapping[str, Any]) -> None:
    """Every card in exactly one place; no player over 108 ships; no planet over stacking."""
    places: list[str] = list(state["deck"]) + list(state["galaxy"])
    for p in state["seats"]:
        me = state["powers"][p]
        places += list(me["hand"]) + list(me["colonies"])
        assert sum(me["hand"].values()) + sum(me["colonies"].values()) <= 108
        assert me["conceded"] or len(me["hand"]) == 3 or state["phase"] in ("setup", "deal")
        for c, n in list(me["hand"].items()) + list(me["colonies"].items()):
            assert 0 <= n <= 2 * CARDS[c]["population"], (p, c, n)
        for c, n in me["colonies"].items():
            assert n >= 1, (p, c)
    for c, n in state["galaxy"].items():
        assert 0 <= n <= 2 * CARDS[c]["population"]
    if state["phase"] == "play":
        assert sorted(places) == sorted(CARDS), "a card is missing or in two places"
        assert len(state["galaxy"]) == 8 or state["result"] is not None


def ships(state: Mapping[str, Any], power: str) -> int:
    me = state["powers"][power]
    return sum(me["hand"].values()) + sum(me["colonies"].values())


def step(state: dict[str, Any], orders_by_power: Mapping[str, Any],
         chance: ScriptedChance | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Normalise each body against its power's view (must be accepted), then resolve."""
    norm = {}
    for p, body in orders_by_power.items():
        got, problems = PLUGIN.normalize_orders(body, PLUGIN.view(state, p))
        assert problems == [], problems
        norm[p] = got
    result = PLUGIN.resolve(state, norm, chance or ScriptedChance())
    check_conservation(result.state)
    return result.state, result.events


def of(events: Sequence[Mapping[str, Any]], kind: str) -> list[Mapping[str, Any]]:
    return [e for e in events if e["type"] == kind]
