"""The order form's lines for the secret kept at set-up and for transactions (RULES.md
T77-T82): the secrets the reader drew with ``keep:`` pre-filled with the first; in his action
step his neighbours and in the agenda step every other player, with a commented
``transactions:`` half, and the standing ``accept:`` a neighbour's action step needs. Read
from his view alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import deals
from .board import Board
from .keep import rules
from .setup import catalog

View = Mapping[str, Any]


def keep_lines(view: View) -> list[str]:
    hand = list((view.get("you") or {}).get("drawn") or [])
    if not hand:
        return []
    _, kept = rules(view["pack"])
    objectives = view["pack"]["objectives"]
    out = [f"  # The secret objectives you drew: keep {kept} (the others go to the bottom of "
           "the deck; nobody else learns which):"]
    out += [f"  #   {o} ({objectives[o]['vp']} VP, scored in the {objectives[o]['phase']} "
            f"phase): {objectives[o].get('text', '')}".rstrip(": ") for o in hand]
    out.append("  keep: [" + ", ".join(hand[:kept]) + "]")
    return out


def transaction_lines(view: View) -> list[str]:
    me = str(view.get("viewer"))
    table = view.get("table") or {}
    phase = view.get("phase")
    if not table or me not in (table.get("players") or {}):
        return []
    seat = table["players"][me]
    if phase == "action" and table.get("turn") == me:
        partners = deals.neighbours(Board.from_data(view["board"]), catalog(view), me)
        who = ("your neighbours: " + ", ".join(partners)) if partners else \
            "none: no player has a unit or planet in or next to a system of yours"
        out = [f"  # TRANSACTIONS, one with each neighbour ({who}); made at the start of "
               "the step if his standing accept: has the same terms:"]
    elif phase == "agenda":
        partners = [p for p in table["seats"] if p != me]
        out = ["  # TRANSACTIONS, one with any player, made before the votes if his "
               "transactions: has the matching half:"]
    else:
        return []
    if not partners:
        return out
    out += [f"  # You have {seat['trade_goods']} trade goods and {seat['commodities']} "
            "commodities (commodities you receive become trade goods).",
            f"  # transactions: [{{with: {partners[0]}, give: {{trade_goods: 1}}, "
            "get: {commodities: 1}}]"]
    if phase == "action":
        out += ["  # Their transactions in their own action steps need your standing accept: "
                "of the same terms, e.g. standing: {accept: [{with: "
                f"{partners[0]}, give: {{commodities: 1}}, get: {{trade_goods: 1}}}}]}} "
                "(it stands until replaced)."]
    return out
