"""Threats in range: for each of the viewer's units, the enemy units whose weapons reach it.

A weapon reaches a unit when the firing token has that weapon on its present side (undamaged or
crippled), the unit is within the weapon's range (heavy weapons 2 hexes, lasers 1: D5.31,
D5.32) and inside one of the weapon's firing arcs (D5.4: the 60-degree arcs of the token's
sides, turned with its facing, spines in; hexes.in_firing_arc). At range 2 the damage is capped
by a Long Range Support roll (H1), so the listing says "up to". The listing reads only the view:
the tokens on the map and the component data the view carries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import hexes, mapmodel

RANGES = {"heavy": 2, "laser": 1}
SIDES = tuple(hexes.SIDES)


def arcs(spec: Any) -> tuple[str, ...]:
    if spec == "all":
        return SIDES
    return tuple(str(s) for s in spec or ())


def output(info: Mapping[str, Any], weapon: str, crippled: bool) -> int:
    value = info.get(weapon) or [0, 0]
    return int(value[1 if crippled else 0]) if isinstance(value, list) else int(value)


def reaches(view: Mapping[str, Any], shooter: str, target_hex: str) -> list[dict[str, Any]]:
    """The weapons of token ``shooter`` that reach ``target_hex``: [{weapon, points, range}]."""
    gun = _gun(view, shooter)
    goal = hexes.parse(target_hex)
    return [] if gun is None or goal is None else _reaching(gun, goal)


#: A unit that may fire: where it is, its facing, and each weapon it has on its present side
#: with its output, reach and arcs.
_Gun = tuple[hexes.Hex, int, tuple[tuple[str, int, int, tuple[str, ...]], ...]]


def _gun(view: Mapping[str, Any], shooter: str) -> _Gun | None:
    t = view["tokens"][shooter]
    origin = hexes.parse(t["hex"])
    if origin is None:
        return None
    info = mapmodel.token_type(view, t)
    crippled = bool(t.get("crippled"))
    weapons = tuple((weapon, output(info, weapon, crippled), reach,
                     arcs((info.get("arcs") or {}).get(weapon)))
                    for weapon, reach in RANGES.items())
    return origin, int(t.get("facing") or 1), tuple(w for w in weapons if w[1] > 0)


def _reaching(gun: _Gun, goal: hexes.Hex) -> list[dict[str, Any]]:
    origin, facing, weapons = gun
    distance = hexes.distance(origin, goal)
    return [{"weapon": weapon, "points": points, "range": distance}
            for weapon, points, reach, sides in weapons
            if 0 < distance <= reach and hexes.in_firing_arc(origin, facing, sides, goal)]


def units(view: Mapping[str, Any], power: str) -> list[str]:
    return sorted((tid for tid, t in view["tokens"].items()
                   if t.get("owner") == power and t.get("hex") is not None
                   and mapmodel.kind(view, t) in mapmodel.UNITS),
                  key=lambda tid: (len(tid), tid))


#: The units and guns of the last board ``threats`` read: its tokens and the pack's token
#: types (the objects views of a state share, never changed: view._board_copy), and what
#: ``_board`` made of them.
_BOARD: list[Any] = [None, None, None]


def _board(view: Mapping[str, Any]
           ) -> tuple[dict[str, list[str]], dict[str, _Gun | None]]:
    """Every power's units on the map (``units``) and each unit's gun (``_gun``): the same
    for every reader of a step, made once for the tokens and token types views share."""
    tokens, types = view["tokens"], view["pack"]["tokens"]
    if _BOARD[0] is tokens and _BOARD[1] is types:
        return _BOARD[2]  # type: ignore[no-any-return]
    owners = {str(t.get("owner")) for t in tokens.values()}
    by_owner = {p: units(view, p) for p in owners}
    guns = {tid: _gun(view, tid) for mine in by_owner.values() for tid in mine}
    _BOARD[:] = [tokens, types, (by_owner, guns)]
    return by_owner, guns


def threats(view: Mapping[str, Any], power: str) -> list[dict[str, Any]]:
    """For each of ``power``'s units on the map: who can fire at it next, and with what."""
    by_owner, all_guns = _board(view)
    enemies = [tid for p in view["seats"] if p != power for tid in by_owner.get(p, ())]
    guns = [(e, gun) for e in enemies if (gun := all_guns[e]) is not None]
    out = []
    for tid in by_owner.get(power, ()):
        here = str(view["tokens"][tid]["hex"])
        goal = hexes.parse(here)
        rows = []
        for e, gun in guns:
            weapons = _reaching(gun, goal) if goal is not None else []
            if weapons:
                info = mapmodel.token_type(view, view["tokens"][e])
                rows.append({
                    "id": e, "label": mapmodel.label(view, e),
                    "title": str(info.get("title") or view["tokens"][e]["type"]),
                    "owner": str(view["tokens"][e]["owner"]),
                    "hex": str(view["tokens"][e]["hex"]), "weapons": weapons,
                    "text": ", ".join(
                        f"{w['weapon']} {'up to ' if w['range'] >= 2 else ''}{w['points']}"
                        f" at range {w['range']}" for w in weapons)})
        info = mapmodel.token_type(view, view["tokens"][tid])
        out.append({"id": tid, "label": mapmodel.label(view, tid), "hex": here,
                    "title": str(info.get("title") or view["tokens"][tid]["type"]),
                    "threats": rows})
    return out
