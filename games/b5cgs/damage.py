"""Damage (E2): crippling, destroying and the Scrap Yard.

One rule decides every source of damage (weapon volleys, Damage Indicators, mines, minesweeping),
so movement calls ``apply`` too. The thresholds are E2.2-E2.5: an undamaged token is crippled by
damage of at least its defense rating and destroyed by at least twice it; a crippled token is
destroyed by at least the defense rating printed on its crippled side (B4.21); anything less
"causes no harm ... and is lost" (E2.5: "even by 1 point"). A destroyed token with upkeep goes
to its owner's Scrap Yard (``hex: null, scrap: true``; its upkeep still counts, B3.12); one
without upkeep is set aside out of play (removed from ``tokens``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

NONE, CRIPPLED, DESTROYED = "none", "crippled", "destroyed"


def outcome(dr: list[int] | tuple[int, int], crippled: bool, points: int) -> str:
    """What ``points`` of damage do to a token with defense ratings ``dr`` (undamaged,
    crippled side) in the given state (E2.2-E2.5)."""
    if crippled:
        return DESTROYED if points >= dr[1] else NONE
    if points >= 2 * dr[0]:
        return DESTROYED
    return CRIPPLED if points >= dr[0] else NONE


def defense(st: Mapping[str, Any], token_id: str) -> list[int] | None:
    """The token's defense ratings, or None: a token without one cannot be damaged (E2.1)."""
    tok = st["tokens"].get(token_id)
    if tok is None:
        return None
    dr = st["pack"]["tokens"][tok["type"]].get("dr")
    return list(dr) if dr else None


def apply(st: dict[str, Any], token_id: str, points: int, cause: str) -> list[dict[str, Any]]:
    """Apply ``points`` of damage to a token on the map; mutates ``st``, returns the events."""
    tok = st["tokens"].get(token_id)
    if tok is None or tok.get("hex") is None:
        return []
    dr = defense(st, token_id)
    points = max(0, int(points))
    event: dict[str, Any] = {"type": "damage", "token": token_id, "token_type": tok["type"],
                             "owner": tok.get("owner"), "hex": tok["hex"], "points": points,
                             "cause": cause}
    if dr is None:
        event["result"] = NONE
        event["why"] = "no defense rating: cannot be damaged (E2.1)"
        return [event]
    result = outcome(dr, bool(tok.get("crippled")), points)
    event["result"] = result
    if result == CRIPPLED:
        tok["crippled"] = True
    elif result == DESTROYED:
        destroy(st, token_id)
        event["goes"] = "scrap yard" if token_id in st["tokens"] else "out of play"
    return [event]


def destroy(st: dict[str, Any], token_id: str) -> None:
    """Remove a token from the map: to the Scrap Yard if it has upkeep, else out of play
    (E2.3, E2.4, D5.1)."""
    tok = st["tokens"][token_id]
    if int(st["pack"]["tokens"][tok["type"]].get("upkeep") or 0) > 0:
        tok.update({"hex": None, "facing": None, "crippled": False, "scrap": True})
    else:
        del st["tokens"][token_id]
