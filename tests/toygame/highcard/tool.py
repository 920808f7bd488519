"""High Card's part of the player's tool: ``pbem orders play FILE --card CARD``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.errors import UsageError
from pbem.game.tool import Edit, OrderCommand, OrderInput, Start, Tool, arg


def footer(orders: Mapping[str, Any]) -> str:
    return "" if "play" in orders else "# To choose a card: pbem orders play FILE --card CARD\n"


def play(given: OrderInput) -> Edit:
    """Write the card to play; with a view, it must be in the hand."""
    card = given.args.card
    if given.view is not None:
        hand = given.view.get("hand", [])
        if card not in hand:
            raise UsageError(f"{card!r} is not in your hand ({', '.join(hand)})")
    return Edit({**given.orders, "play": card}, said=[f"{given.args.file}: play {card}"])


def new_orders(view: Mapping[str, Any], vault: Path | None) -> Start:
    return Start({}, [f"# your hand: {', '.join(view.get('hand', []))}"])


TOOL = Tool(
    orders=[OrderCommand(
        "play", help="choose the card to play (High Card)",
        description="Write the card to play this round into FILE.",
        arguments=[arg("--card", required=True, help="a card of your hand, e.g. ember-7")],
        apply=play, view_help="check the card is yours", check=False)],
    new_orders=new_orders, footer=footer)
