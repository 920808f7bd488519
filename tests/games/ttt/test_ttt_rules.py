"""Tic-tac-toe's rules as pure functions: a draw on a full board, the standing move of a power
that sent nothing, and every problem of an order body at once, each with its path."""

from __future__ import annotations

import random
from typing import Any

from pbem.game import registry
from pbem.game.practice import PracticeChance

TTT = registry.load("ttt")


def play(moves: list[str | None], variant: str = "x-first") -> dict[str, Any]:
    state = TTT.setup(variant, {"game_id": "t"})
    for step, cell in enumerate(moves, 1):
        mover = TTT.powers_due(state)[0]
        state = TTT.resolve(state, {mover: {} if cell is None else {"move": cell}},
                            PracticeChance("ttt", "t", step)).state
    return state


def test_a_full_board_without_a_line_is_a_draw_won_by_nobody() -> None:
    state = play(["a3", "b3", "c3", "b2", "a2", "a1", "b1", "c2", "c1"])
    assert state["result"] == {"reason": "a draw: the board is full", "turn": 10, "winners": []}
    assert TTT.window(state) is None
    assert TTT.presenter.result(TTT.view(state, None)).endswith("Winner: nobody.")


def test_the_standing_move_is_the_first_empty_cell_and_o_may_move_first() -> None:
    state = play(["a1", None], variant="o-first")
    assert state["board"] == {"a1": "o", "b1": "x"}
    assert TTT.powers_due(state) == ["o"]


def test_every_problem_of_a_body_is_reported_with_its_path() -> None:
    state = play(["b2"])
    orders, problems = TTT.normalize_orders({"move": "b2", "pass": True}, TTT.view(state, "o"))
    assert orders == {}
    assert [(p.code, p.path) for p in problems] == [("unknown-order", "pass"), ("move", "move")]
    _, problems = TTT.normalize_orders({"move": "a1"}, TTT.view(state, "x"))
    assert [p.message for p in problems] == ["it is not your move"]
    assert TTT.normalize_orders({}, TTT.view(state, "x")) == ({}, [])
    assert TTT.sample_orders(TTT.view(state, "x"), random.Random(1)) is None
