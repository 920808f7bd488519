"""The Babylon 5 CGS order file: checking a whole turn against the player's view.

Runs on the player's machine (the offline check, the player's tool) and at the referee's on
receipt, on the same view, so both give the same verdict. Every problem comes back at once,
each with its path (``move[2].to``) and a plain sentence; ``normalize_orders`` never raises.
The sections are documented in STATE.md ("The order file").

The check rehearses the turn as the referee will run it (turn.run_turn), on a copy of the
view, in the referee's order and with the referee's own rules: ``start`` (C4.3: setup's
``start_problem``, each purchase then placed with the id it will get), ``record``
(economy.check_record), Record Keeping's Reserve projected, ``allocate``
(allocate.check_allocate: builds placed with their ids), ``move`` (movement's own ``plan``,
entry after entry, the units bought above included), ``fire`` (fire.check_fire with the
referee's ``choose_target``: range and arc on the board the moves leave), ``contested``
(D3.42, the standing answer). What only the referee knows is left to him: the dice (a hex
activation, a volley destroying a later volley's target) and the other players' private
contested-space answers.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import Problem
from pbem.game.checker import Checker, did_you_mean
from pbem.game.checker import field as field_path
from pbem.game.checker import show as _show

from . import allocate, economy, fire, movement
from . import hexes as hx
from .contested import contested_rule
from .setup import (
    FLEETS_BEFORE_PLAY,
    MODULAR_CONTESTED,
    fleet_due,
    new_token,
    rules_version,
    start_cost,
    start_problem,
)
from .turn import default_orders

SECTIONS = ("start", "record", "allocate", "move", "fire", "contested")
MAX_ENTRIES = 100
TOKEN_ID = re.compile(r"t([1-9][0-9]{0,6})")
MOVE_KEYS = {"unit", "to", "facing", "flip", "jump", "fleet", "sweep"}




class _Check(Checker):
    """pbem's problem collector with B5's own checks: hexes, small numbers, token ids."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        super().__init__()
        self.view = view

    def hex(self, value: object, path: str) -> str | None:
        h = hx.parse(value)
        if h is None:
            self.bad("hex", path, f"a hex is named \"q,r\" (as on the map), not {_show(value)}")
            return None
        return hx.key(h)

    def small(self, value: object, path: str, low: int, high: int, *, code: str) -> int | None:
        """A whole number ``low..high``; ``code`` is also the field's name in the sentence."""
        return self.whole(value, path, code=code, low=low, high=high,
                          say=lambda v: f"{code} is {low}..{high}, not {_show(v)}")

    def token(self, value: object, path: str) -> str | None:
        if not isinstance(value, str) or not TOKEN_ID.fullmatch(value.strip()):
            self.bad("token", path, f"a token is named by its id (t7), not {_show(value)}")
            return None
        return value.strip()


@dataclass
class Rehearsal:
    """What checking a file found: the normalised orders (the standing orders if there is a
    problem), every problem, and each purchase with the id it will get (``(path, id, type)``,
    in the order bought: RULES.md R18)."""

    orders: dict[str, Any]
    problems: list[Problem]
    bought: list[tuple[str, str, str]] = field(default_factory=list)


def normalize_orders(body: object, view: Mapping[str, Any]) -> tuple[dict[str, Any],
                                                                     list[Problem]]:
    """Check ``body`` against the viewer's view; never raises."""
    done = rehearse(body, view)
    return done.orders, done.problems


def rehearse(body: object, view: Mapping[str, Any]) -> Rehearsal:
    """The turn of ``body`` rehearsed on ``view`` (the module's docstring); never raises."""
    bought: list[tuple[str, str, str]] = []
    try:
        orders, problems = _normalize(body, view, bought)
    except Exception as exc:  # a body the checks did not foresee: reject, never crash
        return Rehearsal(default_orders(), [Problem("malformed", "", "the orders could not "
                                                    f"be read ({type(exc).__name__})")])
    return Rehearsal(orders, problems, bought if not problems else [])


