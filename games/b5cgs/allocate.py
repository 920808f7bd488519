"""The Allocate phase (D3): building ships, bases and jumpgates (D3.2), repairing (D3.3) and
modular mines (D3.24), and the check of the ``allocate`` section. (The starting fleet, C4.3, is
setup.py's; what may be built and its cost is builds.py; contested space is contested.py.)

Entries run in the listed order (D3.1: "in any order"): builds, then repairs, then mines. Each is
checked when it runs; an illegal one is void (event ``allocate_void`` with the reason, and no
economy paid, D3.42 note) and the rest go on. No financing (D1.92): an entry costing more than
the Reserve is void. The checker runs the same checks on the player's view, entry after entry on
a scratch copy, so the player's tool and the referee agree; only the other players' private
contested-space answers are unknown to it (the referee applies them).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem
from pbem.game.checker import unknown_keys

from . import board, movement
from .builds import why_not_build, why_not_mine, why_not_repair

Event = dict[str, Any]
SECTION_KEYS = ("build", "repair", "mines")
BUILD_KEYS = ("token", "hex", "by", "from_scrap", "flip")
REPAIR_KEYS = ("token", "by")
MINE_KEYS = ("token", "hex", "by")
MAX_ENTRIES = 40
#: The checker's Reserve in a first turn (the starting fleet is paid before Allocate): large
#: enough that only the referee judges the cost.
UNCHECKED_RESERVE = 10**9


# -- doing it ----------------------------------------------------------------------------------
def _pay(st: dict[str, Any], power: str, cost: int, why: str) -> Event:
    me = st["powers"][power]
    me["reserve"] = int(me["reserve"]) - cost
    return {"type": "economy", "power": power, "reserve": me["reserve"], "change": -cost,
            "why": why}


def _activate(st: dict[str, Any], tid: str, hex_: str, chance: Any, label: str,
              flip: int = 1) -> list[Event]:
    """Hex activation of a unit built into a hex (D3.24 "Activate Hex", D4.31), by movement's
    rule (a face-down piece is exposed about ``flip`` first, D4.21); ``chance`` None (a test
    of costs alone) activates nothing."""
    if chance is None:
        return []
    return movement.enter(st, tid, hex_, False, chance, label, flip)


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


def _entries(section: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    """The section's entries of one kind (normalized orders: anything else is dropped)."""
    value = section.get(key)
    return [e for e in value if isinstance(e, Mapping)] if isinstance(value, list) else []


def allocate(st: dict[str, Any], power: str, section: Mapping[str, Any] | None, chance: Any
             ) -> list[Event]:
    """D3 for the current player on the working copy ``st``; returns the events."""
    section = section if isinstance(section, Mapping) else {}
    events: list[Event] = []
    for i, entry in enumerate(_entries(section, "build")):
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
            events += _activate(st, tid, hex_, chance, f"build{i}:{tid}",
                                int(entry.get("flip") or 1))
    for i, entry in enumerate(_entries(section, "repair")):
        reason, cost, _where = why_not_repair(st, power, entry)
        if reason:
            events.append(_void(power, f"repair[{i}]", reason))
            continue
        tid = entry["token"]
        events.append(_pay(st, power, cost, f"repaired {tid} (D3.31)"))
        st["tokens"][tid]["crippled"] = False
        events.append({"type": "repaired", "power": power, "token": tid, "cost": cost})
    used: set[str] = set()
    for i, entry in enumerate(_entries(section, "mines")):
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


