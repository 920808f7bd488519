"""The root index: what ingest needs to know about every game, without opening every game.

Why: handling one mail needed the keyring, the referee's own addresses and the registered player
addresses of the whole root, and built them by opening and verifying every game on every
ingest run (seconds at 5,000 games, per ``.forward`` delivery; bench/README.md, "Measurements
behind the code"). The index keeps them in
small files under ``ROOT/.pbem-index/`` so a mail reads only the entries it concerns:

  meta.json          the root directory's mtime when built, the referee's addresses (loops)
  marks.json         every game's config.yaml mark when built (read only on a miss)
  names.json         the games' directory names, "/"-joined in one JSON string (read when the
                     root's mtime changed: a string splits faster than marks.json parses)
  game-GAME.json     config.yaml's (size, mtime, inode) when read, the keys, the addresses
  fp-FINGERPRINT     "GAME POWER" of a registered key (the block names its key's fingerprint)
  addr-SHA256        "GAME" of a registered address, with its spelling

Never trusted over the game directories: an entry is used only while its game's config.yaml
has the recorded (size, mtime, inode); a game added or removed changes the root's mtime (a new
name that is no game, ``.pbem-run/``, rebuilds nothing: ``_same_games``). Any
disagreement — a missing file, a stale or damaged entry, a key or address the game no longer
has — rebuilds the index from the game directories (entries whose config is unchanged are
reused, the rest re-read by ``_read_game``, the one reading of whose key and address is whose:
every keyring of a root, :func:`keyring`, is this index). ``gm replace`` (a key and an
address change) forgets its game's entry before writing anything; ``pbem new`` adds a directory
(the root's mtime). The files are caches, written without fsync (temp + rename): a torn or
lost one is a rebuild.

Each file is a hint file (pbem.store.hints, the one MAC of every cache): its first line is the
hex HMAC-SHA256 over the file's name, a NUL and the JSON after that line, under the key derived
from ROOT/referee.key with the label ``pbem-root-index-v1``.
The consistency checks above catch a stale index; the MAC catches a forged one — whoever can
write ``.pbem-index/`` but cannot read the referee key could otherwise register their own key
for a power with a game entry and a key entry that agree with each other and with config.yaml's
mark. A file without a valid MAC is "damaged": a rebuild. A root without a readable referee key
keeps its index in memory only (a full scan per run, as before the index).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pbem.errors import PbemError
from pbem.mail.loops import address_of
from pbem.protocol.keyring import Keyring
from pbem.store import hints
from pbem.store.layout import CONFIG_NAME, LOG_NAME, games_under

if TYPE_CHECKING:
    from pbem.protocol.keys import PublicKey

DIR = ".pbem-index"
_INFO = b"pbem-root-index-v1"
T = TypeVar("T")
_SAFE = re.compile(r"^[A-Za-z0-9._-]{1,120}$")


class Stale(Exception):
    """The index disagrees with the game directories: rebuild it."""


def _mark(path: Path) -> list[int] | None:
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def _address(email: str) -> str:
    return address_of(email) or email.lower()


def _spelled(email: str) -> str:
    return address_of(email) or email


def _addr_name(address: str) -> str:
    return "addr-" + hashlib.sha256(address.encode("utf-8")).hexdigest()[:40]


class RootIndex:
    """The index of one root; ``directory()`` gives ingest's view of it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.dir = root / DIR
        self._games: dict[str, dict[str, Any] | None] = {}
        self.rebuilt = False
        self._key = hints.key(root, _INFO)
        #: What this process wrote (with no referee key, the only index there is).
        self._mem: dict[str, Any] = {}

    # --- files ---------------------------------------------------------------------------------
    def _read(self, name: str) -> Any:
        if name in self._mem:
            return self._mem[name]
        if self._key is None:
            return None
        try:
            payload = hints.read(self.dir / name, self._key, name)
        except hints.Unfit as exc:
            raise Stale(str(exc)) from None
        if payload is None:
            return None
        try:
            return json.loads(payload)
        except ValueError:
            raise Stale(f"{name} is damaged") from None

    def _write(self, name: str, value: Any) -> None:
        self._mem[name] = value
        if self._key is None:
            return
        payload = json.dumps(value, sort_keys=True).encode("utf-8")
        hints.write(self.dir / name, self._key, name, payload)

    # --- entries -------------------------------------------------------------------------------
    def game(self, game_id: str) -> dict[str, Any] | None:
        """The game's entry, checked against its config.yaml (None: no such game, or damaged);
        raises Stale when it disagrees."""
        if game_id in self._games:
            return self._games[game_id]
        if not _SAFE.match(game_id) or game_id.startswith("."):
            return None
        path = self.root / game_id
        mark = _mark(path / CONFIG_NAME)
        entry = self._read(f"game-{game_id}.json")
        if mark is None or not (path / LOG_NAME).is_file():
            if entry is not None:
                raise Stale(f"game {game_id} is gone")
            self._games[game_id] = None
            return None
        if entry is None or entry.get("config") != mark:
            raise Stale(f"game {game_id} changed")
        result = None if entry.get("bad") else entry
        self._games[game_id] = result
        return result

    def check_root(self) -> dict[str, Any]:
        meta = self._read("meta.json")
        if meta is None:
            raise Stale("no index")
        if meta.get("root") != (mark := _mark(self.root)):
            self._same_games(mark)
            self._write("meta.json", meta := {**meta, "root": mark})
        return dict(meta)

    def _same_games(self, mark: list[int] | None) -> None:
        """Stale unless the root (its mtime changed; ``mark`` taken before listing it) holds
        the games of the marks: a name that is no game (``.pbem-run/``, ``inbox/``) costs a
        listing, not a re-read of every game (each entry is still checked when used)."""
        joined = self._read("names.json")
        if mark is None or not isinstance(joined, str):
            raise Stale("no root or no game names")
        games = joined.split("/") if joined else []
        names = set(os.listdir(self.root))  # (no name holds "/"; dot names are no games)
        listed = len(names)
        names.difference_update(games)  # what is left: the names that are no known game
        root = os.fspath(self.root)
        if len(names) != listed - len(games) or any(
                not n.startswith(".") and os.path.isfile(os.path.join(root, n, CONFIG_NAME))
                and os.path.isfile(os.path.join(root, n, LOG_NAME)) for n in names):
            raise Stale("games were added or removed")

    def rebuild(self) -> None:
        """Re-read the game directories (reusing entries whose config.yaml is unchanged)."""
        os.makedirs(self.dir, mode=0o700, exist_ok=True)
        root_mark = _mark(self.root)
        ours: set[str] = set()
        seen_addr: set[str] = set()
        written: set[str] = set()
        marks: dict[str, list[int] | None] = {}
        self._games = {}
        for path in games_under(self.root):
            game_id = path.name
            mark = _mark(path / CONFIG_NAME)
            marks[game_id] = mark
            written.add(f"game-{game_id}.json")
            try:
                entry = self._read(f"game-{game_id}.json")
            except Stale:
                entry = None
            if entry is None or entry.get("config") != mark:
                entry = _read_game(path, mark)
                self._write(f"game-{game_id}.json", entry)
            if entry.get("bad"):
                self._games[game_id] = None
                continue
            self._games[game_id] = entry
            if entry["sender"]:
                ours.add(entry["sender"])
            for power, text in entry["keys"].items():
                name = f"fp-{entry['fingerprints'][power]}"
                if name not in written:
                    written.add(name)
                    self._write(name, [game_id, power, text])
            for email in entry["emails"].values():
                address = _address(email)
                if address in seen_addr:
                    continue
                seen_addr.add(address)
                written.add(_addr_name(address))
                self._write(_addr_name(address), [address, _spelled(email), game_id])
        for name in [n for n in self._mem if n not in written]:
            del self._mem[name]
        for name in os.listdir(self.dir):  # what no game holds any more
            if name.startswith(("fp-", "addr-", "game-")) and name not in written:
                with contextlib.suppress(OSError):
                    os.unlink(self.dir / name)
        # Every game's mark in a file of its own: meta.json is read by every ingest, the
        # marks (~50 bytes a game) only on a miss (check_marks).
        self._write("marks.json", marks)
        self._write("names.json", "/".join(sorted(marks)))
        self._write("meta.json", {"root": root_mark, "ours": sorted(ours)})
        self.rebuilt = True

    def check_marks(self) -> None:
        """Raise Stale if any game's config.yaml changed since the index was built: a key or
        an address the index does not know may be new. (One ``stat`` per game: only on a miss.)"""
        self.check_root()
        marks = self._read("marks.json")
        if not isinstance(marks, dict):
            raise Stale("no config marks")
        for game_id, mark in marks.items():
            if _SAFE.match(game_id) and _mark(self.root / game_id / CONFIG_NAME) != mark:
                raise Stale(f"game {game_id} changed")

    def healing(self, look: Callable[[], T]) -> T:
        """``look()``, after one rebuild if the index disagreed with the game directories."""
        try:
            return look()
        except Stale:
            self.rebuild()
            return look()

    def key(self, fingerprint: str) -> tuple[str, str, PublicKey] | None:
        if not _SAFE.match(fingerprint):
            return None
        found = self._read(f"fp-{fingerprint}")
        if found is None:
            if not self.rebuilt:
                self.check_marks()
            return None
        game_id, power, text = found
        entry = self.game(game_id)
        if entry is None or entry["keys"].get(power) != text:
            raise Stale(f"key {fingerprint} is no longer {game_id}/{power}'s")
        return game_id, power, _parse_key(text)

    def registered(self, address: str) -> tuple[str, str] | None:
        """(game, spelling) of a registered player address, or None."""
        found = self._read(_addr_name(address))
        if found is None or found[0] != address:
            if not self.rebuilt:
                self.check_marks()
            return None
        _, spelled, game_id = found
        entry = self.game(game_id)
        if entry is None or address not in {_address(e) for e in entry["emails"].values()}:
            raise Stale(f"{address} is no longer registered in {game_id}")
        return game_id, spelled


