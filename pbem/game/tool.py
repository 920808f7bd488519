"""The player's-tool half of the plugin contract: what a game adds to the player's command line.

pbem owns the command line: the argparse wiring, reading and writing the order file, its
envelope, checking the orders with the referee's own check before anything is written, the
warnings and the file's footer. A game gives only its arguments and how they apply:

* ``orders``: its subcommands of ``pbem orders`` (:class:`OrderCommand`), each a list of
  argparse arguments (:func:`arg`) and a function ``apply(OrderInput) -> Edit`` from the file's
  order body, the parsed arguments and the view to the new order body (4000 A.D.'s ``pbem orders
  depart|reveal``, Ashes' ``pbem orders ashes``);
* ``commands``: its top-level commands (:class:`Command`; 4000 A.D.'s ``pbem distance``);
* ``new_orders``, ``footer`` and ``check_warnings``: the defaults ``pbem orders new`` starts a
  file with, the comment lines written after the orders, and the warnings ``pbem orders check``
  prints about a valid file.

A game's tool is ``Tool(orders=..., check=normalize_orders, ...)``; ``register_orders`` and
``register_commands`` are pbem's, the same for every game.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pbem.errors import Problem, UsageError
from pbem.game.shapes import GameView, OrderBody, ViewIn
from pbem.protocol import commitment, orderfile
from pbem.protocol.envelope import Envelope, parse_envelope
from pbem.protocol.vault import Departure, Vault

Subparsers = argparse._SubParsersAction  # the object add_subparsers() returns
Orders = OrderBody
View = GameView
#: A view or an order body as a hook reads it (never written to).
Reading = ViewIn
#: The referee's own check of a body against a view: (normalised orders, problems).
Check = Callable[[Orders, View], tuple[object, Sequence[Problem]]]


@dataclass(frozen=True)
class Arg:
    """One argparse argument: ``add_argument(*flags, **options)``."""

    flags: tuple[str, ...]
    options: Mapping[str, Any]


def arg(*flags: str, **options: Any) -> Arg:
    """An argument of a game's command, as ``ArgumentParser.add_argument`` takes it."""
    return Arg(flags, options)


@dataclass(frozen=True)
class OrderInput:
    """What an order command's ``apply`` reads: the file's envelope and order body, the parsed
    arguments, the view (or None), the vault's path and a fresh nonce (for a commitment)."""

    orders: Orders
    args: argparse.Namespace
    view: View | None
    envelope: Envelope
    vault_path: Path | None
    nonce: bytes

    def vault(self) -> Vault:
        """The player's vault (read, never written: an :class:`Edit` says what to keep)."""
        return Vault.load(self.vault_path)


@dataclass(frozen=True)
class Edit:
    """What an order command does: the new order body, the lines to print once it is written
    (None: pbem's "FILE: orders written"), warnings, and departures to keep in the vault (saved
    before the order file: a commitment without its secret can never be opened)."""

    orders: Orders
    said: Sequence[str] | None = None
    warnings: Sequence[str] = ()
    keep: Sequence[Departure] = ()


@dataclass(frozen=True)
class OrderCommand:
    """A subcommand ``pbem orders NAME FILE ...`` that edits an order file. ``view``: whether
    ``--view`` is offered ("optional") or needed ("required"); with a view pbem checks the
    envelope against it and, if ``check``, the new orders with the tool's check before writing
    (nothing is written if there is a problem). ``vault``: whether ``--vault`` is offered.
    ``checked``: lines printed after the file is written, from what the check returned first
    (B5: the id each purchase gets)."""

    name: str
    help: str
    description: str
    arguments: Sequence[Arg]
    apply: Callable[[OrderInput], Edit]
    view: Literal["optional", "required"] = "optional"
    view_help: str = "check the orders against your view before writing"
    check: bool = True
    vault: bool = False
    checked: Callable[[object], Sequence[str]] | None = None


@dataclass(frozen=True)
class Command:
    """A top-level command ``pbem NAME ...`` a game adds (``run(args)`` is its exit code)."""

    name: str
    help: str
    description: str
    arguments: Sequence[Arg]
    run: Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class Start:
    """What ``pbem orders new --view`` starts a file with: the orders, the header's comment
    lines and warnings (e.g. a secret the vault cannot open)."""

    orders: Orders = field(default_factory=dict)
    header: Sequence[str] = ()
    warnings: Sequence[str] = ()


