"""``pbem export GAMEDIR -o FILE [--public]``: one self-contained, referee-signed file."""

from __future__ import annotations

import argparse
from pathlib import Path

from pbem.audit.export import export_game
from pbem.cli import commands


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "export",
        description="Write GAMEDIR's game to FILE: a header with the referee's signed checkpoint "
        "of the head, then every log entry exactly as in log.jsonl. Anyone can check it with "
        "pbem audit FILE. With --public, order files, escrow openings and events meant for some "
        "powers only are left out (see docs/audit.md), so a running game can be published.",
    )
    p.add_argument("gamedir", type=Path, metavar="GAMEDIR", help="the game directory")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="FILE",
                   help="the file to write (replaced atomically)")
    p.add_argument("--public", action="store_true",
                   help="leave out what is still secret while the game runs")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    summary = export_game(args.gamedir, args.output, public=args.public)
    withheld = f", {summary.withheld} withheld" if args.public else ""
    print(f"wrote {summary.path}: {summary.entries} entries{withheld}; head "
          f"{summary.checkpoint.short()}")
    print(summary.checkpoint.text(), end="")
    return 0
