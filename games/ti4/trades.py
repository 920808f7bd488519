"""The plugin's side of transactions (RULES.md T73-T77): which halves an action step and the
agenda step read from the order files and standing answers, run by ``deals`` on the step's
working copies (turn.py calls these at the start of the step)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import deals
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
