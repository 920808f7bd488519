"""The player's-tool half of the plugin contract: a game's own command-line subcommands.

pbem's generic player commands (``pbem orders new|check|sign``) know only the envelope, the
view and the game's order check. Editing the orders themselves is game-shaped (4000 A.D.'s
``pbem orders depart|reveal`` keep secret destinations in the player's vault), so a game adds
those subcommands through its ``tool``: ``register_orders`` adds subcommands under ``pbem
orders``, ``register_commands`` adds top-level commands (4000 A.D.'s ``pbem distance``). The
hooks let the generic commands fill in a game's defaults without knowing its orders.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from pbem.errors import UsageError
from pbem.protocol import orderfile
from pbem.protocol.envelope import parse_envelope

Subparsers = argparse._SubParsersAction  # the object add_subparsers() returns


class Tool(Protocol):
    """What a game adds to the player's command line (see docs/plugins.md)."""

    def register_orders(self, cmds: Subparsers) -> None:  # type: ignore[type-arg]
        """Add this game's subcommands of ``pbem orders`` (each with --help and a func)."""
        ...

    def register_commands(self, sub: Subparsers) -> None:  # type: ignore[type-arg]
        """Add this game's top-level commands (``pbem NAME``), if any."""
        ...

    def new_orders(self, view: Mapping[str, Any], vault: Any) -> tuple[dict[str, Any], list[str]]:
        """For ``pbem orders new --view``: the orders a fresh file starts with and comment lines
        for its header (``vault``: the ``--vault`` path or None)."""
        ...

    def footer(self, orders: Mapping[str, Any]) -> str:
        """Comment lines written after the orders of a file (how to write the next order)."""
        ...

    def check_warnings(self, view: Mapping[str, Any], orders: Mapping[str, Any],
                       vault: Any) -> list[str]:
        """For ``pbem orders check``: warnings (not problems) about a valid file, e.g. a
        secret the vault says is due but the file does not open."""
        ...


Orders = dict[str, Any]


def edit_order_file(path: Path, view_path: Path | None, edit: Callable[[Orders], Orders],
                    check: Callable[[Orders, dict[str, Any]], tuple[Any, Sequence[Any]]],
                    footer: Callable[[Mapping[str, Any]], str]) -> None:
    """What a game's ``pbem orders GAME FILE --...`` does: ``edit`` the orders of the file at
    ``path``; with a view, ``check`` them first exactly as the referee will (the game's
    ``normalize_orders``) and write nothing if there is a problem (one UsageError naming them
    all); then write the file back with its header and the game's ``footer``."""
    doc, header = orderfile.load(path)
    orders = edit(dict(parse_envelope(doc).orders or {}))
    if view_path is not None:
        _, problems = check(orders, orderfile.load_view(view_path))
        if problems:
            raise UsageError("; ".join(map(str, problems)))
    doc["orders"] = orders
    orderfile.write(path, orderfile.render(doc, header, footer(orders)))
