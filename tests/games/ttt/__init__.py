"""Tic-tac-toe: two players take turns marking a 3×3 board; three in a row wins.

The fifth game, written from docs/plugins.md alone: perfect information, one power due per
step, on the contract's defaults (pbem.game.base), one module, no templates, no tool. A player
who misses a move has his standing move made for him: the first empty cell in reading order.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

from pbem.errors import PbemError, Problem
from pbem.game.base import Game, Presenter
from pbem.game.chance import Chance
from pbem.game.plugin import Resolution, VariantInfo, Window

POWERS = ("x", "o")
ROWS, COLUMNS = "321", "abc"  # row 3 at the top, as a chess board is drawn
CELLS = tuple(c + r for r in "123" for c in COLUMNS)  # a1 b1 c1 a2 ... c3: reading order
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
VARIANTS = {"x-first": "X moves first", "o-first": "O moves first"}


def empty_cells(board: Mapping[str, str]) -> list[str]:
    return [c for c in CELLS if c not in board]


def three_in_a_row(board: Mapping[str, str], power: str) -> bool:
    return any(all(board.get(CELLS[i]) == power for i in line) for line in LINES)


class TttPresenter(Presenter):
    def sentence(self, event: Mapping[str, Any]) -> str:
        if event["type"] == "marked":
            how = " (his standing move)" if event["standing"] else ""
            return f"{event['power'].upper()} marked {event['cell']}{how}."
        return super().sentence(event)

    def position(self, view: Mapping[str, Any]) -> list[str]:
        board = view["board"]
        return ["   a b c", *(f"{r}  " + " ".join(board.get(c + r, ".").upper() for c in COLUMNS)
                              for r in ROWS)]

    def orders_form(self, view: Mapping[str, Any]) -> list[str]:
        free = " ".join(empty_cells(view["board"]))
        return ["orders:", f"  move: {empty_cells(view['board'])[0]}   # one of: {free}"]


class TicTacToe(Game):
    id = "ttt"
    title = "Tic-Tac-Toe"
    presenter = TttPresenter()
    counted = {"moves": ("marked",)}

    def variants(self) -> Mapping[str, VariantInfo]:
        return {name: VariantInfo(name, title, POWERS) for name, title in VARIANTS.items()}

    def setup(self, variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
        if variant not in VARIANTS:
            raise PbemError(f"unknown variant {variant!r} of ttt (known: x-first, o-first)")
        return {"game": "ttt", "game_id": options["game_id"], "variant": variant, "turn": 1,
                "first": variant[0], "board": {}, "powers": {p: {"moves": 0} for p in POWERS},
                "result": None}

    def mover(self, state: Mapping[str, Any]) -> str:
        first = POWERS.index(state["first"])
        return POWERS[(first + state["turn"] - 1) % 2]

    def window(self, state: dict[str, Any]) -> Window | None:
        if self.is_over(state):
            return None
        mover = self.mover(state)
        return Window("move", f"Move {state['turn']}: {mover.upper()} to play", (mover,))

    def normalize_orders(self, body: Mapping[str, Any], view: Mapping[str, Any]
                         ) -> tuple[dict[str, Any], list[Problem]]:
        problems = [Problem("unknown-order", str(k), f"no order {k!r} (the one order is move)")
                    for k in body if k != "move"]
        move = body.get("move")
        free = empty_cells(view["board"])
        if move is not None and move not in free:
            taken = move in CELLS
            problems.append(Problem("move", "move", f"{move!r} is " + (
                "taken" if taken else "not a cell") + f" (empty: {', '.join(free)})"))
        elif move is not None and view["viewer"] not in view["due"]:
            problems.append(Problem("move", "move", "it is not your move"))
        return ({"move": move} if move in free else {}), problems

    def resolve(self, state: dict[str, Any], orders: Mapping[str, Any],
                chance: Chance) -> Resolution:
        new = copy.deepcopy(state)
        mover, turn = self.mover(state), state["turn"]
        cell = (orders.get(mover) or {}).get("move")
        standing = cell not in empty_cells(new["board"])
        if standing:
            cell = empty_cells(new["board"])[0]
        new["board"][cell] = mover
        new["powers"][mover]["moves"] += 1
        new["turn"] = turn + 1
        events = [{"type": "marked", "turn": turn, "power": mover, "cell": cell,
                   "standing": standing}]
        if three_in_a_row(new["board"], mover):
            return self.finish(new, "three in a row", [mover], events)
        if not empty_cells(new["board"]):
            return self.finish(new, "a draw: the board is full", [], events)
        return Resolution(new, events)

    def view(self, state: dict[str, Any], power: str | None) -> dict[str, Any]:
        return {**copy.deepcopy(state), "viewer": power, "due": self.powers_due(state)}

    def sample_orders(self, view: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
        if view["viewer"] not in view["due"]:
            return None
        return {"move": rng.choice(empty_cells(view["board"]))} if rng.random() < 0.9 else {}


PLUGIN = TicTacToe()
