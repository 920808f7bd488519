"""``pbem rules GAME``: print the game's rules document (its RULES.md: every rule, where it
lives, and every ruling taken where the rulebook is silent or unclear), which problems and
reports cite as "our ruling A5: ...; pbem rules GAME". It ships with the game, so an installed
pbem prints it without a checkout."""

from __future__ import annotations

import argparse
import sys

from pbem.cli import commands
from pbem.errors import UsageError
from pbem.game import registry

RULES_FILE = "RULES.md"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "rules",
        description="Print the rules document of GAME (its RULES.md): how each rule of the "
        "rulebook is played here and every ruling taken (A5, E6, ...), as cited in problems "
        "and reports. Without GAME, list the games and whether each has one.",
    )
    p.add_argument("game", nargs="?", metavar="GAME", help="a game id (pbem rules lists them)")
    p.set_defaults(func=run)


def text(game_id: str) -> str | None:
    """The game's RULES.md, or None if it has none."""
    path = registry.game_dir(game_id) / RULES_FILE
    return path.read_text(encoding="utf-8") if path.is_file() else None


def run(args: argparse.Namespace) -> int:
    if args.game is None:
        for game_id in registry.available():
            has = text(game_id) is not None
            print(f"{game_id}: " + ("pbem rules " + game_id if has else "no rulings document"))
        return 0
    if args.game not in registry.available():
        raise UsageError(f"no game {args.game!r} (games: {', '.join(registry.available())})")
    doc = text(args.game)
    if doc is None:
        raise UsageError(f"{args.game} ships no {RULES_FILE}: its problems and reports cite no "
                         "ruling of ours")
    sys.stdout.write(doc if doc.endswith("\n") else doc + "\n")
    return 0
