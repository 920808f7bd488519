"""What may be built and repaired, and at what cost (D3.2, D3.3, D3.24 mines, D3.25, D3.33).

One check per kind of entry (``why_not_build``, ``why_not_repair``, ``why_not_mine``) returns the
reason an entry cannot be carried out now, or None, with its cost and hex; the resolution
(allocate.allocate) and the player's offline check (allocate.check_allocate) both ask it, so
they agree except on the other players' contested-space answers, which only the referee knows.

Costs: the build cost (D3.21), less the upkeep of the token built when an empire token builds a
token of its own empire (D3.22), which the starting fleet always uses (C4.3, setup.start_cost) and
play uses only with the modular rule (``options.discounts``; ruling E1 in RULES.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import board
from . import hexes as hx
from .contested import denied
from .rulings import cite
from .where import is_b5_hex, on_map

B5 = "b5"


def build_cost(st: Mapping[str, Any], ttype: str, builder_empire: str | None,
               discount: bool) -> int:
    """D3.21 build cost; D3.22: less the token's upkeep when ``discount`` applies and an empire
    token builds one of its own empire."""
    spec = board.spec(st, ttype)
    cost = int(spec.get("build") or 0)
    empire = spec.get("empire")
    if discount and builder_empire and empire == builder_empire and empire != "generic":
        cost -= int(spec.get("upkeep") or 0)
    return max(0, cost)


def discounts_in_play(st: Mapping[str, Any]) -> bool:
    return bool(st["options"].get("discounts"))


def _built_now(st: Mapping[str, Any], tok: Mapping[str, Any]) -> bool:
    """D3.25/D3.33: built in this very phase (``built: [step, "allocate"]``)."""
    built = tok.get("built") or []
    return len(built) == 2 and built[0] == st["turn"] and built[1] == "allocate"


def _own_unit(st: Mapping[str, Any], power: str, tid: object, what: str
              ) -> tuple[Mapping[str, Any] | None, str | None]:
    if not isinstance(tid, str) or tid not in st["tokens"]:
        return None, f"no token {str(tid)[:20]!r} in play ({what})"
    tok = st["tokens"][tid]
    if tok.get("owner") != power or not board.is_unit(st, tok):
        return None, f"{tid} is not one of your ships or bases on the map ({what})"
    return tok, None


def _empire(st: Mapping[str, Any], power: str) -> str:
    return str(st["powers"][power]["empire"])


def _may_own(st: Mapping[str, Any], power: str, ttype: str) -> str | None:
    """D3.25 Empires / Generic: your empire's tokens or generic ones."""
    empire = board.spec(st, ttype).get("empire")
    if empire not in (_empire(st, power), "generic"):
        return f"{ttype} belongs to another empire (D3.25)"
    return None


def _count_left(st: Mapping[str, Any], ttype: str) -> bool:
    """No proxies: at most the pack's ``count`` of a type on the map and in Scrap Yards."""
    used = sum(1 for tok in st["tokens"].values() if tok["type"] == ttype)
    return used < int(board.spec(st, ttype).get("count") or 0)


