"""The Ashes of Empire's part of the player's tool (pbem.game.tool.Tool): ``pbem orders ashes``.

    pbem orders ashes orders.yaml --place A1=2 --conquer K4 --from C3 --ships 4 --view view.json
    pbem orders ashes orders.yaml --exchange B2
    pbem orders ashes orders.yaml --colonise D4 --ships B2=1
    pbem orders ashes orders.yaml --reorganise A1=3 C3=2 --retreat B2 A1

It writes the orders into the file; with ``--view`` (the view.json of your last report) it
checks them first with the referee's own check (``normalize_orders`` on your view), offline, and
changes nothing if there is a problem. ``pbem orders check`` and ``sign`` then work as for any
game.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.errors import UsageError
from pbem.game.base import digits
from pbem.game.tool import Edit, OrderCommand, OrderInput, Start, Tool, arg

from .orders import normalize_orders

HINT = ("# To write your orders: pbem orders ashes FILE --place CARD=N ... and one of\n"
        "#   --exchange CARD | --colonise CARD [--ships CARD=N ...]\n"
        "#   | --conquer TARGET --from CARD --ships N | --reorganise CARD=N ...\n")


def footer(orders: Mapping[str, Any]) -> str:
    return "" if isinstance(orders, Mapping) and orders.get("move") else HINT


def _pairs(items: list[str] | None, flag: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items or []:
        card, sep, n = item.partition("=")
        number = digits(n.strip())
        if not sep or number is None:
            raise UsageError(f"{flag} takes CARD=N (e.g. A1=2), not {item!r}")
        out[card.strip().upper()] = number
    return out


def build(orders: Mapping[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The file's orders with the options of the command line applied."""
    out = dict(orders)
    if args.place:
        out["place"] = _pairs(args.place, "--place")
    chosen = [k for k in ("exchange", "colonise", "conquer", "reorganise")
              if getattr(args, k)]
    if len(chosen) > 1:
        raise UsageError("one movement per turn: --exchange, --colonise, --conquer or "
                         "--reorganise")
    if chosen == ["exchange"]:
        out["move"] = {"exchange": args.exchange}
    elif chosen == ["colonise"]:
        out["move"] = {"colonise": args.colonise, "ships": _pairs(args.ships, "--ships")}
    elif chosen == ["conquer"]:
        if not args.source or not args.ships:
            raise UsageError("--conquer needs --from CARD and --ships N (or CARD=N ...)")
        alone = digits(args.ships[0]) if len(args.ships) == 1 else None
        ships: Any = alone if alone is not None else _pairs(args.ships, "--ships")
        out["move"] = {"conquer": args.conquer, "from": args.source, "ships": ships}
        if args.survivors_to:
            out["move"]["survivors_to"] = args.survivors_to
    elif chosen == ["reorganise"]:
        out["move"] = {"reorganise": _pairs(args.reorganise, "--reorganise")}
    if args.retreat:
        out["retreat"] = list(args.retreat)
    return out


def apply(given: OrderInput) -> Edit:
    return Edit(build(given.orders, given.args))


def new_orders(view: Mapping[str, Any], vault: Path | None) -> Start:
    you = view.get("you") or {}
    hand = ", ".join(str(c).removeprefix("planet:") for c in you.get("hand", {}))
    return Start({}, [f"# your homeplanets: {hand}",
                      f"# reinforcements this turn: {you.get('reinforcements', 0)}"])


def check_warnings(view: Mapping[str, Any], orders: Mapping[str, Any],
                   vault: Path | None) -> list[str]:
    window = view.get("window") or {}
    if window.get("kind") in ("setup", "deal") or view.get("viewer") not in window.get(
            "due", [view.get("viewer")]):
        return []
    return [] if orders.get("move") else ["no movement this turn (standing orders)"]


ASHES = OrderCommand(
    "ashes", help="write The Ashes of Empire orders into FILE",
    description="Write reinforcement placements, one movement option and a retreat preference "
    "into an Ashes order file; with --view, check them first exactly as the referee will.",
    arguments=[
        arg("--place", nargs="+", metavar="CARD=N", help="reinforcements to place"),
        arg("--exchange", metavar="CARD", help="a. exchange this homeplanet"),
        arg("--colonise", metavar="CARD", help="b. make this homeplanet a colony"),
        arg("--conquer", metavar="TARGET", help="c. attack this planet"),
        arg("--from", dest="source", metavar="CARD",
            help="the colony (or homeplanet to show) whose line D shows the target"),
        arg("--ships", nargs="+", metavar="N|CARD=N", help="ships that move"),
        arg("--survivors-to", metavar="CARD",
            help="where a conquered neutral planet's surviving ships go"),
        arg("--reorganise", nargs="+", metavar="CARD=N",
            help="d. new ship counts of your planets"),
        arg("--retreat", nargs="+", metavar="CARD",
            help="standing: homeplanets to send ships back to, in order"),
    ],
    apply=apply)

TOOL = Tool(orders=[ASHES], check=normalize_orders, new_orders=new_orders, footer=footer,
            check_warnings=check_warnings)
