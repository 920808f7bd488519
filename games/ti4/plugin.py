"""The GamePlugin object for TI4: the engine's one handle on this game (the contract of
pbem.game.plugin: rules, presenter, player's tool).

``resolve`` draws the tactical actions' dice from ``chance.public`` and the deal's shuffles
from ``chance.secret`` (setup.py, turn.py). The presenter is ``present.PRESENTER`` (the galaxy
map, the position, the order form), the player's tool ``tool.TOOL`` (``pbem orders ti4``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem
from pbem.game.base import Game, lazy_part
from pbem.game.chance import Chance
from pbem.game.plugin import Resolution, VariantInfo, Variation, Window

from . import orders, pack, sample, setup, turn, view


class TI4(Game):
    id = "ti4"
    title = "Twilight Imperium (stand-in)"
    # The presenter, the player's tool and the archive hooks, imported when first used: judging
    # an order mail needs none of them (pbem.game.base.lazy_part).
    presenter = lazy_part(f"{__package__}.present", "PRESENTER")
    tool = lazy_part(f"{__package__}.tool", "TOOL")
    archive = lazy_part(f"{__package__}.archive")
    counted = {"rounds": ("phase",), "actions": ("activate", "strategic", "pass"),
               "votes": ("vote",)}
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

    def window(self, state: dict[str, Any]) -> Window | None:
        return turn.window(state)

    def normalize_orders(self, body: Mapping[str, Any], view_: Mapping[str, Any]
                         ) -> tuple[dict[str, Any], list[Problem]]:
        return orders.normalize_orders(body, view_)

    def default_orders(self, state: dict[str, Any], power: str) -> dict[str, Any]:
        return turn.default_orders(state, power)

    def resolve(self, state: dict[str, Any], orders_: Mapping[str, Any],
                chance: Chance) -> Resolution:
        return Resolution(*turn.resolve(state, orders_, chance))

    def concede(self, state: dict[str, Any], power: str) -> Resolution:
        return Resolution(*turn.concede(state, power))

    def end_game(self, state: dict[str, Any], reason: str) -> Resolution:
        return Resolution(*turn.end_game(state, reason))

    def winners(self, state: dict[str, Any]) -> list[str]:
        return turn.winners(state)

    def view(self, state: dict[str, Any], power: str | None) -> dict[str, Any]:
        return view.view(state, power)

    def secrets(self, state: dict[str, Any], power: str) -> list[str]:
        return view.secrets(state, power)

    def hidden(self, state: dict[str, Any]) -> list[str]:
        return view.hidden(state)

    def variations(self, state: dict[str, Any], power: str) -> list[Variation]:
        return [Variation(new, knowers) for new, knowers in view.variations(state, power)]

    def sample_orders(self, view_: Mapping[str, Any], rng: random.Random
                      ) -> dict[str, Any] | None:
        return sample.sample_orders(view_, rng)
