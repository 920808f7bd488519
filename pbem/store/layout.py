"""The names of a game directory's files, and which directories under a root are games.

Apart from pbem.store.gamedir (which re-exports them) so that a process that opens no game
(ingest of spam, the root index read through) finds the games without importing the store, the
game plugins or the signature code.
"""

from __future__ import annotations

import os
from pathlib import Path

from pbem.errors import PbemError

CONFIG_NAME = "config.yaml"
LOG_NAME = "log.jsonl"
STATE_NAME = "state.json"
RUN_DIR = ".pbem-run"
"""What ``pbem run`` keeps for itself in a root (its due list, its sweep and retention notes):
one folder, so that what a run writes never adds or replaces a name in ROOT, whose mtime the
root index reads as "games added or removed" (pbem.host.rootindex)."""


def run_dir(root: Path) -> Path:
    """``ROOT/.pbem-run/``, made (0700) by the first caller: the root's mtime changes once."""
    where = Path(root) / RUN_DIR
    if not where.is_dir():
        os.makedirs(where, 0o700, exist_ok=True)
    return where


class GameDirError(PbemError):
    """A game directory cannot be created or opened; the message names the file and problem."""


def games_under(root: Path | str) -> list[Path]:
    """Game directories directly under ``root`` (those holding config.yaml and log.jsonl)."""
    root = Path(root)
    if not root.is_dir():
        raise GameDirError(f"{root}: not a directory")
    return sorted(
        p
        for p in root.iterdir()
        if not p.name.startswith(".") and (p / CONFIG_NAME).is_file() and (p / LOG_NAME).is_file()
    )
