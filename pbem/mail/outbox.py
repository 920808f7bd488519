"""The transactional outbox: a message is on disk before any attempt to send it, and marked sent
only after the server accepted it.

Layout under the outbox directory::

    pending/<id>.eml   the exact bytes that will be sent (with their Message-ID)
    pending/<id>.json  envelope, attempts, next try, last error
    sent/<id>.eml      ... moved here after acceptance, with sent/<id>.json (the server's reply)
    failed/<id>.eml    ... or here after a 5xx / giving up, with failed/<id>.json (the reason)
    pending/<b>.batch  several messages queued together by ``queue_many`` (see below)
    sent/<b>.batch     ... moved here once each of its messages is sent or failed
    keys/<sha256>      idempotency key -> id (``queue(msg, key=...)``): a file holding the id;
                       or, for ``queue_many(items, key=...)``, a hard link to the batch file

Crash safety. ``queue`` writes the key, the state and then the bytes, each durably; a message is
pending once its .eml exists. ``deliver`` writes ``sent/<id>.json`` right after the server accepted
the message, then moves the .eml; a crash after that record finishes the move on the next run
without sending. The only crash that resends is one between the server's acceptance and that record
— and the resend is the same file: byte-identical, same Message-ID, so the receiving side can drop
the duplicate.

Batches. ``queue_many`` stores several messages (e.g. every mail of one turn) in one file,
``pending/<b>.batch``: a header line with each message's envelope and length, then the messages'
exact bytes, then — appended by ``deliver`` — one JSON line per message recorded sent. Queueing is
all or nothing and costs three fsyncs whatever the number of messages: the batch is written to a
temporary file and fsynced; the key is made a hard link to that file (no data of its own) and
``keys/`` fsynced; the batch is renamed into ``pending/`` and ``pending/`` fsynced — the batch is
queued from that last fsync on. A crash before it leaves either nothing or a key whose batch is
not in pending/ or sent/, which counts as not queued (a second ``queue_many`` with that key
queues afresh). Only the POSIX rule is relied on — a new name or a rename is durable once its
directory is fsynced, file data once the file is — not ext4's habit of committing earlier
renames along with a later fsync (overlayfs passes fsync to the upper file system, so the same
holds there). A plain copy of the outbox (``cp -r``, ``shutil.copytree``) stores each batch twice,
once under its key.

``deliver`` records a batched message as sent by appending its line to the batch file with one
``fdatasync`` (the file and its directory entry are durable already): one durable step per message,
right after the server's acceptance, exactly like ``sent/<id>.json`` for a single message, so the
resend window is the same. A torn append (a crash inside the write) is an unterminated last line:
readers skip it, the message counts as not recorded, and it goes out again byte-identical.

Retry. A :class:`~pbem.mail.transports.TemporaryFailure` (4xx, refused connection, timeout) keeps
the message pending with ``next_try = now + backoff(attempts)``; after ``max_attempts`` it goes to
failed/. The caller passes ``now``; nothing here reads a clock, except that ids begin with the
wall-clock time so they sort in queueing order.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import os
import re
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from pathlib import Path
from typing import Any

from pbem.mail import _files
from pbem.mail.compose import Wire
from pbem.mail.errors import MailConfigError, MailError
from pbem.mail.transports import PermanentFailure, TemporaryFailure, Transport

_ID = re.compile(r"^[0-9]{20}-[0-9a-f]{8}$")


@dataclass(frozen=True, slots=True)
class Backoff:
    """Exponential backoff: ``first`` × ``factor`` ^ (attempts − 1), at most ``maximum``.

    With the defaults a message is retried after 1, 2, 4 … minutes, then every 6 hours, and
    given up (moved to failed/) after 16 attempts, about two days.
    """

    first: timedelta = timedelta(minutes=1)
    factor: float = 2.0
    maximum: timedelta = timedelta(hours=6)
    max_attempts: int = 16

    def delay(self, attempts: int) -> timedelta:
        """Wait after the ``attempts``-th failed attempt (attempts ≥ 1)."""
        exponent = max(attempts - 1, 0)
        seconds = self.first.total_seconds() * self.factor ** min(exponent, 60)
        return timedelta(seconds=min(seconds, self.maximum.total_seconds()))


@dataclass(frozen=True, slots=True)
class Entry:
    """One message in the outbox, as recorded on disk."""

    id: str
    state: str  # "pending" | "sent" | "failed"
    path: Path
    sender: str
    recipients: tuple[str, ...]
    message_id: str | None
    attempts: int = 0
    next_try: datetime | None = None
    #: Pending: the last temporary failure.
    last_error: str | None = None
    #: Sent: the server's acceptance; failed: why it will not be sent (the server's reply).
    reply: str | None = None
    #: Failed: the SMTP code when there was one.
    code: int | None = None
    record: dict[str, Any] = field(default_factory=dict)
    #: A message queued by ``queue_many``: the batch file that holds its bytes.
    batch: Path | None = None

    def raw(self) -> bytes:
        """The exact bytes that are (or were) sent."""
        if self.batch is None:
            return self.path.read_bytes()
        return _Batch.read(self.batch).raw(self.id)


@dataclass(slots=True)
class DeliveryReport:
    """What one ``deliver`` run did, by message id."""

    sent: list[str] = field(default_factory=list)
    deferred: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    #: Pending but not due yet.
    waiting: list[str] = field(default_factory=list)
    #: Sent, but the server refused some recipients: id -> {address: "code reply"}.
    refused: dict[str, dict[str, str]] = field(default_factory=dict)


#: Called at each step of a delivery with (stage, id); raising from it simulates a crash there.
#: Stages: "before-send", "accepted" (the server took it, nothing recorded yet), "recorded".
#: ``queue_many`` calls it with "batch-written" (the batch is fsynced under a temporary name)
#: and "batch-keyed" (the key is durable, the batch not yet renamed into pending/), and the
#: batch id.
StageHook = Callable[[str, str], None]

_BATCH_MAGIC = b"pbem-outbox-batch 1\n"


class BatchDamaged(MailError):
    """A batch file in the outbox cannot be read."""


class _Batch:
    """A batch file read into memory: header, the messages' bytes, the sent records."""

    __slots__ = ("path", "bid", "key", "members", "_data", "_spans", "records")

    def __init__(self, path: Path, data: bytes) -> None:
        if not data.startswith(_BATCH_MAGIC):
            raise ValueError(f"{path} is not an outbox batch")
        end = data.index(b"\n", len(_BATCH_MAGIC))
        header = json.loads(data[len(_BATCH_MAGIC) : end])
        self.path = path
        self.bid: str = header["batch"]
        self.key: str | None = header.get("key")
        self.members: list[dict[str, Any]] = header["members"]
        self._data = data
        self._spans: dict[str, tuple[int, int]] = {}
        offset = end + 1
        for member in self.members:
            self._spans[member["id"]] = (offset, offset + member["length"])
            offset += member["length"]
        if offset > len(data):
            raise ValueError(f"{path} is truncated")
        self.records: dict[str, dict[str, Any]] = {}
        tail = data[offset:]
        for line in tail.split(b"\n")[:-1]:  # the last piece is unterminated (or empty)
            with contextlib.suppress(ValueError):
                record = json.loads(line)
                if isinstance(record, dict) and record.get("id") in self._spans:
                    self.records[record["id"]] = record

    @classmethod
    def read(cls, path: Path) -> _Batch:
        """The batch at ``path``; a damaged one (it was fsynced whole before it got its name, so
        only outside harm does that) raises :class:`BatchDamaged` naming it: never skipped."""
        try:
            return cls(path, path.read_bytes())
        except (ValueError, KeyError, TypeError) as exc:
            raise BatchDamaged(f"{path}: damaged outbox batch ({exc}); its messages are not "
                               "sent until it is restored") from None


    def raw(self, ident: str) -> bytes:
        start, end = self._spans[ident]
        return self._data[start:end]

    def ids(self) -> list[str]:
        return [m["id"] for m in self.members]


