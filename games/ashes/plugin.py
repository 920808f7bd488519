"""The GamePlugin object for The Ashes of Empire: the engine's one handle on this game
(pbem.game.plugin's declared contract: rules, presenter, player's tool).

``resolve`` draws every die and the shuffle from the chance the engine hands it (pbem.chance);
a game started without a fair chance source fails at the deal with the engine's one sentence.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem
from pbem.game.base import Game, lazy_part
from pbem.game.chance import Chance
from pbem.game.plugin import Resolution, VariantInfo, Variation, Window

from . import deck, orders, rules, sample, view


class Ashes(Game):
    id = "ashes"
    title = "The Ashes of Empire"
    # The presenter, the player's tool and the archive hooks, imported when first used: judging
    # an order mail needs none of them (pbem.game.base.lazy_part).
    presenter = lazy_part(f"{__package__}.present", "PRESENTER")
    tool = lazy_part(f"{__package__}.tool", "TOOL")
    archive = lazy_part(f"{__package__}.archive")
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

    def window(self, state: dict[str, Any]) -> Window | None:
        step = rules.window(state)
        return None if step is None else Window(step.kind, step.label, step.due, step.deadline,
                                                step.listens, step.draws)

    def normalize_orders(self, body: Mapping[str, Any], view_: Mapping[str, Any]
                         ) -> tuple[dict[str, Any], list[Problem]]:
        return orders.normalize_orders(body, view_)

    def default_orders(self, state: dict[str, Any], power: str) -> dict[str, Any]:
        """A missing player's standing orders (nothing is sealed in Ashes)."""
        return orders.default_orders()

    def concede(self, state: dict[str, Any], power: str) -> Resolution:
        return Resolution(*rules.concede(state, power))

    def resolve(self, state: dict[str, Any], orders_: Mapping[str, Any],
                chance: Chance) -> Resolution:
        return Resolution(*rules.resolve(state, orders_, chance))

    def view(self, state: dict[str, Any], power: str | None) -> dict[str, Any]:
        return view.view(state, power)

    def secrets(self, state: dict[str, Any], power: str) -> list[str]:
        return view.secrets(state, power)

    def hidden(self, state: dict[str, Any]) -> list[str]:
        return view.hidden(state)

    def variations(self, state: dict[str, Any], power: str) -> list[Variation]:
        """``power``'s hand with a card swapped for one nobody has seen: only he may notice."""
        return [Variation(new, knowers) for new, knowers in view.variations(state, power)]

    def end_game(self, state: dict[str, Any], reason: str) -> Resolution:
        return Resolution(*rules.end_game(state, reason))
