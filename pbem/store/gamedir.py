"""A game on disk: the directory layout and the operations on it.

::

  ROOT/                        many games under one root
    referee.key referee.pub    the referee's Ed25519 key (pbem.store.referee)
    GAME/                      the directory name is the game id
      config.yaml              human-edited (pbem.store.gameconfig)
      keys/POWER.pub           players' public keys (as named in config.yaml)
      log.jsonl                the hash-chained log, the source of truth (pbem.store.log)
      state.json               cache {"log_length", "head", "digest", "state"}, checked on load
      submissions/             every submission received (pbem.store.submissions)
      lock                     the per-game lock file (pbem.store.lock)
      components.json          the game's component pack (for 4000 A.D. its board), mode 0600
      outbox/ reports/         the mail layer's

Files are written 0600 and directories 0700 (pbem.atomic); none of the paths pbem uses in a game
directory, nor the directory itself, may be a symbolic link (see ``OWN_NAMES``).

The genesis entry (seq 0, kind ``genesis``) holds everything the game started from: the config as
data, every power's public key, the referee's public key, the plugin id, variant and the options
given to ``plugin.setup``, the canonical digest of the initial state and the first deadline; and
(pbem.game.versions) the plugin's rules version, the digests of its data files and the name and
digest of the component pack the game is played with. Set-up on replay gets the recorded version
and the game's own pack, never the host's current files, so a rules fix or a new board file
changes only new games; a game the installed plugin cannot play is refused with one sentence.
``random``, the referee's fair-chance commitments (pbem.store.chance; its nonce is the game's
``instance``).

``state.json`` is only a cache. :meth:`GameDir.load_state` checks it against the log head and its
own digest; a missing, corrupted, truncated or stale cache is rebuilt with the caller's replay
function (state must always equal the replay of the log) and the reason is returned.

Size: the game directory's files, genesis and the state cache share one lock and one open;
rules-version and trusted-point checks happen inside that open.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import secrets
import stat
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem import atomic, canonical
from pbem.game import versions
from pbem.game.plugin import GamePlugin
from pbem.game.shapes import GameState
from pbem.protocol.keys import PrivateKey, PublicKey
from pbem.record import Record
from pbem.schedule import to_iso
from pbem.store import chance, trusted
from pbem.store import log as glog
from pbem.store.checkpoint import Checkpoint
from pbem.store.gameconfig import GameConfig
from pbem.store.layout import CONFIG_NAME as CONFIG_NAME
from pbem.store.layout import LOG_NAME as LOG_NAME
from pbem.store.layout import STATE_NAME as STATE_NAME
from pbem.store.layout import GameDirError as GameDirError
from pbem.store.layout import games_under as games_under
from pbem.store.log import Entry, GameLog, LogError, TornTail
from pbem.store.records import LogBody
from pbem.store.referee import referee_key
from pbem.store.submissions import SubmissionStore
from pbem.store.summary import STATELESS

KEYS_DIR = "keys"
COMPONENTS_NAME = "components.json"
GENESIS_FORMAT = "pbem-game-v1"

State = GameState
Replay = Callable[[Sequence[Entry]], State]


class ConfigMismatch(GameDirError):
    """config.yaml changed a field that is fixed once the game has started."""


class LoadedState(Record):
    __slots__ = ("state", "rebuilt")
    state: State
    rebuilt: str | None  # why state.json was rebuilt from the log, or None if it was current

    def __init__(self, state: State, rebuilt: str | None) -> None:
        object.__setattr__(self, "state", state)
        object.__setattr__(self, "rebuilt", rebuilt)


def setup_options(config: GameConfig) -> dict[str, Any]:
    """The options ``plugin.setup`` receives: the config's options plus game_id and mode."""
    return {**config.options, "game_id": config.game_id, "mode": config.mode}


