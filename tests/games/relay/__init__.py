"""Relay: three runners carry a baton round a track of N short legs; the many-window toy.

Written on the contract's defaults (pbem.game.base: one module, no templates, no tool), to
prove the window policies (docs/plugins.md, "Window policies") on a round of many short
steps. Each leg is one window:

* a **baton leg** (most legs) is run by one power, the one holding the baton. Its window says
  ``silence="default"`` (a runner who sends nothing jogs: pace 1, no missed turn) and
  ``notify="due"`` (only the next runner is mailed a report; the others hear of it in a
  digest at their own pace) and ``closes_when_answered=True`` (the leg ends once the runner
  has answered, by a file of the leg or his standing file, even in a game whose schedule is
  not ``early``);
* a **sprint** (the round's last leg, and every ``sprint``-th: every third in the short round
  ``round-6``, every sixteenth in the long ``round-48``) is run by every power, on the
  contract's defaults: silence is a missed turn, everyone is mailed.

A runner may send a **standing file** (``turn: standing``, docs/protocol.md) of his ``pace``:
it is his answer for every later leg he runs and sends nothing for. The variants are data:
legs, the sprint's period and the runners (``round-48-six``: six runners, for ``bench/
bench_windows.py``).

A runner's pace (1 to 3) is his score for the leg. His split (the leg's time, ``SPLIT-…``) is
his secret: an event private to him and a line of his view only, so a digest that showed
another's split would be a leak the cross-game sweep finds.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

from pbem.errors import PbemError, Problem
from pbem.game.base import Game, Presenter
from pbem.game.chance import Chance
from pbem.game.events import private, visible_to
from pbem.game.plugin import Resolution, VariantInfo, Variation, Window

POWERS = ("red", "green", "blue")
SIX = (*POWERS, "gold", "grey", "white")
#: variant -> (legs, a sprint every so many legs, the runners in baton order)
VARIANTS: dict[str, tuple[int, int, tuple[str, ...]]] = {
    "round-12": (12, 12, POWERS), "round-6": (6, 3, POWERS), "round-48": (48, 16, POWERS),
    "round-48-six": (48, 16, SIX)}
PACES = (1, 2, 3)


def is_sprint(state: Mapping[str, Any]) -> bool:
    """Every ``sprint``-th leg and the round's last: everyone runs."""
    leg = int(state["turn"])
    return leg % int(state["sprint"]) == 0 or leg >= int(state["legs"])


def runners(state: Mapping[str, Any]) -> tuple[str, ...]:
    """The variant's runners, in baton order."""
    return VARIANTS[str(state["variant"])][2]


def runner(state: Mapping[str, Any], leg: int) -> str:
    """Who holds the baton on a baton leg (the sprint is everyone's)."""
    order = runners(state)
    return order[(leg - 1) % len(order)]


def split(power: str, leg: int, pace: int) -> str:
    return f"SPLIT-{power}-{leg}-{40 - 7 * pace + leg}s"


class RelayPresenter(Presenter):
    def sentence(self, event: Mapping[str, Any]) -> str:
        kind = event["type"]
        if kind == "ran":
            how = "jogged (no orders: the default)" if event["jogged"] else \
                f"ran at pace {event['pace']}"
            return f"{event['power'].capitalize()} {how} on leg {event['turn']}."
        if kind == "split":
            who = ", ".join(p.capitalize() for p in visible_to(event) or [])
            return f"{who}'s split on leg {event['turn']}: {event['split']}."
        return super().sentence(event)

    def orders_form(self, view: Mapping[str, Any]) -> list[str]:
        return ["orders:", "  pace: 2   # 1, 2 or 3"]


