"""Temporary files a killed process left behind, removed by the next holder of its lock.

Every write under a root goes to a temporary file beside its target (``.NAME.tmp-PID-HEX``,
pbem.atomic.temp_name), renamed or linked into place once complete. A process killed in between
(SIGKILL, the out-of-memory killer, a power cut) leaves that file; nothing else ever uses it.

When: a holder that lets go of a lock empties its lock file, so a lock taken while the file
still names a pid (``GameLock.crashed``) was last held by a process that died holding it. The
next holder then sweeps what that process may have written:

- a game's lock (the turn job, ingest judging orders, a game-master operation): the game's
  whole directory, and the root's ``sent-mail/`` (the file transport delivers under it);
- the inbox lock (ingest, the inbox pass of ``pbem run``): the root's own folders (``inbox/``,
  its attempts and the last days of ``inbox/handled/``, ``quarantine/``, ``sent-mail/``) and
  every game's ``outbox/`` (ingest queues its replies to a game under the inbox lock alone);
- ``pbem run`` also sweeps ``inbox/`` on every pass, lock or no crash: ingest stores mail there
  before it takes any lock.

Which: only files whose writer is dead (:func:`remove_dead_temps`): a live process's
temporary file — one storing mail without a lock, or a holder of another lock writing beside
us — names a live pid and is never touched. ``inbox/keys/`` and older archive days are not
listed (they grow with every message ever received; a temporary file there comes only from a
rare key repair).

Each sweep that removed something appends one line to ``ROOT/.pbem-swept`` (time, count,
folder); ``pbem gm status`` and ``pbem run`` say "removed N temp file(s) left by a crash".
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from pbem import atomic
from pbem.schedule import to_iso
from pbem.store.layout import RUN_DIR, run_dir
from pbem.store.lock import GameLock, try_lock

RECORD = Path(RUN_DIR) / ".pbem-swept"  # beside the due list: never a new name in ROOT

#: Archive days of ``inbox/handled/`` swept after a crash (records are written for the days
#: of the mail being handled: today's, and a backlog's from the days before).
RECENT_DAYS = 3


def take(directory: Path, now: datetime | None = None) -> GameLock | None:
    """``try_lock(directory)``, then :func:`after_lock`: every host module takes its locks so,
    and whoever comes first after a crash sweeps."""
    lock = try_lock(directory)
    if lock is not None:
        try:
            after_lock(lock, now)
        except BaseException:
            lock.release()
            raise
    return lock


def after_lock(lock: GameLock, now: datetime | None = None) -> int:
    """Sweep what the process that died holding ``lock`` left (nothing if none did); the
    number of temporary files removed (``lock.swept`` too). ``now``: the time recorded (the
    clock when not given: the record is for people)."""
    if lock.crashed is None:
        return 0
    directory = lock.game_dir
    root = directory.parent
    if directory.name == "inbox":
        folders = list(_root_folders(root))
    else:
        folders = [*_tree(directory), root / "sent-mail"]
    lock.swept = _sweep(root, folders, directory, now or datetime.now(UTC))
    return lock.swept


def inbox(root: Path, now: datetime) -> int:
    """Sweep ``inbox/`` (every ``pbem run``: mail is stored there without a lock)."""
    return _sweep(root, [root / "inbox"], root / "inbox", now)


def _sweep(root: Path, folders: list[Path], where: Path, now: datetime) -> int:
    removed = sum(remove_dead_temps(folder) for folder in folders)
    if removed:
        line = f"{to_iso(now)} {removed} {where.relative_to(root)}\n"
        with contextlib.suppress(atomic.StorageError, OSError):  # for people: best effort
            run_dir(root)
            atomic.append_bytes(root / RECORD, line.encode("utf-8"))
    return removed


def _tree(directory: Path) -> Iterator[Path]:
    for folder, subdirs, _files in os.walk(directory):
        subdirs[:] = [d for d in subdirs if not os.path.islink(os.path.join(folder, d))]
        yield Path(folder)


def _root_folders(root: Path) -> Iterator[Path]:
    yield root
    inbox_dir = root / "inbox"
    yield inbox_dir
    yield inbox_dir / "attempts"
    with contextlib.suppress(OSError):
        days = sorted(d for d in os.listdir(inbox_dir / "handled") if not d.startswith("."))
        yield inbox_dir / "handled"
        for day in days[-RECENT_DAYS:]:
            yield inbox_dir / "handled" / day
    yield root / "quarantine"
    yield root / "sent-mail"
    with contextlib.suppress(OSError):
        for name in sorted(os.listdir(root)):
            outbox = root / name / "outbox"
            if not name.startswith(".") and outbox.is_dir() and not outbox.is_symlink():
                yield from _tree(outbox)


def _alive(pid: int) -> bool:
    if pid <= 0:
        return True  # not a real pid: never taken for dead
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # EPERM: alive, another user's
    return True


def remove_dead_temps(directory: Path | str) -> int:
    """Remove the temporary files in ``directory`` whose writer is dead; return how many.

    A temporary file only ever becomes something when its writer renames or links it into
    place, and only that process knows its name: once the pid in its name is not a live
    process, nothing will. A live writer's file is never touched: its pid is alive (this
    process's own too). A dead writer's pid reused by a new process keeps its file until
    that process exits (the safe way round). Pids are those of this machine, as the flock
    locks are."""
    removed = 0
    try:
        names = os.listdir(directory)
    except OSError:
        return 0
    for name in names:
        pid = atomic.temp_writer(name)
        if pid is None or pid == os.getpid() or _alive(pid):
            continue
        try:
            os.unlink(os.path.join(directory, name))
        except OSError:  # gone meanwhile, or not removable here: not counted
            continue
        removed += 1
    return removed


def removed(root: Path) -> tuple[int, str | None]:
    """(temporary files removed so far, when the last were) from ``ROOT/.pbem-swept``."""
    total, last = 0, None
    with contextlib.suppress(OSError, UnicodeDecodeError):
        for line in (root / RECORD).read_text(encoding="utf-8").splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[1].isascii() and parts[1].isdigit():
                total += int(parts[1])
                last = parts[0]
    return total, last