def check_against_plugin(config: GameConfig, keys: Mapping[str, Any], plugin: GamePlugin) -> None:
    """The config fits the game: same game id, a known variant, exactly its powers, one key each."""
    if plugin.id != config.game:
        raise GameDirError(f"the config is for game {config.game!r}, the plugin is {plugin.id!r}")
    variants = plugin.variants()
    if config.variant not in variants:
        raise GameDirError(
            f"unknown variant {config.variant!r} of {plugin.id} (known: "
            f"{', '.join(sorted(variants))})"
        )
    wanted = list(variants[config.variant].powers)
    missing = [p for p in wanted if p not in config.powers]
    unknown = [p for p in config.powers if p not in wanted]
    if unknown:
        raise GameDirError(
            f"variant {config.variant} has no power {unknown[0]!r} (its powers: "
            f"{', '.join(wanted)})"
        )
    if missing:
        raise GameDirError(
            f"variant {config.variant} needs power {missing[0]!r} too (its powers:"
            f" {', '.join(wanted)})"
        )
    no_key = [p for p in config.powers if p not in keys]
    if no_key:
        raise GameDirError(f"no public key for power {no_key[0]!r}")
    extra = [p for p in keys if p not in config.powers]
    if extra:
        raise GameDirError(f"a key is given for {extra[0]!r}, which is not a power of this game")


