"""``pbem archive GAMEDIR|EXPORT -o DIR [--public]``: a static replay site of a game."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from pbem.archive import build_archive
from pbem.audit.export import export_game
from pbem.cli import commands
from pbem.errors import PbemError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "archive",
        description="Write into DIR a static site that replays the game step by step: a summary "
        "with charts, a page per step with the map and events as the public saw them, the "
        "audit's verdict and a button that re-verifies the export in the browser. Built from "
        "an export (pbem export); given a game directory, the export is made first (public "
        "with --public). The site holds only what that export holds; a full export of a game "
        "still running is refused (use --public). Open DIR/index.html, or publish DIR on any "
        "static web host.",
    )
    p.add_argument("source", type=Path, metavar="GAMEDIR|EXPORT",
                   help="a game directory, or an export file written by pbem export")
    p.add_argument("-o", "--output", type=Path, required=True, metavar="DIR",
                   help="the directory to write the site into (created if missing)")
    p.add_argument("--public", action="store_true",
                   help="build from the public export (for a game in progress); with an "
                   "export file, refuse one that is not public")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    source: Path = args.source
    if source.is_dir():
        with tempfile.TemporaryDirectory(prefix="pbem-archive-") as tmp:
            export = Path(tmp) / "export.jsonl"
            export_game(source, export, public=args.public)
            summary = build_archive(export.read_bytes(), str(source), args.output)
    else:
        try:
            data = source.read_bytes()
        except OSError as exc:
            raise PbemError(f"cannot read {source}: {exc.strerror or exc}") from None
        summary = build_archive(data, str(source), args.output, public_only=args.public)
    kind = "public" if summary.public else "full"
    print(f"wrote a {kind} archive of {summary.steps} steps: {summary.index}")
    return 0
