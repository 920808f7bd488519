"""What one power may see: the only way hidden information leaves a TI4 state (STATE.md, "The
view").

Public: the pack, the whole board (no fog of war in v1), the table's seats, factions, speaker,
VP, trade goods, commodities, strategy cards, technologies, objectives revealed and scored, laws,
the pending strategic action, and, in the agenda phase, the two agendas voted on. Private to
its owner: his unscored secret objectives, the secrets he drew at the deal until he keeps
some (``you.drawn``) and his standing answers. Nobody but the referee: the
order of the three decks (the unrevealed public objectives, the secrets, the agendas) and the
salt.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from .setup import seats
from .step import upcoming
from .table import Table
from .turn import window

DECKS = ("public_deck", "secret_deck", "agenda_deck")


def table_view(table: Mapping[str, Any], power: str | None) -> dict[str, Any]:
    """The table as ``power`` sees it: decks as counts, the others' secrets as counts."""
    out = copy.deepcopy(dict(table))
    for deck in DECKS:
        out[deck] = len(table[deck])
    for p, seat in out["players"].items():
        if p != power:
            seat["secrets_held"] = len(seat.pop("secrets"))
    return out


def view(state: Mapping[str, Any], power: str | None) -> dict[str, Any]:
    if power is not None and power not in seats(state):
        raise ValueError(f"no power {power!r} in this game")
    step = window(state)
    table = state["table"]
    powers: dict[str, dict[str, Any]] = {}
    for p in seats(state):
        seat = (table or {}).get("players", {}).get(p, {})
        powers[p] = {"faction": (table or {}).get("factions", {}).get(p),
                     "vp": int(seat.get("vp", 0)), "conceded": p in state["conceded"]}
    agendas: list[str] = []
    if table and state["phase"] == "agenda":
        agendas = upcoming(state["pack"], Table.from_data(table))
    out: dict[str, Any] = {
        "game": "ti4", "game_id": state["game_id"], "variant": state["variant"],
        "options": dict(state["options"]), "phase": state["phase"], "round": state["round"],
        "turn": state["turn"], "viewer": power,
        "due": [] if step is None else list(step.due),
        "window": None if step is None else {"kind": step.kind, "label": step.label,
                                             "due": list(step.due)},
        "powers": powers, "pack": state["pack"],
        "board": copy.deepcopy(state["board"]),
        "table": None if table is None else table_view(table, power),
        "agendas": agendas,
        "pending": copy.deepcopy(state["pending"]),
        "conceded": list(state["conceded"]), "result": copy.deepcopy(state["result"]),
        "you": {},
    }
    if power is not None:
        mine = (table or {}).get("players", {}).get(power, {})
        out["you"] = {"standing": copy.deepcopy(state["standing"].get(power) or {}),
                      "secrets": list(mine.get("secrets", []))}
        drawn = (state.get("drawn") or {}).get(power)
        if drawn:  # the secrets he drew at the deal, until he keeps some (keep.py)
            out["you"]["drawn"] = list(drawn)
    return out


def table_of_view(view_: Mapping[str, Any]) -> Table:
    """A ``Table`` from a view's table, for the order checks: the decks it cannot see empty,
    but for the agendas voted on now; the others' secrets empty."""
    data = copy.deepcopy(dict(view_["table"]))
    data["public_deck"], data["secret_deck"] = [], []
    data["agenda_deck"] = list(view_.get("agendas") or [])
    for seat in data["players"].values():
        seat.setdefault("secrets", [])
        seat.pop("secrets_held", None)
    return Table.from_data(data)


def secrets(state: Mapping[str, Any], power: str) -> list[str]:
    """``power``'s standing answers as canonical JSON (sorted keys, no spaces), when he has any:
    no other view may hold them. His secret objectives are pack ids, public as ids (the pack is
    in every view): ``variations`` and the leak test's structural checks hold them."""
    mine = state["standing"].get(power) or {}
    return [json.dumps(mine, sort_keys=True, separators=(",", ":"), ensure_ascii=False)] \
        if mine else []


def hidden(state: Mapping[str, Any]) -> list[str]:
    """The salt, and each deck's order as its ids joined by commas (two cards or more)."""
    out = [state["salt"]] if state.get("salt") else []
    if state["table"] and state["result"] is None:
        out += [",".join(state["table"][d]) for d in DECKS if len(state["table"][d]) > 1]
    return out


def variations(state: Mapping[str, Any], power: str) -> list[tuple[dict[str, Any],
                                                                   tuple[str, ...]]]:
    """A state that differs only in ``power``'s hidden data: his unscored secrets swapped for
    the secret deck's top ones and his standing answers changed (only he may see it). The
    decks' order, which nobody sees, is held by ``hidden``."""
    if state["result"] is not None or not state["table"]:
        return []
    out: list[tuple[dict[str, Any], tuple[str, ...]]] = []
    mine = copy.deepcopy(dict(state))
    seat = mine["table"]["players"][power]
    deck = mine["table"]["secret_deck"]
    n = min(len(seat["secrets"]), len(deck))
    seat["secrets"], mine["table"]["secret_deck"] = (deck[:n] + seat["secrets"][n:],
                                                     seat["secrets"][:n] + deck[n:])
    answers = copy.deepcopy(mine["standing"].get(power) or {})
    answers["draft"] = list(reversed(answers.get("draft") or [])) or ["x-variation"]
    answers["combat"] = {"hits": ["sustain"], "retreat": {"at_most": 7}} \
        if answers.get("combat") is None else None
    mine["standing"][power] = answers
    if (mine.get("drawn") or {}).get(power):  # the hand he drew, in another order
        mine["drawn"] = {**mine["drawn"], power: list(reversed(mine["drawn"][power]))}
    out.append((mine, (power,)))
    return out
