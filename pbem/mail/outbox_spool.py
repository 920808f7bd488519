"""Reading the outbox spool: where each message is (pending or sent in its batch, or failed),
its stored bytes and its record, and what is queued under an idempotency key. The layout
is in pbem.mail.outbox, which adds queueing and delivering on top of this class."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from pathlib import Path
from typing import Any

from pbem.mail import _files
from pbem.mail.outbox_batch import Batch, Placed, batch_suffix, read_header
from pbem.mail.outbox_entry import Backoff, Entry, finished_entry, pending_entry

ID = re.compile(r"^[0-9]{20}-[0-9a-f]{8}$")


class Spool:
    """The outbox directories under ``directory`` and everything read from them."""

    def __init__(self, directory: Path | str, *, backoff: Backoff | None = None) -> None:
        self.directory = Path(directory)
        self.backoff = backoff or Backoff()
        self.pending_dir = self.directory / "pending"
        self.sent_dir = self.directory / "sent"
        self.failed_dir = self.directory / "failed"
        self.keys_dir = self.directory / "keys"
        #: the batches this object queued, read back from memory (pbem.mail.outbox_batch)
        self.placed = Placed()
        for d in (self.directory, self.pending_dir, self.sent_dir, self.failed_dir, self.keys_dir):
            if not d.is_dir():  # a stat; mkdir of an existing directory costs far more
                d.mkdir(mode=0o700, parents=True, exist_ok=True)


    def queued_under(self, key: str) -> list[str] | None:
        """The ids durably queued under ``key`` (by :meth:`queue` or :meth:`queue_many`), or
        None if nothing is. A key is a hard link to its batch: the batch's own key (all its
        ids) or an item key of ``queue_many(index_items=True)`` (the ids of the batch's
        messages queued under it)."""
        try:
            header = read_header(self._key_path(key))
            members = header["members"]
            ids = [m["id"] for m in members] if header["key"] == key else \
                [m["id"] for m in members if m.get("key") == key]
            for directory in (self.pending_dir, self.sent_dir):
                if ids and (directory / f"{header['batch']}.batch").exists():
                    return ids
        except (FileNotFoundError, ValueError, KeyError, TypeError):
            return None
        return None  # the key became durable, the batch did not: not queued

    def find_queued(self, key: str) -> list[str] | None:
        """:meth:`queued_under`, or else the ids of a batch in pending/ or sent/ whose header
        names ``key``, its key file linked again (durably) — for a key queued with
        ``durable_key`` false, whose link a power cut may have lost while the batch stayed
        queued. Reads every batch's header: for a recovery's check, not for every queue."""
        found = self.queued_under(key)
        if found is not None:
            return found
        for directory in (self.pending_dir, self.sent_dir):
            for path in sorted(directory.glob("*.batch")):
                try:
                    header = read_header(path)
                    if header["key"] != key:
                        continue
                    ids = [m["id"] for m in header["members"]]
                except (FileNotFoundError, ValueError, KeyError, TypeError):
                    continue
                link = self._key_path(key)
                tmp = link.with_name(f".{link.name}.tmp-{os.getpid()}-{batch_suffix(path.stem)}")
                os.link(path, tmp)
                os.replace(tmp, link)
                _files.fsync_dir(self.keys_dir)
                return ids
        return None

    def _key_path(self, key: str) -> Path:
        return self.keys_dir / hashlib.sha256(key.encode()).hexdigest()

    # -- looking -------------------------------------------------------------------------------

    def state(self, ident: str) -> str | None:
        """ "pending", "sent", "failed", or None for an unknown id."""
        if (self.failed_dir / f"{ident}.json").exists():
            return "failed"
        batch = self._batch_of(ident)
        if batch is None:
            return None
        return "sent" if ident in batch.records else "pending"

    def _batch_of(self, ident: str) -> Batch | None:
        """The batch holding ``ident``, if it was queued by :meth:`queue_many`."""
        if not ID.match(ident):
            return None
        for directory in (self.pending_dir, self.sent_dir):
            for path in sorted(directory.glob(f"*-{batch_suffix(ident)}.batch")):
                with contextlib.suppress(OSError, ValueError):
                    batch = Batch.read(path)
                    if batch.holds(ident):
                        return batch
        return None

    def raw(self, ident: str) -> bytes:
        """The stored bytes of a message, wherever it is now."""
        with contextlib.suppress(FileNotFoundError):
            return (self.failed_dir / f"{ident}.eml").read_bytes()
        batch = self._batch_of(ident)
        if batch is None:
            raise KeyError(ident)
        return batch.raw(ident)

    def pending(self) -> list[Entry]:
        """Messages not yet accepted, in queueing order."""
        return self._pending(self._pending_files())

    def _pending_files(self, names: list[str] | None = None) -> list[Batch]:
        """The batches in pending/ (``names``: its listing, taken by the caller)."""
        batches = []
        for name in sorted(os.listdir(self.pending_dir) if names is None else names):
            if name.endswith(".batch") and ID.match(name[:-6]):
                with contextlib.suppress(FileNotFoundError):
                    batches.append(self.placed.read(self.pending_dir / name))
        return batches

    def _pending(self, batches: list[Batch], retry: set[str] | None = None) -> list[Entry]:
        """The messages of ``batches`` not sent or failed; ``retry``: the ids that have a retry
        state (``pending/<id>.json``), from a listing of pending/ (None: look for each)."""
        failed = str(self.failed_dir)
        entries = [self._member_entry(batch, member, retry) for batch in batches
                   for member in batch.members
                   if not self._member_done(batch, member["id"], failed)]
        entries.sort(key=lambda e: e.id)
        return entries

    def _member_done(self, batch: Batch, ident: str, failed: str | None = None) -> bool:
        """Sent (recorded in the batch) or failed (``failed``: str of failed/, to save the
        path building)."""
        return ident in batch.records or os.path.exists(
            f"{failed or self.failed_dir}/{ident}.json")

    def _member_entry(self, batch: Batch, member: dict[str, Any],
                      retry: set[str] | None = None) -> Entry:
        ident = member["id"]
        state = {k: v for k, v in member.items() if k != "length"}
        state.update(attempts=0, next_try=None, last_error=None)
        # A temporary failure leaves the member's retry state in pending/<id>.json.
        if retry is None or ident in retry:
            with contextlib.suppress(FileNotFoundError, ValueError):
                state = _files.read_json(self.pending_dir / f"{ident}.json")
        return pending_entry(ident, batch.path, state, batch=batch.path)

    def failed(self) -> list[Entry]:
        """Messages that will not be sent, with the server's reply: for the game master (a
        message queued again by ``retry_failed`` is no longer one)."""
        entries = []
        for path in sorted(self.failed_dir.glob("*.json")):
            if self.queued_under(retry_key(path.stem)) is not None:
                continue
            entries.append(finished_entry(path.stem, "failed", self.failed_dir /
                                          f"{path.stem}.eml", _files.read_json(path)))
        return entries

    def sent(self) -> list[Entry]:
        entries = []
        for directory in (self.sent_dir, self.pending_dir):
            for path in directory.glob("*.batch"):
                with contextlib.suppress(FileNotFoundError):
                    batch = Batch.read(path)
                    for member in batch.members:
                        record = batch.records.get(member["id"])
                        if record is not None:
                            entries.append(finished_entry(member["id"], "sent", path,
                                                          {**member, **record}, batch=path))
        entries.sort(key=lambda e: e.id)
        return entries


def retry_key(ident: str) -> str:
    """The key under which ``Outbox.retry_failed`` queues the failed message ``ident`` again."""
    return f"retry:{ident}"
