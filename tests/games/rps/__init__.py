"""Rock, paper, scissors: two players throw at once, best of N rounds; no map, no chance.

The fourth game, the one docs/plugins.md walks a newcomer through: on the contract's defaults
(pbem.game.base), one module, no templates, no tool. A throw is secret only until the step
that resolves it, so the state holds nothing hidden between steps (game.yaml: ``information:
simultaneous``).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

from pbem.errors import PbemError, Problem
from pbem.game.base import Game, Presenter
from pbem.game.chance import Chance
from pbem.game.plugin import Resolution, VariantInfo, Window

THROWS = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
POWERS = ("red", "blue")
VARIANTS = {"best-of-3": 3, "best-of-5": 5}


class RpsPresenter(Presenter):
    def sentence(self, event: Mapping[str, Any]) -> str:
        kind = event["type"]
        if kind == "throws":
            return "; ".join(f"{p.capitalize()} threw {t or 'nothing'}"
                             for p, t in event["throws"].items()) + "."
        if kind == "round_won":
            return f"{event['power'].capitalize()} won round {event['turn']}."
        if kind == "round_tied":
            return f"Round {event['turn']} was a tie."
        return super().sentence(event)

    def orders_form(self, view: Mapping[str, Any]) -> list[str]:
        return ["orders:", "  throw: rock   # rock, paper or scissors"]


class Rps(Game):
    id = "rps"
    title = "Rock, Paper, Scissors"
    presenter = RpsPresenter()
    counted = {"rounds": ("round_won", "round_tied")}

    def variants(self) -> Mapping[str, VariantInfo]:
        return {name: VariantInfo(name, f"Best of {n} rounds", POWERS)
                for name, n in VARIANTS.items()}

    def setup(self, variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
        if variant not in VARIANTS:
            raise PbemError(f"unknown variant {variant!r} of rps (known: best-of-3, best-of-5)")
        return {"game": "rps", "game_id": options["game_id"], "variant": variant, "turn": 1,
                "rounds": VARIANTS[variant], "powers": {p: {"score": 0} for p in POWERS},
                "result": None}

    def window(self, state: dict[str, Any]) -> Window | None:
        if self.is_over(state):
            return None
        return Window("round", f"Round {state['turn']}", POWERS)

    def normalize_orders(self, body: Mapping[str, Any], view: Mapping[str, Any]
                         ) -> tuple[dict[str, Any], list[Problem]]:
        problems = [Problem("unknown-order", str(k), f"no order {k!r} (the one order is throw)")
                    for k in body if k != "throw"]
        throw = body.get("throw")
        if throw is not None and throw not in THROWS:
            problems.append(Problem("throw", "throw", f"{throw!r} is not rock, paper or "
                                    "scissors"))
        return ({"throw": throw} if throw in THROWS else {}), problems

    def resolve(self, state: dict[str, Any], orders: Mapping[str, Any],
                chance: Chance) -> Resolution:
        new = copy.deepcopy(state)
        turn = new["turn"]
        throws = {p: (orders.get(p) or {}).get("throw") for p in POWERS}
        events: list[dict[str, Any]] = [{"type": "throws", "turn": turn, "throws": throws}]
        winner = next((p for p, q in (POWERS, POWERS[::-1])
                       if throws[p] and (throws[q] is None or BEATS[throws[p]] == throws[q])),
                      None)
        if winner is None:
            events.append({"type": "round_tied", "turn": turn})
        else:
            new["powers"][winner]["score"] += 1
            events.append({"type": "round_won", "turn": turn, "power": winner})
        new["turn"] = turn + 1
        scores = [new["powers"][p]["score"] for p in POWERS]
        if turn >= new["rounds"] or max(scores) > new["rounds"] // 2:
            return self.finish(new, f"{turn} rounds played", self.winners(new), events)
        return Resolution(new, events)

    def winners(self, state: dict[str, Any]) -> list[str]:
        best = max(state["powers"][p]["score"] for p in POWERS)
        return [p for p in POWERS if state["powers"][p]["score"] == best]

    def view(self, state: dict[str, Any], power: str | None) -> dict[str, Any]:
        return {**copy.deepcopy(state), "viewer": power, "due": self.powers_due(state)}

    def sample_orders(self, view: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
        return {"throw": rng.choice(THROWS)} if rng.random() < 0.9 else {}


PLUGIN = Rps()
