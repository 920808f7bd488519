"""``pbem``: the one entry point. Each command group lives in its own module."""

from __future__ import annotations

import argparse
import errno
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path

from pbem import __version__
from pbem.atomic import StorageError
from pbem.cli import commands
from pbem.errors import PbemError


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``only`` (the command being run: its module's register(subparsers); for
    "games", the commands the games add, e.g. pbem distance), or, with ``only`` None, the
    listing of every command (pbem.cli.commands, and the games' commands from their manifests)
    that ``pbem --help`` prints. Each command's module imports what its commands use (Jinja, the
    email package, the game plugins): a process imports only the one it runs (a process is
    started per mail: ``pbem ingest --stdin``), and the listing imports none."""
    parser = commands.Parser(
        prog="pbem",
        description="Play-by-email turn processor for hidden-movement space strategy games.",
    )
    parser.add_argument("--version", action="version", version=f"pbem {__version__}")
    parser.add_argument(
        "--verbose", action="store_true", help="show a traceback when a command fails"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    if only is None:
        importlib.import_module("pbem.cli.games").register(sub)
        commands.listed(sub)
    else:
        importlib.import_module(f"pbem.cli.{only}").register(sub)
    return parser


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    """The command names a parser knows."""
    return {name for action in parser._subparsers._group_actions  # type: ignore[union-attr]
            if isinstance(action, argparse._SubParsersAction) for name in action.choices}


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    command = next((w for w in words if not w.startswith("-")), None)
    commands.parsing(words)
    if command in commands.COMMANDS:
        parser = build_parser(commands.COMMANDS[command][0])
    elif command is not None and command in _commands(build_parser("games")):
        parser = build_parser("games")  # a game's own command (pbem distance)
    else:
        parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        if exc.code == 2:  # a usage error: perhaps a command of a game that did not load
            from pbem.cli import games

            for sentence in games.unloadable():
                print(f"pbem: {sentence}", file=sys.stderr)
        raise
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
        return code
    except PbemError as exc:
        if args.verbose:
            _traceback()
        text = str(exc)
        if isinstance(exc, StorageError) and exc.errno in _DISK:
            text = f"{_DISK[exc.errno]}: {text}"
        print(f"pbem {args.command}: {text}", file=sys.stderr)
        return getattr(exc, "exit_code", 1)
    except OSError as exc:
        # What no command turned into a PbemError (a write outside pbem.atomic, a read of a
        # failing disk): one line naming the file, as every other failure.
        if args.verbose:
            _traceback()
        print(f"pbem {args.command}: {os_error_line(exc, args)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _traceback() -> None:
    import traceback  # (--verbose only)

    traceback.print_exc()


#: The failures of the disk itself, said first on the line: the fix is the disk, not the input.
_DISK = {errno.ENOSPC: "disk full", errno.EDQUOT: "disk quota exceeded",
         errno.EFBIG: "file too large for the file system", errno.EIO: "disk error"}


def os_error_line(exc: OSError, args: argparse.Namespace) -> str:
    """One line for an OSError: what failed (the disk's own failures named first) and the path,
    from the error or, when it names none (a write to an open file), the paths the command was
    given."""
    paths = [str(p) for p in (exc.filename, exc.filename2) if p is not None]
    if not paths:
        paths = [str(v) for v in vars(args).values() if isinstance(v, Path)]
    where = " or ".join(paths) if paths else "a file"
    reason = exc.strerror or str(exc) or type(exc).__name__
    kind = _DISK.get(exc.errno or 0)
    return f"{kind}: {reason} ({where})" if kind else f"{where}: {reason}"
