"""What one power may see: the only way hidden information leaves an Ashes state.

Public (on the table): the neutral galaxy and its stationed ships, every colony and its ships,
how many homeplanets each player holds and the total of ships on them (the dice lie on the
table: ruling A2), the deck's size, every battle's dice, every card shown as proof or gone to
revolution. Private to the owner: his homeplanets and how his home ships are split, the cards he
draws, the card he exchanges. Nobody (the referee alone): the deck's order and the cards in it
that nobody saw go under. At the end every hand and the rest of the deck are revealed.

Cards in views and events are named ``planet:A1`` (position.cid), so a leak test finds them;
the static card list (``cards``: numbers, population, reach, by bare code) is public data.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from .position import Position, cid
from .rules import holdings, live, population, rules_version, window

#: The catalogue's cards as the last state had them, and the copy views share.
_CARDS: list[Any] = [None, None]


def _catalogue_cards(cards: Mapping[str, Any]) -> dict[str, Any]:
    """The static card list (public) copied once and shared by the views made from equal
    lists: views are never changed (docs/plugins.md, "The rules"), so the copy is the same
    object in every view of a game, and the renderer encodes it once per resolution. Found
    by equality with a copy of the list it was made from (comparing costs a fraction of the
    deep copy every view made)."""
    if _CARDS[0] != cards:
        _CARDS[:] = [copy.deepcopy(cards), copy.deepcopy(cards)]
    return _CARDS[1]  # type: ignore[no-any-return]


def view(state: Mapping[str, Any], power: str | None) -> dict[str, Any]:
    if power is not None and power not in state["powers"]:
        raise ValueError(f"no power {power!r} in this game")
    cards = state["catalogue"]["cards"]
    over = state["result"] is not None
    step = window(state)
    powers = {}
    for p in state["seats"]:
        me = state["powers"][p]
        powers[p] = {
            "colonies": {cid(c): n for c, n in me["colonies"].items()},
            "homeplanets": len(me["hand"]),
            "home_ships": sum(me["hand"].values()),
            "ships_in_play": sum(me["hand"].values()) + sum(me["colonies"].values()),
            "colony_population": sum(int(cards[c]["population"]) for c in me["colonies"]),
            "conceded": me["conceded"],
        }
    out: dict[str, Any] = {
        "game": "ashes", "game_id": state["game_id"], "viewer": power, "turn": state["turn"],
        "variant": state["variant"], "mode": state["mode"], "phase": state["phase"],
        "rules_version": rules_version(state),
        "round": state["round"], "seats": list(state["seats"]), "first": state["first"],
        "active": state["active"],
        "window": None if step is None else {"kind": step.kind, "label": step.label,
                                             "due": list(step.due)},
        "deck": {"name": state["catalogue"]["name"], "standin": state["catalogue"]["standin"],
                 "digest": state["catalogue"]["digest"], "count": len(state["deck"])},
        "cards": _catalogue_cards(cards),
        "letters": list(state["catalogue"]["letters"]),
        "second_degree": copy.deepcopy(state["catalogue"]["second_degree"]),
        "galaxy": {cid(c): n for c, n in state["galaxy"].items()},
        "powers": powers, "result": copy.deepcopy(state["result"]),
    }
    if power is not None:
        me = state["powers"][power]
        pos = Position(cards, dict(me["hand"]), dict(me["colonies"]))
        out["you"] = {
            "hand": {cid(c): n for c, n in me["hand"].items()},
            "retreat": [cid(c) for c in me["retreat"] if c in me["hand"]],
            "reinforcements": pos.reinforcements() if not me["conceded"] else 0,
            "stock": 108 - pos.in_play(),
            "population": population(state, power),
            "exchanged": sorted(cid(c) for c, who in state["under"].items() if who == power),
        }
    if over:
        out["revealed"] = {p: {cid(c): n for c, n in state["powers"][p]["hand"].items()}
                           for p in state["seats"]}
        out["deck_rest"] = [cid(c) for c in state["deck"]]
        out["population"] = {p: population(state, p) for p in live(state)}
    return out


def secrets(state: Mapping[str, Any], power: str) -> list[str]:
    """The cards only ``power`` knows where they are: his hand, the cards he put under the
    deck unseen. Nothing is secret once the game is over (every hand is revealed)."""
    if state["result"] is not None:
        return []
    mine = list(state["powers"][power]["hand"])
    mine += [c for c, who in state["under"].items() if who == power]
    return [cid(c) for c in sorted(mine)]


def hidden(state: Mapping[str, Any]) -> list[str]:
    """The referee's secret: the cards in the deck that nobody saw go under (the deck's order
    is secret too; it is not a string a view could carry)."""
    if state["result"] is not None:
        return []
    return [cid(c) for c in state["deck"] if c not in state["under"]]


def variations(state: Mapping[str, Any], power: str) -> list[tuple[dict[str, Any],
                                                                   tuple[str, ...]]]:
    """``power``'s hand with one card swapped for a deck card nobody has seen (ships stay):
    only ``power`` may notice."""
    me = state["powers"][power]
    unseen = [c for c in state["deck"] if c not in state["under"]]
    if state["result"] is not None or not me["hand"] or not unseen:
        return []
    new = copy.deepcopy(dict(state))
    old = sorted(me["hand"])[0]
    swap = unseen[0]
    hand = new["powers"][power]["hand"]
    hand[swap] = hand.pop(old)
    new["powers"][power]["hand"] = dict(sorted(hand.items()))
    new["deck"][new["deck"].index(swap)] = old
    if holdings(new, power) == holdings(state, power):
        return []
    return [(new, (power,))]
