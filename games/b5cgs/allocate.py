"""The Allocate phase (D3): building ships, bases and jumpgates (D3.2), repairing (D3.3),
modular mines (D3.24), contested space (D3.4), and the starting fleet (C4.3).

Entries run in the listed order (D3.1: "in any order"); each is checked when it runs, an
illegal one is void (event ``allocate_void`` with the reason and no economy paid, D3.42 note)
and the rest go on. The checker runs the same checks on the player's view, entry after entry
on a scratch copy, so the player's tool and the referee agree; only the other players' private
contested-space answers are unknown to it (the referee applies them).

Costs: the build cost (D3.21), less the upkeep of the token built when an empire token builds a
token of its own empire (D3.22), which the starting fleet always uses (C4.3) and play uses only
with the modular rule (``options.discounts``; ruling E1 in RULINGS-econ.md). No financing
(D1.92): an entry costing more than the Reserve is void.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem

from . import board
from . import hexes as hx

Event = dict[str, Any]
SECTION_KEYS = ("build", "repair", "mines")
BUILD_KEYS = ("token", "hex", "by", "from_scrap")
REPAIR_KEYS = ("token", "by")
MINE_KEYS = ("token", "hex", "by")
START_KEYS = ("token", "hex", "facing")
MAX_ENTRIES = 40
B5 = "b5"


# -- costs -------------------------------------------------------------------------------------
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


def contested_rule(st: Mapping[str, Any]) -> bool:
    """Contested space (D3.4) applies unless a variant turns it off (ruling E4)."""
    return bool(st["options"].get("contested", True))


# -- contested space (D3.4) --------------------------------------------------------------------
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


# -- the checks shared by the resolution and the checker ---------------------------------------
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
    if not isinstance(hex_, str) or hx.parse(hex_) is None:
        return f"no hex {str(hex_)[:20]!r}", 0, None, None
    hex_ = hx.key(hx.parse(hex_))  # type: ignore[arg-type]
    if not board.exposed(st, hex_):
        return f"{hex_} is not on an exposed map piece (ruling E3)", 0, hex_, None
    if kind == "ship":
        if board.kind_of(st, builder) != "base":
            return "a ship is built by one of your bases, next to it (D3.24)", 0, hex_, None
        if board.occupied(st, hex_):
            return f"{hex_} is occupied (D3.24)", 0, hex_, None
        if not board.adjacent(hex_, builder["hex"]):
            return (f"{hex_} is not adjacent to the building base {entry['by']} (D3.24)", 0,
                    hex_, None)
        facing = hx.direction_to(hx.parse(hex_), hx.parse(builder["hex"]))  # type: ignore
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


# -- doing it ----------------------------------------------------------------------------------
def _pay(st: dict[str, Any], power: str, cost: int, why: str) -> Event:
    me = st["powers"][power]
    me["reserve"] = int(me["reserve"]) - cost
    return {"type": "economy", "power": power, "reserve": me["reserve"], "change": -cost,
            "why": why}


def _activate(st: dict[str, Any], tid: str, hex_: str, chance: Any, label: str
              ) -> list[Event]:
    """Hex activation of a unit built or placed into a hex (D3.24, D4.31), by movement's rule."""
    if chance is None:
        return []
    try:
        movement = importlib.import_module(f"{__package__}.movement")
    except ImportError:
        return []
    activate = getattr(movement, "activate", None)
    if activate is None:
        return []
    events: list[Event] = activate(st, tid, hex_, False, chance, label)
    return events


def _place(st: dict[str, Any], power: str, ttype: str, hex_: str, facing: int | None,
           phase: str, scrap: object) -> str:
    built = [st["turn"], phase]
    if isinstance(scrap, str):
        st["tokens"][scrap].update({"hex": hex_, "facing": facing, "crippled": False,
                                    "scrap": False, "built": built})
        return scrap
    tid = f"t{st['next_token']}"
    st["next_token"] += 1
    st["tokens"][tid] = {"type": ttype, "owner": power, "hex": hex_, "facing": facing,
                         "crippled": False, "scrap": False, "built": built}
    return tid


