"""Retention's part of the outbox (pbem.host.retention): the bytes of mail sent long ago dropped,
every record exactly-once rests on kept (pbem.mail.outbox has the layout; ``queued_under`` and
``state`` read only the records, a batch's header and its sent lines)."""

from __future__ import annotations

import contextlib
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.mail import _files
from pbem.mail.outbox import Outbox
from pbem.mail.outbox_batch import Batch, compact_batch
from pbem.mail.transports import FileTransport


def prune_sent(box: Outbox, before: datetime, copies: Path | None = None
               ) -> tuple[int, int]:
    """Drop the bytes of mail sent before ``before`` (its ``sent_at``; pbem.host.retention,
    holding the game's lock): ``sent/ID.eml`` removed, ``sent/ID.json`` kept; a retired
    batch compacted; each one's copy in ``copies`` (a FileTransport's folder) removed. Every
    record a key needs stays. Returns (files removed or compacted, bytes freed)."""
    files = size = 0
    pending = {p.name.rsplit(".", 1)[0] for p in box.pending_dir.iterdir()}
    for path in sorted(box.sent_dir.glob("*.json")):
        eml = box.sent_dir / f"{path.stem}.eml"
        with contextlib.suppress(FileNotFoundError, ValueError, KeyError, TypeError):
            if eml.exists() and _sent_before(_files.read_json(path), before):
                size += _drop_copy(copies, eml.read_bytes()) + eml.stat().st_blocks * 512
                os.unlink(eml)
                files += 1
    for path in sorted(box.sent_dir.glob("*.batch")):
        with contextlib.suppress(FileNotFoundError):
            batch = Batch.read(path)
            if (batch.pruned or not batch.records or any(m["id"] in pending for m in
                                                         batch.members)
                    or not all(_sent_before(r, before) for r in batch.records.values())):
                continue  # new, compacted already, or a message of it pending again
            for ident in batch.records:
                size += _drop_copy(copies, batch.raw(ident))
            size += compact_batch(batch, [box._key_path(k) for k in batch.key_names()])
            files += 1
    return files, size


def _sent_before(record: dict[str, Any], before: datetime) -> bool:
    return datetime.fromisoformat(record["sent_at"]) < before


def _drop_copy(copies: Path | None, raw: bytes) -> int:
    """Remove the file transport's copy of ``raw`` (pbem.mail.transports.FileTransport names it
    by its bytes); the bytes freed."""
    if copies is None:
        return 0
    path = copies / FileTransport.name_of(raw)
    try:
        freed = path.lstat().st_blocks * 512
        path.unlink()
    except FileNotFoundError:
        return 0
    return freed
