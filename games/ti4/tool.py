"""TI4's part of the player's tool (pbem.game.tool.Tool): ``pbem orders ti4``.

    pbem orders ti4 orders.yaml --view view.json --draft warfare,commerce,command
    pbem orders ti4 orders.yaml --view view.json --strategic command --choice - \\
        --choice "tokens=1 exhaust=drummond pools=fleet:1"
    pbem orders ti4 orders.yaml --view view.json --activate S10 \\
        --move "tender,frigate:H4>S10" --carry wing=2 --lift drummond:trooper=2 \\
        --invade iver:2 --custodians drummond,tg=3
    pbem orders ti4 orders.yaml --view view.json --activate H4 --produce frigate,wing=2 \\
        --pay drummond,tg=1
    pbem orders ti4 orders.yaml --view view.json --pass
    pbem orders ti4 orders.yaml --view view.json --follow --choice "pools=strategy:1"
    pbem orders ti4 orders.yaml --view view.json --score-public o1-coin \\
        --resources drummond,gesk --pools 4/3/3
    pbem orders ti4 orders.yaml --view view.json --vote for:drummond --vote red:gesk --tie for
    pbem orders ti4 orders.yaml --view view.json --with blue --give tg=2 --get commodities=1
    pbem orders ti4 orders.yaml --view view.json --with red --give commodities=1 --get tg=2 \\
        --accept
    pbem orders ti4 orders.yaml --view view.json --keep s-tech
    pbem orders ti4 orders.yaml --view view.json --hits wing,sustain,frigate \\
        --retreat-at-most 1 --retreat-to S08 --standing-follow command --standing-default \\
        decline --standing-draft warfare,command --queue-pass

Each group of flags writes its section of the file (games/ti4/STATE.md, "The order file"),
replacing what was there; ``standing`` key by key, starting from your standing answers in force
(the view's) when the file has none, since a standing section replaces them whole. With
``--view`` (the view.json of your last mail) the body is first checked with the referee's own
check (``orders.normalize_orders`` on your view), offline, and nothing is written if there is a
problem. The flags' small languages are games/ti4/toolflags.py's.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pbem.errors import Problem
from pbem.game.tool import Edit, OrderCommand, OrderInput, Orders, Start, Tool, arg

from . import tooldeals, toolflags
from .toolflags import InOrder

SECTIONS = ("draft", "action", "secondary", "status", "agenda", "standing", "transactions",
            "keep")
#: The section each window asks for (STATE.md, "The windows").
WINDOW_SECTION = {"strategy": "draft", "action": "action", "secondary": "secondary",
                  "status": "status", "agenda": "agenda"}
HINT = ("# To write your orders: pbem orders ti4 FILE --view view.json and, for the window:\n"
        "#   strategy: --draft CARD,CARD,...      action: --pass | --strategic CARD --choice ...\n"
        "#   | --activate SYSTEM --move SHIPS:A>B [--carry UNITS] ... --produce UNITS --pay PAY\n"
        "#   secondary: --follow [--choice ...] | --decline     status: --score-public OID\n"
        "#   --score-secret OID --pools T/F/S     agenda: --vote OUTCOME:PLANET,... --tie OUTCOME\n"
        "#   at any time: --hits ... --retreat-at-most N --standing-follow CARD --queue-pass\n"
        "#   transactions: --with POWER --give tg=N --get commodities=N [--accept]\n"
        "#   after the deal: --keep OBJECTIVE\n"
        "#   (pbem orders ti4 --help explains each)\n")


def ground_unit(view: Mapping[str, Any] | None) -> str | None:
    """The pack's one ground force (``PLANET:N`` means N of it), if the view names one."""
    found = [u for u, spec in ((view or {}).get("pack") or {}).get("units", {}).items()
             if isinstance(spec, Mapping) and spec.get("kind") == "ground"]
    return found[0] if len(found) == 1 else None


