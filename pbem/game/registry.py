"""Finding and loading game plugins from the games directory.

Each game is a package directory under a games root (``games/<package>/``) with a manifest
``game.yaml`` whose ``id`` is the name players and configs use (``4000ad``). The directory name is
an importable Python name (``fourthousand_ad``); the package is imported under it.

The games roots: ``$PBEM_GAMES_DIR`` if set, an ``os.pathsep``-separated list of directories
(``/srv/games:/home/me/mygames``; the tests add tests/toygame's parent this way), else the
bundled ``games/``. Loading a game checks it against the contract (pbem.game.contract): a game
missing a part fails here, with one sentence naming what is missing.

A manifest declares the game's ``information`` (:data:`INFORMATION`): ``hidden`` (the default:
a state holds hidden information between steps, a hand, a face-down card, a secret alliance),
``simultaneous`` (orders are secret until the step that resolves them, nothing is hidden at
rest) or ``perfect`` (nothing is ever hidden). The conformance suite holds a game to it.

A manifest also lists the commands the game's tool adds (``commands:`` top-level, ``orders:``
under ``pbem orders``; name: the line ``--help`` lists it with), so that the command line can
list them and find the one game a command needs without importing any game (``declared``).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, cast

from pbem.errors import PbemError
from pbem.game import datafile
from pbem.game.shapes import Information, Manifest
from pbem.protocol.pyyaml import yaml
from pbem.resources import games_root, templates_root

if TYPE_CHECKING:
    from pbem.game.plugin import GamePlugin


class UnknownGame(PbemError):
    pass


def _manifest(path: Path) -> Manifest:
    try:
        data = datafile.load(path / "game.yaml")
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise UnknownGame(f"{path / 'game.yaml'}: cannot read the game manifest ({exc})") \
            from None
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        raise UnknownGame(f"{path / 'game.yaml'}: a game manifest must have an id: line")
    return cast(Manifest, data)  # its other keys are checked where they are read


#: What a manifest's ``information:`` may say (see the module docstring); absent: ``hidden``.
INFORMATION = tuple(Information)


def _information(path: Path, data: Manifest) -> Information:
    value = data.get("information", INFORMATION[0])
    if value not in INFORMATION:
        raise UnknownGame(f"{path / 'game.yaml'}: information: must be one of "
                          f"{', '.join(INFORMATION)}, not {value!r}")
    return Information(value)


def information(game_id: str) -> Information:
    """What the game's manifest declares of its information (:data:`INFORMATION`)."""
    game_dir(game_id)  # an unknown game: UnknownGame naming the known ones
    path, data = _manifests()[game_id]
    return _information(path, data)


def roots() -> list[Path]:
    """The directories games are looked for in, in order (see the module docstring)."""
    listed = os.environ.get("PBEM_GAMES_DIR", "")
    if listed:
        return [Path(p) for p in listed.split(os.pathsep) if p]
    return [games_root()]


@cache
def _manifests() -> dict[str, tuple[Path, Manifest]]:
    """Game id -> its package directory and manifest, from every manifest under the games
    roots."""
    found: dict[str, tuple[Path, Manifest]] = {}
    manifests = [m for root in roots() for m in sorted(root.glob("*/game.yaml"))]
    for manifest in manifests:
        path = manifest.parent
        data = _manifest(path)
        game_id = data["id"]
        if game_id in found:
            raise UnknownGame(f"two games declare id {game_id!r}: {found[game_id][0]} and {path}")
        found[game_id] = (path, data)
    return found


def _index() -> dict[str, Path]:
    """Game id -> its package directory."""
    return {game_id: path for game_id, (path, _data) in _manifests().items()}


#: The manifest keys listing a game's tool commands: top-level, and under ``pbem orders``.
COMMAND_KINDS = ("commands", "orders")


def declared(kind: str) -> dict[str, tuple[str, str]]:
    """The tool commands of ``kind`` (:data:`COMMAND_KINDS`) every game's manifest declares:
    command name -> (game id, the line it is listed with), in game id order. Reads the
    manifests only: no game is imported."""
    out: dict[str, tuple[str, str]] = {}
    for game_id, (path, data) in sorted(_manifests().items()):
        listed = data.get(kind) or {}
        if not isinstance(listed, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in listed.items()):
            raise UnknownGame(f"{path / 'game.yaml'}: {kind}: must map each command's name to "
                              "its one line of help")
        for name, text in listed.items():
            out.setdefault(name, (game_id, text))
    return out


def declared_modes() -> dict[str, tuple[str, ...]]:
    """Game id -> the turn modes its manifest declares (``modes:``, the first the default;
    the plugin's ``modes`` must say the same, checked at load), for the games that have modes.
    Reads the manifests only: ``pbem new --mode`` offers these without importing a game."""
    out: dict[str, tuple[str, ...]] = {}
    for game_id, (path, data) in sorted(_manifests().items()):
        modes = _modes(path, data)
        if modes:
            out[game_id] = modes
    return out


def _modes(path: Path, data: Manifest) -> tuple[str, ...]:
    listed = data.get("modes") or []
    if not isinstance(listed, list) or not all(isinstance(m, str) and m for m in listed):
        raise UnknownGame(f"{path / 'game.yaml'}: modes: must list the game's turn modes")
    return tuple(listed)


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
    from pbem.game.contract import missing_parts  # (only a process that loads a game)

    if (path / "game.yaml").is_file():
        data = _manifest(path)
        _information(path, data)
        modes = tuple(getattr(plugin, "modes", ()) or ())
        if _modes(path, data) != modes:
            raise UnknownGame(f"game {label!r} ({path}) cannot be loaded: its game.yaml lists "
                              f"modes {list(_modes(path, data))} but its PLUGIN.modes are "
                              f"{list(modes)}")

    dirs = [path / "templates", templates_root() / str(getattr(plugin, "id", label))]
    missing = missing_parts(plugin, dirs)
    if missing:
        raise UnknownGame(f"game {label!r} ({path}) cannot be loaded: it lacks "
                          f"{', '.join(missing)} (see docs/plugins.md)")
    return plugin