def _no_start(view: Reading, vault: Path | None) -> Start:
    return Start()


def _no_footer(orders: Reading) -> str:
    return ""


def _no_warnings(view: Reading, orders: Reading, vault: Path | None) -> list[str]:
    return []


@dataclass(frozen=True)
class Tool:
    """What a game adds to the player's command line (see docs/plugins.md)."""

    orders: Sequence[OrderCommand] = ()
    commands: Sequence[Command] = ()
    check: Check | None = None
    new_orders: Callable[[Reading, Path | None], Start] = _no_start
    footer: Callable[[Reading], str] = _no_footer
    check_warnings: Callable[[Reading, Reading, Path | None], list[str]] = _no_warnings

    def register_orders(self, cmds: Subparsers) -> None:  # type: ignore[type-arg]
        """Add this game's subcommands of ``pbem orders`` (each with --help and a func)."""
        for command in self.orders:
            p = cmds.add_parser(command.name, help=command.help,
                                description=command.description)
            p.add_argument("file", type=Path, metavar="FILE", help="the order file to change")
            _add(p, command.arguments)
            p.add_argument("--view", type=Path, metavar="VIEW.json",
                           required=command.view == "required", help=command.view_help)
            if command.vault:
                p.add_argument("--vault", type=Path, help="vault file (default: $PBEM_VAULT or "
                               "~/.pbem/vault.json)")
            p.set_defaults(func=lambda args, command=command: self.run(command, args))

    def register_commands(self, sub: Subparsers) -> None:  # type: ignore[type-arg]
        """Add this game's top-level commands (``pbem NAME``), if any."""
        for command in self.commands:
            p = sub.add_parser(command.name, help=command.help,
                               description=command.description)
            _add(p, command.arguments)
            p.set_defaults(func=command.run)

    def run(self, command: OrderCommand, args: argparse.Namespace) -> int:
        """``pbem orders NAME FILE ...``: apply the command to the file's orders; with a view,
        check the envelope and the new orders first, exactly as the referee will, and write
        nothing if there is a problem (one UsageError naming them all); keep the vault's
        departures, then write the file back with its header and the game's footer."""
        doc, header = orderfile.load(args.file)
        envelope = parse_envelope(doc)
        view = orderfile.load_view(args.view) if args.view is not None else None
        if view is not None:
            parse_envelope(doc, game=view["game_id"], power=view["viewer"], turn=view["turn"])
        edit = command.apply(OrderInput(dict(envelope.orders or {}), args, view, envelope,
                                        getattr(args, "vault", None), commitment.new_nonce()))
        for warning in edit.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        result: list[object] = []
        if view is not None and command.check and self.check is not None:
            normalized, problems = self.check(edit.orders, view)
            if problems:
                raise UsageError("; ".join(map(str, problems)))
            result.append(normalized)
        if edit.keep:
            vault = Vault.load(getattr(args, "vault", None))
            for departure in edit.keep:
                vault.add(envelope.game, envelope.power, departure)
            vault.save()
        doc["orders"] = edit.orders
        orderfile.write(args.file, orderfile.render(doc, header, self.footer(edit.orders)))
        said = edit.said if edit.said is not None else [
            f"{args.file}: orders written" + (" and checked" if view is not None else "")]
        if result and command.checked is not None:
            said = [*said, *command.checked(result[0])]
        for line in said:
            print(line)
        return 0


def _add(p: argparse.ArgumentParser, arguments: Sequence[Arg]) -> None:
    for a in arguments:
        if a.options.get("mutually_exclusive"):
            group = p.add_mutually_exclusive_group()
            for inner in a.options["mutually_exclusive"]:
                group.add_argument(*inner.flags, **inner.options)
        else:
            p.add_argument(*a.flags, **a.options)


def exclusive(*arguments: Arg) -> Arg:
    """Arguments of which at most one may be given (argparse's mutually exclusive group)."""
    return Arg((), {"mutually_exclusive": arguments})
