"""Contested space (D3.4, ruling E4 in RULINGS-econ.md): who must allow a build or a repair.

"A hex is considered contested if any player with a ship or base (not squadron) in an adjacent
hex desires the hex to be contested. The current player must obtain permission from each player
with a ship or base in an adjacent hex" (D3.42). By mail nobody can be asked mid-turn, so each
player's answer is standing (``powers[p].contested``: ``{default: deny|allow, allow: [powers],
deny: [powers]}``, set in any order file): a name in ``allow`` wins, then ``deny``, then the
default, which is deny. A player's view does not hold the others' answers (``answer`` is then
None), so only the referee applies them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import board
from . import hexes as hx


def contested_rule(st: Mapping[str, Any]) -> bool:
    """Contested space applies unless a variant turns it off (ruling E4)."""
    return bool(st["options"].get("contested", True))


def neighbours_of(st: Mapping[str, Any], power: str, hex_: str) -> list[str]:
    """Opponents with a ship or base adjacent to ``hex_`` (D3.41, D3.42), in seat order."""
    h = hx.parse(hex_)
    if h is None:
        return []
    near = {hx.key(n) for n in hx.neighbours(h)}
    owners = {tok.get("owner") for tok in st["tokens"].values()
              if tok.get("hex") in near and board.is_unit(st, tok)}
    return [p for p in st["seats"] if p in owners and p != power
            and not st["powers"][p].get("surrendered")]


def answer(st: Mapping[str, Any], who: str, asker: str) -> str | None:
    """``who``'s standing answer to ``asker`` (allow|deny), None if not known (a view)."""
    standing = st["powers"][who].get("contested")
    if not isinstance(standing, Mapping):
        return None
    if asker in (standing.get("allow") or []):
        return "allow"
    if asker in (standing.get("deny") or []):
        return "deny"
    return "allow" if standing.get("default") == "allow" else "deny"


def denied(st: Mapping[str, Any], power: str, hexes_: list[str]) -> list[str]:
    """The players who deny ``power`` building or repairing in/with these hexes (D3.42)."""
    if not contested_rule(st):
        return []
    out: list[str] = []
    for h in hexes_:
        for who in neighbours_of(st, power, h):
            if who not in out and answer(st, who, power) == "deny":
                out.append(who)
    return out