def _void(power: str, path: str, reason: str) -> Event:
    return {"type": "allocate_void", "power": power, "entry": path, "reason": reason}


def allocate(st: dict[str, Any], power: str, section: Mapping[str, Any] | None, chance: Any
             ) -> list[Event]:
    """D3 for the current player on the working copy ``st``; returns the events."""
    section = section or {}
    events: list[Event] = []
    for i, entry in enumerate(section.get("build") or []):
        reason, cost, hex_, facing = why_not_build(st, power, entry)
        if reason or hex_ is None:
            events.append(_void(power, f"build[{i}]", reason or "no hex"))
            continue
        ttype = entry["token"]
        events.append(_pay(st, power, cost, f"built {ttype} at {hex_} (D3.21)"))
        kind = board.spec(st, ttype)["kind"]
        tid = _place(st, power, ttype, hex_, facing if kind != "jumpgate" else None,
                     "allocate", entry.get("from_scrap"))
        events.append({"type": "built", "power": power, "token": tid, "token_type": ttype,
                       "hex": hex_, "facing": st["tokens"][tid]["facing"], "by": entry["by"],
                       "cost": cost, "from_scrap": isinstance(entry.get("from_scrap"), str)})
        if kind in ("ship", "base"):
            events += _activate(st, tid, hex_, chance, f"build{i}:{tid}:hex")
    for i, entry in enumerate(section.get("repair") or []):
        reason, cost, _where = why_not_repair(st, power, entry)
        if reason:
            events.append(_void(power, f"repair[{i}]", reason))
            continue
        tid = entry["token"]
        events.append(_pay(st, power, cost, f"repaired {tid} (D3.31)"))
        st["tokens"][tid]["crippled"] = False
        events.append({"type": "repaired", "power": power, "token": tid, "cost": cost})
    used: set[str] = set()
    for i, entry in enumerate(section.get("mines") or []):
        reason, cost, hex_ = why_not_mine(st, power, entry, used)
        if reason or hex_ is None:
            events.append(_void(power, f"mines[{i}]", reason or "no hex"))
            continue
        used.add(str(entry["by"]))
        events.append(_pay(st, power, cost, f"laid {entry['token']} at {hex_} (D3.24)"))
        tid = _place(st, power, entry["token"], hex_, None, "allocate", None)
        events.append({"type": "mine_laid", "power": power, "token": tid,
                       "token_type": entry["token"], "hex": hex_, "by": entry["by"],
                       "cost": cost})
    return events


# -- the starting fleet (C4.3) -----------------------------------------------------------------
def why_not_start(st: Mapping[str, Any], power: str, entry: Mapping[str, Any],
                  home: list[str]) -> tuple[str | None, int, str | None]:
    """(reason or None, cost, hex) for one starting purchase: your empire's or generic units,
    in an unoccupied hex of your homeworld piece, your empire's with the discount (C4.3)."""
    ttype = entry.get("token")
    if not isinstance(ttype, str) or ttype not in st["pack"]["tokens"]:
        return f"no token type {str(ttype)[:30]!r} in the pack", 0, None
    spec = board.spec(st, ttype)
    if spec["kind"] not in ("ship", "base"):
        return f"the starting fleet is units (ships, bases), not a {spec['kind']}", 0, None
    reason = _may_own(st, power, ttype)
    if reason:
        return reason, 0, None
    if not _count_left(st, ttype):
        return f"every {ttype} is already in play", 0, None
    h = hx.parse(entry.get("hex"))
    if h is None:
        return f"no hex {str(entry.get('hex'))[:20]!r}", 0, None
    hex_ = hx.key(h)
    if hex_ not in home:
        return f"{hex_} is not on your homeworld map piece (C4.3)", 0, hex_
    if board.occupied(st, hex_):
        return f"{hex_} is occupied (B4.35)", 0, hex_
    facing = entry.get("facing", 1)
    if spec["kind"] == "ship" and (isinstance(facing, bool) or facing not in hx.DIRS):
        return "a ship's facing is 1..6 (C4.3: any facing desired)", 0, hex_
    if spec["kind"] == "base":
        indicator = st["hexes"].get(hex_, {}).get("economy")
        if not indicator or int(indicator) != int(spec.get("economy") or 0):
            return (f"a base goes on an Economy Indicator equal to its own (D3.24); {hex_} "
                    f"has {indicator or 'none'}", 0, hex_)
    cost = build_cost(st, ttype, _empire(st, power), True)
    if cost > int(st["powers"][power]["reserve"]):
        return (f"{ttype} costs {cost}, your Reserve is {st['powers'][power]['reserve']} "
                f"(D1.92)", cost, hex_)
    return None, cost, hex_


