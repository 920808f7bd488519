"""Babylon 5 CGS's part of the player's tool (pbem.game.tool.Tool): ``pbem orders b5``.

    pbem orders b5 orders.yaml --start ea-hyperion@-4,3/2 ea-transport@-5,4/1
    pbem orders b5 orders.yaml --build base-4@2,1/t7 --repair t9/t3
    pbem orders b5 orders.yaml --move t7@3,-3/2 t8@4,-3/1/2 jump:t10@5,-6+t11 sweep:t12
    pbem orders b5 orders.yaml --fire t20=t7,t8/t21 --declare economic --view view.json
    pbem orders b5 orders.yaml --contested deny --allow minbari

Each option writes its section of the file (replacing what was there): ``--move`` entries run in
the order given (``UNIT@HEX/FACING[/FLIP]``: a standard movement, the unit's own hex to rotate;
``jump:UNIT@HEX[/FLIP][+FLEET...]``: a jump with its fleet; ``sweep:UNIT``: sweep the mine in
front). With ``--view`` (the view.json of your last report) the orders are checked first with
the referee's own check (``orders.rehearse`` on your view: the turn run in the referee's order
with his own rules, the units bought in the file included), offline, and nothing is written if
there is a problem; each purchase is printed with the id it will get (``bought: t7``).
``pbem orders check`` and ``sign`` then work as for any game.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.errors import Problem, UsageError
from pbem.game.base import digits
from pbem.game.tool import Edit, OrderCommand, Orders, Start, Tool, arg

from . import orderform
from .setup import FLEETS_BEFORE_PLAY, fleet_due, rules_version

HINT = ("# To write your orders: pbem orders b5 FILE [--start TYPE@HEX/FACING ...]\n"
        "#   [--build TYPE@HEX/BY ...] [--repair UNIT/BASE ...] [--declare economic]\n"
        "#   [--move UNIT@HEX/FACING[/FLIP] | jump:UNIT@HEX[/FLIP][+UNIT...] | sweep:UNIT ...]\n"
        "#   [--fire TARGET=UNIT,UNIT[/ELSE,ELSE] ...] --view view.json\n")
HEX = r"-?[0-9]+,-?[0-9]+"
PLACE = re.compile(rf"^(?P<what>[\w.-]+)@(?P<hex>{HEX})/(?P<n>[\w-]+)(?:/(?P<extra>[\w-]+))?$")
JUMP = re.compile(rf"^jump:(?P<unit>[\w-]+)@(?P<hex>{HEX})(?:/(?P<flip>[0-9]))?"
                  r"(?P<fleet>(?:\+[\w-]+)*)$")
VOLLEY = re.compile(r"^(?P<target>[\w-]+)=(?P<with>[\w-]+(?:,[\w-]+)*)"
                    r"(?:/(?P<else>[\w-]+(?:,[\w-]+)*))?$")


def footer(orders: Mapping[str, Any]) -> str:
    busy = isinstance(orders, Mapping) and any(orders.get(k) for k in ("move", "fire", "start"))
    return "" if busy else HINT


def _int(text: str, flag: str, item: str) -> int:
    number = digits(text)
    if number is None:
        raise UsageError(f"{flag}: {item!r}: {text!r} is not a number")
    return number


def _place(item: str, flag: str, form: str) -> re.Match[str]:
    m = PLACE.match(item)
    if m is None:
        raise UsageError(f"{flag} takes {form}, not {item!r}")
    return m


def start(items: list[str]) -> list[dict[str, Any]]:
    out = []
    for item in items:
        m = _place(item, "--start", "TYPE@Q,R/FACING (e.g. ea-hyperion@-4,3/2)")
        out.append({"token": m["what"], "hex": m["hex"],
                    "facing": _int(m["n"], "--start", item)})
    return out


def build(items: list[str]) -> list[dict[str, Any]]:
    out = []
    for item in items:
        m = _place(item, "--build", "TYPE@Q,R/BY[/SCRAPPED-TOKEN] (e.g. base-4@2,1/t7)")
        entry: dict[str, Any] = {"token": m["what"], "hex": m["hex"], "by": m["n"]}
        if m["extra"]:
            entry["from_scrap"] = m["extra"]
        out.append(entry)
    return out


def mines(items: list[str]) -> list[dict[str, Any]]:
    return [{"token": m["what"], "hex": m["hex"], "by": m["n"]}
            for m in (_place(i, "--mine", "TYPE@Q,R/BY (e.g. mine-3@2,1/t5)") for i in items)]


def repair(items: list[str]) -> list[dict[str, Any]]:
    out = []
    for item in items:
        unit, sep, by = item.partition("/")
        if not sep or not unit or not by:
            raise UsageError(f"--repair takes UNIT/BASE (e.g. t9/t3), not {item!r}")
        out.append({"token": unit, "by": by})
    return out


def move(items: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for item in items:
        if item.startswith("sweep:"):
            out.append({"sweep": item[len("sweep:"):]})
            continue
        if item.startswith("jump:"):
            j = JUMP.match(item)
            if j is None:
                raise UsageError("--move jump:UNIT@Q,R[/FLIP][+UNIT...] (e.g. jump:t8@3,-6+t9), "
                                 f"not {item!r}")
            entry: dict[str, Any] = {"unit": j["unit"], "jump": j["hex"]}
            fleet = [u for u in j["fleet"].split("+") if u]
            if fleet:
                entry["fleet"] = fleet
            if j["flip"]:
                entry["flip"] = int(j["flip"])
            out.append(entry)
            continue
        m = _place(item, "--move", "UNIT@Q,R/FACING[/FLIP] (e.g. t7@3,-3/2), jump:... or "
                   "sweep:UNIT")
        entry = {"unit": m["what"], "to": m["hex"], "facing": _int(m["n"], "--move", item)}
        if m["extra"]:
            entry["flip"] = _int(m["extra"], "--move", item)
        out.append(entry)
    return out


def fire(items: list[str]) -> list[dict[str, Any]]:
    out = []
    for item in items:
        m = VOLLEY.match(item)
        if m is None:
            raise UsageError(f"--fire takes TARGET=UNIT,UNIT[/ELSE,ELSE] (e.g. t20=t7,t8/t21), "
                             f"not {item!r}")
        volley: dict[str, Any] = {"target": m["target"], "with": m["with"].split(",")}
        if m["else"]:
            volley["else"] = m["else"].split(",")
        out.append(volley)
    return out


def apply(orders: Mapping[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The file's orders with the options of the command line applied."""
    out = dict(orders)
    if args.start is not None:
        out["start"] = start(args.start)
    record = dict(out.get("record") or {})
    if args.declare:
        record["declare"] = args.declare
    if args.surrender:
        record["surrender"] = True
    if args.declare or args.surrender:
        out["record"] = record
    allocate = dict(out.get("allocate") or {})
    for key, values, parse in (("build", args.build, build), ("repair", args.repair, repair),
                               ("mines", args.mine, mines)):
        if values is not None:
            allocate[key] = parse(values)
    if any(v is not None for v in (args.build, args.repair, args.mine)):
        out["allocate"] = allocate
    if args.move is not None:
        out["move"] = move(args.move)
    if args.fire is not None:
        out["fire"] = fire(args.fire)
    if args.contested or args.allow is not None or args.deny is not None:
        answer: dict[str, Any] = {}  # no --contested: the rules version's default (E4)
        if args.contested:
            answer["default"] = args.contested
        if args.allow:
            answer["allow"] = list(args.allow)
        if args.deny:
            answer["deny"] = list(args.deny)
        out["contested"] = answer
    return out


