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
    "gm": ("gm", "game-master operations: status, pause, resume, extend, replace, concede, end, "
           "quarantine, release"),
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
    "components": ("components", "check a component pack (cards, tokens, map pieces, a board)"),
    "rules": ("rules", "print a game's rules document (RULES.md: its rules and rulings)"),
}

Subparsers = argparse._SubParsersAction  # the object add_subparsers() returns

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