def _batch_suffix(ident: str) -> str:
    return ident.rsplit("-", 1)[1]


class Outbox:
    """The outbox under ``directory`` (e.g. ROOT/outbox)."""

    def __init__(self, directory: Path | str, *, backoff: Backoff | None = None) -> None:
        self.directory = Path(directory)
        self.backoff = backoff or Backoff()
        self.pending_dir = self.directory / "pending"
        self.sent_dir = self.directory / "sent"
        self.failed_dir = self.directory / "failed"
        self.keys_dir = self.directory / "keys"
        for d in (self.pending_dir, self.sent_dir, self.failed_dir, self.keys_dir):
            if not d.is_dir():  # a stat; mkdir of an existing directory costs far more
                d.mkdir(parents=True, exist_ok=True)

    # -- queueing -----------------------------------------------------------------------------

    def queue(
        self,
        msg: EmailMessage | Wire | bytes,
        *,
        sender: str | None = None,
        recipients: Iterable[str] | None = None,
        key: str | None = None,
    ) -> str:
        """Store ``msg`` durably as pending and return its id; nothing is sent here.

        The envelope defaults to the From address and the To/Cc/Bcc addresses (Bcc is removed
        from the stored bytes). ``key`` makes queueing idempotent: a second call with the same key
        returns the first id and queues nothing (use e.g. ``"receipt:" + inbox sha256`` so a
        rerun after a crash does not send a second receipt).
        """
        key_path = self._key_path(key) if key else None
        if key_path is not None:
            existing = self._keyed(key_path)
            if existing:
                return existing[0]
        raw, env_sender, env_recipients, message_id = _prepare(msg, sender, recipients)
        ident = f"{time.time_ns():020d}-{secrets.token_hex(4)}"
        if key_path is not None:
            _files.write_durably(key_path, (ident + "\n").encode("ascii"))
        state = {
            "id": ident,
            "sender": env_sender,
            "recipients": env_recipients,
            "message_id": message_id,
            "attempts": 0,
            "next_try": None,
            "last_error": None,
            "key": key,
        }
        _files.write_json(self.pending_dir / f"{ident}.json", state, sync_dir=False)
        _files.write_durably(self.pending_dir / f"{ident}.eml", raw, mode=0o600)
        return ident

    def queue_many(
        self,
        items: Sequence[tuple[str | None, EmailMessage | Wire | bytes]],
        *,
        key: str,
        on_stage: StageHook | None = None,
    ) -> list[str]:
        """Store several messages durably in one step — all of them or none — and return their
        ids (in queueing order); nothing is sent here.

        ``items``: (item key or None, message) pairs. The item keys are recorded in the batch
        header for reference; idempotency is by ``key``, the batch's key: a second call with the
        same key returns the first call's ids and queues nothing. (An item whose key was used by
        :meth:`queue` — an outbox written by an older pbem — is not queued again.)

        Three fsyncs for the whole batch; see the module docstring for the order and why a crash
        anywhere in it is safe.
        """
        hook = on_stage or (lambda stage, ident: None)
        key_path = self._key_path(key)
        existing = self._keyed(key_path)
        if existing is not None:
            return existing
        members: list[dict[str, Any]] = []
        chunks: list[bytes] = []
        start = time.time_ns()
        suffix = secrets.token_hex(4)
        for item_key, msg in items:
            if item_key is not None:
                old = self._keyed(self._key_path(item_key))
                if old:
                    continue
            raw, env_sender, env_recipients, message_id = _prepare(msg, None, None)
            members.append({
                "id": f"{start + len(members):020d}-{suffix}",
                "sender": env_sender,
                "recipients": env_recipients,
                "message_id": message_id,
                "key": item_key,
                "length": len(raw),
            })
            chunks.append(raw)
        bid = f"{start:020d}-{suffix}"
        header = json.dumps({"batch": bid, "key": key, "members": members}, ensure_ascii=True,
                            separators=(",", ":")).encode("ascii")
        target = self.pending_dir / f"{bid}.batch"
        tmp = _files.write_temp(target, b"".join([_BATCH_MAGIC, header, b"\n", *chunks]))
        try:
            hook("batch-written", bid)
            # The key is a second name (a hard link) of the batch file itself: no more data to
            # write or fsync, and the key says which batch it stands for.
            link = key_path.with_name(f".{key_path.name}.tmp-{os.getpid()}-{suffix}")
            os.link(tmp, link)
            os.replace(link, key_path)
            _files.fsync_dir(self.keys_dir)
            hook("batch-keyed", bid)
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _files.fsync_dir(self.pending_dir)
        return [m["id"] for m in members]

    def queued_under(self, key: str) -> list[str] | None:
        """The ids durably queued under ``key`` (by :meth:`queue` or :meth:`queue_many`), or
        None if nothing is."""
        return self._keyed(self._key_path(key))

    def _key_path(self, key: str) -> Path:
        return self.keys_dir / hashlib.sha256(key.encode()).hexdigest()

    def _keyed(self, key_path: Path) -> list[str] | None:
        """The ids queued under a key, or None if nothing durable is queued under it."""
        try:
            data = key_path.read_bytes()
        except FileNotFoundError:
            return None
        if data.startswith(_BATCH_MAGIC):
            with contextlib.suppress(ValueError, KeyError, TypeError):
                batch = _Batch(key_path, data)
                for directory in (self.pending_dir, self.sent_dir):
                    if (directory / f"{batch.bid}.batch").exists():
                        return batch.ids()
            return None  # the key became durable, the batch did not: not queued
        existing = data.decode("ascii", "replace").strip()
        if _ID.match(existing) and self.state(existing) is not None:
            return [existing]
        return None

    # -- looking -------------------------------------------------------------------------------

    def state(self, ident: str) -> str | None:
        """ "pending", "sent", "failed", or None for an unknown id."""
        if (self.sent_dir / f"{ident}.json").exists():
            return "sent"
        if (self.failed_dir / f"{ident}.json").exists():
            return "failed"
        if (self.pending_dir / f"{ident}.eml").exists():
            return "pending"
        batch = self._batch_of(ident)
        if batch is None:
            return None
        return "sent" if ident in batch.records else "pending"

    def _batch_of(self, ident: str) -> _Batch | None:
        """The batch holding ``ident``, if it was queued by :meth:`queue_many`."""
        if not _ID.match(ident):
            return None
        for directory in (self.pending_dir, self.sent_dir):
            for path in sorted(directory.glob(f"*-{_batch_suffix(ident)}.batch")):
                with contextlib.suppress(OSError, ValueError):
                    batch = _Batch.read(path)
                    if ident in batch._spans:
                        return batch
        return None

    def raw(self, ident: str) -> bytes:
        """The stored bytes of a message, wherever it is now."""
        for d in (self.pending_dir, self.sent_dir, self.failed_dir):
            with contextlib.suppress(FileNotFoundError):
                return (d / f"{ident}.eml").read_bytes()
        batch = self._batch_of(ident)
        if batch is None:
            raise KeyError(ident)
        return batch.raw(ident)

    def pending(self) -> list[Entry]:
        """Messages not yet accepted, in queueing order."""
        return self._pending(self._pending_files())

    def _pending_files(self) -> tuple[list[str], list[_Batch]]:
        singles, batches = [], []
        for name in sorted(os.listdir(self.pending_dir)):
            if name.endswith(".eml") and _ID.match(name[:-4]):
                singles.append(name[:-4])
            elif name.endswith(".batch") and _ID.match(name[:-6]):
                with contextlib.suppress(FileNotFoundError):
                    batches.append(_Batch.read(self.pending_dir / name))
        return singles, batches

    def _pending(self, files: tuple[list[str], list[_Batch]]) -> list[Entry]:
        singles, batches = files
        entries = [self._pending_entry(i, self.pending_dir / f"{i}.eml") for i in singles]
        alone = set(singles)
        for batch in batches:
            for member in batch.members:
                ident = member["id"]
                if ident in alone or self._member_done(batch, ident):
                    continue
                entries.append(self._member_entry(batch, member))
        entries.sort(key=lambda e: e.id)
        return entries

    def _member_done(self, batch: _Batch, ident: str) -> bool:
        """Sent (recorded in the batch, or as a single after a retry) or failed."""
        return (
            ident in batch.records
            or (self.failed_dir / f"{ident}.json").exists()
            or (self.sent_dir / f"{ident}.json").exists()
        )

    def _member_entry(self, batch: _Batch, member: dict[str, Any]) -> Entry:
        ident = member["id"]
        state = {k: v for k, v in member.items() if k != "length"}
        state.update(attempts=0, next_try=None, last_error=None)
        # A temporary failure leaves the member's retry state in pending/<id>.json.
        with contextlib.suppress(FileNotFoundError, ValueError):
            state = _files.read_json(self.pending_dir / f"{ident}.json")
        return _pending(ident, batch.path, state, batch=batch.path)

    def failed(self) -> list[Entry]:
        """Messages that will not be sent, with the server's reply: for the game master."""
        return self._finished(self.failed_dir, "failed")

    def sent(self) -> list[Entry]:
        entries = self._finished(self.sent_dir, "sent")
        seen = {e.id for e in entries}
        for directory in (self.sent_dir, self.pending_dir):
            for path in directory.glob("*.batch"):
                with contextlib.suppress(FileNotFoundError):
                    batch = _Batch.read(path)
                    for member in batch.members:
                        record = batch.records.get(member["id"])
                        if record is None or member["id"] in seen:
                            continue
                        record = {**member, **record}
                        entries.append(self._finished_entry(member["id"], "sent", path, record,
                                                            batch=path))
        entries.sort(key=lambda e: e.id)
        return entries

    def _finished(self, directory: Path, state: str) -> list[Entry]:
        entries = []
        for path in sorted(directory.glob("*.json")):
            record = _files.read_json(path)
            entries.append(self._finished_entry(path.stem, state,
                                                directory / f"{path.stem}.eml", record))
        return entries

    @staticmethod
    def _finished_entry(ident: str, state: str, path: Path, record: dict[str, Any],
                        batch: Path | None = None) -> Entry:
        return Entry(
            id=ident,
            state=state,
            path=path,
            sender=record.get("sender", ""),
            recipients=tuple(record.get("recipients", ())),
            message_id=record.get("message_id"),
            attempts=int(record.get("attempts", 0)),
            last_error=record.get("last_error"),
            reply=record.get("reply"),
            code=record.get("code"),
            record=record,
            batch=batch,
        )

    def _pending_entry(self, ident: str, path: Path) -> Entry:
        try:
            state = _files.read_json(self.pending_dir / f"{ident}.json")
        except (FileNotFoundError, ValueError):
            # The state file is written before the .eml, so this is only a hand-made entry:
            # rebuild the envelope from the headers.
            _, sender, recipients, message_id = _prepare(path.read_bytes(), None, None)
            state = {"sender": sender, "recipients": recipients, "message_id": message_id}
        return _pending(ident, path, state)

    # -- delivering ----------------------------------------------------------------------------

    def deliver(
        self,
        transport: Transport,
        now: datetime,
        *,
        limit: int | None = None,
        on_stage: StageHook | None = None,
    ) -> DeliveryReport:
        """Send every pending message that is due at ``now``; record each outcome durably.

        Raises :class:`MailConfigError` (e.g. a refused SMTP login) with every message still
        pending and no attempt counted. ``on_stage`` is for tests: see :data:`StageHook`.
        """
        if now.tzinfo is None:
            raise ValueError("deliver() needs a timezone-aware now")
        report = DeliveryReport()
        self._finish_interrupted()
        files = self._pending_files()
        batches = {b.path: b for b in files[1]}
        hook = on_stage or (lambda stage, ident: None)
        try:
            for entry in self._pending(files):
                if entry.next_try is not None and entry.next_try > now:
                    report.waiting.append(entry.id)
                    continue
                if limit is not None and len(report.sent) + len(report.deferred) >= limit:
                    report.waiting.append(entry.id)
                    continue
                if entry.batch is not None:
                    raw = batches[entry.batch].raw(entry.id)
                else:
                    raw = entry.path.read_bytes()
                hook("before-send", entry.id)
                try:
                    accepted = transport.send(raw, entry.sender, entry.recipients)
                except MailConfigError:
                    raise
                except PermanentFailure as exc:
                    self._fail(entry, now, exc.reply, exc.code, raw)
                    report.failed.append(entry.id)
                    continue
                except TemporaryFailure as exc:
                    if self._defer(entry, now, exc.reply, exc.code, raw):
                        report.deferred.append(entry.id)
                    else:
                        report.failed.append(entry.id)
                    continue
                hook("accepted", entry.id)
                refused = {a: f"{c} {t}" for a, (c, t) in accepted.refused.items()}
                if entry.batch is not None:
                    # One line appended to the batch file, one fdatasync: the record.
                    line = {"id": entry.id, "sent_at": now.isoformat(),
                            "attempts": entry.attempts + 1, "reply": accepted.reply,
                            "refused": refused}
                    _files.append_record(entry.batch, json.dumps(
                        line, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n")
                    hook("recorded", entry.id)
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(self.pending_dir / f"{entry.id}.json")  # retry state, if any
                else:
                    record = {
                        **entry.record,
                        "id": entry.id,
                        "sent_at": now.isoformat(),
                        "attempts": entry.attempts + 1,
                        "reply": accepted.reply,
                        "refused": refused,
                    }
                    _files.write_json(self.sent_dir / f"{entry.id}.json", record)
                    hook("recorded", entry.id)
                    self._move(entry.id, self.sent_dir)
                report.sent.append(entry.id)
                if refused:
                    report.refused[entry.id] = refused
        finally:
            self._retire_batches()
        return report

    def _defer(self, entry: Entry, now: datetime, reply: str, code: int | None,
               raw: bytes) -> bool:
        """Count a temporary failure; False if that was the last allowed attempt (now failed)."""
        attempts = entry.attempts + 1
        error = f"{code} {reply}" if code else reply
        if attempts >= self.backoff.max_attempts:
            self._fail(entry, now, f"gave up after {attempts} attempts; last: {error}", code, raw)
            return False
        state = {
            **entry.record,
            "attempts": attempts,
            "next_try": (now + self.backoff.delay(attempts)).isoformat(),
            "last_error": error,
            "last_try": now.isoformat(),
        }
        _files.write_json(self.pending_dir / f"{entry.id}.json", state)
        return True

    def _fail(self, entry: Entry, now: datetime, reply: str, code: int | None,
              raw: bytes) -> None:
        record = {
            **entry.record,
            "id": entry.id,
            "failed_at": now.isoformat(),
            "attempts": entry.attempts + 1,
            "code": code,
            "reply": reply,
        }
        if entry.batch is not None:
            # The bytes leave the batch: failed/<id>.eml first, then the record that makes
            # the message failed (so retry_failed always finds them).
            _files.write_durably(self.failed_dir / f"{entry.id}.eml", raw, mode=0o600)
        _files.write_json(self.failed_dir / f"{entry.id}.json", record)
        self._move(entry.id, self.failed_dir)

    def _move(self, ident: str, target: Path) -> None:
        """Move the .eml of a recorded message out of pending/ and drop its pending state.

        No fsync: the outcome record is already durable, and a move lost in a crash is finished
        by :meth:`_finish_interrupted` on the next run (never resent).
        """
        source = self.pending_dir / f"{ident}.eml"
        if source.exists():
            os.replace(source, target / f"{ident}.eml")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.pending_dir / f"{ident}.json")

    def _finish_interrupted(self) -> None:
        """Complete moves that a crash interrupted after the outcome was recorded."""
        for path in list(self.pending_dir.glob("*.eml")) + list(self.pending_dir.glob("*.json")):
            ident = path.stem
            if (self.sent_dir / f"{ident}.json").exists():
                self._move(ident, self.sent_dir)
            elif (self.failed_dir / f"{ident}.json").exists():
                self._move(ident, self.failed_dir)
            elif path.suffix == ".json" and not (self.pending_dir / f"{ident}.eml").exists():
                batch = self._batch_of(ident)
                if batch is not None and ident in batch.records:
                    os.unlink(path)  # retry state of a batched message sent since

    def _retire_batches(self) -> None:
        """Move each batch whose messages are all sent or failed to sent/ (no fsync: every
        outcome is recorded durably already; a lost move is redone on the next run)."""
        paths = list(self.pending_dir.glob("*.batch"))
        if not paths:
            return
        pending = {p.name[:-4] for p in self.pending_dir.glob("*.eml")}
        for path in paths:
            try:
                batch = _Batch.read(path)
            except (FileNotFoundError, BatchDamaged):
                continue
            if all(m["id"] in pending or self._member_done(batch, m["id"])
                   for m in batch.members):
                os.replace(path, self.sent_dir / path.name)

    def retry_failed(self, ident: str) -> None:
        """Put a failed message back in pending/ (after the game master fixed the cause)."""
        record = _files.read_json(self.failed_dir / f"{ident}.json")
        state = {k: record.get(k) for k in ("sender", "recipients", "message_id", "key")}
        state.update(id=ident, attempts=0, next_try=None, last_error=None)
        _files.write_json(self.pending_dir / f"{ident}.json", state)
        _files.move_durably(self.failed_dir / f"{ident}.eml", self.pending_dir / f"{ident}.eml")
        os.unlink(self.failed_dir / f"{ident}.json")


def _prepare(
    msg: EmailMessage | Wire | bytes, sender: str | None, recipients: Iterable[str] | None
) -> tuple[bytes, str, list[str], str | None]:
    """(wire bytes, envelope sender, envelope recipients, Message-ID) for a message to queue."""
    if isinstance(msg, Wire):  # composed as bytes, envelope known: nothing to parse
        rcpts = list(dict.fromkeys(msg.recipients if recipients is None else recipients))
        if not rcpts:
            raise ValueError("a queued message needs at least one recipient")
        return msg.raw, sender or msg.sender, rcpts, msg.message_id
    bcc: list[str] = []
    if isinstance(msg, bytes):
        raw = msg
    else:
        bcc = [str(v) for v in msg.get_all("Bcc", [])]
        if bcc:
            msg = copy.deepcopy(msg)
            del msg["Bcc"]
        raw = msg.as_bytes(policy=policy.SMTP)
    headers = BytesHeaderParser(policy=policy.compat32).parsebytes(raw)

    def get_all(name: str) -> list[str]:
        return [str(v) for v in headers.get_all(name, [])]

    message_ids = get_all("Message-ID")
    if not message_ids:
        raise ValueError("a queued message needs a Message-ID (compose() sets one)")
    if sender is None:
        froms = [a for _, a in getaddresses(get_all("From")) if a]
        if len(froms) != 1:
            raise ValueError("a queued message needs one From address or an explicit sender")
        sender = froms[0]
    if recipients is None:
        listed = get_all("To") + get_all("Cc") + bcc + get_all("Bcc")
        recipients = [a for _, a in getaddresses(listed) if a]
    rcpts = list(dict.fromkeys(recipients))
    if not rcpts:
        raise ValueError("a queued message needs at least one recipient")
    return raw, sender, rcpts, message_ids[0].strip()


def _pending(ident: str, path: Path, state: dict[str, Any], *,
             batch: Path | None = None) -> Entry:
    """A pending message's Entry from its recorded retry state."""
    next_try = state.get("next_try")
    return Entry(
        id=ident,
        state="pending",
        path=path,
        sender=state["sender"],
        recipients=tuple(state["recipients"]),
        message_id=state.get("message_id"),
        attempts=int(state.get("attempts", 0)),
        next_try=datetime.fromisoformat(next_try) if next_try else None,
        last_error=state.get("last_error"),
        record=state,
        batch=batch,
    )
