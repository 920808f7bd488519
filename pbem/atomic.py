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

Everything pbem writes under a root holds something private (the referee key, orders not yet
resolved, players' addresses, reports), so files are created mode 0600 and directories 0700 unless
the caller asks otherwise (a public key, a file the user asked for). The final path component is
never followed when it is a symbolic link: a rename replaces the link itself and every ``open``
uses ``O_NOFOLLOW``, so a link planted under the root cannot redirect a write outside it.

The one implementation of these writes: the mail spool, order files, the vault and key files.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import TypeVar

from pbem import canonical
from pbem.errors import PbemError

PRIVATE = 0o600  # the default mode of every file pbem writes
PRIVATE_DIR = 0o700  # the default mode of every directory pbem creates
_P = TypeVar("_P", Path, str)

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


def write_all(fd: int, data: bytes) -> None:
    """``os.write`` until every byte is written."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def fsync_dir(directory: Path | str) -> None:
    """Make a rename/create/unlink in ``directory`` durable."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def make_dirs(directory: Path | str, *, mode: int = PRIVATE_DIR) -> None:
    """``mkdir -p`` whose new directories survive a crash (each new one's parent is fsynced).
    New directories get ``mode`` (0700 by default; existing ones are left as they are)."""
    directory = Path(directory)
    missing: list[Path] = []
    probe = directory
    while not probe.is_dir():
        missing.append(probe)
        probe = probe.parent
    try:
        for new in reversed(missing):
            try:
                os.mkdir(new, mode)
            except FileExistsError:
                if not new.is_dir():
                    raise
                continue
            os.chmod(new, mode)  # mkdir's mode is masked by the umask
            fsync_dir(new.parent)
    except OSError as exc:
        raise storage_error(directory, "create directory", exc) from None


def temp_name(path: _P) -> _P:
    """A fresh temporary name beside ``path`` (hidden, with the pid and a random part), of
    its type (a string: no Path parsed; pbem.staged names one per message)."""
    head, sep, name = os.fspath(path).rpartition("/")
    tmp = f"{head}{sep}.{name}.tmp-{os.getpid()}-{os.urandom(4).hex()}"
    return tmp if isinstance(path, str) else Path(tmp)


#: A temporary name as :func:`temp_name` makes it (or without the random part: the few
#: writers that need one name per process): ``.NAME.tmp-PID[-HEX]``.
_TEMP = re.compile(r"^\..+\.tmp-([0-9]{1,10})(?:-[0-9a-f]+)?$")


def temp_writer(name: str) -> int | None:
    """The pid of the process that made the temporary file ``name`` (None: not one)."""
    match = _TEMP.match(name)
    return int(match.group(1)) if match else None


def write_temp(path: Path, data: bytes, mode: int = PRIVATE, *, fsync: bool = True) -> Path:
    """Write ``data`` to a fresh temp file beside ``path`` (fsynced unless ``fsync`` is
    false: a cache its readers check); return its name.

    The file gets exactly ``mode`` (not masked by the umask)."""
    tmp = temp_name(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW, mode)
    try:
        os.fchmod(fd, mode)
        write_all(fd, data)
        if fsync:
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    os.close(fd)
    return tmp


def rename_into_place(tmp: Path | str, path: Path | str) -> None:
    """Rename the finished temporary file (or symlink) ``tmp`` over ``path``; on failure remove
    ``tmp`` and raise the plain OSError. The caller fsyncs the directory when it must."""
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def replace_bytes(path: Path | str, data: bytes, *, mode: int = PRIVATE,
                  sync_dir: bool = True, fsync: bool = True) -> None:
    """Replace ``path`` with ``data``: temp file + fsync + rename (+ fsync of the directory).
    With ``fsync`` and ``sync_dir`` false, readers still see the old file or the new one, but
    a crash may lose the new data (a cache whose readers tell a torn file apart).

    Raises the plain OSError (callers that report it themselves); :func:`write_bytes` is the
    same with a :class:`StorageError` naming the file."""
    path = Path(path)
    rename_into_place(write_temp(path, data, mode, fsync=fsync), path)
    if sync_dir:
        fsync_dir(path.parent)


def write_bytes(path: Path | str, data: bytes, *, mode: int = PRIVATE,
                sync_dir: bool = True, fsync: bool = True) -> None:
    """Replace ``path`` with ``data`` atomically (and durably, unless told not to)."""
    try:
        replace_bytes(path, data, mode=mode, sync_dir=sync_dir, fsync=fsync)
    except OSError as exc:
        raise storage_error(path, "write", exc, "the old file is unchanged") from None


def write_text(path: Path | str, text: str, *, mode: int = PRIVATE) -> None:
    write_bytes(path, text.encode("utf-8"), mode=mode)


def write_json(path: Path | str, value: object, *, mode: int = PRIVATE) -> None:
    """Write ``value`` as canonical JSON plus a newline."""
    write_bytes(path, canonical.encode(value) + b"\n", mode=mode)


def create_bytes(path: Path | str, data: bytes, *, mode: int = PRIVATE,
                 sync_dir: bool = True) -> bool:
    """Create ``path`` holding ``data``; never overwrite.

    Returns True if the file was created, False if it already existed with exactly ``data`` (so a
    retried call is harmless). Raises :class:`FileExists` if it exists with other content. With
    ``sync_dir`` false the caller fsyncs the directory (once for several files: group commit).
    """
    return _create(Path(path), data, mode, "create", same_is_fine=True, sync_dir=sync_dir)


def _create(path: Path, data: bytes, mode: int, action: str, *, same_is_fine: bool,
            sync_dir: bool = True) -> bool:
    tmp: Path | None = None
    try:
        tmp = write_temp(path, data, mode)
        try:
            os.link(tmp, path)
        except FileExistsError:
            if same_is_fine and not path.is_symlink() and path.read_bytes() == data:
                return False
            other = " with other content" if same_is_fine else ""
            raise FileExists(f"{path} exists already{other}: refusing to overwrite") from None
        if sync_dir:
            fsync_dir(path.parent)
        return True
    except OSError as exc:
        raise storage_error(path, action, exc) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


class FileExists(PbemError):
    """A file that must never be overwritten exists already with other content."""

    def __init__(self, message: str, path: Path | None = None) -> None:
        super().__init__(message)
        #: the file (when the raiser knows it)
        self.path = path


def append_bytes(path: Path | str, data: bytes, *, expect_size: int | None = None,
                 mode: int = PRIVATE) -> int:
    """Append ``data`` to ``path`` with one write and an fsync; return the new file size.

    If ``expect_size`` is given and the file is not exactly that long, nothing is written and
    :class:`FileChanged` is raised (someone else appended since the caller read it). On a failed
    write the file is truncated back to its old size.
    """
    path = Path(path)
    created = not path.exists()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW,
                     mode)
    except OSError as exc:
        raise storage_error(path, "append to", exc, _link_note(path, "the file is unchanged")) \
            from None
    try:
        size = os.fstat(fd).st_size
        if expect_size is not None and size != expect_size:
            raise FileChanged(
                f"{path} is {size} bytes, expected {expect_size}: it changed since it was read"
            )
        try:
            write_all(fd, data)
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


