"""Minimal working presenter and player's tool, used until b5face's present.py and tool.py exist
(plugin.py prefers ``present.PRESENTER`` and ``tool.TOOL``). They show the events in words, the
economy and an empty order form: enough for a game to run by mail, nothing more."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.game.presentation import NO_MAP


def sentence(e: Mapping[str, Any]) -> str:
    fields = ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("type", "to"))
    return f"{e.get('type')}: {fields}"


def _powers(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"name": p, "reserve": info.get("reserve")} for p, info in view["powers"].items()]


def order_form(view: Mapping[str, Any], seq: int) -> str:
    return "\n".join(["pbem: 1", f"game: {view['game_id']}", f"power: {view['viewer']}",
                      f"turn: {view['turn']}", f"seq: {seq}", "orders: {}"])


def _power(view: Mapping[str, Any], seq: int) -> dict[str, Any]:
    due = view["viewer"] in ((view.get("window") or {}).get("due") or [])
    return {"power": view["viewer"], "name": view["viewer"], "turn": view["turn"],
            "due": due, "order_form": order_form(view, seq) if due else ""}


class PlaceholderPresenter:
    sections = frozenset({"events", "powers", "order_form", "result"})
    map_kind = NO_MAP

    @staticmethod
    def title(view: Mapping[str, Any]) -> str:
        return f"Babylon 5 CGS, {view['variant']}"

    @staticmethod
    def welcome(view: Mapping[str, Any], readers: Sequence[str]) -> dict[str, Any]:
        return _power(view, 0)

    @staticmethod
    def report(before: Mapping[str, Any], view: Mapping[str, Any], *, readers: Sequence[str],
               missed: int, seq: int) -> dict[str, Any]:
        return {**_power(view, seq), "resolved_turn": before["turn"], "missed": missed}

    @staticmethod
    def shared(views: Sequence[Mapping[str, Any]], events: Sequence[Mapping[str, Any]],
               readers: Sequence[str]) -> dict[str, Any]:
        return {"events": [sentence(e) for e in events], "powers": _powers(views[0]),
                "result": views[0]["result"]}

    @staticmethod
    def receipt_lines(orders: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
        return [f"{k}: {v}" for k, v in orders.items() if v]

    @staticmethod
    def gm(public: Mapping[str, Any], views: Mapping[str, Mapping[str, Any]],
           events: Sequence[Mapping[str, Any]], secrets: Mapping[str, list[str]]
           ) -> dict[str, Any]:
        return {"events": [sentence(e) + (" [private]" if "to" in e else "") for e in events],
                "powers": _powers(public)}

    @staticmethod
    def game_end(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
                 readers: Sequence[str], reveal: Sequence[Mapping[str, Any]]
                 ) -> dict[str, Any]:
        result = view["result"] or {}
        return {"events": [sentence(e) for e in events], "powers": _powers(view),
                "winners": list(result.get("winners", [])), "reason": result.get("reason")}

    @staticmethod
    def reveal(log: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        return []

    @staticmethod
    def map_context(view: Mapping[str, Any], readers: Sequence[str],
                    shared: Mapping[str, Any] | None) -> None:
        return None


class PlaceholderTool:
    def register_orders(self, cmds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
        return None

    def register_commands(self, sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
        return None

    def new_orders(self, view: Mapping[str, Any], vault: Any) -> tuple[dict[str, Any], list[str]]:
        return {}, ["# Babylon 5 CGS orders: start, record, allocate, move, fire, contested"]

    def footer(self, orders: Mapping[str, Any]) -> str:
        return ""

    def check_warnings(self, view: Mapping[str, Any], orders: Mapping[str, Any],
                       vault: Any) -> list[str]:
        return []


PRESENTER = PlaceholderPresenter()
TOOL = PlaceholderTool()
