"""``pbem distance``: journey length in turns between two stars."""

from __future__ import annotations

import argparse
import sys

from pbem.game import registry


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "distance",
        help="journey length in turns between two stars",
        description="Print the journey length in turns between two stars as a bare integer. "
        "Star names are case-insensitive; an unknown name exits non-zero and suggests the "
        "closest names.",
    )
    p.add_argument("--game", default="4000ad", help="game id (default: 4000ad)")
    p.add_argument("origin", metavar="FROM", help="departure star")
    p.add_argument("destination", metavar="TO", help="arrival star")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    plugin = registry.load(args.game)
    board = plugin.board  # type: ignore[attr-defined]
    turns = board.distance(args.origin, args.destination)
    print(turns)
    origin, destination = board.lookup(args.origin), board.lookup(args.destination)
    if origin == destination:  # the rules' "same sector = 1" holds for the same star too
        print(f"note: {origin.name} to {destination.name} is the same star: a fleet that "
              f"leaves it can come back after {turns} turn ({origin.name}'s sector counts once)",
              file=sys.stderr)
    return 0