class Relay(Game):
    id = "relay"
    title = "Relay"
    presenter = RelayPresenter()
    counted = {"legs": ("ran",)}
    #: "if I run and send nothing, run at this pace" (docs/protocol.md, "Standing files")
    standing_sections = ("pace",)

    def variants(self) -> Mapping[str, VariantInfo]:
        return {name: VariantInfo(name, f"A round of {n} legs, a sprint every {k}", powers)
                for name, (n, k, powers) in VARIANTS.items()}

    def setup(self, variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
        if variant not in VARIANTS:
            raise PbemError(f"unknown variant {variant!r} of relay "
                            f"(known: {', '.join(VARIANTS)})")
        return {"game": "relay", "game_id": options["game_id"], "variant": variant, "turn": 1,
                "legs": VARIANTS[variant][0], "sprint": VARIANTS[variant][1],
                "powers": {p: {"score": 0, "splits": []} for p in VARIANTS[variant][2]},
                "result": None}

    def window(self, state: dict[str, Any]) -> Window | None:
        if self.is_over(state):
            return None
        leg = int(state["turn"])
        if is_sprint(state):
            return Window("sprint", f"Leg {leg}: the sprint, everyone runs", runners(state))
        p = runner(state, leg)
        return Window("leg", f"Leg {leg}: {p.capitalize()} carries the baton", (p,),
                      silence="default", notify="due", closes_when_answered=True)

    def normalize_orders(self, body: Mapping[str, Any], view: Mapping[str, Any]
                         ) -> tuple[dict[str, Any], list[Problem]]:
        problems = [Problem("unknown-order", str(k), f"no order {k!r} (the one order is pace)")
                    for k in body if k != "pace"]
        pace = body.get("pace")
        if pace is not None and pace not in PACES:
            problems.append(Problem("pace", "pace", f"{pace!r} is not a pace of 1, 2 or 3"))
        return ({"pace": pace} if pace in PACES else {}), problems

    def resolve(self, state: dict[str, Any], orders: Mapping[str, Any],
                chance: Chance) -> Resolution:
        new = copy.deepcopy(state)
        leg = int(new["turn"])
        events: list[dict[str, Any]] = []
        for p in self.powers_due(state):
            pace = (orders.get(p) or {}).get("pace")
            ran = pace or 1
            new["powers"][p]["score"] += ran
            time = split(p, leg, ran)
            new["powers"][p]["splits"].append(time)
            events.append({"type": "ran", "turn": leg, "power": p, "pace": ran,
                           "jogged": pace is None})
            events.append(private({"type": "split", "turn": leg, "split": time}, p))
        new["turn"] = leg + 1
        if leg >= new["legs"]:
            return self.finish(new, f"{leg} legs run", self.leaders(new), events)
        return Resolution(new, events)

    def leaders(self, state: dict[str, Any]) -> list[str]:
        """The best scores, who win the round once its last leg is run. A round ended by
        agreement (a draw vote, ``pbem gm end``) has no winner: the contract's ``winners``."""
        best = max(me["score"] for me in state["powers"].values())
        return [p for p in runners(state) if state["powers"][p]["score"] == best]

    def view(self, state: dict[str, Any], power: str | None) -> dict[str, Any]:
        powers = {p: {"score": me["score"], **({"splits": list(me["splits"])}
                                               if p == power else {})}
                  for p, me in state["powers"].items()}
        return {"game": "relay", "game_id": state["game_id"], "variant": state["variant"],
                "turn": state["turn"], "legs": state["legs"], "sprint": state["sprint"],
                "powers": powers,
                "result": copy.deepcopy(state["result"]), "viewer": power,
                "due": self.powers_due(state)}

    def secrets(self, state: dict[str, Any], power: str) -> list[str]:
        return list(state["powers"][power]["splits"])

    def variations(self, state: dict[str, Any], power: str) -> list[Variation]:
        other = copy.deepcopy(state)
        other["powers"][power]["splits"].append(f"SPLIT-{power}-variation")
        return [Variation(other, (power,))]

    def sample_orders(self, view: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
        return {"pace": rng.choice(PACES)} if rng.random() < 0.8 else {}


PLUGIN = Relay()