def _normalize(body: object, view: Mapping[str, Any], bought: list[tuple[str, str, str]]
               ) -> tuple[dict[str, Any], list[Problem]]:
    out = default_orders()
    if not isinstance(body, Mapping):
        return out, [Problem("shape", "", "orders are a mapping of sections: "
                             + ", ".join(SECTIONS))]
    c = _Check(view)
    c.unknown_keys(body, SECTIONS, "", code="unknown-section",
                   say=lambda key, hint: f"no section {_show(key)} in Babylon 5 CGS orders"
                   f"{hint} (sections: {', '.join(SECTIONS)})")
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
    contested = contested_rule(view)
    if body.get("contested") is not None:
        if contested:
            out["contested"] = _contested(c, body["contested"], view)
        else:  # rules version 3, a basic variant (ruling E4)
            c.bad("contested", "contested", "contested space is a modular rule (A4): this "
                  "variant does not play it, so there is nothing to answer")
    if power not in (window.get("due") or []):
        # D3.42: between his turns a player may change his standing contested-space answer
        for key in SECTIONS:
            if key != "contested" and body.get(key):
                c.bad("not-your-turn", key, f"it is not your turn ({window.get('label')}): "
                      + ("only a contested: answer may be sent now; the rest waits for your "
                         "turn" if contested else "send no orders now (an empty file adds "
                         "your chance value); the rest waits for your turn"))
        return (out, []) if not c.problems else (default_orders(), c.problems)
    fleet_step = window.get("kind") == "fleet"
    if fleet_step:  # rules version 3: the starting fleet alone (C4.3, ruling R7)
        for key in ("record", "allocate", "move", "fire"):
            if body.get(key):
                c.bad("fleet", key, "this step places your starting fleet (start:) and nothing "
                      "else (C4.3); your first turn comes once every fleet is placed (C4.4)")
    # The board the orders leave, phase after phase as turn.run_turn runs them.
    board: dict[str, Any] = copy.deepcopy(dict(view))
    board["flags"] = {"moved": [], "fired": [], "targeted": [], "swept": []}
    if body.get("start"):
        out["start"] = _start(c, body["start"], board, power, bought)
    if fleet_step:
        return (out, []) if not c.problems else (default_orders(), c.problems)
    if body.get("record"):
        out["record"], problems = economy.check_record(body["record"], board)
        c.problems += problems
    allocate.project_record_keeping(board, power, start_paid=True)
    if body.get("allocate"):
        known = set(board["tokens"])
        out["allocate"], problems = allocate.check_allocate(body["allocate"], view, board)
        c.problems += problems
        made = sorted(set(board["tokens"]) - known, key=_number)
        paths = [f"allocate.{k}[{i}]" for k in ("build", "mines")
                 for i, e in enumerate(out["allocate"].get(k) or [])
                 if not isinstance(e.get("from_scrap"), str)]
        bought += [(path, t, board["tokens"][t]["type"]) for path, t in
                   zip(paths, made, strict=False)]
    if body.get("move"):
        out["move"] = _moves(c, body["move"], board, power)
    if body.get("fire"):
        out["fire"], problems = fire.check_fire(body["fire"], view, board)
        c.problems += problems
    if c.problems:
        return default_orders(), c.problems
    return out, []


def _contested(c: _Check, value: object, view: Mapping[str, Any]) -> dict[str, Any] | None:
    """D3.42's standing answer: ``{default: deny|allow, allow: [powers], deny: [powers]}``."""
    if not isinstance(value, Mapping):
        c.bad("contested", "contested", "contested: {default: deny|allow, allow: [powers], "
              "deny: [powers]}")
        return None
    # D3.42 "contested if any player ... desires the hex to be contested": from rules version
    # 3 a player who does not say deny allows (ruling E4); before, the default was deny
    default = "allow" if rules_version(view) >= MODULAR_CONTESTED else "deny"
    out: dict[str, Any] = {"default": default, "allow": [], "deny": []}
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
            c.bad("contested", field_path("contested", key), "contested takes default, allow, deny"
                  + did_you_mean(key, ("default", "allow", "deny")))
    if set(out["allow"]) & set(out["deny"]):
        c.bad("contested", "contested", "a power is both allowed and denied")
    return out


def _number(tid: str) -> int:
    m = TOKEN_ID.fullmatch(tid)
    return int(m.group(1)) if m else 0


