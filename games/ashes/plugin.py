"""The GamePlugin object for The Ashes of Empire: the engine's one handle on this game
(pbem.game.plugin's declared contract: rules, presenter, player's tool).

The rules are in ``rules.py`` (steps, resolution, endings), ``orders.py`` (order checks,
standing orders) and ``view.py`` (views, the leak tests' data), declared once below;
pbem.game.base.Game forwards to them. ``resolve`` draws every die and the shuffle from the
chance the engine hands it (pbem.chance); a game started without a fair chance source fails at
the deal with the engine's one sentence.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem
from pbem.game.base import Game, lazy_parts
from pbem.game.plugin import VariantInfo

from . import deck, orders, rules, sample, view


class Ashes(Game):
    id = "ashes"
    title = "The Ashes of Empire"
    # imported when first used: judging an order mail needs none of them
    presenter, tool, archive = lazy_parts(__package__)
    rules = rules
    orders = orders
    views = view
    counted = {"battles": ("battle",)}
    sample_orders = staticmethod(sample.sample_orders)  # random legal play (conformance)
    rules_version = rules.RULES_VERSION  # pbem.game.versions; RULES.md, "Rules versions"
    rules_versions_supported = rules.RULES_VERSIONS

    def variants(self) -> Mapping[str, VariantInfo]:
        out = {}
        for name, (mode, powers) in rules.VARIANTS.items():
            how = ("one player's turn at a time, in seat order" if mode == "sequential" else
                   "every player orders once per round; turns run in a rotating order")
            out[name] = VariantInfo(name, f"The Ashes of Empire, {len(powers)} players, {mode}",
                                    tuple(powers), how)
        return out

    def setup(self, variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
        return rules.setup(variant, options)

    def default_components(self) -> tuple[str, Any]:
        """The project-authored stand-in deck (data/standin-deck.yaml), the pack new games
        take unless the owner gives his own (pbem new --components)."""
        return deck.STANDIN.name, deck.standin()

    def check_components(self, data: object) -> list[Problem]:
        """Every problem of a deck pack (an owner's real cards), with paths."""
        return deck.check_components(data)
