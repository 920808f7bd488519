"""The GamePlugin object for Babylon 5 CGS: the engine's one handle on this game (the contract
of pbem.game.plugin: rules, presenter, player's tool).

The rules are in ``turn.py`` (steps, resolution, endings), ``orders.py`` (order checks,
standing orders) and ``view.py`` (views, the leak tests' data), declared once below;
pbem.game.base.Game forwards to them. ``resolve`` draws every die from ``chance.public`` and
the face-down deal from ``chance.secret`` (pbem.chance is the fair source the engine passes).
The presenter is ``present.PRESENTER`` (hex map, banks, rolls, threats, order form) and the
player's tool ``tool.TOOL`` (``pbem orders b5``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem
from pbem.game.base import Game, lazy_parts
from pbem.game.plugin import VariantInfo

from . import components, orders, sample, setup, turn, view


class B5CGS(Game):
    id = "b5cgs"
    title = "Babylon 5 CGS"
    # imported when first used: judging an order mail needs none of them
    presenter, tool, archive = lazy_parts(__package__)
    rules = turn
    orders = orders
    views = view
    counted = {"turns": ("turn_ends",), "rolls": ("roll",), "explored": ("explored",)}
    sample_orders = staticmethod(sample.sample_orders)  # random legal play (conformance)
    rules_version = setup.RULES_VERSION  # pbem.game.versions; RULES.md, "Rules versions"
    rules_versions_supported = setup.RULES_VERSIONS
    # D3.42: the contested-space answer stands until changed; a standing file (turn: standing)
    # holding it answers every later step that listens to its player (RULES.md, "Mail and
    # standing answers")
    standing_sections = ("contested",)

    def variants(self) -> Mapping[str, VariantInfo]:
        out = {}
        for name, opts in setup.VARIANTS.items():
            n = opts["players"]
            kind = ("the Basic Game" if name.startswith("basic") else
                    "the Basic Game with the modular rules: mines, territorial victory, "
                    "empire discounts in play")
            out[name] = VariantInfo(
                name, f"Babylon 5 CGS, {n} players, {kind}", setup.powers_of(name),
                f"Random Game Set-up (C1.4) on {setup.hx.MAP_PIECES[n]} map pieces")
        return out

    def setup(self, variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
        return setup.setup(variant, options)

    def default_components(self) -> tuple[str, Any]:
        """The project-authored stand-in pack (data/standin.yaml)."""
        return components.STANDIN.name, components.standin()

    def check_components(self, data: object) -> list[Problem]:
        return components.check_components(data)
