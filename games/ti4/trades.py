"""The plugin's side of transactions (RULES.md T77-T81): which halves an action step and the
agenda step read from the order files and standing answers, run by ``deals`` on the step's
working copies (turn.py calls these at the start of the step), and the order check of a
``transactions:`` section (orders.py calls ``order_problems``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem

from . import deals
from .board import Board
from .setup import catalog
from .step import Step


def action(s: Step, player: str, orders: Mapping[str, Any]) -> None:
    """The active player's ``transactions:``, each against the neighbour's standing
    ``accept:``."""
    halves = (orders.get(player) or {}).get("transactions")
    if not halves:
        return
    accepts = {q: (a or {}).get("accept") for q, a in s.st["standing"].items()
               if q not in s.st["conceded"]}
    s.table, events = deals.in_action(s.t, s.b, s.catalog(), player, halves, accepts)
    s.events += events


def agenda(s: Step, orders: Mapping[str, Any]) -> None:
    """Every player's ``transactions:`` of the agenda step, pair by pair."""
    halves = {p: (orders.get(p) or {}).get("transactions") for p in s.t.seats
              if p not in s.st["conceded"]}
    s.table, events = deals.in_agenda(s.t, halves)
    s.events += events


def order_problems(value: object, view: Mapping[str, Any], me: object) -> list[Problem]:
    """``transactions:`` (T77-T80): in an action step the active player's, each with a
    neighbour; in the agenda step anyone's; each half whole and within what he has."""
    phase, table = view.get("phase"), view.get("table") or {}
    if phase not in ("action", "agenda") or not isinstance(me, str):
        return [Problem("section-not-now", "transactions", "transactions: are made in your "
                        "action step or in the agenda step")]
    if phase == "action" and table.get("turn") != me:
        return [Problem("not-your-turn", "transactions", "transactions: are made in your own "
                        "action step (the other half is a standing accept:)")]
    seat = table["players"][me]
    out = deals.entry_problems(value, "transactions", me, list(table["seats"]),
                               {k: int(seat[k]) for k in deals.GOODS})
    if phase == "action" and not out and isinstance(value, list):
        near = deals.neighbours(Board.from_data(view["board"]), catalog(view), me)
        out += [Problem("transaction-neighbour", f"transactions[{i}].with",
                        f"{e['with']} is not your neighbour (a unit or planet in or next to "
                        "a system with one of yours)")
                for i, e in enumerate(value) if e["with"] not in near]
    return out

