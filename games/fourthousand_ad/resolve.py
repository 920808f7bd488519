"""Resolving a round (simultaneous mode) or one turn slot (sequential mode).

Simultaneous: every live power's orders for the round are in; co-operation orders take effect,
then each slot of the turn order moves in turn (production first on production turns).
Sequential: only the current slot's powers order; the slot is resolved and play passes on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import diplomacy, ending, movement, production
from .orders import default_orders
from .world import World


def due_powers(state: dict[str, Any]) -> list[str]:
    if state["result"] is not None:
        return []
    live = [p for slot in state["slots"] for p in slot
            if state["powers"][p]["status"] == "active"]
    if state["options"]["mode"] == "simultaneous":
        return live
    return [p for p in state["slots"][state["slot"]] if p in live]


def resolve(state: dict[str, Any], orders: Mapping[str, Any], *,
            copy: bool = True) -> tuple[dict, list]:
    """(new state, events). ``copy=False``: ``state`` is the caller's own fresh copy, which the
    resolution may change and return (the plugin passes its canonical-order copy, so the state
    is not copied twice)."""
    if state["result"] is not None:
        return state, []
    w = World(state, copy=copy)
    due = due_powers(state)
    given = {p: (orders.get(p) or default_orders()) for p in due}
    w.step_powers = set(due)
    w.orders = given
    for p in due:
        diplomacy.apply(w, p, given[p])
    ending.check_victory(w)
    slots = w.s["slots"]
    if w.options["mode"] == "simultaneous":
        for index in range(w.s["slot"], len(slots)):
            if w.s["result"] is not None:
                break
            _run_slot(w, index, given)
        _next_round(w)
    else:
        _run_slot(w, w.s["slot"], given)
        _advance_slot(w)
    return w.state, w.events


def _run_slot(w: World, index: int, orders: dict[str, Any]) -> None:
    w.s["slot"] = index
    members = [p for p in w.s["slots"][index] if w.alive(p)]
    if not members:
        return
    for p in members:
        ending.withdrawal_answer(w, p, orders.get(p, default_orders()))
    if production.is_production_turn(w.options, w.turn):
        for p in members:
            production.produce(w, p)
    for p in members:
        if w.s["result"] is not None or not w.alive(p):
            continue
        own = orders.get(p, default_orders())
        movement.power_turn(w, p, own, orders)
        ending.home_deadline(w, p, own)
        ending.withdrawal_deadline(w, p, own)
        ending.check_no_ships(w)
        ending.check_victory(w)


def _next_round(w: World) -> None:
    if w.s["result"] is None:
        w.s["turn"] += 1
    w.s["slot"] = 0
    w.s["round"] = {"fought": {}, "moved": []}
    _skip_empty_slots(w)


def _advance_slot(w: World) -> None:
    w.s["slot"] += 1
    if w.s["slot"] >= len(w.s["slots"]):
        _next_round(w)
    else:
        _skip_empty_slots(w)


def _skip_empty_slots(w: World) -> None:
    while w.s["result"] is None and not any(w.alive(p) for p in w.s["slots"][w.s["slot"]]):
        w.s["slot"] += 1
        if w.s["slot"] >= len(w.s["slots"]):
            w.s["slot"] = 0
            w.s["turn"] += 1
            w.s["round"] = {"fought": {}, "moved": []}
