"""The GamePlugin object of High Card: the parts of pbem.game.plugin's contract that are its own;
the rest are pbem.game.base.Game's defaults."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem
from pbem.game.base import Game
from pbem.game.chance import Chance
from pbem.game.plugin import Resolution, VariantInfo, Variation, Window

from . import rules, sample
from .present import PRESENTER
from .tool import TOOL


class HighCard(Game):
    id = "highcard"
    title = "High Card"
    sample_orders = staticmethod(sample.sample_orders)  # random legal play (conformance)
    presenter = PRESENTER
    tool = TOOL
    counted = {"rounds": ("round_won", "round_tied")}
    #: "If I must play without orders, play my highest card": a standing file (turn: standing)
    #: may hold only this section (docs/protocol.md, "Standing files").
    standing_sections = ("policy",)

    def variants(self) -> Mapping[str, VariantInfo]:
        return {name: VariantInfo(name, str(v["title"]), tuple(v["powers"]))
                for name, v in rules.VARIANTS.items()}

    def setup(self, variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
        return rules.setup(variant, options)

    def window(self, state: dict[str, Any]) -> Window | None:
        due = rules.due(state)
        kind, label = rules.label(state)
        # lucky-2 draws in every round (the die; the kitty in the first): it says so
        return Window(kind, label, tuple(due), draws=kind == "round" and "phase" in state
                      ) if due else None

    def normalize_orders(self, body: Mapping[str, Any],
                         view: Mapping[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
        return rules.check(body, view)

    def default_orders(self, state: dict[str, Any], power: str) -> dict[str, Any]:
        """A missing player plays its lowest card (nothing is sealed in High Card)."""
        return {"play": None}

    def concede(self, state: dict[str, Any], power: str) -> Resolution:
        return Resolution(*rules.concede(state, power))

    def resolve(self, state: dict[str, Any], orders: Mapping[str, Any],
                chance: Chance) -> Resolution:
        """Only ``lucky-2`` draws: nothing at set-up; the kitty and salt in secret in the first
        round, and a die per round."""
        return Resolution(*rules.resolve(state, orders, chance))

    def view(self, state: dict[str, Any], power: str | None) -> dict[str, Any]:
        return rules.view(state, power)

    def end_game(self, state: dict[str, Any], reason: str) -> Resolution:
        return Resolution(*rules.end(state, reason))

    def secrets(self, state: dict[str, Any], power: str) -> list[str]:
        """The cards still in ``power``'s hand (played cards are public)."""
        return list(state["powers"][power]["hand"])

    def hidden(self, state: dict[str, Any]) -> list[str]:
        """The kitty, face down until the game ends, and the salt (never shown)."""
        out = [state["kitty"]] if state["result"] is None and state["kitty"] else []
        return out + ([state["salt"]] if state.get("salt") else [])

    def variations(self, state: dict[str, Any], power: str) -> list[Variation]:
        """Another hand of the same size: only its holder may notice."""
        hand = state["powers"][power]["hand"]
        if not hand:
            return []
        new = copy.deepcopy(state)
        new["powers"][power]["hand"] = [f"{c.rsplit('-', 1)[0]}-{rules.rank(c) % 9 + 1}"
                                        for c in hand]
        return [Variation(new, (power,))]