class GameDir:
    """An opened, verified game directory. Hold its lock (pbem.store.lock) before changing it."""

    def __init__(self, path: Path, config: GameConfig, log: GameLog, repaired: bytes = b"") -> None:
        self.path = path
        self.config = config
        self.log = log
        self.repaired = repaired  # bytes of a torn last line dropped when opening, if any
        self.submissions = SubmissionStore(path)

    # --- paths ------------------------------------------------------------------------------

    @property
    def root(self) -> Path:
        return self.path.parent

    @property
    def game_id(self) -> str:
        return self.config.game_id

    @property
    def log_path(self) -> Path:
        return self.path / LOG_NAME

    @property
    def state_path(self) -> Path:
        return self.path / STATE_NAME

    # --- creating and opening ---------------------------------------------------------------

    @classmethod
    def create(
        cls,
        root: Path | str,
        config: GameConfig,
        keys: Mapping[str, PublicKey],
        plugin: GamePlugin,
        now: datetime,
        components: tuple[str, object] | None = None,
    ) -> GameDir:
        """Create ROOT/GAME_ID with its config, keys, genesis log entry and state.

        ``components`` is (name, data) of the component pack (``pbem new --components``); by
        default the plugin's stand-in pack. It is checked by the game (every problem listed),
        its digest recorded in genesis and its data kept in the game directory.

        The directory is built under a temporary name and renamed into place, so a crash leaves
        either no game or a complete one. The referee key is created under ROOT if missing.
        """
        root = Path(root)
        check_against_plugin(config, keys, plugin)
        if components is None:
            components = versions.default_components(plugin)
        if components is not None:
            problems = versions.check_components(plugin, components[1])
            if problems:
                raise GameDirError(
                    f"component pack {components[0]}: "
                    + "; ".join(str(p) for p in problems)
                )
        path = root / config.game_id
        if path.exists() and (not path.is_dir() or any(path.iterdir())):
            raise GameDirError(f"{path} exists already: choose another game id or remove it")
        atomic.make_dirs(root)
        referee, _ = referee_key(root, create=True)
        options = setup_options(config)
        recorded = versions.genesis_fields(plugin, components)
        initial = plugin.setup(
            config.variant,
            versions.setup_options(
                {**recorded, "options": options}, components[1] if components else None
            ),
        )
        genesis = {
            "format": GENESIS_FORMAT,
            "game_id": config.game_id,
            "config": config.to_data(),
            "keys": {power: keys[power].text() for power in config.powers},
            "referee": referee.public.text(),
            "plugin": plugin.id,
            "variant": config.variant,
            "options": options,
            "initial_state": canonical.digest(initial),
            "deadline": to_iso(config.schedule.next_deadline(
                now, deadline_class=deadline_class(plugin, initial))),
            **recorded,
        }
        genesis[chance.RANDOM] = chance.genesis_random(referee, config.game_id)
        tmp = root / f".new-{config.game_id}-{secrets.token_hex(4)}"
        try:
            atomic.make_dirs(tmp / KEYS_DIR)
            for power, entry in config.powers.items():
                key_file = tmp / entry.key
                atomic.make_dirs(key_file.parent)
                atomic.write_text(key_file, keys[power].text(power) + "\n")
            atomic.write_text(tmp / CONFIG_NAME, config.to_yaml())
            if components is not None:
                # 0600: a pack may hold what players must not read (a deck's cards, say)
                # in the pack's own key order (the digest is canonical, the order may matter)
                atomic.write_bytes(tmp / COMPONENTS_NAME, json.dumps(
                    components[1], ensure_ascii=False, separators=(",", ":")).encode() + b"\n",
                    mode=0o600)
            log = GameLog.create(tmp / LOG_NAME, now, genesis)
            _write_state(tmp / STATE_NAME, log.head.length, log.head.hash, initial)
            atomic.fsync_dir(tmp)
            if path.exists():
                path.rmdir()  # an empty directory the user made for the game
            os.rename(tmp, path)
            atomic.fsync_dir(root)
        except OSError as exc:
            raise atomic.storage_error(path, "create the game in", exc) from None
        finally:
            if tmp.exists():
                import shutil  # (a failed create only: opening a game, every ingest, needs none)

                shutil.rmtree(tmp, ignore_errors=True)
        return cls.open(path)

    @classmethod
    def open(cls, path: Path | str, *, repair_torn_tail: bool = False,
             full: bool = False) -> GameDir:
        """Load the config and verify the log: from its trusted point (pbem.store.trusted) only
        the entries after it, or the whole log when there is no valid point or ``full`` is set.

        A torn last line (an interrupted append) raises TornTail unless ``repair_torn_tail`` is
        set, in which case it is dropped (hold the lock) and kept in ``.repaired``. Any other
        damage raises LogError: never repaired here. A log that does not continue a MAC-valid
        trusted point (shorter, or changed at or below it) raises LogError too, even when the
        rest of it verifies: it was truncated or rewritten after pbem verified it.
        """
        path = Path(path)
        # the directory first (a link is named as such), then what pbem reads and writes in
        # it (nothing there when it is not a directory: the next line says so)
        atomic.refuse_links(path.parent, [path])
        _refuse_own_links(path)
        if not path.is_dir():
            raise GameDirError(f"{path}: no such game directory")
        data = GameConfig.read(path / CONFIG_NAME)
        config = GameConfig.from_data(data, str(path / CONFIG_NAME))
        point = None if full else trusted.read(path)[0]
        repaired = b""
        try:
            log = _load_log(path / LOG_NAME, point)
        except TornTail:
            if not repair_torn_tail:
                raise
            repaired = glog.repair_torn_tail(path / LOG_NAME)
            log = _load_log(path / LOG_NAME, point)
        game = cls(path, config, log, repaired)
        game._check_config(data)
        return game

    def _check_config(self, data: object = None) -> None:
        """config.yaml against the genesis entry; ``data``: what config.yaml was parsed from
        (the same as the genesis entry's, its fixed fields are the same without a parse)."""
        if self.config.game_id != self.path.name:
            raise ConfigMismatch(
                f"{self.path / CONFIG_NAME}: game_id is {self.config.game_id!r} "
                f"but the directory is named {self.path.name!r}"
            )
        body = self.genesis
        if not isinstance(body, dict) or body.get("format") != GENESIS_FORMAT:
            raise LogError(
                str(self.log_path), 1, 0, f"the genesis entry is not a {GENESIS_FORMAT} game start"
            )
        if data is not None and _same_data(data, body.get("config")):
            return  # config.yaml as the game started: its fixed fields are the genesis's
        started = GameConfig.from_data(body["config"], f"{self.log_path} genesis config")
        now_fixed, then_fixed = self.config.fixed_fields(), started.fixed_fields()
        for key, value in now_fixed.items():
            if value != then_fixed[key]:
                raise ConfigMismatch(
                    f"{self.path / CONFIG_NAME}: {key} is {value!r} but the game started with "
                    f"{then_fixed[key]!r}; it cannot change once the game has started"
                )

    # --- the log's view of the game ---------------------------------------------------------

    @property
    def genesis(self) -> LogBody:
        return self.log.genesis.body

    def registered_keys(self) -> dict[str, PublicKey]:
        """Each power's public key as the log records it (genesis, then ``key`` entries whose body
        is ``{"power": …, "key": "pbem-ed25519 …"}``)."""
        return {power: PublicKey.parse(text) for power, text in self.log.summary.keys.items()}

    def referee_public(self) -> PublicKey:
        return PublicKey.parse(self.genesis["referee"])

    def check_rules(self, plugin: GamePlugin) -> None:
        """Raise RulesVersionError (one sentence naming both versions) unless the installed
        plugin plays the rules version this game started under."""
        versions.check_playable(self.game_id, plugin, self.genesis)

    def components(self) -> object:
        """The game's own component pack (None if genesis records none), checked against the
        digest recorded at creation."""
        recorded = self.genesis.get(versions.COMPONENTS_KEY)
        if recorded is None:
            return None
        path = self.path / COMPONENTS_NAME
        try:
            data = json.loads(path.read_bytes())
        except FileNotFoundError:
            raise GameDirError(f"{path} is missing: the game's component pack "
                               f"{recorded.get('name')} is needed to replay it") from None
        except (OSError, ValueError) as exc:
            raise GameDirError(f"{path} cannot be read ({exc})") from None
        if versions.components_digest(data) != recorded.get("digest"):
            raise GameDirError(f"{path}: the component pack does not match the digest recorded "
                               "in genesis (changed after the game started)")
        return data

    def setup_options(self) -> dict[str, Any]:
        """What ``plugin.setup`` receives on replay: genesis's options, the recorded rules
        version and the game's own component pack."""
        return versions.setup_options(self.genesis, self.components())

    def initial_state(self, plugin: GamePlugin) -> State:
        """``plugin.setup`` re-run with the genesis variant and options (and the recorded rules
        version and pack), checked against the digest recorded at creation (a changed plugin
        would replay a different game)."""
        self.check_rules(plugin)
        state = plugin.setup(self.genesis["variant"], self.setup_options())
        if canonical.digest(state) != self.genesis["initial_state"]:
            raise GameDirError(
                f"{self.log_path}: the {plugin.id} plugin's set-up no longer "
                "matches the initial state recorded when the game was created"
            )
        return state

    def checkpoint(self, key: PrivateKey) -> Checkpoint:
        """The referee's signed checkpoint of the current log head."""
        head = self.log.head
        return Checkpoint.sign(key, self.game_id, head.length, head.hash)

    # --- the state cache --------------------------------------------------------------------

    def save_state(self, state: State, *, encoded: bytes | None = None,
                   digest: str | None = None) -> None:
        """Write state.json for the current log head (after the log append that produced it).

        Without fsync: state.json is a cache. Every reader checks it against the log head and
        its digest (:meth:`load_state`) and rebuilds it by replay when it is missing, stale,
        torn or corrupt, so a crash that loses this write (or leaves the new name with
        unwritten data) costs one replay, never a wrong state. The log append before it is
        the durable step (docs/operations.md, "The turn job's write order"). ``encoded``:
        ``canonical.encode(state)``, where the caller has it already; ``digest``: its SHA-256
        (hex), where the caller has that too (a resolve entry records it)."""
        head = self.log.head
        _write_cache(self.state_path,
                     _state_bytes(head.length, head.hash, state, encoded, digest))

    def load_state(self, replay: Replay) -> LoadedState:
        """The state at the log head: from state.json if it is current and intact, otherwise
        rebuilt with ``replay(log entries)`` and written back."""
        reason = self._cache_problem()
        if isinstance(reason, dict):
            return LoadedState(reason, None)
        state = replay(self.log.entries)
        self.save_state(state)
        return LoadedState(state, reason)

    def _unchanged_since(self, length: object, head: object) -> bool:
        """Whether the cache written at (length, head) is still the state now: that entry is in
        this log, and every later entry is one that does not change the state (accepted
        orders, key replacements), so accepting an order needs no state write."""
        log = self.log  # indexed, not listed: entries below a trusted point stay unread
        if [length, head] == log.summary.state_head:
            return True  # the last entry that changes the state; every later one is stateless
        count = len(log)
        if not isinstance(length, int) or not 0 < length <= count:
            return False
        if log[length - 1].hash != head:
            return False
        return all(log[seq].kind in STATELESS_KINDS for seq in range(length, count))

    def _cache_problem(self) -> State | str:
        path = self.state_path
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return f"{path} is missing"
        except OSError as exc:
            return f"{path} cannot be read ({exc.strerror})"
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            return f"{path} is not valid JSON (corrupted or truncated)"
        if not isinstance(data, dict) or set(data) != {"log_length", "head", "digest", "state"}:
            return f"{path} does not have the fields log_length, head, digest, state"
        head = self.log.head
        if (data["log_length"], data["head"]) != (head.length, head.hash) and not (
            self._unchanged_since(data["log_length"], data["head"])
        ):
            return (
                f"{path} is stale: it is for log length {data['log_length']}, the log has "
                f"{head.length} entries"
            )
        state = data["state"]
        if not isinstance(state, dict) or not _digest_holds(raw, data):
            return f"{path}: the state does not match its digest (corrupted)"
        return state