def _home(st: Mapping[str, Any], power: str) -> list[str]:
    slot = st["powers"][power].get("homeworld_slot")
    return [] if slot is None else list(st["map"]["slots"][slot]["hexes"])


def starting_purchases(st: dict[str, Any], power: str, entries: list[Any] | None, chance: Any
                       ) -> list[Event]:
    """C4.3: the player's starting fleet, bought in his first turn before Record Keeping,
    every own-empire token with the empire discount (D3.22) whatever the options."""
    events: list[Event] = []
    home = _home(st, power)
    for i, entry in enumerate(entries or []):
        if not isinstance(entry, Mapping):
            events.append(_void(power, f"start[{i}]", "an entry is a mapping"))
            continue
        reason, cost, hex_ = why_not_start(st, power, entry, home)
        if reason or hex_ is None:
            events.append(_void(power, f"start[{i}]", reason or "no hex"))
            continue
        ttype = entry["token"]
        facing = entry.get("facing", 1) if board.spec(st, ttype)["kind"] == "ship" else 1
        events.append(_pay(st, power, cost, f"starting fleet: {ttype} (C4.3)"))
        tid = _place(st, power, ttype, hex_, facing, "start", None)
        events.append({"type": "placed", "power": power, "token": tid, "token_type": ttype,
                       "hex": hex_, "facing": facing, "cost": cost})
        events += _activate(st, tid, hex_, chance, f"start{i}:{tid}:hex")
    return events


# -- checkers (on the player's view) -----------------------------------------------------------
def _shape(entries: object, path: str, keys: tuple[str, ...], problems: list[Problem]
           ) -> list[dict[str, Any]]:
    if entries is None:
        return []
    if not isinstance(entries, list) or len(entries) > MAX_ENTRIES:
        problems.append(Problem("shape", path, f"a list of at most {MAX_ENTRIES} entries"))
        return []
    out = []
    for i, e in enumerate(entries):
        if not isinstance(e, Mapping):
            problems.append(Problem("shape", f"{path}[{i}]", "an entry is a mapping ("
                                    + ", ".join(keys) + ")"))
            continue
        bad = [k for k in e if k not in keys]
        for k in bad:
            problems.append(Problem("unknown-field", f"{path}[{i}].{str(k)[:30]}",
                                    f"an entry takes {', '.join(keys)}"))
        if not bad:
            out.append({k: e[k] for k in keys if k in e})
    return out


def _scratch(view: Mapping[str, Any]) -> dict[str, Any] | None:
    power = view.get("viewer")
    if not isinstance(power, str) or power not in view.get("powers", {}):
        return None
    return copy.deepcopy(dict(view))


