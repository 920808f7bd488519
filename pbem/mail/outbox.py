"""The transactional outbox: a message is on disk before any attempt to send it, and marked sent
only after the server accepted it.

Layout under the outbox directory::

    pending/<b>.batch  queued messages, one or several (``queue``, ``queue_many``): the one
                       format of queued mail (pbem.mail.outbox_batch), with a sent record
                       appended for each message the server accepted
    pending/<id>.json  a batched message's retry state after a temporary failure
    sent/<b>.batch     ... moved here once each of its messages is sent or failed
    failed/<id>.eml    a message that failed (5xx, or given up), with failed/<id>.json (why)
    keys/<sha256>      idempotency key -> a hard link to the batch queued under it (with
                       ``index_items``, each item's key too: the header names its message)

Crash safety. A batch is queued all or nothing (pbem.mail.outbox_batch says how). ``deliver``
appends a message's sent record to its batch right after the server accepted it; a crash after
that record never sends it again. The only crash that resends is one between the server's
acceptance and that record — and the resend is the same bytes, same Message-ID, so the receiving
side can drop the duplicate.

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
from pbem.mail.outbox_batch import (
    Batch,
    BatchDamaged,
    PreparedBatch,
    prepare_batch,
    record_line,
    record_sent,
    store_batch,
)
from pbem.mail.outbox_entry import (
    Backoff,
    DeliveryReport,
    Entry,
    StageHook,
    queued_record,
    sent_record,
)
from pbem.mail.outbox_spool import Spool, retry_key

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
        """Store ``msg`` durably as pending and return its id; nothing is sent here. It is a
        batch of one (the outbox's one format): two fsyncs, three with a key.

        The envelope defaults to the From address and the To/Cc/Bcc addresses (Bcc is removed
        from the stored bytes). ``key`` makes queueing idempotent: a second call with the same key
        returns the first id and queues nothing (use e.g. ``"receipt:" + inbox sha256`` so a
        rerun after a crash does not send a second receipt).
        """
        if key:
            existing = self.queued_under(key)
            if existing:
                return existing[0]
        ident = f"{time.time_ns():020d}-{secrets.token_hex(4)}"
        member, raw = queued_record(ident, msg, key or None, sender, recipients)
        store_batch(self.pending_dir, self._key_path(key) if key else None, ident, key or None,
                    [{**member, "length": len(raw)}], [raw], lambda stage, ident: None)
        return ident

    def queue_many(
        self,
        items: Sequence[tuple[str | None, EmailMessage | Wire | bytes]],
        *,
        key: str,
        on_stage: StageHook | None = None,
        index_items: bool = False,
        durable_key: bool = True,
    ) -> list[str]:
        """Store several messages durably in one step — all of them or none — and return their
        ids (in queueing order); nothing is sent here.

        ``items``: (item key or None, message) pairs. The item keys are recorded in the batch
        header for reference; idempotency is by ``key``, the batch's key: a second call with the
        same key returns the first call's ids and queues nothing. (An item whose key queued a
        message already, by :meth:`queue` or as an indexed item, is not queued again.)

        Three fsyncs for the whole batch; see pbem.mail.outbox_batch for the order and why a crash
        anywhere in it is safe.

        ``index_items``: each item key also finds its message (``queued_under``, ``queue``), so
        replies batched by ingest stay idempotent one by one: ``keys/<sha256>`` of the item key
        is one more hard link to the batch file (whose header names each message's key), made
        durable by the batch's own fsync of ``keys/`` and counted only once the batch is, as
        the batch key.

        ``durable_key`` false (without ``index_items``): the key is linked but its directory
        is not fsynced (two fsyncs, not three), so after a power cut the batch may be queued
        while its key is lost. Only for a key that is queued again solely by a caller that
        first asks :meth:`find_queued`, which finds such a batch by its header (the turn
        job's resolution mail: docs/operations.md, "One barrier per phase").
        """
        existing = self.queued_under(key)
        if existing is not None:
            return existing
        batch = self.prepare_many(items, key=key, index_items=index_items,
                                  durable_key=durable_key)
        hook = on_stage or (lambda stage, ident: None)
        try:
            batch.sync()
            hook("batch-written", batch.target.name[: -len(".batch")])
        except BaseException:
            batch.discard()
            raise
        batch.place(hook)
        return batch.ids

    def prepare_many(
        self,
        items: Sequence[tuple[str | None, EmailMessage | Wire | bytes]],
        *,
        key: str,
        index_items: bool = False,
        durable_key: bool = True,
    ) -> PreparedBatch:
        """The first half of :meth:`queue_many`: the batch written to its temporary file, not
        fsynced and not queued (pbem.mail.outbox_batch.PreparedBatch: ``sync``, then ``place``;
        or ``discard``). For a caller that waits for the file's fsync together with a durable
        write of its own that must come first (the turn job's log entry). The caller asks
        :meth:`queued_under` (or :meth:`find_queued`) for ``key`` before; nothing here does."""
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
        return prepare_batch(self.pending_dir, key_path, bid, key, members, chunks, item_paths,
                             sync_keys=durable_key, placed=self.placed)

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
        # One listing of pending/ says which batches there are and which messages have a
        # retry state (pending/<id>.json): only deliver writes those, under the game's lock.
        names = os.listdir(self.pending_dir)
        retry = {name[:-5] for name in names if name.endswith(".json")}
        self._finish_interrupted(retry)
        files = self._pending_files(names)
        batches = {b.path: b for b in files}
        hook = on_stage or (lambda stage, ident: None)
        stager = transport if transports.stages(transport) else None
        staged: list[Entry] = []  # handed over to a staging transport, not yet recorded
        try:
            for entry in self._pending(files, retry):
                if entry.next_try is not None and entry.next_try > now:
                    report.waiting.append(entry.id)
                    continue
                if limit is not None and len(report.sent) + len(report.deferred) >= limit:
                    report.waiting.append(entry.id)
                    continue
                assert entry.batch is not None
                raw = batches[entry.batch].raw(entry.id)
                hook("before-send", entry.id)
                try:
                    if stager is not None:
                        stager.stage(raw, entry.sender, entry.recipients)
                        accepted = None
                    else:
                        accepted = transport.send(raw, entry.sender, entry.recipients)
                except MailConfigError:
                    raise
                except transports.PermanentFailure as exc:
                    self._fail(entry, now, exc.reply, exc.code, raw, retry)
                    report.failed.append(entry.id)
                    continue
                except transports.TemporaryFailure as exc:
                    if self._defer(entry, now, exc.reply, exc.code, raw, retry):
                        report.deferred.append(entry.id)
                    else:
                        report.failed.append(entry.id)
                    continue
                hook("accepted", entry.id)
                if accepted is None:  # staged: accepted and recorded after the commit, below
                    staged.append(entry)
                    report.sent.append(entry.id)
                    continue
                # One line appended to the batch file: the record (one fdatasync; for a staging
                # transport after its commit, without one: _record_staged).
                line, refused = _accepted_record(entry, now, accepted)
                record_sent(entry.batch, line)
                self.placed.forget(entry.batch.name)
                batches[entry.batch].records[entry.id] = line
                hook("recorded", entry.id)
                self._drop_retry_state(entry.id, retry)
                report.sent.append(entry.id)
                if refused:
                    report.refused[entry.id] = refused
        finally:
            try:
                if stager is not None and staged:
                    self._record_staged(stager, staged, now, report, hook, batches, retry)
            finally:
                self._retire_batches(files)
        return report

    def _record_staged(self, stager: StagingTransport, staged: list[Entry], now: datetime,
                       report: DeliveryReport, hook: StageHook, batches: dict[Path, Batch],
                       retry: set[str]) -> None:
        """Make the staged messages durable at the transport (one commit), then record them
        sent: all the lines of one batch file in one append, without a sync. Recorded implies
        delivered: the records are written only after the commit returned. A crash before the
        records are durable sends the staged messages again, byte-identical (the file
        transport writes the same file again: ``StagingTransport`` is idempotent); a failed
        commit records nothing and leaves them pending, for the next run."""
        hook("before-commit", staged[-1].id)
        try:
            accepted = stager.commit()
        except transports.TemporaryFailure:
            ids = {entry.id for entry in staged}
            report.sent[:] = [i for i in report.sent if i not in ids]
            report.waiting.extend(sorted(ids))
            return
        hook("committed", staged[-1].id)
        done: list[tuple[Entry, dict[str, Any]]] = []
        lines: dict[Path, list[bytes]] = {}
        for entry, acceptance in zip(staged, accepted, strict=True):
            assert entry.batch is not None
            line, refused = _accepted_record(entry, now, acceptance)
            if refused:
                report.refused[entry.id] = refused
            done.append((entry, line))
            lines.setdefault(entry.batch, []).append(record_line(line))
        for path, records in lines.items():
            # No fdatasync: a record a power cut loses only sends its messages to this
            # transport again, byte-identical under the same name (pbem.mail.outbox_batch).
            append_record(path, b"".join(records), sync=False)
            self.placed.forget(path.name)
        for entry, line in done:
            assert entry.batch is not None
            batches[entry.batch].records[entry.id] = line  # as the file now says
            hook("recorded", entry.id)
            self._drop_retry_state(entry.id, retry)

    def _defer(self, entry: Entry, now: datetime, reply: str, code: int | None,
               raw: bytes, retry: set[str]) -> bool:
        """Count a temporary failure; False if that was the last allowed attempt (now failed)."""
        attempts = entry.attempts + 1
        error = f"{code} {reply}" if code else reply
        if attempts >= self.backoff.max_attempts:
            self._fail(entry, now, f"gave up after {attempts} attempts; last: {error}", code, raw,
                       retry)
            return False
        state = {
            **entry.record,
            "attempts": attempts,
            "next_try": (now + self.backoff.delay(attempts)).isoformat(),
            "last_error": error,
            "last_try": now.isoformat(),
        }
        _files.write_json(self.pending_dir / f"{entry.id}.json", state)
        retry.add(entry.id)
        return True

    def _fail(self, entry: Entry, now: datetime, reply: str, code: int | None,
              raw: bytes, retry: set[str]) -> None:
        """The message's bytes leave its batch: ``failed/<id>.eml`` first, then the record that
        makes it failed (so :meth:`retry_failed` always finds them)."""
        record = {
            **entry.record,
            "id": entry.id,
            "failed_at": now.isoformat(),
            "attempts": entry.attempts + 1,
            "code": code,
            "reply": reply,
        }
        _files.write_durably(self.failed_dir / f"{entry.id}.eml", raw, mode=0o600)
        _files.write_json(self.failed_dir / f"{entry.id}.json", record)
        self._drop_retry_state(entry.id, retry)

    def _drop_retry_state(self, ident: str, retry: set[str]) -> None:
        """Remove a recorded message's retry state, if it has one (``retry``: the ids that
        have, from the listing ``deliver`` took: no system call for a file known absent). No
        fsync: the outcome record is durable already, and a state a crash leaves is removed
        by :meth:`_finish_interrupted` on the next run (never resent)."""
        if ident not in retry:
            return
        retry.discard(ident)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{self.pending_dir}/{ident}.json")

    def _finish_interrupted(self, retry: set[str]) -> None:
        """Remove the retry state of messages recorded sent or failed before a crash
        (``retry``: the ids that have one, from a listing of pending/)."""
        for ident in sorted(retry):
            if os.path.exists(f"{self.failed_dir}/{ident}.json"):
                self._drop_retry_state(ident, retry)
                continue
            batch = self._batch_of(ident)
            if batch is not None and ident in batch.records:
                self._drop_retry_state(ident, retry)

    def _retire_batches(self, batches: list[Batch]) -> None:
        """Move each of ``batches`` (read at the start of ``deliver``, with the records it
        appended since) whose messages are all sent or failed to sent/ (no fsync: every
        outcome is recorded durably already; a lost move is redone on the next run). A batch
        queued since the listing has messages to send: it is not one."""
        failed = str(self.failed_dir)
        for batch in batches:
            if all(self._member_done(batch, m["id"], failed) for m in batch.members):
                self.placed.forget(batch.path.name)
                with contextlib.suppress(FileNotFoundError):
                    os.replace(batch.path, f"{self.sent_dir}/{batch.path.name}")

    def retry_failed(self, ident: str) -> str:
        """Queue a failed message again (after the game master fixed the cause), its bytes
        unchanged (the same Message-ID), as a new message in a batch of its own; returns the
        new id. Idempotent: its key is ``retry:<ident>``, so a second call queues nothing and
        returns the same id; the failed record stays, and :meth:`failed` no longer lists it."""
        record = _files.read_json(self.failed_dir / f"{ident}.json")
        raw = (self.failed_dir / f"{ident}.eml").read_bytes()
        return self.queue(raw, sender=record["sender"], recipients=record["recipients"],
                          key=retry_key(ident))



def _accepted_record(entry: Entry, now: datetime, accepted: transports.Accepted
                     ) -> tuple[dict[str, Any], dict[str, str]]:
    """The sent record of ``entry``, accepted at ``now``, and the recipients the server refused
    while accepting it (address -> "code reply"), as the record names them."""
    refused = {a: f"{c} {t}" for a, (c, t) in accepted.refused.items()}
    return sent_record(entry, now, accepted.reply, refused), refused
