"""The inbox store: every incoming message is written durably before anything acts on it.

Layout under ROOT (nothing is ever deleted; a message only moves between these folders)::

    inbox/<sha256>.eml          a message not handled yet: the raw bytes exactly as received
    inbox/<sha256>.arrived      when it was stored (ISO 8601 UTC): the time its orders count as
                                received, however late a busy inbox lets it be handled
    inbox/attempts/<sha256>     how many times handling it started without finishing (a crash,
                                an out-of-memory kill); at MAX_ATTEMPTS it is quarantined unread
    inbox/waits/<sha256>        the games a message left pending for a busy game still has
                                orders for (one name a line; a hint for the turn job: see
                                :meth:`Inbox.unjudged`)
    inbox/keys/<key>            symlink: duplicate key -> "DAY/sha256" of the first copy stored
                                (DAY = its arrival date, YYYY-MM-DD: where it is archived)
    inbox/handled/DAY/<sha256>.json      the outcome once the message was handled (the done
                                         record), for a quarantined message too; the
                                         records of one ingest round are one file (a
                                         "round file") under a name for each message
    inbox/handled/DAY/<sha256>.eml       a handled message, moved out of the live inbox ...
    inbox/handled/DAY/<sha256>.arrived   ... with its arrival time
    quarantine/<sha256>.eml     a message that could not be handled ...
    quarantine/<sha256>.reason  ... and why, in one plain sentence (and its .arrived)

Why the archive: every run and every ingest lists the live inbox; kept there, handled mail made
each of them pay for every message ever received (bench/README.md, "Measurements behind the
code"). Now ``inbox/`` holds only pending mail (and a
few fixed files: the lock, replies.json, mbox states), and nothing lists ``keys/`` or
``handled/``: they are looked up by name.

``pbem gm quarantine ROOT`` lists the quarantine; ``pbem gm release ROOT SHA`` (:meth:`release`)
moves a message back to the inbox with a fresh attempt count, to be handled by the next run.

The order of operations gives the guarantees: the caller ``store()``s, then acts, then records
``done()``, then acknowledges the source (``source.ack(id)``). A crash anywhere leaves the message
either still at the source (fetched again next run) or stored without a done record (``store()``
of the same message then returns the stored copy with ``handled`` None, so it is handled now);
once done, a redelivery comes back with ``handled`` set and is skipped.

The done record is the commit point, and the duplicate key says where it is. ``store()`` makes
the key durable (``keys/`` fsynced) before it returns, so before any handling; ``done()`` writes
the record durably under ``handled/DAY/`` and only then renames the message and its .arrived
there, without fsync. After a crash the message is in the inbox or in the archive and the record
is there or not: a message still in the inbox whose record exists (found through its key) is
handled, and :meth:`pending` finishes its move instead of returning it. docs/operations.md
("Handled mail is archived") states the argument in full.

Duplicate key: the same Message-ID *and* the same body bytes. A redelivered copy whose trace headers
(Received:, Delivered-To:) differ is still a duplicate; a different message that reuses a Message-ID
is not. A message without Message-ID is a duplicate only when byte-identical.

Two ingest processes must not handle the same inbox at once; the caller serialises them (the game
store's lock). Storing is safe without it (content-addressed, atomic renames).

Size: one store whose every method follows the same layout and the same crash-safety order
(key, record, move), which reads best in one place.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import time
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Any

from pbem import failpoints, staged, syncs
from pbem.mail import _files
from pbem.record import Record
from pbem.schedule import ScheduleError, parse_iso

_HEADER_END = re.compile(rb"\r?\n\r?\n")
_SHA = re.compile(r"^[0-9a-f]{64}$")
_DAY = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_STAMP = "%Y-%m-%dT%H:%M:%SZ"

#: Handling a message may start this many times without finishing (each start is recorded
#: durably before any work); the next start quarantines it unread. A message that kills its
#: process (out of memory, a time limit) thus stops nothing after the third try.
MAX_ATTEMPTS = 3

#: The folder of the notes :meth:`Inbox.note_waiting` writes.
WAITS = "waits"


class Stored(Record):
    """A message that is safely on disk."""

    __slots__ = ("sha256", "path", "message_id", "handled", "fresh", "day", "key")
    sha256: str
    path: Path
    message_id: str | None
    #: The outcome recorded earlier when this message (or a copy of it) was already handled;
    #: None means "handle it now" (a new message, or one stored by a run that crashed).
    handled: dict[str, Any] | None
    #: True when these exact bytes were written by this call (False: they or a copy were on disk).
    fresh: bool
    #: The archive folder (arrival date, YYYY-MM-DD) its duplicate key names; None for a message
    #: whose key a crash lost before it was durable (then :meth:`Inbox.done` works it out).
    day: str | None
    #: Its duplicate key (:func:`duplicate_key`), when :meth:`Inbox.store` computed it: lets
    #: :meth:`Inbox.pending` skip reading and parsing the message again.
    key: str | None

    def __init__(self,
                 sha256: str, path: Path, message_id: str | None,
                 handled: dict[str, Any] | None = None, fresh: bool = True,
                 day: str | None = None, key: str | None = None) -> None:
        object.__setattr__(self, "sha256", sha256)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "message_id", message_id)
        object.__setattr__(self, "handled", handled)
        object.__setattr__(self, "fresh", fresh)
        object.__setattr__(self, "day", day)
        object.__setattr__(self, "key", key)

    @property
    def duplicate(self) -> bool:
        return self.handled is not None


def duplicate_key(raw: bytes) -> tuple[str, str | None]:
    """(key, Message-ID): SHA-256 of Message-ID + body, or of the raw bytes without a Message-ID."""
    match = _HEADER_END.search(raw)
    head, body = (raw[: match.start()], raw[match.end() :]) if match else (raw, b"")
    message_id: str | None = None
    try:
        value = BytesHeaderParser().parsebytes(head + b"\n\n").get("Message-ID")
        if value is not None:
            token = str(value).strip()
            message_id = token if token.startswith("<") and token.endswith(">") else None
    except Exception:
        message_id = None
    if message_id is None:
        return hashlib.sha256(b"raw\0" + raw).hexdigest(), None
    body_hash = hashlib.sha256(body.replace(b"\r\n", b"\n")).hexdigest()
    key = hashlib.sha256(f"mid\0{message_id}\0{body_hash}".encode("utf-8", "replace")).hexdigest()
    return key, message_id


def _read_link(path: Path) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None


def _target(text: str | None) -> tuple[str, str] | None:
    """(day, sha256) named by a key symlink: ``DAY/SHA``."""
    if text is None:
        return None
    day, _, sha = text.rpartition("/")
    if not _SHA.match(sha) or not _DAY.match(day):
        return None
    return day, sha


def _rename(src: Path, dst: Path) -> bool:
    """Rename without fsync (the callers' order makes a lost rename harmless); False if
    ``src`` is gone (another process moved it, or it never existed)."""
    try:
        os.replace(src, dst)
    except FileNotFoundError:
        return False
    return True


def _unlink(path: Path) -> bool:
    try:
        os.unlink(path)
    except FileNotFoundError:
        return False
    return True


class Inbox:
    """The durable incoming-mail store under ``root`` (usually the game-master directory)."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        self.inbox_dir = self.root / "inbox"
        self.keys_dir = self.inbox_dir / "keys"
        self.handled_dir = self.inbox_dir / "handled"
        self.quarantine_dir = self.root / "quarantine"
        created: set[Path] = set()
        for d in (self.inbox_dir, self.keys_dir, self.handled_dir, self.quarantine_dir):
            if not d.is_dir():
                d.mkdir(mode=0o700, parents=True, exist_ok=True)
                created.add(d.parent)
        for parent in created:  # a new folder is durable before anything is filed in it
            _files.fsync_dir(parent)
        #: done(..., sync_dir=False): (sha256, day, record) written by :meth:`flush_done`
        self._unsynced: list[tuple[str, str, dict[str, Any]]] = []
        self._days: set[str] = set()
        #: store()'s copies written, put in place by :meth:`sync_stored`
        self._staged = staged.Group()
        self._staged_days: dict[str, str] = {}  # sha256 -> archive day, of the staged copies

    # --- storing -------------------------------------------------------------------------------
    def store(self, raw: bytes, arrived: datetime | None = None, *,
              sync_dir: bool = True) -> Stored:
        """Write ``raw`` durably (unless it or a duplicate is already here) and say whether the
        message was handled before. Call before acting on the message; ack the source after.
        ``arrived`` (default: the clock) is recorded beside a new message: its arrival time.
        The copy is written to temporary files and put in place by :meth:`sync_stored`, at
        once unless ``sync_dir`` is false (group commit): then the caller calls it once for
        the batch before acknowledging or handling any of it (the message is not in the inbox
        before)."""
        sha = hashlib.sha256(raw).hexdigest()
        key, message_id = duplicate_key(raw)
        found = self._find_key(key)
        if found is not None:
            first_path, day = self._locate(found[1], found[0])
            if first_path is None and found[1] in self._staged_days:  # earlier in this batch
                first_path = self.path(found[1])
            if first_path is not None:
                return Stored(found[1], first_path, message_id,
                              handled=self._record(found[1], day), fresh=False, day=day)
            first_day = found[0]
            handled = self._record(found[1], first_day)
            if handled is not None:  # handled, its copy pruned
                # (prune_handled): the key and the done record stay, so this is a duplicate
                return Stored(found[1], self.handled_dir / first_day / f"{found[1]}.eml",
                              message_id, handled=handled, fresh=False, day=first_day)
        path = self.path(sha)
        staged = self._staged_days.get(sha)
        fresh = staged is None and not path.exists()
        if fresh:
            when = (arrived or datetime.now(UTC)).astimezone(UTC)
            stamp = when.strftime(_STAMP)
            # (every message of a batch arrives at one time: one file, a name each)
            self._staged.add(self.inbox_dir / f"{sha}.arrived", stamp.encode("ascii"),
                             share=True)
            self._staged.add(path, raw, mode=0o600, mtime_ns=_next_order())
            day = self._staged_days[sha] = stamp[:10]
        else:
            day = staged if staged is not None else self._day_of(sha)
        # The key is a symlink whose target names the message and its archive folder: a
        # metadata-only record. It is durable before anyone handles the message (the archive
        # argument needs it); the .eml and .arrived are made durable by the inbox's fsync.
        # Created, not replaced, when it names this message already: two processes storing
        # the same message at once keep the first one's day (the one its record will use).
        try:
            os.symlink(f"{day}/{sha}", self.keys_dir / key)
        except FileExistsError:
            current = _target(_read_link(self.keys_dir / key))
            if current is not None and current[1] == sha:
                day = current[0]
            else:
                _files.replace_symlink(self.keys_dir / key, f"{day}/{sha}")
        if sync_dir:
            self.sync_stored()
        return Stored(sha, path, message_id, handled=self._record(sha, day), fresh=fresh,
                      day=day, key=key)

    def sync_stored(self) -> None:
        """Make every message stored so far durable with its key (after ``store(...,
        sync_dir=False)`` of a batch): the copies written fsynced together and put in place
        (.arrived before .eml), then the inbox and ``keys/`` fsynced."""
        try:
            self._staged.flush()
        finally:
            self._staged_days.clear()
        syncs.fsync_dirs([self.inbox_dir, self.keys_dir])

    def drop_staged(self) -> None:
        """Forget the copies ``store(..., sync_dir=False)`` wrote and :meth:`sync_stored` did
        not put in place (a batch that failed before its sync: its source keeps the messages,
        which are fetched and stored again; their keys, if written, name the same files)."""
        self._staged.discard()
        self._staged_days.clear()

    def path(self, sha: str) -> Path:
        """Where the raw bytes of ``sha`` live while in the inbox (not handled yet)."""
        return self.inbox_dir / f"{sha}.eml"

    # --- finding -------------------------------------------------------------------------------
    def _find_key(self, key: str) -> tuple[str, str] | None:
        return _target(_read_link(self.keys_dir / key))

    def _search(self, name: str) -> str | None:
        """The archive day holding ``name``, newest first (a lookup by sha256 alone, when no
        key names the day: one stat per day of archive)."""
        try:
            days = sorted((d for d in os.listdir(self.handled_dir) if _DAY.match(d)),
                          reverse=True)
        except OSError:
            return None
        return next((d for d in days if (self.handled_dir / d / name).exists()), None)

    def _locate(self, sha: str, day: str | None) -> tuple[Path | None, str | None]:
        """Where the message is now (inbox, archive, quarantine) and its archive day."""
        places = [self.path(sha)]
        if day is not None:
            places.append(self.handled_dir / day / f"{sha}.eml")
        places.append(self.quarantine_dir / f"{sha}.eml")
        for p in places:
            if p.exists():
                return p, day
        if day is None:
            found = self._search(f"{sha}.eml")
            if found is not None:
                return self.handled_dir / found / f"{sha}.eml", found
        return None, day

    def _record_paths(self, sha: str, day: str | None, search: bool = True) -> list[Path]:
        """Where the done record is: in its day's folder (None: searched for, unless not
        ``search``)."""
        if day is None and search:
            day = self._search(f"{sha}.json")
        return [] if day is None else [self.handled_dir / day / f"{sha}.json"]

    def _record(self, sha: str, day: str | None) -> dict[str, Any] | None:
        for path in self._record_paths(sha, day):
            with contextlib.suppress(FileNotFoundError):
                return _one_record(sha, _files.read_json(path))
        return None

    def _handled(self, sha: str, day: str | None) -> bool:
        """Is there a done record (no search: the key names the day of every record)."""
        return any(p.exists() for p in self._record_paths(sha, day, search=False))

    def _day_of(self, sha: str) -> str:
        """The archive day of a message whose key does not say: its arrival date, else the
        date its file was written (old messages without .arrived), else today."""
        for place in (self.inbox_dir, self.quarantine_dir):
            with contextlib.suppress(OSError, ValueError, ScheduleError):
                text = (place / f"{sha}.arrived").read_text(encoding="ascii").strip()
                return parse_iso(text).strftime("%Y-%m-%d")
        for place in (self.inbox_dir, self.quarantine_dir):
            with contextlib.suppress(OSError):
                mtime = (place / f"{sha}.eml").stat().st_mtime
                return datetime.fromtimestamp(mtime, UTC).strftime("%Y-%m-%d")
        return datetime.now(UTC).strftime("%Y-%m-%d")

    def _day_dir(self, day: str) -> Path:
        folder = self.handled_dir / day
        if day not in self._days:
            if not folder.is_dir():
                folder.mkdir(mode=0o700, exist_ok=True)
                _files.fsync_dir(self.handled_dir)
            self._days.add(day)
        return folder

    def arrived(self, sha: str) -> datetime | None:
        """When the message was stored (None for one stored before arrival times were kept)."""
        for place in (self.inbox_dir, self.quarantine_dir):  # (a release cut short)
            with contextlib.suppress(OSError, ValueError, ScheduleError):
                text = (place / f"{sha}.arrived").read_text(encoding="ascii").strip()
                return parse_iso(text)
        return None

    def read(self, stored: Stored | str) -> bytes:
        """The raw bytes of a stored message (from the inbox, the archive or the quarantine)."""
        if isinstance(stored, Stored):
            with contextlib.suppress(FileNotFoundError):
                return stored.path.read_bytes()
            sha, day = stored.sha256, stored.day
        else:
            sha, day = stored, None
        path, _ = self._locate(sha, day)
        if path is None:
            raise FileNotFoundError(f"no stored message {sha}")
        return path.read_bytes()

    def outcome(self, sha: str, day: str | None = None) -> dict[str, Any] | None:
        """The done record of ``sha``, or None if it was not handled yet."""
        return self._record(sha, day)

    def records(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """(sha256, done record) of every handled message (for tools and tests: lists the
        whole archive)."""
        folders = [self.handled_dir / d for d in sorted(os.listdir(self.handled_dir))
                   if _DAY.match(d)]
        for folder in folders:
            rounds: dict[tuple[int, int], Any] = {}  # a round file read once, not once a name
            for path in sorted(folder.glob("*.json")):
                with contextlib.suppress(FileNotFoundError, ValueError):
                    st = path.stat()
                    if st.st_nlink == 1:
                        value = _files.read_json(path)
                    elif (value := rounds.get((st.st_dev, st.st_ino))) is None:
                        value = rounds[(st.st_dev, st.st_ino)] = _files.read_json(path)
                    yield path.stem, _one_record(path.stem, value)

    # --- handling ------------------------------------------------------------------------------
    def begin(self, sha: str) -> int:
        """Record durably that handling ``sha`` starts; return how many starts (this one
        included) have not finished. :meth:`finish` clears the count."""
        directory = self.inbox_dir / "attempts"
        directory.mkdir(mode=0o700, exist_ok=True)
        path = directory / sha
        try:
            count = int(path.read_text(encoding="ascii").strip() or 0)
        except (OSError, ValueError):
            count = 0
        count += 1
        _files.write_durably(path, str(count).encode("ascii"))
        return count

    def note_waiting(self, sha: str, games: set[str]) -> None:
        """Note the games whose orders in ``sha`` were not judged because a game was busy (the
        message stays pending). A hint, written without fsync: lost, the message holds every
        game's resolution until it is judged (:meth:`unjudged`), as before it was noted."""
        directory = self.inbox_dir / WAITS
        text = "".join(f"{g}\n" for g in sorted(games))
        with contextlib.suppress(OSError):  # (a full disk: no note, the safe way round)
            directory.mkdir(mode=0o700, exist_ok=True)
            _files.write_durably(directory / sha, text.encode("utf-8"), sync_dir=False)

    def _waits(self, sha: str) -> set[str] | None:
        try:
            return set((self.inbox_dir / WAITS / sha).read_text(encoding="utf-8").split())
        except (OSError, UnicodeDecodeError):
            return None

    def unjudged(self, before: datetime, game: str) -> list[str]:
        """The messages in the live inbox stored before ``before`` (by their recorded arrival;
        one stored before arrival times were kept counts as before) that no ingest has judged
        yet and that may hold orders for ``game``: the turn job does not resolve a turn while
        one of those stored before its deadline waits (another process holds the inbox, or the
        inbox pass failed). A message left pending for another busy game holds only the games
        its unjudged blocks claim (:meth:`note_waiting`); one never tried may hold orders for
        any game. No lock needed: it only reads."""
        try:
            names = os.listdir(self.inbox_dir)
        except OSError:
            return []
        found = []
        for name in sorted(names):
            sha = name[:-4]
            if not name.endswith(".eml") or not _SHA.match(sha):
                continue
            when = self.arrived(sha)
            if when is not None and when >= before:
                continue
            waits = self._waits(sha)
            if waits is not None and game not in waits:
                continue
            try:
                key, _mid = duplicate_key(self.path(sha).read_bytes())
            except FileNotFoundError:
                continue  # handled meanwhile
            target = self._find_key(key)
            if self._handled(sha, target[0] if target is not None and target[1] == sha
                             else None):
                continue  # judged: a crash came before its move to the archive
            found.append(sha)
        return found

    def finish(self, sha: str) -> None:
        """Handling ``sha`` ended (done, quarantined, or left pending for a busy game)."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.inbox_dir / "attempts" / sha)

    def done(self, stored: Stored, outcome: str, *, sync_dir: bool = True,
             **details: Any) -> None:
        """Record durably that ``stored`` was handled: ``outcome`` is a short word ("accepted",
        "rejected", "ignored", "quarantined", …); ``details`` any JSON-able facts (game, turn,
        receipt id, reason). A duplicate (``stored.handled`` set) keeps its first record.
        Then the message leaves the live inbox for ``handled/DAY/``.

        With ``sync_dir`` false (group commit) the record is written, its folder synced and
        the message moved only by :meth:`flush_done`, with the batch's other records: a message
        never leaves the live inbox before its record is durable."""
        if stored.duplicate:
            return
        record = {"sha256": stored.sha256, "message_id": stored.message_id, "outcome": outcome}
        record.update(details)
        if not sync_dir:
            day = stored.day or self._adopt(stored.sha256)
            self._unsynced.append((stored.sha256, day, record))
            return
        day = self._commit(stored, record)
        failpoints.reached("inbox-recorded")
        self._archive(stored.sha256, day)

    def flush_done(self) -> None:
        """Write the records ``done(..., sync_dir=False)`` left (written, fsynced together and
        put in place: pbem.staged; one round file per day, named once per message), sync their
        folders (once each), then move their messages out of the live inbox."""
        pending, self._unsynced = self._unsynced, []
        by_day: dict[str, dict[str, dict[str, Any]]] = {}
        for sha, day, record in pending:
            by_day.setdefault(day, {})[sha] = record
        group = staged.Group()
        for day, records in by_day.items():
            # A day's records of one batch are one file (a round file) with a name for each
            # message: a new name is cheap, a new file is not (pbem.staged, ``share``).
            data = _files.json_bytes(next(iter(records.values())) if len(records) == 1
                                     else {ROUND_FILE: 1, "records": records})
            for sha in records:
                group.add(self._day_dir(day) / f"{sha}.json", data, share=True)
        group.flush()
        syncs.fsync_dirs([self._day_dir(day) for day in sorted(by_day)])
        if pending:
            failpoints.reached("inbox-recorded")
        for sha, day, _record in pending:
            self._archive(sha, day)

    def _commit(self, stored: Stored, record: dict[str, Any]) -> str:
        """Write the done record durably (the commit point); return its archive day."""
        day = stored.day or self._adopt(stored.sha256)
        _files.write_json(self._day_dir(day) / f"{stored.sha256}.json", record)
        return day

    def _adopt(self, sha: str) -> str:
        """Give a message whose key a crash lost its key in ``keys/`` again (durably), before
        its record is written where only that key finds it."""
        day = self._day_of(sha)
        path, _ = self._locate(sha, day)
        if path is not None:
            key, _mid = duplicate_key(path.read_bytes())
            _files.replace_symlink(self.keys_dir / key, f"{day}/{sha}")
            _files.fsync_dir(self.keys_dir)
        return day

    def _archive(self, sha: str, day: str) -> None:
        """Move a handled message out of the live inbox (no fsync: if a rename is lost, the
        message is found again in the inbox with its record, and moved again)."""
        folder = self._day_dir(day)
        _rename(self.path(sha), folder / f"{sha}.eml")
        _unlink(self.inbox_dir / WAITS / sha)
        failpoints.reached("inbox-archived")
        if not _rename(self.inbox_dir / f"{sha}.arrived", folder / f"{sha}.arrived"):
            _rename(self.quarantine_dir / f"{sha}.arrived", folder / f"{sha}.arrived")

    def prune_handled(self, before: datetime) -> tuple[int, int]:
        """Remove the handled messages (``.eml``, ``.arrived``) of the archive days before
        ``before``'s (pbem.host.retention; hold the inbox lock). Their done records and
        duplicate keys stay: a redelivery is still a duplicate (:meth:`store`). Returns (files
        removed, bytes freed)."""
        last = before.astimezone(UTC).strftime("%Y-%m-%d")
        files = size = 0
        for day in sorted(os.listdir(self.handled_dir)):
            if not _DAY.match(day) or day >= last:
                continue
            folder = self.handled_dir / day
            for name in os.listdir(folder):
                if name.endswith((".eml", ".arrived")):
                    with contextlib.suppress(FileNotFoundError):
                        freed = os.lstat(folder / name).st_blocks * 512
                        os.unlink(folder / name)
                        files, size = files + 1, size + freed
        return files, size

    def quarantine(self, stored: Stored, reason: str) -> Path:
        """Move the message to quarantine/ with ``reason`` beside it, and record it as done.

        Returns the new path. The reason file is written first, so a crash leaves either the
        message still in the inbox (quarantined again on the rerun) or both files in quarantine/.
        """
        reason_text = " ".join(reason.split())
        target = self.quarantine_dir / f"{stored.sha256}.eml"
        _files.write_durably(
            self.quarantine_dir / f"{stored.sha256}.reason", (reason_text + "\n").encode("utf-8")
        )
        source = self.path(stored.sha256)
        if source.exists():
            _files.move_durably(source, target)
        _rename(self.inbox_dir / f"{stored.sha256}.arrived",
                self.quarantine_dir / f"{stored.sha256}.arrived")
        _unlink(self.inbox_dir / WAITS / stored.sha256)
        if not stored.duplicate:
            self._commit(stored, {"sha256": stored.sha256, "message_id": stored.message_id,
                                  "outcome": "quarantined", "reason": reason_text})
        return target

    def quarantined(self) -> list[tuple[str, str]]:
        """(sha256, reason) of every quarantined message, for the game master."""
        found = []
        for reason in sorted(self.quarantine_dir.glob("*.reason")):
            found.append((reason.stem, reason.read_text(encoding="utf-8").strip()))
        return found

    def release(self, sha: str) -> Path:
        """Move a quarantined message back into the inbox to be handled again (by the game
        master, after fixing what made it fail): its reason, done record and attempt count go.

        The done record goes first (durably): a crash then leaves the message in quarantine,
        and ``release`` again finishes the job. (The other way round, a message back in the
        inbox with its record would count as handled and be archived unhandled.)"""
        if not _SHA.match(sha):
            matches = [p.stem for p in self.quarantine_dir.glob(f"{sha}*.eml")] if re.match(
                r"^[0-9a-f]{6,64}$", sha) else []
            if len(matches) != 1:
                raise FileNotFoundError(f"no quarantined message {sha!r}"
                                        + (" (ambiguous prefix)" if matches else ""))
            sha = matches[0]
        source = self.quarantine_dir / f"{sha}.eml"
        if not source.exists():
            raise FileNotFoundError(f"no quarantined message {sha}")
        found = self._find_key(duplicate_key(source.read_bytes())[0])
        day = found[0] if found is not None and found[1] == sha else None
        records = self._record_paths(sha, day)
        for folder in {p.parent for p in records if _unlink(p)}:
            _files.fsync_dir(folder)
        failpoints.reached("inbox-releasing")
        target = self.path(sha)
        _files.move_durably(source, target)
        # The .eml first: an ingest tidying the inbox meanwhile never takes a lone .arrived for
        # a stray (and arrived() reads it from quarantine/ if a crash left it there).
        _rename(self.quarantine_dir / f"{sha}.arrived", self.inbox_dir / f"{sha}.arrived")
        for leftover in (self.quarantine_dir / f"{sha}.reason", self.inbox_dir / "attempts" / sha):
            _unlink(leftover)
        _files.fsync_dir(self.quarantine_dir)
        return target

    # --- the live inbox ------------------------------------------------------------------------
    def pending(self, *, archive: bool = False,
                known: Mapping[str, Stored] | None = None) -> list[Stored]:
        """Messages stored but not yet recorded as done (a crashed run, a busy game, a release,
        another process's delivery), oldest first. Lists only the live inbox.

        ``archive`` (hold the inbox lock): also finish what a crash left half done — a handled
        message still in the inbox is moved to the archive, a stray .arrived follows its
        message.

        ``known``: what :meth:`store` returned for messages this process stored (by sha256):
        their duplicate key and Message-ID are not read and parsed again (the bytes named by a
        sha256 never change); the key's target and the done record are still looked up now."""
        names = os.listdir(self.inbox_dir)
        emls = {n[:-4] for n in names if n.endswith(".eml") and _SHA.match(n[:-4])}
        stamped = []
        for sha in emls:
            with contextlib.suppress(FileNotFoundError):  # moved meanwhile: not ours
                stamped.append((self.path(sha).stat().st_mtime_ns, sha))
        result = []
        for _mtime, sha in sorted(stamped):
            path = self.path(sha)
            mine = known.get(sha) if known is not None else None
            if mine is not None and mine.key is not None:
                key, message_id = mine.key, mine.message_id
            else:
                try:
                    raw = path.read_bytes()
                except FileNotFoundError:
                    continue
                key, message_id = duplicate_key(raw)
            found = self._find_key(key)
            day = found[0] if found is not None and found[1] == sha else None
            if self._handled(sha, day):
                if archive:  # a crash came between the record and the move: finish it
                    self._archive(sha, day or self._day_of(sha))
                continue
            result.append(Stored(sha, path, message_id, handled=None, fresh=False, day=day))
        if archive:
            for name in names:
                if name.endswith(".arrived") and name[:-8] not in emls:
                    self._stray_arrived(name[:-8])
        return result

    def _stray_arrived(self, sha: str) -> None:
        """An .arrived whose message left the inbox (a crash between the two renames) follows
        it. One being stored right now by another process has neither place: left alone."""
        src = self.inbox_dir / f"{sha}.arrived"
        if (self.quarantine_dir / f"{sha}.eml").exists():
            _rename(src, self.quarantine_dir / f"{sha}.arrived")
            return
        with contextlib.suppress(OSError, ValueError, ScheduleError):
            day = parse_iso(src.read_text(encoding="ascii").strip()).strftime("%Y-%m-%d")
            if (self.handled_dir / day / f"{sha}.eml").exists():
                _rename(src, self.handled_dir / day / f"{sha}.arrived")

    def __repr__(self) -> str:
        return f"Inbox({os.fspath(self.root)!r})"


_last_order_ns = 0


#: The key that marks a round file: the done records of several messages of one batch and day,
#: ``{"pbem-round": 1, "records": {sha256: record}}``, one file with a name ``SHA.json`` for each.
ROUND_FILE = "pbem-round"


def _one_record(sha: str, value: Any) -> dict[str, Any]:
    """The done record of ``sha`` in what its ``SHA.json`` holds: its record, or a round file."""
    if isinstance(value, dict) and value.get(ROUND_FILE) == 1:
        record = value.get("records", {}).get(sha)
        return record if isinstance(record, dict) else {"outcome": "unknown"}
    return value if isinstance(value, dict) else {"outcome": str(value)}


def _next_order() -> int:
    """An mtime (ns) strictly after the previous stored message's in this process:
    :meth:`Inbox.pending` lists oldest first by mtime, and the file system's clock ticks too
    coarsely (a jiffy) to tell apart messages stored in one batch, so after a crash they would
    come back in an arbitrary order (a player's seq 1 after his seq 2, refused)."""
    global _last_order_ns
    _last_order_ns = max(time.time_ns(), _last_order_ns + 1)
    return _last_order_ns

