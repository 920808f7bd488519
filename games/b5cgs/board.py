"""What is where on the board, as the econ modules (allocate, fire, economy) ask it.

Plain lookups on the state's ``tokens``, ``hexes`` and ``pack`` (STATE.md), movement's where it
has them; each works on a player's view as well, so the order checkers and the resolution give
the same answer. Units are ships and bases with a hex (B4.35: at most one per hex); mines and
built jumpgates are map element tokens, not units (B1.22, B4.4).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from . import hexes as hx
from . import movement

UNIT_KINDS = ("ship", "base")
TOKEN_ID = re.compile(r"t([0-9]{1,9})")
ELEMENTS = ("economy", "damage", "minefield", "jumpgate", "b5")


def spec(st: Mapping[str, Any], ttype: str) -> Mapping[str, Any]:
    """The pack's entry for a token type."""
    out: Mapping[str, Any] = st["pack"]["tokens"][ttype]
    return out


def kind_of(st: Mapping[str, Any], tok: Mapping[str, Any]) -> str:
    return str(spec(st, tok["type"])["kind"])


def side(tok: Mapping[str, Any]) -> int:
    """Index into the [undamaged, crippled] pairs (B4.11, B4.12)."""
    return 1 if tok.get("crippled") else 0


def is_unit(st: Mapping[str, Any], tok: Mapping[str, Any]) -> bool:
    return tok.get("hex") is not None and kind_of(st, tok) in UNIT_KINDS


def unit_at(st: Mapping[str, Any], hex_: str) -> str | None:
    """The unit (ship or base) in ``hex_``, if any (movement's rule)."""
    return movement.unit_at(st, hex_)


def element_tokens_at(st: Mapping[str, Any], hex_: str) -> list[str]:
    """Mines and built jumpgates in ``hex_`` (map element tokens, B4.4)."""
    return sorted(t for t, tok in st["tokens"].items()
                  if tok.get("hex") == hex_ and kind_of(st, tok) in ("mine", "jumpgate"))


def exposed(st: Mapping[str, Any], hex_: str) -> bool:
    """A hex of an exposed map piece (``hexes`` holds those only)."""
    return hex_ in st["hexes"]


def is_b5(st: Mapping[str, Any], hex_: str) -> bool:
    return movement.is_b5_hex(st, hex_)


def occupied(st: Mapping[str, Any], hex_: str) -> bool:
    """B1.22: a unit is there (the Babylon 5 hex holds a base: always occupied, B1.16)."""
    return is_b5(st, hex_) or unit_at(st, hex_) is not None


def empty(st: Mapping[str, Any], hex_: str) -> bool:
    """B1.21: on an exposed piece, with no token and no map element."""
    if not exposed(st, hex_) or occupied(st, hex_) or element_tokens_at(st, hex_):
        return False
    here = st["hexes"][hex_]
    return not any(here.get(e) for e in ELEMENTS)


def adjacent(a: str, b: str) -> bool:
    ha, hb = hx.parse(a), hx.parse(b)
    return ha is not None and hb is not None and hx.distance(ha, hb) == 1


def facing_hex(tok: Mapping[str, Any]) -> str | None:
    """The hex directly in front of a token (B4.34: a ship there is in docked position to it)."""
    h = hx.parse(tok.get("hex"))
    facing = tok.get("facing")
    if h is None or not isinstance(facing, int) or facing not in hx.DIRS:
        return None
    return hx.key(hx.front(h, facing))


def docked_to(st: Mapping[str, Any], tid: str) -> str | None:
    """The hex of the base (or Babylon 5) a ship is docked to (B4.33), or None (movement's
    rule)."""
    return movement.docked_to(st, tid)


def slot_of_hex(st: Mapping[str, Any]) -> dict[str, int]:
    """Board hex -> map piece slot (the layout is public geometry)."""
    return {h: s["slot"] for s in st["map"]["slots"] for h in s["hexes"]}


def units_of(st: Mapping[str, Any], power: str, kind: str | None = None
             ) -> list[tuple[str, Mapping[str, Any]]]:
    """``power``'s units on the map (of one kind if given), by id."""
    return [(t, tok) for t, tok in sorted(st["tokens"].items())
            if tok.get("owner") == power and is_unit(st, tok)
            and (kind is None or kind_of(st, tok) == kind)]


def coming(view: Mapping[str, Any], tid: object) -> bool:
    """An id a token bought this turn will get (``t<n>``, n from the view's ``next_token`` on,
    in the order bought: RULES.md R18): the player's check leaves it to the referee."""
    m = TOKEN_ID.fullmatch(tid) if isinstance(tid, str) else None
    return m is not None and tid not in view["tokens"] and \
        int(m.group(1)) >= int(view.get("next_token") or 0)
