"""Per-game exclusive lock that never waits: ``fcntl.flock(GAMEDIR/lock, LOCK_EX | LOCK_NB)``.

A game whose lock is held by another process is *busy*: :func:`try_lock` returns None and
:func:`locked` raises :class:`Busy` at once, so a cron job skips it instead of queueing. The lock
belongs to the open file description, so it is released when the holder exits or is killed. The
holder's pid is written into the lock file for diagnostics only (the flock is what counts).
A lock path that is a symbolic link is refused, never followed (opening it would truncate
whatever it points to).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from pbem.atomic import SymlinkRefused, open_nofollow, refuse_links, storage_error
from pbem.errors import PbemError

LOCK_NAME = "lock"


class Busy(PbemError):
    """Another process holds the game's lock."""

    def __init__(self, game_dir: Path, holder: str) -> None:
        self.game_dir = game_dir
        who = f" (held by pid {holder})" if holder else ""
        super().__init__(f"{game_dir} is busy: another pbem process holds its lock{who}")


class GameLock:
    """A held lock; release it with :meth:`release` or by using it as a context manager.

    ``crashed``: the pid the lock file still named when this lock was taken. A holder that
    lets go empties the file (:meth:`release`), so a pid left there is that of a process that
    died holding the lock (SIGKILL, out of memory, a power cut): what it was writing may have
    left temporary files behind (pbem.host.leftovers)."""

    def __init__(self, game_dir: Path, fd: int, crashed: int | None = None) -> None:
        self.game_dir = game_dir
        self._fd: int | None = fd
        self.crashed = crashed
        #: temporary files the crashed holder left, removed by this holder (pbem.host.leftovers)
        self.swept = 0

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    def __enter__(self) -> GameLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def try_lock(game_dir: Path | str) -> GameLock | None:
    """Take the game's lock without waiting; None if another process holds it."""
    game_dir = Path(game_dir)
    path = game_dir / LOCK_NAME
    refuse_links(game_dir.parent, [game_dir, path])
    try:
        fd = open_nofollow(path, os.O_RDWR | os.O_CREAT)
    except OSError as exc:
        if path.is_symlink():
            raise SymlinkRefused(path) from None
        raise storage_error(path, "open the lock", exc) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except OSError as exc:
        os.close(fd)
        raise storage_error(path, "lock", exc) from None
    crashed = None
    with contextlib.suppress(OSError, ValueError):
        left = os.pread(fd, 32, 0).decode("ascii").strip()
        crashed = int(left) if left else None
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return GameLock(game_dir, fd, crashed)


@contextlib.contextmanager
def locked(game_dir: Path | str) -> Iterator[GameLock]:
    """``with locked(game_dir):`` hold the lock for the block; raise Busy at once if taken."""
    game_dir = Path(game_dir)
    lock = try_lock(game_dir)
    if lock is None:
        holder = ""
        with contextlib.suppress(OSError):
            fd = open_nofollow(game_dir / LOCK_NAME, os.O_RDONLY)
            try:
                holder = os.read(fd, 32).decode("ascii", "replace").strip()
            finally:
                os.close(fd)
        raise Busy(game_dir, holder)
    with lock:
        yield lock
