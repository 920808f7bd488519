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
                   "audit", "receipt", "archive", "press", "components")


def build_parser() -> argparse.ArgumentParser:
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
        importlib.import_module(f"pbem.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
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