OWN_NAMES = (CONFIG_NAME, LOG_NAME, STATE_NAME, KEYS_DIR, "lock", "mailed.json", "STOPPED",
             "outbox", "submissions", trusted.NAME)
"""What pbem reads and writes in a game directory: none of these may be a symbolic link (or
lead out of the root), so a planted link cannot make pbem read or overwrite a file elsewhere."""


_NOTHING_THERE = frozenset({errno.ENOENT, errno.ENOTDIR, errno.ELOOP, errno.EBADF})


def _refuse_own_links(path: Path) -> None:
    """``atomic.refuse_links(path.parent, [path / name for name in OWN_NAMES])`` once ``path``
    itself passed it (not a link, inside its root): a name in it that is no link then
    resolves inside the root too, so what is left to ask is one ``lstat`` per name (without
    a ``Path`` each and the directory resolved again: 70 -> 30 µs per open)."""
    base = f"{path}/"
    for name in OWN_NAMES:
        try:
            mode = os.lstat(base + name).st_mode
        except OSError as exc:
            if exc.errno in _NOTHING_THERE:
                continue  # as refuse_links: nothing there, or the game is no directory
            raise
        if stat.S_ISLNK(mode):
            raise atomic.SymlinkRefused(path / name)


STATELESS_KINDS = STATELESS
"""Log entries that never change the state: a cache made before them is still current."""


