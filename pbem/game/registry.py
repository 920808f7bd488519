"""Finding and loading game plugins from the games directory.

Each game is a package directory under a games root (``games/<package>/``) with a manifest
``game.yaml`` whose ``id`` is the name players and configs use (``4000ad``). The directory name is
an importable Python name (``fourthousand_ad``); the package is imported under it.

The games roots: ``$PBEM_GAMES_DIR`` if set, an ``os.pathsep``-separated list of directories
(``/srv/games:/home/me/mygames``; the tests add tests/toygame's parent this way), else the
bundled ``games/``. Loading a game checks it against the contract (pbem.game.contract): a game
missing a part fails here, with one sentence naming what is missing.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from pbem.errors import PbemError
from pbem.game.contract import missing_parts
from pbem.game.plugin import GamePlugin
from pbem.resources import games_root, templates_root


class UnknownGame(PbemError):
    pass


def _manifest(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load((path / "game.yaml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise UnknownGame(f"{path / 'game.yaml'}: cannot read the game manifest ({exc})") \
            from None
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        raise UnknownGame(f"{path / 'game.yaml'}: a game manifest must have an id: line")
    return data


def roots() -> list[Path]:
    """The directories games are looked for in, in order (see the module docstring)."""
    listed = os.environ.get("PBEM_GAMES_DIR", "")
    if listed:
        return [Path(p) for p in listed.split(os.pathsep) if p]
    return [games_root()]


@cache
def _index() -> dict[str, Path]:
    """Game id -> its package directory, read from every manifest under the games roots."""
    found: dict[str, Path] = {}
    manifests = [m for root in roots() for m in sorted(root.glob("*/game.yaml"))]
    for manifest in manifests:
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


def template_dirs(game_id: str) -> list[Path]:
    """Where a game's own templates are: its package's ``templates/``, then pbem's bundled
    ``templates/<game id>/`` (the common templates come after these)."""
    return [game_dir(game_id) / "templates", templates_root() / game_id]


@cache
def load(game_id: str) -> GamePlugin:
    """Import a game's package from its directory, check it against the contract and return
    its PLUGIN."""
    return load_path(game_dir(game_id), game_id)


def load_path(path: Path, game_id: str | None = None) -> GamePlugin:
    """Import the game package in directory ``path`` (imported under its directory name) and
    check its PLUGIN against the contract. Tests load copies of a game this way."""
    path = Path(path)
    name = path.name
    label = game_id or name
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
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # a game's own code failed: say which game, in one line
            for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                del sys.modules[loaded]
            raise UnknownGame(f"game {label!r} ({path}) cannot be loaded: its code fails on "
                              f"import ({type(exc).__name__}: {exc})") from exc
    plugin: GamePlugin | None = getattr(sys.modules[name], "PLUGIN", None)
    if plugin is None:
        raise UnknownGame(f"game {label!r} ({path}) cannot be loaded: its __init__.py exports "
                          "no PLUGIN")
    dirs = [path / "templates", templates_root() / str(getattr(plugin, "id", label))]
    missing = missing_parts(plugin, dirs)
    if missing:
        raise UnknownGame(f"game {label!r} ({path}) cannot be loaded: it lacks "
                          f"{', '.join(missing)} (see docs/plugins.md)")
    return plugin
