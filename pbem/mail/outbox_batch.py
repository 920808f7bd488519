"""The outbox's batch file, its one format of queued mail: several messages queued together by
``Outbox.queue_many`` (or one, by ``Outbox.queue``), in one file ``pending/<b>.batch``
(pbem.mail.outbox has the whole outbox layout).

``queue_many`` stores several messages (e.g. every mail of one turn) in one file,
``pending/<b>.batch``: a header line with each message's envelope and length, then the messages'
exact bytes, then — appended by ``deliver`` — one JSON line per message recorded sent. Queueing is
all or nothing and costs three fsyncs whatever the number of messages: the batch is written to a
temporary file and fsynced; the key (and each message's own key, for ``index_items``) is made a hard
link to that file (no data of its own) and ``keys/`` fsynced; the batch is renamed into ``pending/``
and ``pending/`` fsynced — the batch is queued from that last fsync on. A crash before it leaves
either nothing or a key whose batch is not in pending/ or sent/, which counts as not queued (a
second ``queue_many`` with that key queues afresh). Only the POSIX rule is relied on — a new name or
a rename is durable once its directory is fsynced, file data once the file is — not ext4's habit of
committing earlier renames along with a later fsync (overlayfs passes fsync to the upper file
system, so the same holds there). A plain copy of the outbox (``cp -r``, ``shutil.copytree``) stores
each batch once more under each of its keys (``cp -a``, ``rsync -H`` and ``tar`` keep the links).
``Outbox.prepare_many`` splits the same steps (:class:`PreparedBatch`: the file written, then
``sync``, then ``place``) for a caller that waits for the file's fsync together with a durable
write that must precede the queueing (the turn job's log entry).

``deliver`` records a batched message as sent by appending its line to the batch file with one
``fdatasync`` (the file and its directory entry are durable already): one durable step per message,
right after the server's acceptance, so the only resend window is between the acceptance and that
record. A torn append (a crash inside the write) is an unterminated last line: readers skip it,
the message counts as not recorded, and it goes out again byte-identical.
To a transport that stages (pbem.mail.transports.StagingTransport: the file transport) the
messages are handed over first, made durable there together (one commit: one directory fsync),
and then their lines are appended in one write, **without a sync**: recorded still implies
delivered (no line is written before the commit returned), and a staging transport is
idempotent, so a record that a crash or a power cut loses (the line, or the whole append) only
hands the same bytes over again — the file transport writes the same file under the same name.
If a power cut keeps the batch's unsynced move to ``sent/`` but loses its lines, its messages
are delivered and simply unrecorded: nothing sends them again (only ``pending/`` is delivered),
``Outbox.state`` calls them pending and retention keeps their bytes; no mail is lost or doubled.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pbem import atomic
from pbem.mail import _files
from pbem.mail.errors import MailError

BATCH_MAGIC = b"pbem-outbox-batch 1\n"


class BatchDamaged(MailError):
    """A batch file in the outbox cannot be read."""



class Batch:
    """A batch file read into memory: header, the messages' bytes, the sent records."""

    __slots__ = ("path", "bid", "key", "members", "_data", "_spans", "records", "pruned")

    def __init__(self, path: Path, data: bytes) -> None:
        if not data.startswith(BATCH_MAGIC):
            raise ValueError(f"{path} is not an outbox batch")
        end = data.index(b"\n", len(BATCH_MAGIC))
        header = json.loads(data[len(BATCH_MAGIC) : end])
        self.path = path
        self.bid: str = header["batch"]
        self.key: str | None = header.get("key")
        self.members: list[dict[str, Any]] = header["members"]
        #: Compacted by retention (compact_batch): the messages' bytes are gone.
        self.pruned: bool = bool(header.get("pruned"))
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
    def read(cls, path: Path) -> Batch:
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

    def holds(self, ident: str) -> bool:
        return ident in self._spans

    def key_names(self) -> list[str]:
        """The batch key and its messages' own keys: the names of its key files."""
        return [k for k in [self.key, *(m.get("key") for m in self.members)] if k]