def _same_data(one: object, other: object) -> bool:
    """Whether two parsed documents are the same data, value and type (canonically encoded
    alike: 1, 1.0 and true differ): a config parsed from either is then the same."""
    try:
        return canonical.encode(one) == canonical.encode(other)
    except (TypeError, ValueError):
        return False


def _load_log(path: Path, point: glog.TrustedPoint | None) -> GameLog:
    """The log verified from ``point`` (None: whole). When the log does not continue the point
    it is verified whole instead (the log wins over the cache: a rewritten entry is then found
    by that verification or by the replay against the recorded digests); a log shorter than a
    point pbem verified is refused: it was truncated."""
    if point is None:
        return GameLog.load(path)
    try:
        return GameLog.load_trusted(path, point)
    except glog.Untrusted as exc:
        log = GameLog.load(path)  # damage the full verification finds is named first
        if len(log) < point.entries or log.trusted_point().offset < point.offset:
            raise LogError(str(path), None, None,
                           f"the log was truncated: it has {len(log)} entries, pbem verified "
                           f"{point.entries} before ({exc}); if a backup was restored on "
                           f"purpose, remove {path.parent / trusted.NAME}") from None
        return log


def _state_bytes(length: int, head: str, state: State, encoded: bytes | None = None,
                 digest: str | None = None) -> bytes:
    """The canonical encoding of ``{"log_length", "head", "digest", "state"}`` and a newline,
    with the state encoded once (for its digest and the file alike; the keys in their sorted
    order): a state at turn 300 is ~44 KB, encoded on every resolution (``encoded``: that
    encoding, made by the caller, and ``digest`` its SHA-256 if the caller made that too:
    only with ``encoded``)."""
    if encoded is None:
        body, digest = canonical.encode(state), None
    else:
        body = encoded
    if digest is None:
        digest = hashlib.sha256(body).hexdigest()
    return b"".join([_state_start(digest, head, length), body, b"}\n"])


