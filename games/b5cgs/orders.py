"""The Babylon 5 CGS order file: checking a whole turn against the player's view.

Runs on the player's machine (the offline check) and at the referee's on receipt, on the same
view, so both give the same verdict. Every problem comes back at once, each with its path
(``move[2].to``) and a plain sentence; ``normalize_orders`` never raises. The sections are
documented in STATE.md ("The order file"): ``start`` (C4.3, checked here with setup.py's
rule), ``move`` (D4, checked here by simulating the entries in order with movement.py's own
``plan``), ``contested`` (D3.42, the standing answer), and ``record``, ``allocate``, ``fire``,
each checked by b5econ's checker (economy.check_record, allocate.check_allocate,
fire.check_fire) on the same view.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from typing import Any

from pbem.errors import Problem
from pbem.errors import show_value as _show

from . import allocate, economy, fire, movement
from . import hexes as hx
from .setup import start_cost, start_problem
from .turn import default_orders

SECTIONS = ("start", "record", "allocate", "move", "fire", "contested")
ECON: dict[str, Callable[..., tuple[Any, list[Problem]]]] = {
    "record": economy.check_record, "allocate": allocate.check_allocate, "fire": fire.check_fire}
MAX_ENTRIES = 100
TOKEN_ID = re.compile(r"t([1-9][0-9]{0,6})")
MOVE_KEYS = {"unit", "to", "facing", "flip", "jump", "fleet", "sweep"}




class _Check:
    def __init__(self, view: Mapping[str, Any]) -> None:
        self.view = view
        self.problems: list[Problem] = []

    def bad(self, code: str, path: str, message: str) -> None:
        self.problems.append(Problem(code, path, message))

    def hex(self, value: object, path: str) -> str | None:
        h = hx.parse(value)
        if h is None:
            self.bad("hex", path, f"a hex is named \"q,r\" (as on the map), not {_show(value)}")
            return None
        return hx.key(h)

    def small(self, value: object, path: str, low: int, high: int, what: str) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.bad(what, path, f"{what} is {low}..{high}, not {_show(value)}")
            return None
        return value

    def token(self, value: object, path: str) -> str | None:
        if not isinstance(value, str) or not TOKEN_ID.fullmatch(value.strip()):
            self.bad("token", path, f"a token is named by its id (t7), not {_show(value)}")
            return None
        return value.strip()


def normalize_orders(body: object, view: Mapping[str, Any]) -> tuple[dict[str, Any],
                                                                     list[Problem]]:
    """Check ``body`` against the viewer's view; never raises."""
    try:
        return _normalize(body, view)
    except Exception as exc:  # a body the checks did not foresee: reject, never crash
        return default_orders(), [Problem("malformed", "", f"the orders could not be read "
                                          f"({type(exc).__name__})")]


