"""``pbem components check``: check a component pack (cards, tokens, map pieces; for 4000 A.D.
the board) before a game is created with it (``pbem new --components FILE``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from pbem import canonical
from pbem.cli import commands
from pbem.errors import PbemError, Problem, UsageError
from pbem.game import registry, versions
from pbem.protocol.safeyaml import MAX_BYTES, scan

MAX_PACK = MAX_BYTES  # the strict YAML loader's cap: a hand-typed board is a few KiB

EPILOG = """\
examples:
  pbem components check my-pack.yaml --game GAME
  pbem new games/my-game --game GAME --variant VARIANT --components my-pack.yaml ...

A pack is YAML (or JSON) in the format of the game's stand-in pack (each game's manifest,
game.yaml, names it). Every problem is listed with its path; exit 1 if any.
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "components",
        description="Component packs: the data a game is played with (cards, tokens, map "
        "pieces). A new game records its pack (digest in genesis, data in the game directory).",
    )
    cmds = p.add_subparsers(dest="components_command", metavar="SUBCOMMAND", required=True)
    c = cmds.add_parser(
        "check",
        help="list every problem of a component pack",
        description="Check FILE as a component pack of the game: print every problem with its "
        "path, or the pack's digest when it is good.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    c.add_argument("file", type=Path, metavar="FILE", help="the pack (YAML or JSON)")
    c.add_argument("--game", required=True, help="the game id the pack is for")
    c.set_defaults(func=run_check)


class PackError(PbemError):
    """A pack file that cannot be read as data; carries every problem found."""

    def __init__(self, path: Path, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(map(str, problems)))


def load_pack(path: Path) -> tuple[str, Any]:
    """(file name, data) of a pack file: strict YAML (no aliases, no duplicate keys, ``no`` is a
    string) or JSON, at most MAX_PACK bytes."""
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_PACK + 1)
    except OSError as exc:
        raise UsageError(f"{path}: cannot read ({exc.strerror})") from None
    if len(raw) > MAX_PACK:
        raise UsageError(f"{path}: larger than {MAX_PACK} bytes: not a component pack")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    if path.suffix == ".json":
        try:
            return path.name, json.loads(text)
        except ValueError as exc:
            raise PackError(path, [Problem("not-json", "", f"not valid JSON ({exc})")]) from None
    data, problems = scan(text)
    if problems:
        raise PackError(path, problems)
    return path.name, data


def pack_problems(game: str, path: Path) -> tuple[tuple[str, Any] | None, list[Problem]]:
    plugin = registry.load(game)
    try:
        pack = load_pack(path)
    except PackError as exc:
        return None, exc.problems
    return pack, versions.check_components(plugin, pack[1])


def run_check(args: argparse.Namespace) -> int:
    pack, problems = pack_problems(args.game, args.file)
    if problems:
        for p in problems:
            print(f"{args.file}: {p}")
        print(f"{args.file}: {len(problems)} problem(s): not a usable {args.game} pack")
        return 1
    assert pack is not None
    print(f"{args.file}: a good {args.game} component pack, digest {canonical.digest(pack[1])}")
    return 0