def _parse_key(text: str) -> PublicKey:
    """A registered key, parsed where a block is verified: reading the index (every mail, spam
    too) imports no signature code."""
    from pbem.protocol.keys import PublicKey

    return PublicKey.parse(text)


def _read_game(path: Path, mark: list[int] | None) -> dict[str, Any]:
    """The one definition of whose key and address is whose in a game: its registered keys
    (the log's summary), the referee's address (mail loops) and each power's registered
    address. Every keyring and directory of a root is built from these entries."""
    from pbem.store.gamedir import GameDir  # (a rebuild only: it opens every game)

    try:
        game = GameDir.open(path)
        keys = game.registered_keys()
    except PbemError:
        return {"config": mark, "bad": True}  # a damaged game takes no orders (the turn job
        # stops it); its entry is re-read when its config changes, or on the next rebuild
    return {
        "config": mark,
        "keys": {power: key.text() for power, key in keys.items()},
        "fingerprints": {power: key.fingerprint for power, key in keys.items()},
        "sender": address_of(game.config.sender or ""),
        "emails": {power: entry.email for power, entry in game.config.powers.items()},
    }


def forget(root: Path, game_id: str) -> None:
    """Drop a game's entry and the index's root mark (before the game's keys or addresses
    change): the next ingest rebuilds, re-reading this game."""
    for name in (f"game-{game_id}.json", "meta.json"):
        with contextlib.suppress(OSError):
            os.unlink(root / DIR / name)


