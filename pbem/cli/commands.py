"""Every pbem command: the module under pbem.cli that defines it and the line ``pbem --help``
lists it with.

Why a table: ``pbem --help`` (and a mistyped command) lists every command, and importing each
command's module for its one line of help imported what all of them use (the games, Jinja, the
audit's multiprocessing, cryptography). The listing is built from here and imports nothing; a
command's own module is imported only when that command runs (pbem.cli.main). The commands the
games add (``pbem distance``) are listed from their manifests (pbem.cli.games).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pbem.errors import UsageError

#: command -> (its module under pbem.cli, its line in ``pbem --help``), in the listing's order.
COMMANDS: dict[str, tuple[str, str]] = {
    "keygen": ("keygen", "make a key pair (PREFIX.key and PREFIX.pub)"),
    "orders": ("orders", "write, check and sign your orders"),
    "new": ("new", "create a new game directory"),
    "ingest": ("ingest", "read order mail and accept or reject the orders in it"),
    "run": ("run", "the cron job: resolve due turns, mail reports and reminders, deliver the "
            "outbox"),
    "gm": ("gm", "game-master operations: status, pause, resume, extend, replace, autopilot, "
           "concede, end, cancel, digest, quarantine, release"),
    "export": ("export", "write the whole game (config, keys, order files, resolutions) to one "
               "signed file"),
    "dice": ("dice", "re-check a step's public dice and shuffles (docs/protocol.md, Fair "
             "chance)"),
    "audit": ("audit", "verify a game export or directory: chain, signatures, commitments, "
              "replay"),
    "verify-receipt": ("receipt", "check a receipt the referee mailed you: its signature, and "
                       "whether the resolution of its turn used your orders"),
    "archive": ("archive", "write a static replay site of a game (HTML, no server, no external "
                "requests)"),
    "press": ("press", "sign press (messages to other powers) and check relayed press"),
    "vote": ("vote", "sign a vote (draw, cancel, pause, resume or concede) or your prefs"),
    "components": ("components", "check a component pack (cards, tokens, map pieces, a board)"),
    "rules": ("rules", "print a game's rules document (RULES.md: its rules and rulings)"),
}

Subparsers = argparse._SubParsersAction  # the object add_subparsers() returns


class Formatter(argparse.HelpFormatter):
    """argparse's help formatter, asking the terminal's width only when help is written.

    Why: argparse makes a formatter for every argument it adds (to check its metavar), and
    each asked ``shutil.get_terminal_size()``: importing shutil (and with it bz2, lzma and
    zlib) cost every command, ``pbem ingest --stdin`` of each spam mail included, ~1-2 ms it
    never used. The width and the help position are read from the terminal on first use, as
    argparse computes them (its ``_width`` and ``_max_help_position``)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        self._wanted = (width, max_help_position)
        super().__init__(prog, indent_increment, max_help_position, 80 if width is None else width)

    @property  # type: ignore[override]
    def _width(self) -> int:
        width = self._wanted[0]
        if width is None:
            import shutil

            width = shutil.get_terminal_size().columns - 2
            self._wanted = (width, self._wanted[1])
        return width

    @_width.setter
    def _width(self, value: int) -> None:
        """(argparse's __init__ sets it: the width asked for, or none, is kept instead.)"""

    @property  # type: ignore[override]
    def _max_help_position(self) -> int:
        return min(self._wanted[1], max(self._width - 20, self._indent_increment * 2))

    @_max_help_position.setter
    def _max_help_position(self, value: int) -> None:
        """(As ``_width``: computed when read.)"""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose help is formatted by :class:`Formatter`; the parsers of its
    subcommands are Parsers too (argparse makes them of the parent's class)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

#: The words of the command line being parsed, options left out (``parsing``): pbem.cli.games
#: loads the one game whose command they name.
words: tuple[str, ...] = ()


def parsing(argv: Sequence[str]) -> None:
    """Note the command line about to be parsed (its words after ``pbem``)."""
    global words
    words = tuple(w for w in argv if not w.startswith("-"))


def add(sub: Subparsers, name: str, **kwargs: Any) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """The parser of command ``name``, listed with its line from :data:`COMMANDS`."""
    parser: argparse.ArgumentParser = sub.add_parser(name, help=COMMANDS[name][1], **kwargs)
    return parser


def listed(sub: Subparsers) -> None:  # type: ignore[type-arg]
    """Every command as a bare entry (its name and line, no arguments): what ``pbem --help``
    shows, with no command module imported."""
    for name, (_module, text) in COMMANDS.items():
        sub.add_parser(name, help=text, add_help=False)


def now_from(text: str | None) -> datetime:
    """--now, or the clock in whole seconds (deadlines and log times then read cleanly)."""
    if not text:
        return datetime.now(UTC).replace(microsecond=0)
    from pbem.schedule import parse_iso

    return parse_iso(text, "--now")


def existing_root(root: Path) -> Path:
    """ROOT must exist: a mistyped path in a crontab must fail loudly, not create a new root."""
    if not root.is_dir():
        raise UsageError(f"{root}: no such directory (games are made with: pbem new ROOT/GAME …)")
    return root