def why_not_build(st: Mapping[str, Any], power: str, entry: Mapping[str, Any],
                  contested_known: bool = True) -> tuple[str | None, int, str | None, int | None]:
    """(reason or None, cost, target hex, facing) for one ``build`` entry (D3.2)."""
    ttype = entry.get("token")
    if not isinstance(ttype, str) or ttype not in st["pack"]["tokens"]:
        return f"no token type {str(ttype)[:30]!r} in the pack", 0, None, None
    spec = board.spec(st, ttype)
    kind = spec["kind"]
    if kind not in ("ship", "base", "jumpgate"):
        return f"{ttype} is a {kind}: build it under mines (D3.24)", 0, None, None
    reason = _may_own(st, power, ttype)
    if reason:
        return reason, 0, None, None
    builder, reason = _own_unit(st, power, entry.get("by"), "the building unit, by:")
    if builder is None:
        return reason, 0, None, None
    if _built_now(st, builder):
        return (f"{entry['by']} was built in this phase and may not build (D3.25)", 0, None,
                None)
    bspec = board.spec(st, builder["type"])
    bempire = bspec.get("empire")
    if bempire != "generic" and spec.get("empire") not in (bempire, "generic"):
        return (f"a {bempire} token may only build {bempire} or generic tokens (D3.25)", 0,
                None, None)
    scrap = entry.get("from_scrap")
    if scrap is not None:
        old = st["tokens"].get(scrap) if isinstance(scrap, str) else None
        if old is None or old.get("owner") != power or not old.get("scrap") \
                or old["type"] != ttype:
            return (f"{str(scrap)[:20]} is not a {ttype} in your Scrap Yard (B3.7)", 0, None,
                    None)
    elif not _count_left(st, ttype):
        return f"every {ttype} is already in play or in a Scrap Yard", 0, None, None
    hex_ = entry.get("hex")
    facing: int | None = None
    if kind == "jumpgate" and hex_ is None:
        hex_ = board.facing_hex(builder)
    where = hx.parse(hex_) if isinstance(hex_, str) else None
    if where is None:
        return f"no hex {str(hex_)[:20]!r}", 0, None, None
    hex_ = hx.key(where)
    if not board.exposed(st, hex_):
        reason = _face_down(st, kind, hex_, entry.get("flip", 1))
        if reason:
            return reason, 0, hex_, None
    if kind == "ship":
        if board.kind_of(st, builder) != "base":
            return "a ship is built by one of your bases, next to it (D3.24)", 0, hex_, None
        if board.occupied(st, hex_):
            return f"{hex_} is occupied (D3.24)", 0, hex_, None
        if not board.adjacent(hex_, builder["hex"]):
            return (f"{hex_} is not adjacent to the building base {entry['by']} (D3.24)", 0,
                    hex_, None)
        base_at = hx.parse(builder["hex"])
        facing = None if base_at is None else hx.direction_to(where, base_at)
    elif kind == "base":
        if board.kind_of(st, builder) != "ship" or board.facing_hex(builder) != hex_:
            return (f"a base is built in the hex one of your ships faces from next to it "
                    f"(docked position, D3.24): {entry['by']} does not face {hex_}", 0, hex_,
                    None)
        if board.occupied(st, hex_):
            return f"{hex_} is occupied (D3.24)", 0, hex_, None
        indicator = st["hexes"][hex_].get("economy")
        if not indicator:
            return f"{hex_} has no Economy Indicator (B1.11, D3.24)", 0, hex_, None
        if int(indicator) != int(spec.get("economy") or 0):
            return (f"the base's Economy Indicator {spec.get('economy')} must equal the hex's "
                    f"{indicator} (D3.24)", 0, hex_, None)
        facing = 1
    else:  # jumpgate
        if board.kind_of(st, builder) != "ship" or board.facing_hex(builder) != hex_:
            return (f"a jumpgate is built in the empty hex directly in front of one of your "
                    f"ships (D3.24): {hex_} is not in front of {entry['by']}", 0, hex_, None)
        if not board.empty(st, hex_):
            return f"{hex_} is not empty (B1.21, D3.24)", 0, hex_, None
        if _piece_has_gate(st, hex_):
            return f"the map piece of {hex_} already has a jumpgate (D3.24)", 0, hex_, None
    cost = build_cost(st, ttype, bempire, discounts_in_play(st))
    if cost > int(st["powers"][power]["reserve"]):
        return (f"{ttype} costs {cost}, your Reserve is {st['powers'][power]['reserve']} "
                f"(no financing, D1.92)", cost, hex_, facing)
    if contested_known:
        who = denied(st, power, [hex_, builder["hex"]])
        if who:
            return (f"contested space: {', '.join(who)} denied building at {hex_} (D3.42)", cost,
                    hex_, facing)
    return None, cost, hex_, facing


def rules_version(st: Mapping[str, Any]) -> int:
    """The game's rules version (setup.RULES_VERSION; absent: 1)."""
    return int(st["options"].get("rules_version", 1))


def _face_down(st: Mapping[str, Any], kind: str, hex_: str, flip: object) -> str | None:
    """Why a token may not be built into ``hex_``, a hex not on an exposed piece (None: it
    may). D4.31: "A unit is built in the hex" enters it, and entering exposes a face-down
    piece, flipped about the axis the builder chose (D4.21, the entry's ``flip``); "[Note:
    Non-unit tokens may not be built into unexposed hexes ...]". A base needs an Economy
    Indicator the hex shows (D3.24), so only a ship may (ruling E3; under rules version 1 no
    token was)."""
    if rules_version(st) < 2:
        return f"{hex_} is not on an exposed map piece (ruling E3)"
    if not on_map(st, hex_):
        return f"{hex_} is not on the map"
    if is_b5_hex(st, hex_):
        return f"{hex_} is the Babylon 5 hex, which no unit may enter (B1.16)"
    if kind == "base":
        return (f"{hex_} is on a face-down map piece, which shows no Economy Indicator "
                f"(D3.24) {cite('E3')}")
    if kind != "ship":
        return (f"{hex_} is on a face-down map piece: non-unit tokens may not be built into "
                f"unexposed hexes (D4.31)")
    if isinstance(flip, bool) or flip not in (1, 2, 3):
        return "flip: is the axis 1, 2 or 3 the face-down piece turns about (D4.21)"
    return None


def _piece_has_gate(st: Mapping[str, Any], hex_: str) -> bool:
    where = board.slot_of_hex(st)
    slot = where.get(hex_)
    for h in st["map"]["slots"][slot]["hexes"] if slot is not None else []:
        if st["hexes"].get(h, {}).get("jumpgate"):
            return True
        if any(board.kind_of(st, st["tokens"][t]) == "jumpgate"
               for t in board.element_tokens_at(st, h)):
            return True
    return False


