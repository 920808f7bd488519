"""Starting positions for the Babylon 5 CGS economy, allocate, fire and damage tests: the
rulebook's running "Bob" example (Bob plays the Earth Alliance, A2.13) laid out on a game after
its set-up step, every token placed by hand (tests/b5cgs_driver.put), every die scripted."""

from __future__ import annotations

import importlib
from typing import Any

from tests.support.b5cgs_driver import clear, new_game, put, setupmod

economy = importlib.import_module("b5cgs.economy")
allocate = importlib.import_module("b5cgs.allocate")
fire = importlib.import_module("b5cgs.fire")
damage = importlib.import_module("b5cgs.damage")
board = importlib.import_module("b5cgs.board")

BOB, SALLY, JIM = "earth-alliance", "minbari", "valdri"
#: Earth's hexes in the 3-player stand-in map (homeworld slot 7, rotation 0).
EARTH, MARS = "1,4", "2,4"
B5_HEX = "0,0"


def game(variant: str = "basic-3", version: int | None = None) -> dict[str, Any]:
    """A 3-player game at Bob's first turn, every token removed (``version``: the rules
    version, default the one new games record)."""
    return clear(new_game(variant, first=BOB, version=version))


def bob_at_home(st: dict[str, Any], reserve: int) -> dict[str, str]:
    """Bob's homeworld bases (Earth Base-8, Base-2: Gross 10, C4.3) and the given Reserve."""
    st["powers"][BOB]["reserve"] = reserve
    return {"base8": put(st, "ea-base-8", BOB, EARTH), "base2": put(st, "ea-base-2", BOB, MARS)}


def expose_piece(st: dict[str, Any], piece: str, rotation: int = 0) -> int:
    """Turn the face-down slot holding ``piece`` face up; returns the slot."""
    slot = next(int(s) for s, p in st["referee"]["pieces"].items() if p == piece)
    setupmod.expose(st, slot, piece, rotation, 1)
    return slot


def hexes_of(st: dict[str, Any], slot: int) -> list[str]:
    return list(st["map"]["slots"][slot]["hexes"])


def rolls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "roll"]


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]
