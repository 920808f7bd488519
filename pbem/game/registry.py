"""Finding and loading game plugins from the games directory."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path

import yaml

from pbem.errors import PbemError
from pbem.game.plugin import GamePlugin
from pbem.resources import games_root


class UnknownGame(PbemError):
    pass


def available() -> list[str]:
    """Ids of every game that has a manifest under the games directory."""
    root = games_root()
    return sorted(p.parent.name for p in root.glob("*/game.yaml"))


def game_dir(game_id: str) -> Path:
    path = games_root() / game_id
    if not (path / "game.yaml").is_file():
        known = ", ".join(available()) or "none"
        raise UnknownGame(f"no game named {game_id!r} (known games: {known})")
    return path


def module_name(game_id: str) -> str:
    """The import name the game's package is loaded under (game ids may start with a digit)."""
    return "pbem_game_" + "".join(c if c.isalnum() else "_" for c in game_id)


@cache
def load(game_id: str) -> GamePlugin:
    """Import a game's package from its directory and return its PLUGIN."""
    path = game_dir(game_id)
    manifest = yaml.safe_load((path / "game.yaml").read_text(encoding="utf-8"))
    if not isinstance(manifest, dict) or manifest.get("id") != game_id:
        raise UnknownGame(f"{path / 'game.yaml'}: manifest must have id: {game_id}")
    name = module_name(game_id)
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
