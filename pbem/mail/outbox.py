"""The transactional outbox: a message is on disk before any attempt to send it, and marked sent
only after the server accepted it.

Layout under the outbox directory::

    pending/<id>.eml   the exact bytes that will be sent (with their Message-ID)
    pending/<id>.json  envelope, attempts, next try, last error
    sent/<id>.eml      ... moved here after acceptance, with sent/<id>.json (the server's reply)
    failed/<id>.eml    ... or here after a 5xx / giving up, with failed/<id>.json (the reason)
    pending/<b>.batch  several messages queued together by ``queue_many`` (pbem.mail.outbox_batch)
    sent/<b>.batch     ... moved here once each of its messages is sent or failed
    keys/<sha256>      idempotency key -> id (``queue(msg, key=...)``): a file holding the id;
                       or, for ``queue_many(items, key=...)``, a hard link to the batch file
                       (with ``index_items``, each item's key too: the header names its message)

Crash safety. ``queue`` writes the key, the state and then the bytes, each durably; a message is
pending once its .eml exists. ``deliver`` writes ``sent/<id>.json`` right after the server accepted
the message, then moves the .eml; a crash after that record finishes the move on the next run
without sending. The only crash that resends is one between the server's acceptance and that record
— and the resend is the same file: byte-identical, same Message-ID, so the receiving side can drop
the duplicate.

Retry. A :class:`~pbem.mail.transports.TemporaryFailure` (4xx, refused connection, timeout) keeps
the message pending with ``next_try = now + backoff(attempts)``; after ``max_attempts`` it goes to
failed/. The caller passes ``now``; nothing here reads a clock, except that ids begin with the
wall-clock time so they sort in queueing order.

Where each part lives: this module queues and delivers; ``outbox_spool`` reads the directories
(where a message is, its bytes, what a key queued); ``outbox_batch`` is the batch file format;
``outbox_entry`` holds a message's record (``Entry``), the ``Backoff`` and the envelope a message
is queued with.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from collections.abc import Iterable, Sequence
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import lazy
from pbem.mail import _files
from pbem.mail._files import append_record
from pbem.mail.compose import Wire
from pbem.mail.errors import MailConfigError
from pbem.mail.outbox_batch import Batch, BatchDamaged, record_line, record_sent, store_batch
from pbem.mail.outbox_entry import (
    Backoff,
    DeliveryReport,
    Entry,
    StageHook,
    queued_record,
    sent_record,
)
from pbem.mail.outbox_spool import Spool

if TYPE_CHECKING:
    from pbem.mail import transports
    from pbem.mail.transports import StagingTransport, Transport
else:  # a mail is queued (ingest's receipt) without them: loaded where one is delivered
    transports = lazy.module("pbem.mail.transports")

__all__ = ["Backoff", "BatchDamaged", "DeliveryReport", "Entry", "Outbox", "StageHook"]


class Outbox(Spool):
    """The outbox under ``directory`` (e.g. ROOT/outbox): queueing and delivering."""

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
        key_path = None
        if key:
            existing = self.queued_under(key)
            if existing:
                return existing[0]
            key_path = self._key_path(key)
        ident = f"{time.time_ns():020d}-{secrets.token_hex(4)}"
        state, raw = queued_record(ident, msg, key, sender, recipients)
        state.update(attempts=0, next_try=None, last_error=None)
        if key_path is not None:
            _files.write_durably(key_path, (ident + "\n").encode("ascii"))
        _files.write_json(self.pending_dir / f"{ident}.json", state, sync_dir=False)
        _files.write_durably(self.pending_dir / f"{ident}.eml", raw, mode=0o600)
        return ident

    def queue_many(
        self,
        items: Sequence[tuple[str | None, EmailMessage | Wire | bytes]],
        *,
        key: str,
        on_stage: StageHook | None = None,
        index_items: bool = False,
    ) -> list[str]:
        """Store several messages durably in one step — all of them or none — and return their
        ids (in queueing order); nothing is sent here.

        ``items``: (item key or None, message) pairs. The item keys are recorded in the batch
        header for reference; idempotency is by ``key``, the batch's key: a second call with the
        same key returns the first call's ids and queues nothing. (An item whose key was used by
        :meth:`queue` — an outbox written by an older pbem — is not queued again.)

        Three fsyncs for the whole batch; see pbem.mail.outbox_batch for the order and why a crash
        anywhere in it is safe.

        ``index_items``: each item key also finds its message (``queued_under``, ``queue``), so
        replies batched by ingest stay idempotent one by one: ``keys/<sha256>`` of the item key
        is one more hard link to the batch file (whose header names each message's key), made
        durable by the batch's own fsync of ``keys/`` and counted only once the batch is, as
        the batch key. (Outboxes of older pbem versions hold a symlink to an empty
        ``keys/<id>`` instead: still read.)
        """
        hook = on_stage or (lambda stage, ident: None)
        existing = self.queued_under(key)
        if existing is not None:
            return existing
        key_path = self._key_path(key)
        members: list[dict[str, Any]] = []
        chunks: list[bytes] = []
        start = time.time_ns()
        suffix = secrets.token_hex(4)
        for item_key, msg in items:
            if item_key is not None and self.queued_under(item_key):
                continue
            member, raw = queued_record(f"{start + len(members):020d}-{suffix}", msg, item_key)
            members.append({**member, "length": len(raw)})
            chunks.append(raw)
        bid = f"{start:020d}-{suffix}"
        item_paths = [self._key_path(m["key"]) for m in members
                      if index_items and m["key"] is not None]
        store_batch(self.pending_dir, key_path, bid, key, members, chunks, hook, item_paths)
        return [m["id"] for m in members]


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
        stager = transport if isinstance(transport, transports.StagingTransport) else None
        staged: list[tuple[Entry, dict[str, Any]]] = []  # handed over, not yet recorded
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
                    if stager is not None and entry.batch is not None:
                        accepted = stager.stage(raw, entry.sender, entry.recipients)
                    else:
                        accepted = transport.send(raw, entry.sender, entry.recipients)
                except MailConfigError:
                    raise
                except transports.PermanentFailure as exc:
                    self._fail(entry, now, exc.reply, exc.code, raw)
                    report.failed.append(entry.id)
                    continue
                except transports.TemporaryFailure as exc:
                    if self._defer(entry, now, exc.reply, exc.code, raw):
                        report.deferred.append(entry.id)
                    else:
                        report.failed.append(entry.id)
                    continue
                hook("accepted", entry.id)
                refused = {a: f"{c} {t}" for a, (c, t) in accepted.refused.items()}
                if entry.batch is not None:
                    # One line appended to the batch file, one fdatasync: the record.
                    line = sent_record(entry, now, accepted.reply, refused)
                    if stager is not None:
                        staged.append((entry, line))  # recorded after the commit, below
                    else:
                        record_sent(entry.batch, line)
                        hook("recorded", entry.id)
                        with contextlib.suppress(FileNotFoundError):
                            os.unlink(self.pending_dir / f"{entry.id}.json")  # retry state
                else:
                    record = {**entry.record, **sent_record(entry, now, accepted.reply, refused)}
                    _files.write_json(self.sent_dir / f"{entry.id}.json", record)
                    hook("recorded", entry.id)
                    self._move(entry.id, self.sent_dir)
                report.sent.append(entry.id)
                if refused:
                    report.refused[entry.id] = refused
        finally:
            try:
                if stager is not None and staged:
                    self._record_staged(stager, staged, report, hook)
            finally:
                self._retire_batches()
        return report

    def _record_staged(self, stager: StagingTransport, staged: list[tuple[Entry, dict[str, Any]]],
                       report: DeliveryReport, hook: StageHook) -> None:
        """Make the staged messages durable at the transport (one commit), then record them
        sent: all the lines of one batch file in one append and one fdatasync. Recorded
        implies delivered: the records are written only after the commit returned. A crash
        before the records sends the staged messages again, byte-identical (the file transport
        writes the same file again); a failed commit records nothing and leaves them pending,
        for the next run."""
        hook("before-commit", staged[-1][0].id)
        try:
            stager.commit()
        except transports.TemporaryFailure:
            ids = {entry.id for entry, _ in staged}
            report.sent[:] = [i for i in report.sent if i not in ids]
            report.waiting.extend(sorted(ids))
            for ident in ids:
                report.refused.pop(ident, None)
            return
        hook("committed", staged[-1][0].id)
        lines: dict[Path, list[bytes]] = {}
        for entry, line in staged:
            assert entry.batch is not None
            lines.setdefault(entry.batch, []).append(record_line(line))
        for path, records in lines.items():
            append_record(path, b"".join(records))
        for entry, _line in staged:
            hook("recorded", entry.id)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.pending_dir / f"{entry.id}.json")  # retry state, if any

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
                batch = Batch.read(path)
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


