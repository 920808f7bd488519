"""``pbem distance``: journey length in turns between two stars."""

from __future__ import annotations

import argparse
from pathlib import Path

from pbem.game import registry
from pbem.protocol import orderfile


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "distance",
        help="journey length in turns between two stars",
        description="Print the journey length in turns between two stars as a bare integer. "
        "Star names are case-insensitive; an unknown name exits non-zero and suggests the "
        "closest names.",
    )
    p.add_argument("--game", default="4000ad", help="game id (default: 4000ad)")
    p.add_argument("--view", type=Path, metavar="VIEW.json",
                   help="measure on the board of your game's view (view.json) instead of the "
                   "stand-in board installed with pbem")
    p.add_argument("origin", metavar="FROM", help="departure star")
    p.add_argument("destination", metavar="TO", help="arrival star")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    plugin = registry.load(args.game)
    if args.view is not None:
        # the game's own board, as its view carries it: no host file is read
        board = plugin.board_of_view(orderfile.load_view(args.view))  # type: ignore[attr-defined]
    else:
        board = plugin.board  # type: ignore[attr-defined]
    print(board.distance(args.origin, args.destination))
    return 0