def check_allocate(section: object, view: Mapping[str, Any]
                   ) -> tuple[dict[str, Any], list[Problem]]:
    """The ``allocate`` section against the player's view, entry after entry (each entry sees
    the Reserve and the map the earlier ones leave); contested answers are the referee's."""
    out: dict[str, Any] = {"build": [], "repair": [], "mines": []}
    if section is None:
        return out, []
    if not isinstance(section, Mapping):
        return out, [Problem("shape", "allocate", "allocate is a mapping (build:, repair:, "
                             "mines:)")]
    problems: list[Problem] = []
    for k in section:
        if k not in SECTION_KEYS:
            problems.append(Problem("unknown-field", f"allocate.{str(k)[:30]}",
                                    f"allocate takes {', '.join(SECTION_KEYS)}"))
    builds = _shape(section.get("build"), "allocate.build", BUILD_KEYS, problems)
    repairs = _shape(section.get("repair"), "allocate.repair", REPAIR_KEYS, problems)
    mines = _shape(section.get("mines"), "allocate.mines", MINE_KEYS, problems)
    st = _scratch(view)
    if problems or st is None:
        if st is None:
            problems.append(Problem("viewer", "allocate", "orders are checked against a "
                                    "player's own view"))
        return {"build": [], "repair": [], "mines": []}, problems
    power = str(view["viewer"])
    st["turn"] = view.get("turn")
    for i, e in enumerate(builds):
        reason, cost, hex_, facing = why_not_build(st, power, e, contested_known=False)
        if reason or hex_ is None:
            problems.append(Problem("build", f"allocate.build[{i}]", reason or "no hex"))
            continue
        st["powers"][power]["reserve"] = int(st["powers"][power]["reserve"]) - cost
        kind = board.spec(st, e["token"])["kind"]
        _place(st, power, e["token"], hex_, facing if kind != "jumpgate" else None,
               "allocate", e.get("from_scrap"))
        out["build"].append({**e, "hex": hex_})
    for i, e in enumerate(repairs):
        reason, cost, _w = why_not_repair(st, power, e, contested_known=False)
        if reason:
            problems.append(Problem("repair", f"allocate.repair[{i}]", reason))
            continue
        st["powers"][power]["reserve"] = int(st["powers"][power]["reserve"]) - cost
        st["tokens"][e["token"]]["crippled"] = False
        out["repair"].append(e)
    used: set[str] = set()
    for i, e in enumerate(mines):
        reason, cost, hex_ = why_not_mine(st, power, e, used, contested_known=False)
        if reason or hex_ is None:
            problems.append(Problem("mine", f"allocate.mines[{i}]", reason or "no hex"))
            continue
        used.add(str(e["by"]))
        st["powers"][power]["reserve"] = int(st["powers"][power]["reserve"]) - cost
        _place(st, power, e["token"], hex_, None, "allocate", None)
        out["mines"].append({**e, "hex": hex_})
    if problems:
        return {"build": [], "repair": [], "mines": []}, problems
    return out, []


def check_start(entries: object, view: Mapping[str, Any]) -> tuple[list[Any], list[Problem]]:
    """The ``start`` section (C4.3) against the player's view: only in his first turn."""
    problems: list[Problem] = []
    items = _shape(entries, "start", START_KEYS, problems)
    st = _scratch(view)
    if problems or st is None:
        return [], problems or [Problem("viewer", "start", "orders are checked against a "
                                        "player's own view")]
    power = str(view["viewer"])
    if items and st["powers"][power].get("turns", 0) != 0:
        return [], [Problem("start", "start", "the starting fleet is bought in your first "
                            "turn only (C4.3)")]
    home = _home(st, power)
    out = []
    for i, e in enumerate(items):
        reason, cost, hex_ = why_not_start(st, power, e, home)
        if reason or hex_ is None:
            problems.append(Problem("start", f"start[{i}]", reason or "no hex"))
            continue
        st["powers"][power]["reserve"] = int(st["powers"][power]["reserve"]) - cost
        _place(st, power, e["token"], hex_, e.get("facing", 1), "start", None)
        out.append({**e, "hex": hex_})
    return (out, []) if not problems else ([], problems)