def why_not_repair(st: Mapping[str, Any], power: str, entry: Mapping[str, Any],
                   contested_known: bool = True) -> tuple[str | None, int, str | None]:
    """(reason or None, cost, the conducting base's hex or ``b5``) for a ``repair`` entry."""
    tok, reason = _own_unit(st, power, entry.get("token"), "the unit repaired, token:")
    if tok is None:
        return reason, 0, None
    tid = str(entry["token"])
    if not tok.get("crippled"):
        return f"{tid} is not crippled (D3.31)", 0, None
    kind = board.kind_of(st, tok)
    if kind == "base":
        conductor: str | None = tid                        # D3.32: a base repairs itself
        where = tok["hex"]
    else:
        where = board.docked_to(st, tid)
        if where is None:
            return (f"{tid} is not docked to one of your bases or to Babylon 5 (D3.32)", 0,
                    None)
        conductor = None if board.is_b5(st, where) else board.unit_at(st, where)
        if conductor is not None and st["tokens"][conductor].get("owner") != power:
            return f"{tid} is docked to another player's base (D3.32)", 0, None
    by = entry.get("by")
    if by is not None and by != (conductor or B5):
        return (f"{tid} can only be repaired by {conductor or 'Babylon 5'} (D3.3)", 0, None)
    if conductor is not None and _built_now(st, st["tokens"][conductor]):
        return f"{conductor} was built in this phase and may not repair (D3.33)", 0, None
    cost = int(board.spec(st, tok["type"]).get("repair") or 0)
    if cost > int(st["powers"][power]["reserve"]):
        return (f"repairing {tid} costs {cost}, your Reserve is "
                f"{st['powers'][power]['reserve']} (no financing, D1.92)", cost, where)
    if contested_known:
        places = [tok["hex"]] + ([where] if conductor is not None else [])
        who = denied(st, power, places)
        if who:
            return (f"contested space: {', '.join(who)} denied the repair of {tid} (D3.33)",
                    cost, where)
    return None, cost, where


def why_not_mine(st: Mapping[str, Any], power: str, entry: Mapping[str, Any], used: set[str],
                 contested_known: bool = True) -> tuple[str | None, int, str | None]:
    """(reason or None, cost, hex) for a ``mines`` entry (D3.24 Mine Token, modular)."""
    if not st["options"].get("mines"):
        return "mines are an optional rule (D3.23, D4.4) not used in this game", 0, None
    ttype = entry.get("token")
    if not isinstance(ttype, str) or ttype not in st["pack"]["tokens"] \
            or board.spec(st, ttype)["kind"] != "mine":
        return f"{str(ttype)[:30]!r} is not a mine token", 0, None
    reason = _may_own(st, power, ttype)
    if reason:
        return reason, 0, None
    layer, reason = _own_unit(st, power, entry.get("by"), "the minelayer, by:")
    if layer is None:
        return reason, 0, None
    by = str(entry["by"])
    if not (board.spec(st, layer["type"]).get("special") or {}).get("mines"):
        return f"{by} cannot lay mines (X2: 'mines' on the token)", 0, None
    if by in used:
        return f"{by} has already laid its mine this turn (D3.24)", 0, None
    if _built_now(st, layer):
        return f"{by} was built in this phase (D3.25)", 0, None
    if not _count_left(st, ttype):
        return f"every {ttype} is already in play", 0, None
    hex_ = entry.get("hex")
    h = hx.parse(hex_)
    if h is None:
        return f"no hex {str(hex_)[:20]!r}", 0, None
    hex_ = hx.key(h)
    if not board.adjacent(hex_, layer["hex"]):
        return f"{hex_} is not adjacent to {by} (D3.24)", 0, hex_
    if not board.empty(st, hex_):
        return f"{hex_} is not an empty hex of an exposed map piece (B1.21, D3.24)", 0, hex_
    if _mines_on_piece(st, hex_) >= 3:
        return f"the map piece of {hex_} already has 3 mines or minefields (D3.24)", 0, hex_
    cost = build_cost(st, ttype, None, False)
    if cost > int(st["powers"][power]["reserve"]):
        return (f"{ttype} costs {cost}, your Reserve is {st['powers'][power]['reserve']} "
                f"(D1.92)", cost, hex_)
    if contested_known:
        who = denied(st, power, [hex_, layer["hex"]])
        if who:
            return f"contested space: {', '.join(who)} denied the mine at {hex_}", cost, hex_
    return None, cost, hex_


def _mines_on_piece(st: Mapping[str, Any], hex_: str) -> int:
    slot = board.slot_of_hex(st).get(hex_)
    if slot is None:
        return 0
    n = 0
    for h in st["map"]["slots"][slot]["hexes"]:
        if st["hexes"].get(h, {}).get("minefield"):
            n += 1
        n += sum(1 for t in board.element_tokens_at(st, h)
                 if board.kind_of(st, st["tokens"][t]) == "mine")
    return n
