"""What is whose in a 4000 A.D. state: the secrets leak tests look for, and the variations the
conformance suite's structural leak test makes.

``secrets`` returns each secret exactly as a view that leaked it would carry it (the canonical
JSON of the view's entry), so a leak test that searches a view or a mail for it finds a leak.
``variations`` returns states that differ only in data some powers may know (a secret alliance,
a proposal, a permission, a withdrawal proposal, a vote to end, an escrow), with those powers:
every other power's view, events and mails must stay byte-identical
(tests/engine/game/test_conformance.py), which catches a view that forgot a filter even when no
secret string is searched for.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from pbem.game.plugin import Variation


def _json(value: Any) -> str:
    """As pbem.canonical writes it (sorted keys, no spaces): how a leaked view would show it."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def secrets(state: dict[str, Any], power: str) -> list[str]:
    """Strings only ``power`` (and its partners) may know: secret alliances and proposals,
    permissions, withdrawal proposals and escrow blobs, as a view would show them."""
    out = []
    for a in state["alliances"]:
        if power in a["members"] and not a["public"]:
            out.append(_json({"members": list(a["members"]), "public": False,
                              "since": a["since"]}))
    for pr in state["proposals"]:
        if power in pr:
            out.append(_json(list(pr)))
    for deal in state["withdrawals"]:
        if power in (deal["from"], deal["to"]):
            out.append(_json(deal))
    info = state["powers"][power]
    for key in ("permit_home", "permit_lend"):
        if info[key]:
            out.append(f'"{key}":{_json(list(info[key]))}')
    for slot in state["warps"].get(power, {}).values():
        if slot is not None and slot.get("escrow"):
            out.append(slot["escrow"])
    return out


def _other(state: dict[str, Any], power: str) -> str | None:
    return next((p for p in state["powers"] if p != power), None)


def variations(state: dict[str, Any], power: str) -> list[Variation]:
    """States that differ from ``state`` only in what ``power`` (and the partner named) may
    know, each with the powers allowed to see the difference."""
    other = _other(state, power)
    out = []

    def vary(knowers: tuple[str, ...], change: Any) -> None:
        new = copy.deepcopy(state)
        change(new)
        out.append(Variation(new, knowers))

    vary((power,), lambda s: s["powers"][power].update(vote_end=not s["powers"][power]
                                                       ["vote_end"]))
    if other is not None:
        pair = tuple(sorted((power, other)))
        vary(pair, lambda s: s["alliances"].append(
            {"members": list(pair), "public": False, "since": s["turn"]}))
        vary(pair, lambda s: s["proposals"].append([power, other]))
        vary(pair, lambda s: s["withdrawals"].append(
            {"from": power, "to": other, "turn": s["turn"]}))
        vary(pair, lambda s: s["powers"][power]["permit_home"].append(other))
    for alliance in state["alliances"]:
        if power in alliance["members"] and not alliance["public"]:
            members = tuple(alliance["members"])
            vary(members, lambda s, a=alliance: s["alliances"].remove(a))
    for key, slot in state["warps"].get(power, {}).items():
        if slot is not None:
            vary((power,), lambda s, k=key: s["warps"][power][k].update(
                escrow="VARIED-" + str(s["warps"][power][k].get("escrow"))))
    return out
