"""Durable file writes: all-or-nothing replacement and append-with-fsync.

``write_bytes`` / ``write_text`` / ``write_json`` replace a file atomically: the new content goes
to a temporary file in the same directory, is fsynced, renamed over the target, and the directory
is fsynced so the rename itself survives a crash. A reader sees the old file or the new one.

``append_bytes`` appends with one ``write`` and an ``fsync``; if the write fails part-way (disk
full) the file is truncated back to its old length, so a failed append leaves the file as it was.

``create_bytes`` writes a new file that must not exist yet (never overwrites): temp file, fsync,
then ``link`` to the final name, which fails if the name is taken.

Every OS failure becomes a :class:`StorageError` naming the file: :class:`DiskFull` (ENOSPC, EDQUOT,
EFBIG) or :class:`NotWritable` (EROFS, EACCES, EPERM). The old file is left intact in both cases.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from pathlib import Path
from typing import Any

from pbem import canonical
from pbem.errors import PbemError

_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
_READ_ONLY = {errno.EROFS, errno.EACCES, errno.EPERM}


class StorageError(PbemError):
    """A file could not be written (or read); the message names the file and the reason."""

    def __init__(self, path: Path | str, action: str, exc: OSError, note: str = "") -> None:
        self.path = Path(path)
        self.errno = exc.errno
        reason = exc.strerror or str(exc)
        text = f"cannot {action} {self.path}: {reason}"
        super().__init__(f"{text} ({note})" if note else text)


class DiskFull(StorageError):
    """No space left (ENOSPC, EDQUOT, EFBIG)."""


class NotWritable(StorageError):
    """Read-only file system or no permission (EROFS, EACCES, EPERM)."""


def storage_error(path: Path | str, action: str, exc: OSError, note: str = "") -> StorageError:
    """The StorageError subclass matching ``exc.errno``."""
    if exc.errno in _FULL:
        return DiskFull(path, action, exc, note)
    if exc.errno in _READ_ONLY:
        return NotWritable(path, action, exc, note)
    return StorageError(path, action, exc, note)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def fsync_dir(directory: Path | str) -> None:
    """Make a rename/create/unlink in ``directory`` durable."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def make_dirs(directory: Path | str) -> None:
    """``mkdir -p`` whose new directories survive a crash (each new one's parent is fsynced)."""
    directory = Path(directory)
    missing: list[Path] = []
    probe = directory
    while not probe.is_dir():
        missing.append(probe)
        probe = probe.parent
    try:
        for new in reversed(missing):
            try:
                os.mkdir(new)
            except FileExistsError:
                if not new.is_dir():
                    raise
                continue
            fsync_dir(new.parent)
    except OSError as exc:
        raise storage_error(directory, "create directory", exc) from None


def _temp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")


def write_temp(path: Path, data: bytes, mode: int) -> Path:
    """Write ``data`` to a fresh fsynced temp file beside ``path``; return its name."""
    tmp = _temp_name(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    try:
        _write_all(fd, data)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    os.close(fd)
    return tmp


def write_bytes(path: Path | str, data: bytes, *, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data`` atomically and durably."""
    path = Path(path)
    tmp: Path | None = None
    try:
        tmp = write_temp(path, data, mode)
        os.replace(tmp, path)
        tmp = None
        fsync_dir(path.parent)
    except OSError as exc:
        raise storage_error(path, "write", exc, "the old file is unchanged") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def write_text(path: Path | str, text: str, *, mode: int = 0o644) -> None:
    write_bytes(path, text.encode("utf-8"), mode=mode)


def write_json(path: Path | str, value: Any, *, mode: int = 0o644) -> None:
    """Write ``value`` as canonical JSON plus a newline."""
    write_bytes(path, canonical.encode(value) + b"\n", mode=mode)


def create_bytes(path: Path | str, data: bytes, *, mode: int = 0o644) -> bool:
    """Create ``path`` holding ``data``; never overwrite.

    Returns True if the file was created, False if it already existed with exactly ``data`` (so a
    retried call is harmless). Raises :class:`FileExists` if it exists with other content.
    """
    path = Path(path)
    tmp: Path | None = None
    try:
        tmp = write_temp(path, data, mode)
        try:
            os.link(tmp, path)
        except FileExistsError:
            if path.read_bytes() == data:
                return False
            raise FileExists(
                f"{path} exists already with other content: refusing to overwrite"
            ) from None
        fsync_dir(path.parent)
        return True
    except OSError as exc:
        raise storage_error(path, "create", exc) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


class FileExists(PbemError):
    """A file that must never be overwritten exists already with other content."""


def append_bytes(path: Path | str, data: bytes, *, expect_size: int | None = None) -> int:
    """Append ``data`` to ``path`` with one write and an fsync; return the new file size.

    If ``expect_size`` is given and the file is not exactly that long, nothing is written and
    :class:`FileChanged` is raised (someone else appended since the caller read it). On a failed
    write the file is truncated back to its old size.
    """
    path = Path(path)
    created = not path.exists()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise storage_error(path, "append to", exc, "the file is unchanged") from None
    try:
        size = os.fstat(fd).st_size
        if expect_size is not None and size != expect_size:
            raise FileChanged(
                f"{path} is {size} bytes, expected {expect_size}: it changed since it was read"
            )
        try:
            _write_all(fd, data)
            os.fsync(fd)
        except OSError as exc:
            note = "the file is unchanged"
            try:
                os.ftruncate(fd, size)
                os.fsync(fd)
            except OSError:
                note = f"the file may hold a partial write after byte {size}"
            raise storage_error(path, "append to", exc, note) from None
        if created:
            try:
                fsync_dir(path.parent)
            except OSError as exc:
                raise storage_error(path.parent, "sync", exc) from None
        return size + len(data)
    finally:
        os.close(fd)


class FileChanged(PbemError):
    """A file changed between reading it and appending to it."""