def body(orders: Mapping[str, Any], args: argparse.Namespace,
         view: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The file's order body with the flags applied (the standing answers in force first)."""
    start = dict(orders)
    if "standing" not in start and view is not None:
        mine = (view.get("you") or {}).get("standing")
        if mine:
            start["standing"] = dict(mine)
    written = tooldeals.sections(toolflags.sections(start, args, ground_unit(view)), args)
    if "standing" not in orders and written.get("standing") == start.get("standing"):
        written.pop("standing", None)   # not named by a flag: the file stays as it was
    return written


def apply(given: OrderInput) -> Edit:
    return Edit(body(given.orders, given.args, given.view))


def check(orders: Orders, view: dict[str, Any]) -> tuple[object, Sequence[Problem]]:
    """The referee's own check (``orders.normalize_orders``) on the view."""
    from .orders import normalize_orders

    return normalize_orders(orders, view)


def footer(orders: Mapping[str, Any]) -> str:
    busy = isinstance(orders, Mapping) and any(orders.get(k) for k in SECTIONS)
    return "" if busy else HINT


def _window(view: Mapping[str, Any]) -> str | None:
    return view.get("phase") if isinstance(view.get("phase"), str) else None


def new_orders(view: Mapping[str, Any], vault: Path | None) -> Start:
    me = view.get("viewer")
    phase = _window(view)
    due = me in (view.get("due") or [])
    wants = WINDOW_SECTION.get(phase or "")
    lines = [f"# round {view.get('round')}, {phase}: "
             + (f"you are due ({wants}: ...)" if due and wants else
                "you are due" if due else "you are not due (a standing section may be sent)")]
    board = view.get("board") or {}
    mine = sorted(p for p, owner in (board.get("owner") or {}).items() if owner == me)
    if mine:
        lines.append(f"# your planets: {', '.join(mine)}")
    seat = ((view.get("table") or {}).get("players") or {}).get(me) or {}
    if seat:
        lines.append(f"# your trade goods: {seat.get('trade_goods', 0)}; strategy cards: "
                     f"{', '.join(seat.get('cards') or []) or 'none'}")
    return Start({}, lines)


def check_warnings(view: Mapping[str, Any], orders: Mapping[str, Any],
                   vault: Path | None) -> list[str]:
    wants = WINDOW_SECTION.get(_window(view) or "")
    if view.get("viewer") not in (view.get("due") or []) or wants is None:
        return []
    if orders.get(wants) is not None:
        return []
    return [f"no {wants}: section for this {_window(view)} window (a file of the step without "
            "one plays your default; a standing file needs none)"]


ARGUMENTS = [
    arg("--draft", metavar="CARD,CARD,...",
          help="strategy: your ranked strategy cards, best first"),
    arg("--pass", dest="pass_", action="store_true", help="action: pass"),
    arg("--strategic", metavar="CARD", help="action: play your strategy card's primary"),
    arg("--choice", action="append", metavar="KEY=VALUE ...",
          help="one per primitive of the card, in order (- for the default): tokens=N "
          "exhaust=PLANET,... trade_goods=N pools=tactic:N,fleet:N tech=ID planet=ID "
          "planets=ID,... speaker=POWER system=ID objective=ID build=UNIT:N,... "
          "resources.exhaust=... influence.trade_goods=N"),
    arg("--activate", metavar="SYSTEM", help="action: a tactical action activating SYSTEM"),
    arg("--move", action=InOrder, metavar="SHIPS:FROM>...>TO",
          help="a group of ships and its path (e.g. tender,frigate=2:S18>S24); repeat"),
    arg("--carry", action=InOrder, metavar="UNIT=N,...",
          help="fighters and ground forces the --move before it carries from its start's space"),
    arg("--lift", action=InOrder, metavar="PLANET:UNIT=N,...",
          help="ground forces the --move before it picks up from a planet of its start"),
    arg("--bombard", action="append", metavar="PLANET:UNIT=N,...",
          help="bombard a planet of the active system with these ships"),
    arg("--invade", action="append", metavar="PLANET:UNIT=N|PLANET:N",
          help="land ground forces on a planet of the active system (N: your ground force)"),
    arg("--produce", metavar="UNIT=N,...", help="units built at the active system's docks"),
    arg("--pay", metavar="PLANET,...,tg=N",
          help="what pays the production: planets to exhaust and trade goods"),
    arg("--custodians", metavar="PLANET,...,tg=N",
          help="take the Custodians with this tactical action, paying 6 influence"),
    arg("--follow", action="store_true",
          help="secondary: follow the card being played (with --choice for its primitives)"),
    arg("--decline", action="store_true", help="secondary: do not follow"),
    arg("--score-public", metavar="OBJECTIVE", help="status: the public objective to score"),
    arg("--score-secret", metavar="OBJECTIVE", help="status: the secret objective to score"),
    arg("--resources", metavar="PLANET,...,tg=N", help="status: what pays a spend objective's "
          "resources"),
    arg("--influence", metavar="PLANET,...,tg=N", help="status: what pays a spend objective's "
          "influence"),
    arg("--pools", metavar="T/F/S", help="status: your tokens redistributed among the tactic, "
          "fleet and strategy pools (all of them)"),
    arg("--vote", action="append", metavar="OUTCOME:PLANET,...|abstain",
          help="agenda: one ballot per agenda, in order: the outcome and the planets you "
          "exhaust for it (their influence is your votes; trade goods never vote)"),
    arg("--tie", action="append", metavar="OUTCOME",
          help="agenda, the speaker: the outcome you choose on a tie, one per agenda"),
    arg("--hits", metavar="UNIT,...,sustain",
          help="standing: the order your units take hits in (sustain: use sustain damage)"),
    arg("--retreat-at-most", metavar="N",
          help="standing: announce a retreat when you have at most N ships in a combat"),
    arg("--never-retreat", action="store_true", help="standing: never announce a retreat"),
    arg("--retreat-to", metavar="SYSTEM,...", help="standing: where you retreat, preferred "
          "first"),
    arg("--space-cannon", choices=("on", "off"), help="standing: fire your space cannon"),
    arg("--standing-follow", action="append", metavar="CARD",
          help="standing: always follow this card's secondary (default choices)"),
    arg("--standing-decline", action="append", metavar="CARD",
          help="standing: never follow this card's secondary"),
    arg("--standing-default", choices=("decline",),
          help="standing: decline every card not named, without being asked"),
    arg("--standing-draft", metavar="CARD,CARD,...",
          help="standing: your ranked cards for a strategy window you are silent in"),
    arg("--queue-pass", action="store_true",
          help="standing: pass for me whenever my turn comes and I may pass"),
    arg("--no-queue", action="store_true", help="standing: drop the queued pass"),
    *tooldeals.ARGUMENTS,
]

TI4 = OrderCommand(
    "ti4", help="write Twilight Imperium (stand-in) orders into FILE",
    description="Write the section of a TI4 step (the ranked draft, an action, a secondary, "
    "the status choices, the agenda ballots) and standing answers into an order file; with "
    "--view, check them first exactly as the referee will.",
    arguments=ARGUMENTS, apply=apply)

TOOL = Tool(orders=[TI4], check=check, new_orders=new_orders, footer=footer,
            check_warnings=check_warnings)
