"""Helpers for the Babylon 5 CGS tests: a scripted chance (each labelled roll's result given by
the test), a practice chance (deterministic from SHA-256, for playing whole games), and
positions laid out by hand on a state from set-up.

``ScriptedChance(rolls={label: [faces...]}, below={label: [n...]}, shuffle={label: [...]})``:
a draw the script does not cover fails the test (so a test shows exactly which dice it uses),
unless ``lenient=True``, where an unscripted die shows its lowest face, ``below`` gives 0 and a
shuffle keeps the order.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from pbem.game import practice, registry
from pbem.game.chance import NO_CHANCE

PLUGIN: Any = registry.load("b5cgs")
hexes = importlib.import_module("b5cgs.hexes")
components = importlib.import_module("b5cgs.components")
setupmod = importlib.import_module("b5cgs.setup")
turn = importlib.import_module("b5cgs.turn")
movement = importlib.import_module("b5cgs.movement")
where = importlib.import_module("b5cgs.where")
orders = importlib.import_module("b5cgs.orders")
view = importlib.import_module("b5cgs.view")
T = TypeVar("T")


class ScriptError(AssertionError):
    pass


class ScriptedStream:
    def __init__(self, owner: ScriptedChance, scope: str, label: str) -> None:
        self.owner, self.scope, self.label = owner, scope, label

    def _take(self, table: dict[str, list[Any]], what: str) -> Any:
        self.owner.drawn.append((self.scope, self.label, what))
        values = table.get(self.label)
        if not values:
            if self.owner.lenient:
                return None
            raise ScriptError(f"unscripted {what} draw {self.scope}:{self.label}")
        return values.pop(0)

    def below(self, n: int) -> int:
        v = self._take(self.owner.belows, "below")
        return 0 if v is None else int(v)

    def roll(self, faces: Sequence[int], count: int = 1) -> list[int]:
        v = self._take(self.owner.rolls, "roll")
        if v is None:
            return [min(faces)] * count
        assert len(v) == count, (self.label, v, count)
        assert all(x in faces for x in v), (self.label, v, faces)
        return list(v)

    def shuffle(self, items: Sequence[T]) -> list[T]:
        v = self._take(self.owner.shuffles, "shuffle")
        return list(items) if v is None else list(v)


class ScriptedChance:
    def __init__(self, rolls: Mapping[str, list[list[int]]] | None = None,
                 below: Mapping[str, list[int]] | None = None,
                 shuffle: Mapping[str, list[list[Any]]] | None = None,
                 lenient: bool = False) -> None:
        self.rolls = {k: list(v) for k, v in (rolls or {}).items()}
        self.belows = {k: list(v) for k, v in (below or {}).items()}
        self.shuffles = {k: list(v) for k, v in (shuffle or {}).items()}
        self.lenient = lenient
        self.drawn: list[tuple[str, str, str]] = []

    def public(self, label: str) -> ScriptedStream:
        return ScriptedStream(self, "public", label)

    def secret(self, label: str) -> ScriptedStream:
        return ScriptedStream(self, "secret", label)


class PracticeChance(practice.PracticeChance):
    """Deterministic chance (pbem.game.practice, seeded as "b5cgs-practice"): NOT fair."""

    def __init__(self, game_id: str, step: int) -> None:
        super().__init__("b5cgs", game_id, step)


def committed(st: dict[str, Any]) -> dict[str, Any]:
    """The state after the set-up step, in which every player commits his chance and nothing
    is drawn: the deal comes next."""
    out: dict[str, Any] = PLUGIN.resolve(st, {}, NO_CHANCE).state
    return out


def dealt(variant: str = "basic-3", first: str | None = None, version: int | None = None
          ) -> dict[str, Any]:
    """A game after the deal, with ``first`` (default: the first seat) playing first and the
    face-down deal in the pack's order (no shuffle); ``version`` the rules version (default:
    the one new games record). Under rules version 3 the starting-fleet steps come next."""
    options: dict[str, Any] = {"game_id": "t"}
    if version is not None:
        options["rules_version"] = version
    st = committed(PLUGIN.setup(variant, options))
    seats = st["seats"]
    first = first or seats[0]
    faces = [6 if p == first else 1 for p in seats]
    chance = ScriptedChance(rolls={"first-player:1": [faces]}, lenient=True)
    return PLUGIN.resolve(st, {}, chance).state  # type: ignore[no-any-return]


def new_game(variant: str = "basic-3", first: str | None = None, version: int | None = None
             ) -> dict[str, Any]:
    """A game at ``first``'s first turn (dealt above): under rules version 3 every player has
    placed an empty starting fleet in his own step before it (C4.3, ruling R7)."""
    st = dealt(variant, first, version)
    while st["phase"] == "fleet":
        st = PLUGIN.resolve(st, {}, ScriptedChance(lenient=True)).state
    return st


def clear(st: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``st`` with every token removed (for positions laid out by hand)."""
    out = copy.deepcopy(st)
    out["tokens"] = {}
    return out


def put(st: dict[str, Any], ttype: str, owner: str | None, hex_: str, facing: int | None = 1,
        crippled: bool = False) -> str:
    """Place a token by hand; returns its id."""
    tid: str = setupmod.new_token(st, ttype, owner, hex_, facing, [0, "setup"])
    st["tokens"][tid]["crippled"] = crippled
    return tid


def expose_all(st: dict[str, Any]) -> None:
    """Turn every face-down piece face up (rotation = its back, flip 1)."""
    for slot, piece in sorted(st["referee"]["pieces"].items()):
        setupmod.expose(st, int(slot), piece, st["referee"]["backs"][slot], 1)


def blank(variant: str = "basic-3", expose: bool = True) -> dict[str, Any]:
    """A game after set-up with no tokens, every piece face up (``expose``) and every hex's map
    elements wiped except the Babylon 5 hex: a table for laying out a rule's example."""
    st = clear(new_game(variant))
    if expose:
        expose_all(st)
    for h, info in st["hexes"].items():
        st["hexes"][h] = {k: v for k, v in info.items() if k in ("slot", "printed", "b5")}
    return st


def run_moves(st: dict[str, Any], power: str, entries: list[dict[str, Any]],
              chance: Any = None) -> list[dict[str, Any]]:
    """The Move phase alone on ``st`` (mutated), as turn.py runs it."""
    st.setdefault("flags", {"moved": [], "fired": [], "targeted": []})
    return movement.move_phase(st, power, entries, chance or ScriptedChance())  # type: ignore


def check(st: dict[str, Any], power: str, body: dict[str, Any]) -> tuple[Any, list[Any]]:
    """The offline/referee order check on ``power``'s view of ``st`` (as if it were his turn)."""
    st = copy.deepcopy(st)
    st["current"] = power
    if st["powers"][power]["turns"] == 0 and "start" not in body:
        st["powers"][power]["turns"] = 1
    return PLUGIN.normalize_orders(body, PLUGIN.view(st, power))  # type: ignore[no-any-return]
