"""Retention's part of the outbox (pbem.host.retention): the bytes of mail sent long ago dropped,
every record exactly-once rests on kept (pbem.mail.outbox has the layout; ``queued_under`` and
``state`` read only the records, a batch's header and its sent lines)."""

from __future__ import annotations

import contextlib
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.mail.outbox import Outbox
from pbem.mail.outbox_batch import Batch, compact_batch
from pbem.mail.transports import FileTransport


def prune_sent(box: Outbox, before: datetime, copies: Path | None = None
               ) -> tuple[int, int]:
    """Drop the bytes of mail sent before ``before`` (its ``sent_at``; pbem.host.retention,
    holding the game's lock): each retired batch compacted, and each message's copy in
    ``copies`` (a FileTransport's folder) removed. Every record a key needs stays. Returns
    (batches compacted, bytes freed)."""
    files = size = 0
    for path in sorted(box.sent_dir.glob("*.batch")):
        with contextlib.suppress(FileNotFoundError):
            batch = Batch.read(path)
            if (batch.pruned or not batch.records
                    or not all(_sent_before(r, before) for r in batch.records.values())):
                continue  # new, or compacted already
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