def read_header(path: Path) -> dict[str, Any]:
    """The header of the batch file at ``path`` (its id, key and members), read without the
    messages' bytes that follow it (what a key lookup needs: a turn's batch holds every mail
    of the turn). Raises FileNotFoundError, or ValueError for a file that is not a batch."""
    with open(path, "rb") as f:
        data = f.read(_HEAD_READ)
        if not data.startswith(BATCH_MAGIC):
            raise ValueError(f"{path} is not an outbox batch")
        while (end := data.find(b"\n", len(BATCH_MAGIC))) < 0:
            more = f.read(_HEAD_READ)
            if not more:
                raise ValueError(f"{path} is truncated")
            data += more
    header = json.loads(data[len(BATCH_MAGIC):end])
    if not isinstance(header, dict):
        raise ValueError(f"{path} is not an outbox batch")
    return header


#: The bytes read at a time for a batch's header (a header is ~250 bytes a message).
_HEAD_READ = 8192


def compact_batch(batch: Batch, key_paths: Sequence[Path]) -> int:
    """Rewrite a retired batch without its messages' bytes (retention: pbem.host.retention):
    the same header, each length 0 and ``pruned`` set, then its sent records. The new file
    replaces every name of the old one — each of ``key_paths`` that is a hard link of it, then
    the batch itself — so the old bytes are freed. A crash in between leaves some names on the
    old file and some on the new: both say the same (the batch, its members, its records), which
    is all a key is read for. Returns the bytes freed (0: compacted already)."""
    if batch.pruned:
        return 0
    st = os.stat(batch.path)
    members = [{**m, "length": 0} for m in batch.members]
    header = json.dumps({"batch": batch.bid, "key": batch.key, "members": members,
                         "pruned": True}, ensure_ascii=True, separators=(",", ":"))
    data = b"".join([BATCH_MAGIC, header.encode("ascii"), b"\n",
                     *(record_line(batch.records[m["id"]]) for m in batch.members
                       if m["id"] in batch.records)])
    tmp = _files.write_temp(batch.path, data)
    try:
        for path in key_paths:
            with contextlib.suppress(FileNotFoundError):
                if os.stat(path).st_ino != st.st_ino:
                    continue
                link = path.with_name(f".{path.name}.tmp-{os.getpid()}-prune")
                os.link(tmp, link)
                os.replace(link, path)
        os.replace(tmp, batch.path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return max(0, st.st_blocks * 512 - len(data))


def batch_suffix(ident: str) -> str:
    """The random part of an id, shared by a batch and its messages."""
    return ident.rsplit("-", 1)[1]


class PreparedBatch:
    """A batch written to its temporary file beside ``pending/<b>.batch`` and not queued yet:
    :meth:`sync` makes its bytes durable, :meth:`place` queues it (its key links, the rename
    into ``pending/``, the fsync of ``pending/``), :meth:`discard` drops it. Until placed no
    name shows it (a crash leaves a temporary file that the next holder of the lock sweeps).
    Split so that a caller can wait for the file's fsync together with another durable write
    it must make first anyway (the turn job: the log entry the mail reports;
    docs/operations.md, "One barrier per phase"), and place it only once both returned."""

    __slots__ = ("tmp", "target", "links", "sync_keys", "ids", "synced", "data", "placed")

    def __init__(self, tmp: Path, target: Path, links: list[Path], sync_keys: bool,
                 ids: list[str], data: bytes = b"", placed: Placed | None = None) -> None:
        self.tmp = tmp
        self.target = target
        self.links = links
        self.sync_keys = sync_keys
        self.ids = ids  # the messages' ids, in queueing order
        self.synced = False
        self.data = data  # the file's bytes (what ``placed`` remembers)
        self.placed = placed

    def sync(self) -> None:
        """fsync the temporary file (its bytes durable; still not queued)."""
        fd = os.open(self.tmp, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        self.synced = True

    def place(self, hook: Callable[[str, str], None] = lambda stage, ident: None) -> None:
        """Queue the synced batch: each key a hard link to the file (``keys/`` fsynced unless
        ``sync_keys`` is false), then the rename into ``pending/`` and its fsync — the batch
        is queued from that fsync on."""
        assert self.synced, "a batch is placed only once its bytes are durable"
        bid = self.target.name[: -len(".batch")]
        try:
            # The key is a second name (a hard link) of the batch file itself: no more data to
            # write or fsync, and the key says which batch it stands for.
            for path in self.links:
                link = path.with_name(f".{path.name}.tmp-{os.getpid()}-{batch_suffix(bid)}")
                os.link(self.tmp, link)
                os.replace(link, path)
            if self.links and self.sync_keys:
                _files.fsync_dir(self.links[0].parent)
            hook("batch-keyed", bid)
            ino = os.stat(self.tmp, follow_symlinks=False).st_ino if self.placed is not None \
                else 0
            os.replace(self.tmp, self.target)
        except BaseException:
            self.discard()
            raise
        _files.fsync_dir(self.target.parent)
        if self.placed is not None:
            self.placed.remember(self.target.name, ino, self.data)

    def discard(self) -> None:
        """Remove the temporary file (nothing was queued)."""
        with contextlib.suppress(OSError):
            os.unlink(self.tmp)


def prepare_batch(pending_dir: Path, key_path: Path | None, bid: str, key: str | None,
                  members: list[dict[str, Any]], chunks: list[bytes],
                  item_paths: Sequence[Path] = (), sync_keys: bool = True,
                  placed: Placed | None = None) -> PreparedBatch:
    """Write a batch to its temporary file, without fsync (:class:`PreparedBatch`). Each of
    ``item_paths`` (the keys of its messages) will be a hard link to the batch too, with the
    batch key, made durable by the same fsync of ``keys/`` (so ``sync_keys`` false applies
    only without them: ``Outbox.queue_many``'s ``durable_key``). ``placed``: where the
    batch's bytes are remembered once it is queued (:class:`Placed`)."""
    header = json.dumps({"batch": bid, "key": key, "members": members}, ensure_ascii=True,
                        separators=(",", ":")).encode("ascii")
    target = pending_dir / f"{bid}.batch"
    data = b"".join([BATCH_MAGIC, header, b"\n", *chunks])
    tmp = atomic.write_temp(target, data, fsync=False)
    links = [*([key_path] if key_path is not None else []), *item_paths]
    return PreparedBatch(tmp, target, links, sync_keys or bool(item_paths),
                         [m["id"] for m in members], data, placed)


class Placed:
    """The bytes of the batches one outbox object queued, so that its next ``deliver`` need
    not read back the files it has just written (a turn's batch holds every mail of the
    turn). Each is remembered with the inode its file got; it is used only while the file
    in ``pending/`` has that inode and exactly that size — pbem never writes into a batch
    file except to append records (which change its size) or to replace it whole by a
    rename (a new inode: ``compact_batch``) — so what is used is what the file holds. Memory
    only: a run that starts after a crash reads every batch from disk."""

    __slots__ = ("_batches",)

    def __init__(self) -> None:
        self._batches: dict[str, tuple[int, bytes]] = {}

    def remember(self, name: str, ino: int, data: bytes) -> None:
        self._batches[name] = (ino, data)

    def forget(self, name: str) -> None:
        self._batches.pop(name, None)

    def read(self, path: Path) -> Batch:
        """The batch at ``path`` (:meth:`Batch.read`), from memory while the file is the one
        remembered (its inode and size: one ``stat``)."""
        known = self._batches.get(path.name)
        if known is not None:
            try:
                st = os.stat(path, follow_symlinks=False)
            except FileNotFoundError:
                self._batches.pop(path.name, None)
                raise
            if st.st_ino == known[0] and st.st_size == len(known[1]):
                return Batch(path, known[1])
            del self._batches[path.name]
        return Batch.read(path)


def store_batch(pending_dir: Path, key_path: Path | None, bid: str, key: str | None,
                members: list[dict[str, Any]], chunks: list[bytes],
                hook: Callable[[str, str], None], item_paths: Sequence[Path] = (),
                sync_keys: bool = True) -> None:
    """Queue a batch under ``key_path``: all or nothing, three fsyncs (see above). Each of
    ``item_paths`` (the keys of its messages) becomes a hard link to the batch too, with the
    batch key and made durable by the same fsync of ``keys/``. Without a key (``key_path``
    None: a message queued with no idempotency key) there is no link and no fsync of
    ``keys/``: two fsyncs; so too with ``sync_keys`` false (``Outbox.queue_many``'s
    ``durable_key``), where the key is linked but not made durable here."""
    batch = prepare_batch(pending_dir, key_path, bid, key, members, chunks, item_paths,
                          sync_keys)
    try:
        batch.sync()
        hook("batch-written", bid)
    except BaseException:
        batch.discard()
        raise
    batch.place(hook)


def record_line(record: dict[str, Any]) -> bytes:
    """A sent record as the line appended to a batch file."""
    return json.dumps(record, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"


def record_sent(path: Path, record: dict[str, Any]) -> None:
    """Record one message of the batch at ``path`` as sent: one appended line, one
    fdatasync."""
    _files.append_record(path, record_line(record))
