"""The names of a game directory's files, and which directories under a root are games.

Apart from pbem.store.gamedir (which re-exports them) so that a process that opens no game
(ingest of spam, the root index read through) finds the games without importing the store, the
game plugins or the signature code.
"""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError

CONFIG_NAME = "config.yaml"
LOG_NAME = "log.jsonl"
STATE_NAME = "state.json"


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