def _normalize(body: object, view: Mapping[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
    out = default_orders()
    if not isinstance(body, Mapping):
        return out, [Problem("shape", "", "orders are a mapping of sections: "
                             + ", ".join(SECTIONS))]
    c = _Check(view)
    for key in body:
        if key not in SECTIONS:
            c.bad("unknown-section", _show(key), f"no section {_show(key)} in Babylon 5 CGS "
                  f"orders (sections: {', '.join(SECTIONS)})")
    power = view.get("viewer")
    window = view.get("window") or {}
    before_play = window.get("kind") in ("setup", "deal")
    if before_play or view.get("result") is not None:
        for key in SECTIONS:
            if body.get(key):
                c.bad("setup", key, "nothing to order before play (the set-up step and the "
                      "deal): send an empty order file" if before_play else "the game is over")
        return (out, []) if not c.problems else (default_orders(), c.problems)
    if not isinstance(power, str) or power not in view.get("powers", {}):
        return default_orders(), [Problem("viewer", "", "orders are checked against a "
                                          "player's own view")]
    if body.get("contested") is not None:
        out["contested"] = _contested(c, body["contested"], view)
    if power not in (window.get("due") or []):
        # D3.42: between his turns a player may change his standing contested-space answer
        for key in SECTIONS:
            if key != "contested" and body.get(key):
                c.bad("not-your-turn", key, f"it is not your turn ({window.get('label')}): "
                      "only a contested: answer may be sent now; the rest waits for your turn")
        return (out, []) if not c.problems else (default_orders(), c.problems)
    if body.get("start"):
        out["start"] = _start(c, body["start"], view, power)
    for section in ("record", "allocate", "fire"):
        value = body.get(section)
        if not value:
            continue
        normalized, problems = ECON[section](value, view)
        c.problems += list(problems)
        out[section] = normalized
    if body.get("move"):
        out["move"] = _moves(c, body["move"], view, power)
    if c.problems:
        return default_orders(), c.problems
    return out, []


def _contested(c: _Check, value: object, view: Mapping[str, Any]) -> dict[str, Any] | None:
    """D3.42's standing answer: ``{default: deny|allow, allow: [powers], deny: [powers]}``."""
    if not isinstance(value, Mapping):
        c.bad("contested", "contested", "contested: {default: deny|allow, allow: [powers], "
              "deny: [powers]}")
        return None
    out: dict[str, Any] = {"default": "deny", "allow": [], "deny": []}
    for key, v in value.items():
        if key == "default":
            if v not in ("deny", "allow"):
                c.bad("contested", "contested.default", f"deny or allow, not {_show(v)}")
            else:
                out["default"] = v
        elif key in ("allow", "deny"):
            if not isinstance(v, list) or not all(isinstance(p, str) and p in view["powers"]
                                                  for p in v):
                c.bad("contested", f"contested.{key}", "a list of the game's powers")
            else:
                out[key] = sorted(set(v))
        else:
            c.bad("contested", f"contested.{_show(key)}", "contested takes default, allow, "
                  "deny")
    if set(out["allow"]) & set(out["deny"]):
        c.bad("contested", "contested", "a power is both allowed and denied")
    return out


def _start(c: _Check, value: object, view: Mapping[str, Any], power: str) -> list[Any]:
    """C4.3's starting purchases: only in the player's first turn."""
    if not (view.get("you") or {}).get("first_turn"):
        c.bad("start", "start", "starting purchases are made in your first turn only (C4.3)")
        return []
    if not isinstance(value, list) or len(value) > MAX_ENTRIES:
        c.bad("start", "start", "start: a list of {token: TYPE, hex: \"q,r\", facing: 1..6}")
        return []
    out: list[Any] = []
    taken: set[str] = set()
    spent = 0
    empire = view["powers"][power]["empire"]
    for i, entry in enumerate(value):
        path = f"start[{i}]"
        if not isinstance(entry, Mapping) or set(entry) - {"token", "hex", "facing"}:
            c.bad("start", path, "{token: TYPE, hex: \"q,r\", facing: 1..6}")
            continue
        h = c.hex(entry.get("hex"), f"{path}.hex")
        facing = c.small(entry.get("facing", 1), f"{path}.facing", 1, 6, "facing")
        if h is None or facing is None:
            continue
        norm = {"token": entry.get("token"), "hex": h, "facing": facing}
        in_play = copy.copy(dict(view))
        extra = {f"_new{k}": {"type": t["token"], "owner": power, "hex": t["hex"]}
                 for k, t in enumerate(out)}
        in_play["tokens"] = {**view["tokens"], **extra}
        why = start_problem(in_play, power, norm, taken, spent)
        if why is not None:
            c.bad("start", path, why)
            continue
        taken.add(h)
        spent += start_cost(view["pack"], empire, str(norm["token"]))
        out.append(norm)
    return out


def _entry(c: _Check, entry: object, path: str) -> dict[str, Any] | None:
    """One move entry's shape (STATE.md): a standard movement, a jump or a sweep."""
    if not isinstance(entry, Mapping):
        c.bad("move", path, "a move is {unit, to, facing}, {unit, jump, fleet} or {sweep}")
        return None
    unknown = [k for k in entry if k not in MOVE_KEYS]
    for k in unknown:
        c.bad("move", f"{path}.{_show(k)}", f"a move takes {', '.join(sorted(MOVE_KEYS))}")
    before = len(c.problems)
    if "sweep" in entry:
        if set(entry) != {"sweep"}:
            c.bad("move", path, "a sweep is {sweep: TOKEN} alone (H5)")
        unit = c.token(entry["sweep"], f"{path}.sweep")
        return {"sweep": unit} if len(c.problems) == before else None
    unit = c.token(entry.get("unit"), f"{path}.unit")
    out: dict[str, Any] = {"unit": unit}
    if "flip" in entry:
        out["flip"] = c.small(entry["flip"], f"{path}.flip", 1, 3, "flip")
    if "jump" in entry:
        if "to" in entry or "facing" in entry:
            c.bad("move", path, "a jump is instead of a movement (D4.67): jump or to/facing")
        out["jump"] = c.hex(entry["jump"], f"{path}.jump")
        fleet = entry.get("fleet") or []
        if not isinstance(fleet, list):
            c.bad("fleet", f"{path}.fleet", "a list of your ships adjacent to the jumping one")
            fleet = []
        elif len(fleet) + 1 > movement.MAX_FLEET:
            c.bad("fleet", f"{path}.fleet", f"a fleet jump of {len(fleet) + 1} units: at "
                  f"most {movement.MAX_FLEET} units jump together (D4.68)")
        out["fleet"] = [c.token(t, f"{path}.fleet[{k}]") for k, t in enumerate(fleet)]
    else:
        if "fleet" in entry:
            c.bad("move", f"{path}.fleet", "only a jump takes a fleet (D4.68)")
        if "to" not in entry and "facing" not in entry:
            c.bad("move", path, "a movement names where to (to: \"q,r\") and/or the new "
                  "facing (facing: 1..6), or a jump (jump: \"q,r\")")
        if "to" in entry:
            out["to"] = c.hex(entry["to"], f"{path}.to")
        if "facing" in entry:
            out["facing"] = c.small(entry["facing"], f"{path}.facing", 1, 6, "facing")
    return out if len(c.problems) == before else None


def _moves(c: _Check, value: object, view: Mapping[str, Any], power: str) -> list[Any]:
    if not isinstance(value, list) or len(value) > MAX_ENTRIES:
        c.bad("move", "move", f"move: a list of at most {MAX_ENTRIES} entries, in order")
        return []
    board: dict[str, Any] = dict(view)
    board["tokens"] = copy.deepcopy(view["tokens"])
    moved: set[str] = set()
    swept: set[str] = set()
    future = int(view.get("next_token") or 0)
    out: list[Any] = []
    for i, raw in enumerate(value):
        path = f"move[{i}]"
        entry = _entry(c, raw, path)
        if entry is None:
            continue
        out.append(entry)
        unit = str(entry.get("sweep") or entry.get("unit"))
        if unit not in board["tokens"]:
            m = TOKEN_ID.fullmatch(unit)
            if m and int(m.group(1)) >= future:
                continue  # a token built this turn (ids in build order): checked when it runs
            c.bad("move", path, f"there is no token {unit}")
            continue
        if "sweep" in entry:
            if unit in swept:
                c.bad("move", path, f"{unit} sweeps once per turn (D4.43)")
                continue
            swept.add(unit)
        normalized = {k: v for k, v in entry.items() if v is not None}
        if "unit" in normalized and "to" not in normalized and "jump" not in normalized:
            normalized["to"] = board["tokens"][unit]["hex"]
        if "unit" in normalized and "facing" not in normalized and "jump" not in normalized:
            normalized["facing"] = board["tokens"][unit]["facing"]
        p, why = movement.plan(board, power, normalized, moved)
        if p is None:
            c.bad("move", path, str(why))
            continue
        if p.kind == "sweep":
            assert p.mine is not None
            del board["tokens"][p.mine]
        else:
            movement.apply_plan_positions(board, p)
            moved.update(t for t, _, _, _ in p.steps)
        out[-1] = normalized
    return out