def _start(c: _Check, value: object, board: dict[str, Any], power: str,
           bought: list[tuple[str, str, str]]) -> list[Any]:
    """C4.3's starting purchases: only in the player's starting-fleet step (rules version 3) or
    first turn (versions 1 and 2; ruling R7). Each is checked by the referee's
    ``start_problem`` on the board the earlier ones leave, then paid and placed with the id it
    will get (setup.starting_fleet)."""
    if not fleet_due(board):
        c.bad("start", "start", "the starting fleet is placed before play, in the order of "
              "play, each player in his own step (C4.3, C4.4)"
              if rules_version(board) >= FLEETS_BEFORE_PLAY else
              "starting purchases are made in your first turn only (C4.3)")
        return []
    if not isinstance(value, list) or len(value) > MAX_ENTRIES:
        c.bad("start", "start", "start: a list of {token: TYPE, hex: \"q,r\", facing: 1..6}")
        return []
    out: list[Any] = []
    me = board["powers"][power]
    for i, entry in enumerate(value):
        path = f"start[{i}]"
        if not isinstance(entry, Mapping) or set(entry) - {"token", "hex", "facing"}:
            c.bad("start", path, "{token: TYPE, hex: \"q,r\", facing: 1..6}")
            continue
        h = c.hex(entry.get("hex"), f"{path}.hex")
        facing = c.small(entry.get("facing", 1), f"{path}.facing", 1, 6, code="facing")
        if h is None or facing is None:
            continue
        norm = {"token": entry.get("token"), "hex": h, "facing": facing}
        why = start_problem(board, power, norm, set(), 0)
        if why is not None:
            c.bad("start", path, why)
            continue
        ttype = str(norm["token"])
        me["reserve"] = int(me["reserve"]) - start_cost(board["pack"], me["empire"], ttype)
        tid = new_token(board, ttype, power, h, facing, [board["turn"], "start"])
        bought.append((path, tid, ttype))
        out.append(norm)
    return out


def _entry(c: _Check, entry: object, path: str) -> dict[str, Any] | None:
    """One move entry's shape (STATE.md): a standard movement, a jump or a sweep."""
    if not isinstance(entry, Mapping):
        c.bad("move", path, "a move is {unit, to, facing}, {unit, jump, fleet} or {sweep}")
        return None
    c.unknown_keys(entry, sorted(MOVE_KEYS), path, code="move",
                   say=lambda k, hint: f"a move takes {', '.join(sorted(MOVE_KEYS))}{hint}")
    before = c.mark()
    if "sweep" in entry:
        if set(entry) != {"sweep"}:
            c.bad("move", path, "a sweep is {sweep: TOKEN} alone (H5)")
        unit = c.token(entry["sweep"], f"{path}.sweep")
        return {"sweep": unit} if c.clean_since(before) else None
    unit = c.token(entry.get("unit"), f"{path}.unit")
    out: dict[str, Any] = {"unit": unit}
    if "flip" in entry:
        out["flip"] = c.small(entry["flip"], f"{path}.flip", 1, 3, code="flip")
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
            out["facing"] = c.small(entry["facing"], f"{path}.facing", 1, 6, code="facing")
    return out if c.clean_since(before) else None


def _moves(c: _Check, value: object, board: dict[str, Any], power: str) -> list[Any]:
    """The entries in order, each by the referee's ``plan`` on ``board`` (which they change
    as the referee's Move phase changes the state, but for the dice)."""
    if not isinstance(value, list) or len(value) > MAX_ENTRIES:
        c.bad("move", "move", f"move: a list of at most {MAX_ENTRIES} entries, in order")
        return []
    moved: set[str] = set()
    swept: set[str] = set()
    future = int(board.get("next_token") or 0)
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
            later = " (this file buys no token of that id: purchases are numbered from " \
                f"t{future} in the order bought)" if m and int(m.group(1)) >= future else ""
            c.bad("move", path, f"there is no token {unit}{later}")
            continue
        if "sweep" in entry:
            if unit in swept:
                c.bad("move", path, f"{unit} has already swept a mine this turn")
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