class IndexKeyring(Keyring):
    """A keyring that reads the keys of a game only when a block names them."""

    def __init__(self, index: RootIndex) -> None:
        super().__init__()
        self._index = index

    def __call__(self, game: str, power: str) -> tuple[PublicKey, ...]:
        entry = self._index.healing(lambda: self._index.game(game))
        if entry is None or power not in entry["keys"]:
            return ()
        return (_parse_key(entry["keys"][power]),)

    def by_fingerprint(self, fingerprint: str) -> PublicKey | None:
        found = self._index.healing(lambda: self._index.key(fingerprint))
        return None if found is None else found[2]


class Games(Mapping[str, Path]):
    """game id -> its directory, for the games directly under the root."""

    def __init__(self, index: RootIndex) -> None:
        self._index = index

    def __getitem__(self, game_id: str) -> Path:
        if not isinstance(game_id, str) or self._index.healing(
                lambda: self._index.game(game_id)) is None:
            raise KeyError(game_id)
        return self._index.root / game_id

    def __iter__(self) -> Iterator[str]:
        return iter(p.name for p in games_under(self._index.root))

    def __len__(self) -> int:
        return len(games_under(self._index.root))


class Registered(Mapping[str, Path]):
    """registered address (bare, lowercased) -> the directory of a game it plays in."""

    def __init__(self, index: RootIndex, spelling: bool = False) -> None:
        self._index = index
        self._spelling = spelling

    def __getitem__(self, address: str) -> Any:
        if not isinstance(address, str):
            raise KeyError(address)
        found = self._index.healing(lambda: self._index.registered(address))
        if found is None:
            raise KeyError(address)
        return found[1] if self._spelling else self._index.root / found[0]

    def __iter__(self) -> Iterator[str]:  # not used by ingest (it looks addresses up)
        for name in sorted(os.listdir(self._index.dir)):
            if name.startswith("addr-"):
                found = self._index._read(name)
                if found is not None:
                    yield found[0]

    def __len__(self) -> int:
        return sum(1 for _ in self)


def keyring(root: Path) -> Keyring:
    """Every registered key of every game under ``root`` (by game and power, and by
    fingerprint), read through the index."""
    return IndexKeyring(RootIndex(root))


def directory_parts(root: Path) -> dict[str, Any]:
    """The fields of ingest's Directory, read through the index (rebuilt first if stale)."""
    index = RootIndex(root)
    meta = index.healing(index.check_root)
    return {"ring": IndexKeyring(index), "ours": set(meta.get("ours", [])),
            "registered": Registered(index), "spelled": Registered(index, spelling=True),
            "games": Games(index)}
