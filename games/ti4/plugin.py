"""The GamePlugin object for TI4: the engine's one handle on this game (the contract of
pbem.game.plugin: rules, presenter, player's tool).

The rules are in ``turn.py`` (steps, resolution, endings, standing orders), ``orders.py``
(order checks) and ``view.py`` (views, the leak tests' data); ``turn`` and ``view`` are
declared once below and pbem.game.base.Game forwards to them (the standing orders depend on
the state, so ``default_orders`` is written here). ``resolve`` draws the tactical actions'
dice from ``chance.public`` and the deal's shuffles from ``chance.secret`` (setup.py,
turn.py). The presenter is ``present.PRESENTER`` (the galaxy map, the position, the order
form), the player's tool ``tool.TOOL`` (``pbem orders ti4``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem
from pbem.game.base import Game, lazy_parts
from pbem.game.plugin import VariantInfo

from . import orders, pack, sample, setup, turn, view


class TI4(Game):
    id = "ti4"
    title = "Twilight Imperium (stand-in)"
    # imported when first used: judging an order mail needs none of them
    presenter, tool, archive = lazy_parts(__package__)
    rules = turn
    views = view
    counted = {"rounds": ("phase",), "actions": ("activate", "strategic", "pass"),
               "votes": ("vote",)}
    sample_orders = staticmethod(sample.sample_orders)  # random legal play (conformance)
    rules_version = setup.RULES_VERSION  # pbem.game.versions
    rules_versions_supported = setup.RULES_VERSIONS
    # standing answers (combat, secondaries, draft, a queued pass) stand until changed, and a
    # standing file (turn: standing) holding them answers every later step (STATE.md)
    standing_sections = ("standing",)

    def variants(self) -> Mapping[str, VariantInfo]:
        out = {}
        for name, n in setup.variants(pack.standin()).items():
            size = "19" if n <= 4 else "37"
            out[name] = VariantInfo(name, f"Twilight Imperium (stand-in), {n} players",
                                    setup.powers_of(n), f"a galaxy of {size} systems")
        return out

    def setup(self, variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
        return setup.setup(variant, options)

    def default_components(self) -> tuple[str, Any]:
        """The project-authored stand-in pack (data/standin.yaml)."""
        return pack.STANDIN.name, pack.standin()

    def check_components(self, data: object) -> list[Problem]:
        return setup.check_components(data)

    def powers_of(self, state: dict[str, Any]) -> list[str]:
        return list(setup.seats(state))

    def normalize_orders(self, body: Mapping[str, Any], view_: Mapping[str, Any]
                         ) -> tuple[dict[str, Any], list[Problem]]:
        return orders.normalize_orders(body, view_)

    def default_orders(self, state: dict[str, Any], power: str) -> dict[str, Any]:
        return turn.default_orders(state, power)
