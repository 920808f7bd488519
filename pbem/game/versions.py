"""Rules versions and component packs: what a game records at genesis, so that fixing a rule or
replacing a data file on the host never changes (or breaks the replay of) a game in progress.

A plugin may declare, besides the GamePlugin contract (all optional; read with ``getattr`` so a
plugin that declares none is rules version 1 with no pack):

* ``rules_version: int`` — bumped whenever a change would replay a recorded game differently;
* ``rules_versions_supported: Sequence[int]`` — older versions this code still plays: their games
  go on and set-up receives the recorded version in its options (``rules_version``) so the game can
  keep the old behaviour in its state;
* ``default_components() -> (name, data)`` — the project-authored stand-in pack new games take;
* ``check_components(data) -> list[Problem]`` — every problem of a pack, each with its path;
* ``data_files() -> Mapping[name, data]`` — other data the rules read from the host (variants),
  as parsed JSON data (so a comment does not count) or raw bytes.

Genesis records ``rules_version``, ``data`` (name -> SHA-256 of each data file) and
``components`` ({name, digest} of the pack, whose data lives in the game directory). Set-up gets
the recorded version and the pack's data in its options; nothing else of the host is read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pbem import canonical
from pbem.errors import PbemError, Problem

if TYPE_CHECKING:
    from pbem.game.plugin import GamePlugin

VERSION_KEY = "rules_version"
COMPONENTS_KEY = "components"
DATA_KEY = "data"
UNRECORDED = 1
"""The rules version of a plugin that declares none."""


class RulesVersionError(PbemError):
    """This installed plugin cannot play the game as it was started."""


def rules_version(plugin: object) -> int:
    return int(getattr(plugin, "rules_version", UNRECORDED))


def versions_supported(plugin: object) -> tuple[int, ...]:
    """Every rules version the installed plugin plays (its own always included)."""
    declared = tuple(int(v) for v in getattr(plugin, "rules_versions_supported", ()) or ())
    current = rules_version(plugin)
    return declared if current in declared else (*declared, current)


def default_components(plugin: object) -> tuple[str, object] | None:
    """(name, data) of the plugin's stand-in pack, or None for a game without one."""
    make = getattr(plugin, "default_components", None)
    return None if make is None else make()  # type: ignore[no-any-return]


def check_components(plugin: GamePlugin, data: object) -> list[Problem]:
    check = getattr(plugin, "check_components", None)
    if check is None:
        return [Problem("components", "", f"the {plugin.id} game takes no component pack")]
    return list(check(data))


def components_digest(data: object) -> str:
    return canonical.digest(data)


_DIGESTS: dict[type, dict[str, str]] = {}


def data_digests(plugin: object) -> dict[str, str]:
    """The digest of each of the plugin's data files, computed once per process and plugin
    class (as its code is loaded once, its data files are the class's: every object of it,
    whoever wraps it, reads the same files): parsing them is milliseconds of YAML, and every
    visit that loads a game's state, and every audit, checks them (a changed file is found by
    the next process: a cron run, an ingest)."""
    cls = type(plugin)
    cached = _DIGESTS.get(cls)
    if cached is not None:
        return dict(cached)
    files = getattr(plugin, "data_files", None)
    if files is None:
        return {}
    out = {name: hashlib.sha256(value).hexdigest() if isinstance(value, bytes)
           else canonical.digest(value) for name, value in sorted(files().items())}
    _DIGESTS[cls] = out
    return dict(out)


def genesis_fields(plugin: object, components: tuple[str, object] | None) -> dict[str, Any]:
    """The fields GameDir.create adds to genesis: version, data digests, pack name and digest."""
    out: dict[str, Any] = {VERSION_KEY: rules_version(plugin), DATA_KEY: data_digests(plugin)}
    if components is not None:
        name, data = components
        out[COMPONENTS_KEY] = {"name": name, "digest": components_digest(data)}
    return out


def recorded_pack(plugin: object, genesis: Mapping[str, Any],
                  find: Callable[[str], object] | None = None) -> tuple[bool, object]:
    """(named, data) of the component pack genesis names, by its digest: the game's stand-in
    pack, else what ``find(digest)`` gives; data is None where the pack cannot be had here."""
    recorded = genesis.get(COMPONENTS_KEY)
    if recorded is None:
        return False, None
    digest = recorded.get("digest") if isinstance(recorded, dict) else None
    default = default_components(plugin)
    if default is not None and components_digest(default[1]) == digest:
        return True, default[1]
    data = find(str(digest)) if find is not None else None
    if data is None or components_digest(data) != digest:
        return True, None
    return True, data


def recorded_version(genesis: Mapping[str, Any]) -> int | None:
    """The rules version genesis records (every 1.0 genesis does; None: none, or not a whole
    number)."""
    value = genesis.get(VERSION_KEY)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def refusal(game_id: str, plugin: GamePlugin, genesis: Mapping[str, Any]) -> str | None:
    """One sentence saying why the installed plugin cannot play this game, or None if it can."""
    recorded = recorded_version(genesis)
    current = rules_version(plugin)
    if recorded is None:
        return (f"game {game_id}: its genesis records no rules version (every pbem 1.0 "
                f"genesis does), so no {plugin.id} rules can be chosen to replay it")
    if recorded != current and recorded not in versions_supported(plugin):
        return (f"game {game_id} was started under {plugin.id} rules version {recorded}, "
                f"but the installed {plugin.id} plays rules version {current} and cannot play "
                f"version {recorded}: the game is refused until a pbem "
                f"that plays version {recorded} runs it")
    recorded_data = genesis.get(DATA_KEY)
    if recorded == current and isinstance(recorded_data, Mapping):
        now = data_digests(plugin)
        for name, digest in sorted(recorded_data.items()):
            found = now.get(name, "missing")
            if found != digest:
                return (f"game {game_id}: the {plugin.id} data file {name} changed since the "
                        f"game started (digest {str(digest)[:12]} then, {found[:12]} now) "
                        f"while the rules version stayed {current}: restore the file or raise "
                        f"rules_version")
    return None


def check_playable(game_id: str, plugin: Any, genesis: Mapping[str, Any]) -> None:
    reason = refusal(game_id, plugin, genesis)
    if reason is not None:
        raise RulesVersionError(reason)


def setup_options(genesis: Mapping[str, Any], components: Any = None) -> dict[str, Any]:
    """The options set-up receives on replay: genesis's options, plus the recorded rules version
    and, for a game with a component pack, the pack's data."""
    options = dict(genesis["options"])
    recorded = recorded_version(genesis)
    if recorded is None:
        raise RulesVersionError("the genesis records no rules version (every pbem 1.0 genesis "
                                "does)")
    options[VERSION_KEY] = recorded
    if COMPONENTS_KEY in genesis:
        options[COMPONENTS_KEY] = components
    return options
