"""Durable small-file primitives used by the inbox and the outbox, on top of pbem.atomic.

A write goes to a temporary file in the same directory, is fsynced, renamed into place, and the
directory is fsynced, so after a crash a file is either absent or complete. What the mail spool
adds: readable JSON, durable moves, symlink swaps and appended records.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pbem import atomic
from pbem.atomic import fsync_dir

__all__ = ["fsync_dir", "write_temp", "write_durably", "json_bytes", "write_json",
           "read_json", "move_durably", "replace_symlink", "append_record", "append_line"]

def write_temp(path: Path, data: bytes, *, mode: int = atomic.PRIVATE) -> Path:
    """Write ``data`` to a fresh fsynced temporary file beside ``path``; return its name.

    Nothing is renamed: the caller moves it into place (and fsyncs the directory)."""
    return atomic.write_temp(path, data, mode)


def write_durably(path: Path, data: bytes, *, mode: int = atomic.PRIVATE,
                  sync_dir: bool = True) -> None:
    """Replace ``path`` with ``data``: temp file + fsync + rename (+ fsync of the directory).
    Raises OSError (the spool reports it itself)."""
    atomic.replace_bytes(path, data, mode=mode, sync_dir=sync_dir)


def json_bytes(value: object) -> bytes:
    """``value`` as sorted, indented JSON (for people reading the spool)."""
    return (json.dumps(value, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def write_json(path: Path, value: object, *, sync_dir: bool = True) -> None:
    """Write ``value`` as sorted, indented JSON (for people reading the spool), durably."""
    write_durably(path, json_bytes(value), sync_dir=sync_dir)


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def move_durably(src: Path, dst: Path) -> None:
    """Rename ``src`` to ``dst`` (same file system) and fsync both directories."""
    os.replace(src, dst)
    fsync_dir(dst.parent)
    if src.parent != dst.parent:
        fsync_dir(src.parent)


def replace_symlink(path: Path, target: str) -> None:
    """Point the symlink ``path`` at ``target`` atomically (the caller fsyncs the directory)."""
    tmp = atomic.temp_name(path)
    os.symlink(target, tmp)
    atomic.rename_into_place(tmp, path)


def append_record(path: Path, data: bytes, *, sync: bool = True) -> None:
    """Append ``data`` (one line, newline included) to the existing file ``path`` with a single
    ``write`` and ``fdatasync`` (none with ``sync`` false: a record whose loss the caller
    tolerates, see pbem.mail.outbox_batch).

    ``fdatasync`` is enough: it writes the data and the metadata needed to read it back (the
    new size), not the timestamps. The file exists already (its directory entry is durable), so
    no directory fsync. If an earlier append was cut short (the file does not end in a newline)
    the record starts on a new line, so the torn fragment stays a line of its own that readers
    skip.
    """
    fd = atomic.open_nofollow(path, os.O_RDWR | os.O_APPEND)
    try:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if sync:
            os.fdatasync(fd)
    finally:
        os.close(fd)


def append_line(path: Path, line: str) -> None:
    """Append one line with a single write and an fsync (a small append-only record)."""
    created = not path.exists()
    fd = atomic.open_nofollow(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        os.write(fd, (line.rstrip("\n") + "\n").encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        fsync_dir(path.parent)
