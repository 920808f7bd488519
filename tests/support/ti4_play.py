"""Random legal play of TI4 for the property tests and the cross-game suite: every due power's
body from the game's own ``sample_orders`` (games/ti4/sample.py), checked by the referee's own
``normalize_orders`` on that power's view, resolved with the engine's fair chance from fixed
inputs; and the invariants every state keeps."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from pbem.game import registry
from tests.support.conformance import real_chance

PLUGIN = registry.load("ti4")
State = dict[str, Any]


def resolve_step(state: State, orders: Mapping[str, Any] | None = None, key: bytes = b"t" * 32,
                 *, defaults: bool = True) -> Any:
    """The plugin's resolution of ``state``'s open step (a copy: the state is untouched) with
    ``orders`` and, with ``defaults``, the game's default orders for every other due power;
    the chance is step k's for the due powers and ``key``."""
    window = PLUGIN.window(state)
    assert window is not None
    given = dict(orders or {})
    if defaults:
        for p in window.due:
            given.setdefault(p, PLUGIN.default_orders(state, p))
    return PLUGIN.resolve(json.loads(json.dumps(state)), given,
                          real_chance(int(state["turn"]), list(window.due), key))


def random_orders(view: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal order body for the viewer ({} when he is not due)."""
    return PLUGIN.sample_orders(view, rng) or {}


def play(variant: str, seed: int, limit: int = 400
         ) -> Iterator[tuple[State, dict[str, Any], State, list[dict[str, Any]]]]:
    """(before, orders, after, events) for every step of a game: random legal orders of every
    due and listened power until the game ends or ``limit`` steps, when the players agree to
    end it (pbem gm end). The chance of step k depends only on (k, the due powers, seed)."""
    rng = random.Random(seed)
    state = PLUGIN.setup(variant, {"game_id": f"prop-{seed}"})
    key = seed.to_bytes(4, "big") * 8
    for _ in range(limit):
        if PLUGIN.is_over(state):
            return
        window = PLUGIN.window(state)
        assert window is not None
        orders: dict[str, Any] = {}
        for p in (*window.due, *window.listens):
            view = PLUGIN.view(state, p)
            body = random_orders(view, rng)
            norm, problems = PLUGIN.normalize_orders(body, view)
            assert problems == [], (window.kind, p, body, problems)
            if body or p in window.due:
                orders[p] = norm
        for p in window.due:
            if not orders.get(p):
                orders[p] = PLUGIN.default_orders(state, p)
        result = PLUGIN.resolve(json.loads(json.dumps(state)), orders,
                                real_chance(int(state["turn"]), list(window.due), key))
        yield state, orders, result.state, result.events
        state = result.state
    if not PLUGIN.is_over(state):
        end = PLUGIN.end_game(state, "agreement")
        yield state, {}, end.state, end.events


def check(state: State) -> None:
    """What every TI4 state keeps: no player with more than the pack's command tokens (board
    and pools), no unit count past its plastic limit, no negative count, every planet owned by
    a seated power (one owner each: a mapping), trade goods never negative, the phase one of
    STATE.md's."""
    assert state["phase"] in ("setup", "deal", "strategy", "action", "secondary", "status",
                              "agenda", "over"), state["phase"]
    if not state["board"]:
        return
    pack = state["pack"]
    board = state["board"]
    seats = state["table"]["seats"]
    total = int(pack["rules"]["tokens"]["total"])
    for p in seats:
        on_board = sum(1 for holders in board["tokens"].values() if p in holders)
        held = on_board + sum((board["pools"].get(p) or {}).values())
        assert held <= total, (p, held)
        assert all(v >= 0 for v in (board["pools"].get(p) or {}).values()), (p, board["pools"])
    used: dict[tuple[str, str], int] = {}
    for group in ("space", "planets"):
        for where, by in board[group].items():
            for p, units in by.items():
                for u, n in units.items():
                    assert n > 0, (where, p, u, n)
                    used[(p, u)] = used.get((p, u), 0) + n
    for (p, u), n in used.items():
        limit = int(pack["units"][u]["limit"] or 0)
        assert not limit or n <= limit, (p, u, n, limit)
    for pid, owner in board["owner"].items():
        assert owner in seats, (pid, owner)
    for p, seat in state["table"]["players"].items():
        assert seat["trade_goods"] >= 0 and seat["vp"] >= 0, (p, seat)
