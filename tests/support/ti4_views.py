"""TI4 positions for the presenter's tests (games/ti4/STATE.md's state): a table and board at
set-up (``table.set_up`` + ``board.start`` on the stand-in pack, practice chance), changed by a
test where it needs a position, made into a state, and each power's view of it by the plugin's
own ``view``; and whole games played by the plugin with random legal orders (``played``)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from games.ti4 import pack as ti4pack
from games.ti4.board import Board, start
from games.ti4.table import Table, set_up
from games.ti4.units import Catalog
from pbem.game import registry
from pbem.game.practice import PracticeChance

from .conformance import real_chance

SEATS = ("red", "blue", "green", "yellow", "purple", "orange")


def position(variant: str = "small-4") -> tuple[dict[str, Any], Table, Board]:
    """The pack, table and board of a game at set-up on ``variant``."""
    pack = ti4pack.standin()
    n = int(pack["layouts"][variant]["players"])
    seats = list(SEATS[:n])
    factions = dict(zip(seats, sorted(pack["factions"])[:n], strict=True))
    table = set_up(pack, seats, factions, seats[0], PracticeChance("ti4", "views", 1))
    homes = [pack["factions"][factions[p]]["home"] for p in seats]
    board = start(pack, Catalog.from_pack(pack, variant, homes), factions)
    return pack, table, board


def state(variant: str, pack: Mapping[str, Any], table: Table, board: Board, *,
          phase: str = "action", pending: Mapping[str, Any] | None = None,
          standing: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A state as games/ti4/STATE.md writes it."""
    return {"schema": 1, "game": "ti4", "game_id": "views", "variant": variant,
            "options": {"players": len(table.seats), "rules_version": 1}, "pack": dict(pack),
            "phase": phase, "turn": 5, "round": table.round, "table": table.to_data(),
            "board": board.to_data(),
            "standing": {p: dict((standing or {}).get(p) or {}) for p in table.seats},
            "pending": dict(pending) if pending else None, "conceded": [], "salt": "s4lt",
            "result": None}


def view(st: Mapping[str, Any], power: str | None) -> dict[str, Any]:
    """``power``'s view (None: the public view) of ``st``, by the plugin's own ``view``, with
    the game ``instance`` a mail's view carries (pbem.render.mails)."""
    return {**registry.load("ti4").view(dict(st), power), "instance": "i-views"}


def played(variant: str = "small-4", steps: int = 60, seed: int = 1
           ) -> Iterator[tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]]:
    """(state before, state after, events) for each step of a TI4 game played by the real
    plugin with random legal orders (its ``sample_orders``) and the fair chance from fixed
    inputs."""
    plugin = registry.load("ti4")
    rng = random.Random(seed)
    st = plugin.setup(variant, {"game_id": "views"})
    for step in range(1, steps + 1):
        if plugin.is_over(st):
            return
        due = plugin.powers_due(st)
        orders = {}
        for p in due:
            body = plugin.sample_orders(plugin.view(st, p), rng)
            orders[p] = body if body is not None else plugin.default_orders(st, p)
        result = plugin.resolve(st, orders, real_chance(step, due))
        yield st, result.state, list(result.events)
        st = result.state
