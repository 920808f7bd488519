"""Finding and loading game plugins from the games directory.

Each game is a package directory under the games root (``games/<package>/``) with a manifest
``game.yaml`` whose ``id`` is the name players and configs use (``4000ad``). The directory name is
an importable Python name (``fourthousand_ad``); the package is imported under it.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from pbem.errors import PbemError
from pbem.game.plugin import GamePlugin
from pbem.resources import games_root


class UnknownGame(PbemError):
    pass


def _manifest(path: Path) -> dict[str, Any]:
    data = yaml.safe_load((path / "game.yaml").read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        raise UnknownGame(f"{path / 'game.yaml'}: a game manifest must have an id: line")
    return data


@cache
def _index() -> dict[str, Path]:
    """Game id -> its package directory, read from every manifest under the games root."""
    found: dict[str, Path] = {}
    for manifest in sorted(games_root().glob("*/game.yaml")):
        path = manifest.parent
        game_id = _manifest(path)["id"]
        if game_id in found:
            raise UnknownGame(f"two games declare id {game_id!r}: {found[game_id]} and {path}")
        found[game_id] = path
    return found


def available() -> list[str]:
    """Ids of every game that has a manifest under the games directory."""
    return sorted(_index())


def game_dir(game_id: str) -> Path:
    path = _index().get(game_id)
    if path is None:
        known = ", ".join(available()) or "none"
        raise UnknownGame(f"no game named {game_id!r} (known games: {known})")
    return path


def module_name(game_id: str) -> str:
    """The import name of the game's package: its directory name."""
    return game_dir(game_id).name


@cache
def load(game_id: str) -> GamePlugin:
    """Import a game's package from its directory and return its PLUGIN."""
    path = game_dir(game_id)
    name = path.name
    if not name.isidentifier():
        raise UnknownGame(f"{path}: a game's directory name must be an importable name")
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, path / "__init__.py", submodule_search_locations=[str(path)]
        )
        if spec is None or spec.loader is None:
            raise UnknownGame(f"{path}: no __init__.py to load")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    plugin: GamePlugin = sys.modules[name].PLUGIN
    return plugin
