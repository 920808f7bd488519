"""``pbem``: the one entry point. Each command group lives in its own module."""

from __future__ import annotations

import argparse
import importlib
import sys
import traceback
from collections.abc import Sequence

from pbem import __version__
from pbem.errors import PbemError

# Command-group modules under pbem.cli; each defines register(subparsers) ("games": the
# commands the games add, e.g. pbem distance).
COMMAND_MODULES = ("games", "keygen", "orders", "new", "ingest", "run", "gm", "export", "dice",
                   "audit", "receipt", "archive", "press", "components", "rules")
#: Commands not named like their module ("games" holds whatever commands the games add).
COMMAND_ALIASES = {"verify-receipt": "receipt"}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command group, or only of ``only`` (the command being run): each
    group's module imports what its commands use (Jinja, the email package, the game plugins),
    and a process started per mail (``pbem ingest --stdin``) should import only its own."""
    parser = argparse.ArgumentParser(
        prog="pbem",
        description="Play-by-email turn processor for hidden-movement space strategy games.",
    )
    parser.add_argument("--version", action="version", version=f"pbem {__version__}")
    parser.add_argument(
        "--verbose", action="store_true", help="show a traceback when a command fails"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        if only is None or name == only:
            importlib.import_module(f"pbem.cli.{name}").register(sub)
    return parser


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    """The command names a parser knows."""
    return {name for action in parser._subparsers._group_actions  # type: ignore[union-attr]
            if isinstance(action, argparse._SubParsersAction) for name in action.choices}


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    command = next((w for w in words if not w.startswith("-")), None)
    module = COMMAND_ALIASES.get(command or "", command)
    if module in COMMAND_MODULES:
        parser = build_parser(module)
    elif command is not None and command in _commands(build_parser("games")):
        parser = build_parser("games")  # a game's own command (pbem distance)
    else:
        parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
        return code
    except PbemError as exc:
        if args.verbose:
            traceback.print_exc()
        print(f"pbem {args.command}: {exc}", file=sys.stderr)
        return getattr(exc, "exit_code", 1)
    except KeyboardInterrupt:
        return 130
