"""The rules of High Card: pure functions of (state, orders); no clock, no randomness, no I/O.

The hands are fixed by the variant. The ``lucky-2`` variant exercises fair chance (pbem.chance)
end to end: a first step of kind ``setup`` (every player commits his chain's tip) that draws
nothing, then one public die per round (a 6 doubles the round's point); the first round, the
game's first draw from every player's value, also shuffles the kitty deck in secret and draws
the referee-secret salt. Cards are named ``<suit>-<rank>`` with one suit
per power, so a card's name says whose it was.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from pbem.errors import PbemError, Problem
from pbem.game.checker import Checker, show
from pbem.game.events import private

SUITS = ("ember", "frost", "gale")
VARIANTS = {
    "duel-2": {"title": "Duel (2 players)", "powers": ("north", "south"), "ranks": (2, 5, 7, 9)},
    "trio-3": {"title": "Trio (3 players)", "powers": ("north", "east", "west"),
               "ranks": (3, 4, 8)},
    "lucky-2": {"title": "Lucky duel (2 players, a die and a shuffled kitty)",
                "powers": ("north", "south"), "ranks": (2, 5, 7, 9), "chance": True},
}
KITTY_DECK = tuple(f"kitty-{r}" for r in range(1, 10))
DIE = (1, 2, 3, 4, 5, 6)
KITTY = "kitty-6"
GAME_ID = re.compile(r"[a-z0-9][a-z0-9._-]*")


def rank(card: str) -> int:
    return int(card.rsplit("-", 1)[1])


def setup(variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
    if variant not in VARIANTS:
        raise PbemError(f"unknown variant {variant!r} of highcard (known: "
                        f"{', '.join(sorted(VARIANTS))})")
    game_id = options.get("game_id")
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise PbemError(f"game_id must be a lower-case slug, not {game_id!r}")
    v = VARIANTS[variant]
    powers = list(v["powers"])
    hands = {p: [f"{SUITS[i]}-{r}" for r in v["ranks"]] for i, p in enumerate(powers)}
    state = {"game": "highcard", "game_id": game_id, "variant": variant, "turn": 1,
             "order": powers,
             "powers": {p: {"hand": hands[p], "score": 0, "conceded": False} for p in powers},
             "played": [], "kitty": KITTY, "result": None}
    if v.get("chance"):
        # Set-up is pure and secret-free: the kitty is dealt in the first step, from chance.
        state.update({"phase": "setup", "kitty": None, "salt": None})
    return state


def in_setup(state: Mapping[str, Any]) -> bool:
    return state.get("phase") == "setup"


def commit(state: Mapping[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The set-up step: every player's tip is in; nothing is drawn (the kitty is dealt in the
    first round, from every player's value)."""
    new = copy.deepcopy(dict(state))
    new["phase"] = "play"
    new["turn"] += 1
    return new, [{"type": "committed", "turn": state["turn"]}]


def deal(new: dict[str, Any], chance: Any) -> None:
    """The kitty is the top card of a secretly shuffled deck, and a salt drawn in secret keeps
    the state's digest from confirming a guess of it (docs/protocol.md)."""
    new["kitty"] = chance.secret("deal:kitty").shuffle(list(KITTY_DECK))[0]
    new["salt"] = f"{chance.secret('salt').below(2**64):016x}"


def active(state: Mapping[str, Any]) -> list[str]:
    """Powers still playing, in seat order (``order``: a JSON object's keys have none)."""
    return [p for p in state["order"]
            if not state["powers"][p]["conceded"] and state["powers"][p]["hand"]]


def due(state: Mapping[str, Any]) -> list[str]:
    return [] if state["result"] is not None else active(state)


def label(state: Mapping[str, Any]) -> tuple[str, str]:
    """The next step's kind and words: the set-up step, then rounds."""
    if in_setup(state):
        return "setup", "Set-up"
    n = state["turn"] - (1 if "phase" in state else 0)
    return "round", f"Round {n}"


POLICIES = ("highest", "lowest")  # the card a standing policy plays without a card named


