"""Durable small-file primitives used by the inbox and the outbox, on top of pbem.atomic.

A write goes to a temporary file in the same directory, is fsynced, renamed into place, and the
directory is fsynced, so after a crash a file is either absent or complete. What the mail spool
adds: readable JSON, durable moves, symlink swaps and appended records.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pbem import atomic
from pbem.atomic import fsync_dir

__all__ = ["fsync_dir", "write_temp", "write_durably", "write_many", "json_bytes", "write_json",
           "read_json", "move_durably", "replace_symlink", "append_record", "append_line"]

#: Temporary files :func:`write_many` holds open at once (file descriptors are finite).
MANY_OPEN = 64


def write_temp(path: Path, data: bytes, *, mode: int = atomic.PRIVATE) -> Path:
    """Write ``data`` to a fresh fsynced temporary file beside ``path``; return its name.

    Nothing is renamed: the caller moves it into place (and fsyncs the directory)."""
    return atomic.write_temp(path, data, mode)


def write_durably(path: Path, data: bytes, *, mode: int = atomic.PRIVATE,
                  sync_dir: bool = True) -> None:
    """Replace ``path`` with ``data``: temp file + fsync + rename (+ fsync of the directory).
    Raises OSError (the spool reports it itself)."""
    atomic.replace_bytes(path, data, mode=mode, sync_dir=sync_dir)


def write_many(items: Sequence[tuple[Path, bytes]], *, mode: int = atomic.PRIVATE) -> None:
    """Replace each ``path`` with its ``data`` as :func:`write_durably` with ``sync_dir`` false
    does (temp file, fsync, rename; the caller fsyncs the directories), but with every temporary
    file of a group written before any is fsynced: back to back, the fsyncs share the file
    system's journal commits (one commit per file when each write is fsynced at once). Each file
    is renamed into place only after its own fsync, so a name never shows unsynced data; a crash
    leaves some of the files in place and the rest absent (stray temporary files at most)."""
    for start in range(0, len(items), MANY_OPEN):
        group = items[start : start + MANY_OPEN]
        opened: list[tuple[int, Path, Path]] = []
        try:
            for path, data in group:
                tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")
                fd = atomic.open_nofollow(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
                opened.append((fd, tmp, path))
                os.fchmod(fd, mode)
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
            for fd, _tmp, _path in opened:
                os.fsync(fd)
            while opened:
                fd, tmp, path = opened.pop(0)
                os.close(fd)
                atomic.rename_into_place(tmp, path)
        finally:
            for fd, tmp, _path in opened:  # a failure: nothing of the rest is renamed
                os.close(fd)
                with contextlib.suppress(OSError):
                    os.unlink(tmp)


def json_bytes(value: Any) -> bytes:
    """``value`` as sorted, indented JSON (for people reading the spool)."""
    return (json.dumps(value, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def write_json(path: Path, value: Any, *, sync_dir: bool = True) -> None:
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
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")
    os.symlink(target, tmp)
    atomic.rename_into_place(tmp, path)


def append_record(path: Path, data: bytes) -> None:
    """Append ``data`` (one line, newline included) to the existing file ``path`` with a single
    ``write`` and ``fdatasync``.

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
