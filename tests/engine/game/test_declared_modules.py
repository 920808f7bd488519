"""A game declares the modules that hold its rules, order checks and views once (``rules``,
``orders``, ``views``: pbem.game.base) and ``Game`` forwards to them, wrapping what they return;
a game that neither writes a part nor declares its module is refused at load with the
contract's words (pbem.game.contract). The bundled games are played on these defaults by the
conformance suite; this holds the defaults themselves to what docs/plugins.md says."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem
from pbem.game import contract, registry
from pbem.game.base import Game, Presenter
from pbem.game.chance import NO_CHANCE, Chance
from pbem.game.plugin import Resolution, VariantInfo, Variation, Window

STATE: dict[str, Any] = {"n": 0, "turn": 1, "result": None, "powers": {"a": {}, "b": {}}}


class Steps:
    """A rules module: a two-power counter; its steps are Windows, with a policy once the
    counter is odd."""

    def window(self, state: dict[str, Any]) -> Window | None:
        if state["result"] is not None:
            return None
        if state["n"] % 2:
            return Window("odd", "Odd", ("a",), silence="default")
        return Window("even", "Even", ("a", "b"), listens=("c",), draws=True)

    def resolve(self, state: dict[str, Any], orders: Mapping[str, Any], chance: Chance
                ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return {**state, "n": state["n"] + 1}, [{"type": "counted", "turn": state["n"]}]

    def concede(self, state: dict[str, Any], power: str
                ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return {**state, "result": {"winners": []}}, [{"type": "gone", "power": power}]

    def end_game(self, state: dict[str, Any], reason: str
                 ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return {**state, "result": {"reason": reason}}, []


class Checks:
    def normalize_orders(self, body: Mapping[str, Any], view: Mapping[str, Any]
                         ) -> tuple[dict[str, Any], list[Problem]]:
        return {"count": body.get("count", 0)}, []

    def default_orders(self) -> dict[str, Any]:
        return {"count": 0}


class Sight:
    def view(self, state: dict[str, Any], power: str | None) -> dict[str, Any]:
        return {"n": state["n"], "viewer": power}

    def secrets(self, state: dict[str, Any], power: str) -> list[str]:
        return [f"secret-{power}"]

    def hidden(self, state: dict[str, Any]) -> list[str]:
        return ["deck-order"]

    def variations(self, state: dict[str, Any], power: str
                   ) -> list[tuple[dict[str, Any], tuple[str, ...]]]:
        return [({**state, "hand": power}, (power,))]


class Bare(Game):
    """Only what has no default anywhere: no module declared, none of the four written."""

    id = "bare"
    title = "Bare"
    presenter = Presenter()

    def variants(self) -> Mapping[str, VariantInfo]:
        return {"duel": VariantInfo("duel", "Duel", ("a", "b"))}

    def setup(self, variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
        return dict(STATE)


class Declared(Bare):
    rules = Steps()
    orders = Checks()
    views = Sight()


def test_the_base_forwards_to_the_declared_modules_and_wraps_what_they_return() -> None:
    game = Declared()
    assert game.window(STATE) == Window("even", "Even", ("a", "b"), listens=("c",), draws=True)
    odd = {**STATE, "n": 1}
    assert game.window(odd) == Window("odd", "Odd", ("a",), silence="default")  # as it is
    assert game.powers_due(STATE) == ["a", "b"]
    assert game.resolve(STATE, {}, NO_CHANCE) == Resolution(
        {**STATE, "n": 1}, [{"type": "counted", "turn": 0}])
    assert game.concede(STATE, "a") == Resolution(
        {**STATE, "result": {"winners": []}}, [{"type": "gone", "power": "a"}])
    assert game.end_game(STATE, "agreed") == Resolution({**STATE, "result": {"reason": "agreed"}})
    assert game.normalize_orders({"count": 2}, {}) == ({"count": 2}, [])
    assert game.default_orders(STATE, "a") == {"count": 0}
    assert game.nmr_orders(STATE, "a", None) == ({"count": 0}, {})
    assert game.view(STATE, "b") == {"n": 0, "viewer": "b"}
    assert game.secrets(STATE, "a") == ["secret-a"]
    assert game.hidden(STATE) == ["deck-order"]
    assert game.variations(STATE, "b") == [Variation({**STATE, "hand": "b"}, ("b",))]
    assert contract.missing_parts(game, []) == []


def test_without_declared_modules_the_generic_answers_stand() -> None:
    game = Bare()
    assert game.default_orders(STATE, "a") == {}
    assert (game.secrets(STATE, "a"), game.hidden(STATE), game.variations(STATE, "a")) == (
        [], [], [])
    conceded = game.concede(STATE, "a")
    assert conceded.state["result"] == {"reason": "a conceded", "turn": 1, "winners": ["b"]}


def test_a_game_that_neither_writes_a_part_nor_declares_its_module_fails_at_load() -> None:
    assert contract.missing_parts(Bare(), []) == [
        "window (or rules = the module that holds it)",
        "resolve (or rules = the module that holds it)",
        "normalize_orders (or orders = the module that holds it)",
        "view (or views = the module that holds it)",
    ]

    class Written(Bare):
        """The same game writing the four itself: nothing is missing."""

        def window(self, state: dict[str, Any]) -> Window | None:
            return None

        def resolve(self, state: dict[str, Any], orders: Mapping[str, Any],
                    chance: Chance) -> Resolution:
            return Resolution(state)

        def normalize_orders(self, body: Mapping[str, Any], view: Mapping[str, Any]
                             ) -> tuple[dict[str, Any], list[Problem]]:
            return {}, []

        def view(self, state: dict[str, Any], power: str | None) -> dict[str, Any]:
            return {}

    assert contract.missing_parts(Written(), []) == []


def test_the_bundled_games_declare_their_modules_and_write_no_forwarding_again() -> None:
    """One definition per fact: a bundled game that declares a module does not also write the
    methods the base forwards to it (TI4 writes its state-dependent standing orders; 4000 A.D.
    its steps and views, which read its board)."""
    forwarded = {"rules": ("window", "resolve", "concede", "end_game"),
                 "orders": ("normalize_orders", "default_orders"),
                 "views": ("view", "secrets", "hidden", "variations")}
    declared = {}
    for game in ("4000ad", "ashes", "b5cgs", "ti4"):
        plugin = registry.load(game)
        roles = [role for role in forwarded if getattr(plugin, role) is not None]
        declared[game] = roles
        written = [m for role in roles for m in forwarded[role] if m in vars(type(plugin))]
        assert written == [], f"{game} declares {roles} and still writes {written}"
    assert declared == {"4000ad": ["orders"], "ashes": ["rules", "orders", "views"],
                        "b5cgs": ["rules", "orders", "views"], "ti4": ["rules", "views"]}