def check(orders: Orders, view: dict[str, Any]) -> tuple[Any, list[Problem]]:
    """The referee's own check (orders.rehearse): the rehearsal, and its problems."""
    from .orders import rehearse

    done = rehearse(orders, view)
    return done, done.problems


def bought(done: Any) -> list[str]:
    """Each purchase with the id it will get, after a file is written and checked."""
    return [f"bought: {tid} ({ttype}, {path}): name it {tid} in move and fire"
            for path, tid, ttype in done.bought]


def new_orders(view: Mapping[str, Any], vault: Path | None) -> Start:
    return Start(orderform.skeleton(view), orderform.comments(view))


def check_warnings(view: Mapping[str, Any], orders: Mapping[str, Any],
                   vault: Path | None) -> list[str]:
    if orderform.in_setup(view):
        return []
    out = []
    if fleet_due(view) and not orders.get("start"):
        out.append("no starting fleet bought (your starting-fleet step)"
                   if rules_version(view) >= FLEETS_BEFORE_PLAY else
                   "no starting fleet bought (your first turn)")
    if orderform.fleet_step(view):
        return out
    if not any(orders.get(k) for k in ("allocate", "move", "fire", "start")):
        out.append("nothing is built, moved or fired this turn (standing orders)")
    return out


B5 = OrderCommand(
    "b5", help="write Babylon 5 CGS orders into FILE",
    description="Write the sections of a Babylon 5 CGS turn (starting fleet, record keeping, "
    "builds and repairs, moves in order, volleys with else targets, the contested-space "
    "answer) into an order file; with --view, check them first exactly as the referee will.",
    arguments=[
        arg("--start", nargs="*", metavar="TYPE@Q,R/FACING",
            help="your starting fleet, bought with the empire discount, in your starting-fleet "
            "step before play (C4.3; your first turn in games of rules versions 1 and 2)"),
        arg("--declare", choices=("economic", "territorial"),
            help="declare a victory attempt (D1.11, D1.13)"),
        arg("--surrender", action="store_true", help="surrender (D1.12)"),
        arg("--build", nargs="*", metavar="TYPE@Q,R/BY[/SCRAP]",
            help="build tokens (D3.2), optionally a scrapped one again"),
        arg("--repair", nargs="*", metavar="UNIT/BASE", help="repair (D3.3)"),
        arg("--mine", nargs="*", metavar="TYPE@Q,R/BY", help="lay mines (D3.23)"),
        arg("--move", nargs="*", metavar="ENTRY",
            help="moves in order: UNIT@Q,R/FACING[/FLIP], jump:UNIT@Q,R[/FLIP][+UNIT...], "
            "sweep:UNIT"),
        arg("--fire", nargs="*", metavar="TARGET=UNIT,UNIT[/ELSE,ELSE]",
            help="volleys, tried in order (D5.5)"),
        arg("--contested", choices=("deny", "allow"),
            help="standing answer to contested-space requests (D3.42)"),
        arg("--allow", nargs="*", metavar="POWER", help="powers always allowed"),
        arg("--deny", nargs="*", metavar="POWER", help="powers always denied"),
    ],
    apply=lambda given: Edit(apply(given.orders, given.args)), checked=bought)

TOOL = Tool(orders=[B5], check=check, new_orders=new_orders, footer=footer,
            check_warnings=check_warnings)
