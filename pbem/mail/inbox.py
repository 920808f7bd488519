"""The inbox store: every incoming message is written durably before anything acts on it.

Layout under ROOT (nothing is ever deleted; a message only moves from inbox/ to quarantine/)::

    inbox/<sha256>.eml          the raw bytes exactly as received
    inbox/<sha256>.arrived      when it was stored (ISO 8601 UTC): the time its orders count as
                                received, however late a busy inbox lets it be handled
    inbox/attempts/<sha256>     how many times handling it started without finishing (a crash,
                                an out-of-memory kill); at MAX_ATTEMPTS it is quarantined unread
    inbox/<key>.key             symlink: duplicate key -> sha256 of the first copy stored
    inbox/done/<sha256>.json    the outcome once the message was handled
    quarantine/<sha256>.eml     a message that could not be handled ...
    quarantine/<sha256>.reason  ... and why, in one plain sentence

``pbem gm quarantine ROOT`` lists the quarantine; ``pbem gm release ROOT SHA`` (:meth:`release`)
moves a message back to the inbox with a fresh attempt count, to be handled by the next run.

The order of operations gives the guarantees: the caller ``store()``s, then acts, then records
``done()``, then acknowledges the source (``source.ack(id)``). A crash anywhere leaves the message
either still at the source (fetched again next run) or stored without a done record (``store()``
of the same message then returns the stored copy with ``handled`` None, so it is handled now);
once done, a redelivery comes back with ``handled`` set and is skipped.

Duplicate key: the same Message-ID *and* the same body bytes. A redelivered copy whose trace headers
(Received:, Delivered-To:) differ is still a duplicate; a different message that reuses a Message-ID
is not. A message without Message-ID is a duplicate only when byte-identical.

Two ingest processes must not handle the same inbox at once; the caller serialises them (the game
store's lock). Within one process the store is safe to call repeatedly.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Any

from pbem.mail import _files

_HEADER_END = re.compile(rb"\r?\n\r?\n")
_SHA = re.compile(r"^[0-9a-f]{64}$")

#: Handling a message may start this many times without finishing (each start is recorded
#: durably before any work); the next start quarantines it unread. A message that kills its
#: process (out of memory, a time limit) thus stops nothing after the third try.
MAX_ATTEMPTS = 3


@dataclass(frozen=True, slots=True)
class Stored:
    """A message that is safely on disk."""

    sha256: str
    path: Path
    message_id: str | None
    #: The outcome recorded earlier when this message (or a copy of it) was already handled;
    #: None means "handle it now" (a new message, or one stored by a run that crashed).
    handled: dict[str, Any] | None = None
    #: True when these exact bytes were written by this call (False: they or a copy were on disk).
    fresh: bool = True

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
    except (FileNotFoundError, OSError):
        return None


class Inbox:
    """The durable incoming-mail store under ``root`` (usually the game-master directory)."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        self.inbox_dir = self.root / "inbox"
        self.done_dir = self.inbox_dir / "done"
        self.quarantine_dir = self.root / "quarantine"
        for d in (self.inbox_dir, self.done_dir, self.quarantine_dir):
            d.mkdir(parents=True, exist_ok=True)

    def store(self, raw: bytes, arrived: datetime | None = None, *,
              sync_dir: bool = True) -> Stored:
        """Write ``raw`` durably (unless it or a duplicate is already here) and say whether the
        message was handled before. Call before acting on the message; ack the source after.
        ``arrived`` (default: the clock) is recorded beside a new message: its arrival time.
        With ``sync_dir`` false the caller fsyncs :attr:`inbox_dir` before acknowledging (once
        for a batch of messages)."""
        sha = hashlib.sha256(raw).hexdigest()
        key, message_id = duplicate_key(raw)
        key_path = self.inbox_dir / f"{key}.key"
        first = _read_link(key_path)
        if first is not None and _SHA.match(first):
            first_path = self._path_of(first)
            if first_path is not None:
                return Stored(
                    first, first_path, message_id, handled=self.outcome(first), fresh=False
                )
        path = self.path(sha)
        fresh = not path.exists()
        if fresh:
            when = (arrived or datetime.now(UTC)).astimezone(UTC)
            stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")
            _files.write_durably(self.inbox_dir / f"{sha}.arrived", stamp.encode("ascii"),
                                 sync_dir=False)
            _files.write_durably(path, raw, mode=0o600, sync_dir=False)
        # The key is a symlink whose target is the sha256: a metadata-only record, made durable
        # together with the new .eml by one fsync of the directory they share.
        _files.replace_symlink(key_path, sha)
        if sync_dir:
            _files.fsync_dir(self.inbox_dir)
        return Stored(sha, path, message_id, handled=self.outcome(sha), fresh=fresh)

    def path(self, sha: str) -> Path:
        """Where the raw bytes of ``sha`` live while in the inbox."""
        return self.inbox_dir / f"{sha}.eml"

    def _path_of(self, sha: str) -> Path | None:
        for p in (self.path(sha), self.quarantine_dir / f"{sha}.eml"):
            if p.exists():
                return p
        return None

    def arrived(self, sha: str) -> datetime | None:
        """When the message was stored (None for one stored before arrival times were kept)."""
        try:
            text = (self.inbox_dir / f"{sha}.arrived").read_text(encoding="ascii").strip()
            return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        except (OSError, ValueError):
            return None

    def begin(self, sha: str) -> int:
        """Record durably that handling ``sha`` starts; return how many starts (this one
        included) have not finished. :meth:`finish` clears the count."""
        directory = self.inbox_dir / "attempts"
        directory.mkdir(exist_ok=True)
        path = directory / sha
        try:
            count = int(path.read_text(encoding="ascii").strip() or 0)
        except (OSError, ValueError):
            count = 0
        count += 1
        _files.write_durably(path, str(count).encode("ascii"))
        return count

    def finish(self, sha: str) -> None:
        """Handling ``sha`` ended (done, quarantined, or left pending for a busy game)."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.inbox_dir / "attempts" / sha)

    def release(self, sha: str) -> Path:
        """Move a quarantined message back into the inbox to be handled again (by the game
        master, after fixing what made it fail): its reason, done record and attempt count go."""
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
        target = self.path(sha)
        _files.move_durably(source, target)
        for leftover in (self.done_dir / f"{sha}.json", self.quarantine_dir / f"{sha}.reason",
                         self.inbox_dir / "attempts" / sha):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(leftover)
        _files.fsync_dir(self.done_dir)
        _files.fsync_dir(self.quarantine_dir)
        return target

    def read(self, stored: Stored | str) -> bytes:
        """The raw bytes of a stored message (from the inbox or the quarantine)."""
        sha = stored if isinstance(stored, str) else stored.sha256
        path = self._path_of(sha)
        if path is None:
            raise FileNotFoundError(f"no stored message {sha}")
        return path.read_bytes()

    def outcome(self, sha: str) -> dict[str, Any] | None:
        """The done record of ``sha``, or None if it was not handled yet."""
        path = self.done_dir / f"{sha}.json"
        with contextlib.suppress(FileNotFoundError):
            value = _files.read_json(path)
            return value if isinstance(value, dict) else {"outcome": str(value)}
        return None

    def done(self, stored: Stored, outcome: str, *, sync_dir: bool = True,
             **details: Any) -> None:
        """Record durably that ``stored`` was handled: ``outcome`` is a short word ("accepted",
        "rejected", "ignored", "quarantined", …); ``details`` any JSON-able facts (game, turn,
        receipt id, reason). A duplicate (``stored.handled`` set) keeps its first record.
        With ``sync_dir`` false the caller fsyncs :attr:`done_dir` (once for many records)."""
        if stored.duplicate:
            return
        record = {"sha256": stored.sha256, "message_id": stored.message_id, "outcome": outcome}
        record.update(details)
        _files.write_json(self.done_dir / f"{stored.sha256}.json", record, sync_dir=sync_dir)

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
        self.done(stored, "quarantined", reason=reason_text)
        return target

    def quarantined(self) -> list[tuple[str, str]]:
        """(sha256, reason) of every quarantined message, for the game master."""
        found = []
        for reason in sorted(self.quarantine_dir.glob("*.reason")):
            found.append((reason.stem, reason.read_text(encoding="utf-8").strip()))
        return found

    def pending(self) -> list[Stored]:
        """Messages stored but not yet recorded as done (a crashed run), oldest first."""
        result = []
        entries = sorted(self.inbox_dir.glob("*.eml"), key=lambda p: p.stat().st_mtime_ns)
        for path in entries:
            sha = path.stem
            if _SHA.match(sha) and not (self.done_dir / f"{sha}.json").exists():
                _key, message_id = duplicate_key(path.read_bytes())
                result.append(Stored(sha, path, message_id, handled=None, fresh=False))
        return result

    def __repr__(self) -> str:
        return f"Inbox({os.fspath(self.root)!r})"
