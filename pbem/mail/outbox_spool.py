"""Reading the outbox spool: where each message is (pending, sent, failed; alone or in a
batch), its stored bytes and its record, and what is queued under an idempotency key. The layout
is in pbem.mail.outbox, which adds queueing and delivering on top of this class."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from pathlib import Path
from typing import Any

from pbem.mail import _files
from pbem.mail.outbox_batch import BATCH_MAGIC, Batch, batch_suffix
from pbem.mail.outbox_entry import Backoff, Entry, finished_entry, pending_entry, prepare

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
        for d in (self.directory, self.pending_dir, self.sent_dir, self.failed_dir, self.keys_dir):
            if not d.is_dir():  # a stat; mkdir of an existing directory costs far more
                d.mkdir(mode=0o700, parents=True, exist_ok=True)


    def queued_under(self, key: str) -> list[str] | None:
        """The ids durably queued under ``key`` (by :meth:`queue` or :meth:`queue_many`), or
        None if nothing is. A key naming a batch file is the batch's own key (all its ids) or
        an item key of ``queue_many(index_items=True)`` (the ids of the batch's messages queued
        under it)."""
        key_path = self._key_path(key)
        try:
            data = key_path.read_bytes()
        except FileNotFoundError:
            return None
        if not data:
            # An item key of queue_many(index_items=True): a symlink to keys/<id> (empty).
            with contextlib.suppress(OSError):
                ident = os.readlink(key_path)
                if ID.match(ident) and self.state(ident) is not None:
                    return [ident]
            return None
        if data.startswith(BATCH_MAGIC):
            with contextlib.suppress(ValueError, KeyError, TypeError):
                batch = Batch(key_path, data)
                ids = batch.ids() if batch.key == key else \
                    [m["id"] for m in batch.members if m.get("key") == key]
                for directory in (self.pending_dir, self.sent_dir):
                    if ids and (directory / f"{batch.bid}.batch").exists():
                        return ids
            return None  # the key became durable, the batch did not: not queued
        existing = data.decode("ascii", "replace").strip()
        if ID.match(existing) and self.state(existing) is not None:
            return [existing]
        return None

    def _key_path(self, key: str) -> Path:
        return self.keys_dir / hashlib.sha256(key.encode()).hexdigest()

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

    def _pending_files(self) -> tuple[list[str], list[Batch]]:
        singles, batches = [], []
        for name in sorted(os.listdir(self.pending_dir)):
            if name.endswith(".eml") and ID.match(name[:-4]):
                singles.append(name[:-4])
            elif name.endswith(".batch") and ID.match(name[:-6]):
                with contextlib.suppress(FileNotFoundError):
                    batches.append(Batch.read(self.pending_dir / name))
        return singles, batches

    def _pending(self, files: tuple[list[str], list[Batch]]) -> list[Entry]:
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

    def _member_done(self, batch: Batch, ident: str) -> bool:
        """Sent (recorded in the batch, or as a single after a retry) or failed."""
        return (
            ident in batch.records
            or (self.failed_dir / f"{ident}.json").exists()
            or (self.sent_dir / f"{ident}.json").exists()
        )

    def _member_entry(self, batch: Batch, member: dict[str, Any]) -> Entry:
        ident = member["id"]
        state = {k: v for k, v in member.items() if k != "length"}
        state.update(attempts=0, next_try=None, last_error=None)
        # A temporary failure leaves the member's retry state in pending/<id>.json.
        with contextlib.suppress(FileNotFoundError, ValueError):
            state = _files.read_json(self.pending_dir / f"{ident}.json")
        return pending_entry(ident, batch.path, state, batch=batch.path)

    def failed(self) -> list[Entry]:
        """Messages that will not be sent, with the server's reply: for the game master."""
        return self._finished(self.failed_dir, "failed")

    def sent(self) -> list[Entry]:
        entries = self._finished(self.sent_dir, "sent")
        seen = {e.id for e in entries}
        for directory in (self.sent_dir, self.pending_dir):
            for path in directory.glob("*.batch"):
                with contextlib.suppress(FileNotFoundError):
                    batch = Batch.read(path)
                    for member in batch.members:
                        record = batch.records.get(member["id"])
                        if record is None or member["id"] in seen:
                            continue
                        record = {**member, **record}
                        entries.append(finished_entry(member["id"], "sent", path, record,
                                                            batch=path))
        entries.sort(key=lambda e: e.id)
        return entries

    def _finished(self, directory: Path, state: str) -> list[Entry]:
        entries = []
        for path in sorted(directory.glob("*.json")):
            record = _files.read_json(path)
            entries.append(finished_entry(path.stem, state, directory / f"{path.stem}.eml",
                                          record))
        return entries

    def _pending_entry(self, ident: str, path: Path) -> Entry:
        try:
            state = _files.read_json(self.pending_dir / f"{ident}.json")
        except (FileNotFoundError, ValueError):
            # The state file is written before the .eml, so this is only a hand-made entry:
            # rebuild the envelope from the headers.
            _, sender, recipients, message_id = prepare(path.read_bytes(), None, None)
            state = {"sender": sender, "recipients": recipients, "message_id": message_id}
        return pending_entry(ident, path, state)

