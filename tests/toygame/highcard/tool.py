"""High Card's part of the player's tool: ``pbem orders play FILE --card CARD``."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.errors import UsageError
from pbem.protocol import orderfile
from pbem.protocol.envelope import parse_envelope


def run_play(args: argparse.Namespace) -> int:
    doc, header = orderfile.load(args.file)
    env = parse_envelope(doc)
    if args.view is not None:
        hand = orderfile.load_view(args.view).get("hand", [])
        if args.card not in hand:
            raise UsageError(f"{args.card!r} is not in your hand ({', '.join(hand)})")
    doc["orders"] = {**env.orders, "play": args.card}
    orderfile.write(args.file, orderfile.render(doc, header, footer(doc["orders"])))
    print(f"{args.file}: play {args.card}")
    return 0


def footer(orders: Mapping[str, Any]) -> str:
    return "" if "play" in orders else "# To choose a card: pbem orders play FILE --card CARD\n"


class HandTool:
    footer = staticmethod(footer)

    @staticmethod
    def register_orders(cmds: Any) -> None:
        p = cmds.add_parser("play", help="choose the card to play (High Card)",
                            description="Write the card to play this round into FILE.")
        p.add_argument("file", type=Path, metavar="FILE", help="the order file to change")
        p.add_argument("--card", required=True, help="a card of your hand, e.g. ember-7")
        p.add_argument("--view", type=Path, metavar="VIEW.json", help="check the card is yours")
        p.set_defaults(func=run_play)

    @staticmethod
    def register_commands(sub: Any) -> None:
        return None

    @staticmethod
    def new_orders(view: Mapping[str, Any], vault: Any) -> tuple[dict[str, Any], list[str]]:
        return {}, [f"# your hand: {', '.join(view.get('hand', []))}"]

    @staticmethod
    def check_warnings(view: Mapping[str, Any], orders: Mapping[str, Any],
                       vault: Any) -> list[str]:
        return []


TOOL = HandTool()