# -- checkers (on the player's view) -----------------------------------------------------------
def _shape(entries: object, path: str, keys: tuple[str, ...], problems: list[Problem]
           ) -> list[dict[str, Any] | None]:
    """The entries, each in its place (None where its shape is wrong, with its problem)."""
    if entries is None:
        return []
    if not isinstance(entries, list) or len(entries) > MAX_ENTRIES:
        problems.append(Problem("shape", path, f"a list of at most {MAX_ENTRIES} entries"))
        return []
    out: list[dict[str, Any] | None] = []
    for i, e in enumerate(entries):
        if not isinstance(e, Mapping):
            problems.append(Problem("shape", f"{path}[{i}]", "an entry is a mapping ("
                                    + ", ".join(keys) + ")"))
            out.append(None)
            continue
        bad = unknown_keys(e, keys, f"{path}[{i}]", code="unknown-field",
                           say=lambda k, hint: f"an entry takes {', '.join(keys)}{hint}")
        problems += bad
        out.append(None if bad else {k: e[k] for k in keys if k in e})
    return out


def _scratch(view: Mapping[str, Any]) -> dict[str, Any] | None:
    power = view.get("viewer")
    if not isinstance(power, str) or power not in view.get("powers", {}):
        return None
    return copy.deepcopy(dict(view))


def project_record_keeping(st: dict[str, Any], power: str, start_paid: bool = False
                            ) -> None:
    """The Reserve Allocate will find: this turn's Record Keeping runs first (generate economy,
    bonuses, penalties, D1.2-D1.4). In the first turn the starting fleet is paid before it
    (C4.3), which this section alone does not see: the Reserve is then left to the referee
    (ruling E8) unless ``start_paid`` (orders.py has paid it on ``st``)."""
    from . import economy  # economy does not import this module; kept local for clarity

    if int(st["powers"][power].get("turns") or 0) == 0 and not start_paid:
        st["powers"][power]["reserve"] = UNCHECKED_RESERVE
        return
    economy.change_reserve(st, power, economy.banks(st, power)["net"], "projection")
    economy.bonuses(st, power)
    economy.penalties(st, power)


def check_allocate(section: object, view: Mapping[str, Any],
                   after: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[Problem]]:
    """The ``allocate`` section against the player's view, entry after entry (each entry sees
    the Reserve and the map the earlier ones leave); contested answers are the referee's.
    With ``after`` (orders.py: the view with this turn's starting fleet bought and Record
    Keeping projected) the entries are checked on it and left on it, so what is built here is
    moved and fires later in the same check; without it, on a scratch copy of the view."""
    out: dict[str, Any] = {"build": [], "repair": [], "mines": []}
    if section is None:
        return out, []
    if not isinstance(section, Mapping):
        return out, [Problem("shape", "allocate", "allocate is a mapping (build:, repair:, "
                             "mines:)")]
    problems = unknown_keys(section, SECTION_KEYS, "allocate", code="unknown-field",
                            say=lambda k, hint: f"allocate takes {', '.join(SECTION_KEYS)}"
                            f"{hint}")
    builds = _shape(section.get("build"), "allocate.build", BUILD_KEYS, problems)
    repairs = _shape(section.get("repair"), "allocate.repair", REPAIR_KEYS, problems)
    mines = _shape(section.get("mines"), "allocate.mines", MINE_KEYS, problems)
    st = _scratch(view) if after is None else after
    if st is None:
        problems.append(Problem("viewer", "allocate", "orders are checked against a "
                                "player's own view"))
        return {"build": [], "repair": [], "mines": []}, problems
    power = str(view["viewer"])
    if after is None:
        project_record_keeping(st, power)
    for i, e in enumerate(builds):
        if e is None:
            continue
        if board.coming(st, e.get("by")):          # bought earlier this turn: the referee's
            out["build"].append(e)
            continue
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
        if e is None:
            continue
        if board.coming(st, e.get("token")):
            out["repair"].append(e)
            continue
        reason, cost, _w = why_not_repair(st, power, e, contested_known=False)
        if reason:
            problems.append(Problem("repair", f"allocate.repair[{i}]", reason))
            continue
        st["powers"][power]["reserve"] = int(st["powers"][power]["reserve"]) - cost
        st["tokens"][e["token"]]["crippled"] = False
        out["repair"].append(e)
    used: set[str] = set()
    for i, e in enumerate(mines):
        if e is None:
            continue
        if board.coming(st, e.get("by")):
            out["mines"].append(e)
            continue
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