def _state_start(digest: object, head: object, length: object) -> bytes:
    """What state.json holds before the state's encoding: its other fields, in order."""
    return b"".join([b'{"digest":', canonical.encode(digest), b',"head":', canonical.encode(head),
                     b',"log_length":', canonical.encode(length), b',"state":'])


def _digest_holds(raw: bytes, data: dict[str, Any]) -> bool:
    """Whether the state read from state.json (``raw``, parsed: ``data``) has its digest: where
    the file is as :func:`_state_bytes` writes it, the digest of the state's bytes as they
    stand (a hash that matches them makes them a canonical encoding: the state's own, the
    last value of the file), else of the state encoded again. The same answer, without
    encoding the state again (~44 KB at turn 300) on every visit."""
    digest = data["digest"]
    try:
        start = _state_start(digest, data["head"], data["log_length"])
    except (TypeError, ValueError):
        start = b""
    if (start and raw.startswith(start) and raw.endswith(b"}\n")
            and hashlib.sha256(raw[len(start):-2]).hexdigest() == digest):
        return True
    return bool(canonical.digest(data["state"]) == digest)


def _write_state(path: Path, length: int, head: str, state: State) -> None:
    atomic.write_bytes(path, _state_bytes(length, head, state))


def _write_cache(path: Path, data: bytes) -> None:
    """Replace the cache file ``path`` by ``data``, without fsync: a crash may leave the old
    file, the new one, or a torn mix of the two (pages of each, or the new name with its data
    lost), and the reader tells each apart (:meth:`GameDir.load_state`: a torn file fails its
    digest or its form). Written over the old file in place (:func:`overwrite_cache`)."""
    overwrite_cache(path, data)


def overwrite_cache(path: Path, data: bytes) -> None:
    """Write the cache file ``path`` (no fsync) over its old bytes in place
    (:func:`pbem.atomic.overwrite`), or, where that is not a plain file of one link, by a
    temporary file renamed over it. What in place costs: a reader that does not hold the
    game's lock (``pbem gm status``) may read a write half done. Writers hold the lock, or,
    where a lockless reader writes the state back, the kernel orders whole writes to one file;
    the file is valid only whole (the state's digest, ending at its last byte), so such a read
    is refused and rebuilt from the log — except in a read overtaken twice by the write, which
    at worst shows the state before it under the head after it, to that one reader, which
    writes nothing then (docs/operations.md, "The turn job's write order")."""
    if not atomic.overwrite(path, data):
        atomic.write_bytes(path, data, sync_dir=False, fsync=False)


def read_public_key(text_or_path: str, base: Path | None = None) -> PublicKey:
    """A key given as ``pbem-ed25519 <b64>`` text or as a path to a .pub file."""
    text = text_or_path.strip()
    if text.startswith("pbem-ed25519"):
        return PublicKey.parse(text)
    path = Path(text).expanduser()
    if base is not None and not path.is_absolute():
        path = base / path
    if not path.is_file():
        raise GameDirError(
            f"key {text_or_path!r}: no such file (give a .pub file or the key "
            "text 'pbem-ed25519 …')"
        )
    return PublicKey.load(path)


def deadline_class(plugin: GamePlugin, state: GameState) -> str:
    """The deadline class of the game's next step (config ``schedule.classes``)."""
    step = plugin.window(state)
    return step.deadline if step is not None else "main"