def _link_note(path: Path, note: str) -> str:
    """``note``, or why an O_NOFOLLOW open failed: the path is a symbolic link."""
    return f"it is a symbolic link, which pbem never follows; {note}" if path.is_symlink() \
        else note


def open_nofollow(path: Path | str, flags: int, mode: int = PRIVATE) -> int:
    """``os.open`` with ``O_NOFOLLOW | O_CLOEXEC``: a symbolic link at ``path`` is refused (ELOOP)
    instead of followed, so nothing planted under the root redirects a write elsewhere."""
    return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode)


def overwrite(path: Path | str, data: bytes, *, mode: int = PRIVATE) -> bool:
    """Write ``data`` over the plain file ``path`` of one link in place, cut to length, made
    ``mode``, no fsync (a rename costs ext4 a flush: auto_da_alloc); False, nothing written,
    for anything else (none, a symbolic link, a FIFO, a second name): for a cache or hint one
    writer at a time writes, valid only whole (a digest or MAC): a torn one is refused."""
    try:
        fd = open_nofollow(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1:
            return False
        os.fchmod(fd, mode)  # (its one name: no other file changes)
        write_all(fd, data)  # (from the first byte: the descriptor is new)
        os.ftruncate(fd, len(data))
        return True
    except OSError as exc:
        raise storage_error(Path(path), "write", exc, "the file may be torn") from None
    finally:
        os.close(fd)


def write_exclusive(path: Path | str, data: bytes, *, mode: int = PRIVATE) -> None:
    """Create ``path`` holding ``data``; raise :class:`FileExists` if anything is there already
    (even identical content: a key is never written twice)."""
    _create(Path(path), data, mode, "write", same_is_fine=False)


def read_text(path: Path | str, what: str = "") -> str:
    """The UTF-8 text of ``path``; a missing, unreadable or non-text file is a one-line
    :class:`StorageError` or :class:`NotText` naming it (``what`` says what the file is for)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise storage_error(path, f"read {what}".rstrip(), exc) from None
    name = f"{what} {path}" if what else str(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotText(f"{name} is not UTF-8 text (byte {exc.start} is 0x{data[exc.start]:02x})"
                      ) from None


class NotText(PbemError):
    """A file that must hold text holds bytes that are not UTF-8."""


class SymlinkRefused(PbemError):
    """A path under the root is a symbolic link or leads out of the root: pbem never follows it
    (a planted link could make pbem read or overwrite a file anywhere)."""

    def __init__(self, path: Path | str, detail: str = "is a symbolic link") -> None:
        self.path = Path(path)
        super().__init__(
            f"{path} {detail}: pbem does not follow links out of its root; "
            "replace it with a real file or directory"
        )


_NOTHING_THERE = (errno.ENOENT, errno.ENOTDIR, errno.ELOOP, errno.EBADF)


@functools.lru_cache(maxsize=256)
def _real_root(root: str) -> Path:
    """Where the absolute path ``root`` resolves, once per process (a game's root is checked
    on every open; a relative one depends on the working directory: resolved each time).
    Kept even if the root were swapped for a link meanwhile: a path is then judged against
    where the root was, so what now lies elsewhere is refused — never the other way round."""
    return Path(root).resolve()


def refuse_links(root: Path | str, paths: Iterable[Path]) -> None:
    """Raise :class:`SymlinkRefused` for the first of ``paths`` (existing or not) that is a
    symbolic link or resolves to somewhere outside ``root``."""
    top = _real_root(str(root)) if Path(root).is_absolute() else Path(root).resolve()
    parents: dict[Path, tuple[Path, bool]] = {}  # each parent resolved once per call, and
    # whether it lies inside top (then so does every name in it: no second look)
    for path in paths:
        try:
            st = os.lstat(path)
        except OSError as exc:
            if exc.errno in _NOTHING_THERE:
                continue  # as Path.exists: no such file, a parent is a file or a link loop
            raise
        if stat.S_ISLNK(st.st_mode):
            raise SymlinkRefused(path)
        if path.name in ("", ".", ".."):
            resolved = path.resolve()
        else:
            # Not a link itself: it resolves to where its parent resolves, plus its name.
            known = parents.get(path.parent)
            if known is None:
                real = path.parent.resolve()
                known = parents[path.parent] = (real, real.is_relative_to(top))
            if known[1]:
                continue
            resolved = known[0] / path.name
        if not resolved.is_relative_to(top):
            raise SymlinkRefused(path, f"resolves to {resolved}, outside {top}")