def check(body: Mapping[str, Any], view: Mapping[str, Any]) -> tuple[dict[str, Any],
                                                                      list[Problem]]:
    """``{play: CARD}`` with a card of the viewer's hand, or ``{}``: the lowest card.
    ``policy`` (the standing section, plugin.standing_sections): ``highest`` or ``lowest``, the
    card played without a card named (normalised only when given)."""
    c = Checker()
    c.unknown_keys(body, ("play", "policy"), "", code="unknown-order",
                   say=lambda key, hint: f"no order {show(key)} in High Card{hint} (the "
                   "orders are play and policy)")
    policy = body.get("policy")
    if "policy" in body and policy not in POLICIES:
        c.bad("policy", "policy", f"{show(policy)} is no policy (one of "
              f"{', '.join(POLICIES)})")
    card = body.get("play")
    if card is not None and view.get("phase") == "setup":
        c.bad("card", "play", "no card is played in the set-up step (send an empty order "
              "file: it commits your chance)")
    elif card is not None and card not in view.get("hand", []):
        c.bad("card", "play", f"{show(card)} is not in your hand "
              f"({', '.join(view.get('hand', [])) or 'empty'})")
    out: dict[str, Any] = {"play": card}
    if "policy" in body:
        out["policy"] = policy
    return out, c.problems


def resolve(state: Mapping[str, Any], orders: Mapping[str, Any],
            chance: Any = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    if in_setup(state) and state["result"] is None:
        return commit(state)
    new = copy.deepcopy(dict(state))
    events: list[dict[str, Any]] = []
    turn = new["turn"]
    if new["result"] is not None:
        return new, events
    if "phase" in new and new["kitty"] is None:
        deal(new, chance)
        events.append({"type": "dealt", "turn": turn})
    table = {}
    for power in due(new):
        hand = new["powers"][power]["hand"]
        given = orders.get(power) or {}
        card = given.get("play")
        if card not in hand:
            card = (max if given.get("policy") == "highest" else min)(hand, key=rank)
        hand.remove(card)
        table[power] = card
        events.append({"type": "played", "turn": turn, "power": power, "card": card})
    new["played"].append({"turn": turn, "cards": dict(table)})
    best = max((rank(c) for c in table.values()), default=0)
    winners = sorted(p for p, c in table.items() if rank(c) == best)
    points = 1
    if "phase" in new:  # lucky-2: one public die per round; a 6 doubles the point
        die = chance.public(f"bonus:turn-{turn}").roll(DIE)[0]
        events.append({"type": "bonus", "turn": turn, "die": die})
        points = 2 if die == 6 else 1
    if len(winners) == 1:
        new["powers"][winners[0]]["score"] += points
        events.append({"type": "round_won", "turn": turn, "power": winners[0]})
    else:
        events.append({"type": "round_tied", "turn": turn, "powers": winners})
    for power in table:
        events.append(private({"type": "hand", "turn": turn,
                               "cards": list(new["powers"][power]["hand"])}, power))
    new["turn"] = turn + 1
    if not due(new):
        finish(new, events, "every card was played")
    return new, events


def finish(state: dict[str, Any], events: list[dict[str, Any]], reason: str) -> None:
    """End the game: most rounds won wins (a tie shares the win)."""
    scores = {p: state["powers"][p]["score"] for p in state["order"]
              if not state["powers"][p]["conceded"]}
    top = max(scores.values(), default=0)
    state["result"] = {"reason": reason, "turn": state["turn"], "scores": scores,
                       "winners": sorted(p for p, s in scores.items() if s == top)}
    events.append({"type": "game_over", "turn": state["turn"], "reason": reason,
                   "winners": state["result"]["winners"], "kitty": state["kitty"]})


def view(state: Mapping[str, Any], power: str | None) -> dict[str, Any]:
    if power is not None and power not in state["powers"]:
        raise ValueError(f"no power {power!r} in this game")
    out: dict[str, Any] = {
        "game": state["game"], "game_id": state["game_id"], "variant": state["variant"],
        "viewer": power, "turn": state["turn"], "due": due(state),
        "powers": {p: {"score": state["powers"][p]["score"],
                       "cards_left": len(state["powers"][p]["hand"]),
                       "conceded": state["powers"][p]["conceded"]} for p in state["order"]},
        "played": copy.deepcopy(state["played"]), "result": copy.deepcopy(state["result"]),
        "kitty": state["kitty"] if state["result"] is not None else None,
    }
    if "phase" in state:
        out["phase"] = state["phase"]
    if power is not None:
        out["hand"] = list(state["powers"][power]["hand"])
    return out


def concede(state: Mapping[str, Any], power: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    new = copy.deepcopy(dict(state))
    events: list[dict[str, Any]] = []
    if new["result"] is None and not new["powers"][power]["conceded"]:
        new["powers"][power]["conceded"] = True
        events.append({"type": "concession", "turn": new["turn"], "power": power})
        if len(active(new)) <= 1:
            finish(new, events, "every other player conceded")
    return new, events


def end(state: Mapping[str, Any], reason: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    new = copy.deepcopy(dict(state))
    events: list[dict[str, Any]] = []
    if new["result"] is None:
        finish(new, events, reason)
    return new, events
