"""The root's due list: for every game, what a visit found and the first time anything can fall
due, so an idle ``pbem run`` reads one file and visits only the games that are due or changed.

``ROOT/.pbem-due`` holds a MAC (hex) on its first line, then ``{"games": {GAME: ENTRY}}``. An
entry is a game's idle hint (``GAME/trusted.json``, written at the end of a visit that found
nothing to do) copied here as ``[status, until, config, log, pending]``:

* ``status`` — ``waiting``, ``paused`` or ``over``: what the visit reported;
* ``until`` — microseconds since the epoch of the first moment anything can fall due (a
  reminder, half the turn, the deadline, the end of the grace period, the next retry of a
  deferred mail), or null when only a change can make the game due (paused, over);
* ``config`` and ``log`` — (size, mtime, ctime, inode) of config.yaml and log.jsonl: a new
  mail accepted, a game-master operation, a resolution, a torn tail dropped all append to the
  log (its size only grows); a hand edit of config.yaml changes its mtime or ctime;
* ``pending`` — the sorted names in ``outbox/pending``: mail queued by ingest, a receipt, a
  released message all add a name.

An entry holds — the game is skipped and reported with ``status`` — only while ``now`` is before
``until``, both marks are unchanged, the pending names are the same and there is no STOPPED file.
That is exactly the game's own hint (``turnjob._idle_status`` uses :func:`holds` too), read from
one file for all games: four system calls per game instead of opening its hint.

Why nothing due is skipped. Every input of a visit is one of: the clock (``until``), the log,
config.yaml, the outbox's pending mail, STOPPED. The visit writes the hint while holding the
game's lock; the log and the pending names are only changed by lock holders, so the marks it
records are those of what it read. config.yaml is edited by hand, without the lock: its mark is
taken before the visit reads it and again after, and no hint is written when they differ or
when the file changed less than :data:`RACY_SECONDS` before the first mark (a change within the
file system's timestamp granularity could leave the mark equal: git's "racily clean" rule).

Never trusted over the game directories. A missing, torn, unreadable or badly MAC'd file (the
MAC key is derived from ROOT/referee.key, pbem.store.trusted) reads as empty: every game is
visited (each through its own hint) and the list is rebuilt at the end of the run. A game not in
the list (a new game) is visited. The file is a cache written after the run by temp file and
rename, without fsync: after a crash it is the old list, the new one, missing or torn. An old
entry is still a true statement about the marks it records — a game changed since then fails
them and is visited — so a run killed anywhere, even between a game's change and the list's
update, skips nothing. Two runs at once each write entries that are true for their marks; the
last writer wins.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.schedule import parse_iso
from pbem.store import hints, trusted
from pbem.store.layout import RUN_DIR, run_dir

NAME = ".pbem-due"
DIR = RUN_DIR
"""The due list lives in ``ROOT/.pbem-run/`` (pbem.store.layout.run_dir), not in ROOT itself:
a file replaced in ROOT at every run would change the root's mtime, which the root index reads
as "games added or removed", so the first ingest after every run would re-read every game."""


def path(root: Path) -> Path:
    """Where the due list of ``root`` is: ``ROOT/.pbem-run/.pbem-due``."""
    return root / DIR / NAME
RACY_SECONDS = 1.0
"""A config.yaml changed less than this before it was marked gets no hint: far above the
timestamp granularity of local file systems (a clock tick, ≤ 10 ms)."""
class RunStatus(StrEnum):
    """What one visit of ``pbem run`` found a game doing (a member is its word: printed, and
    written to the due list for the idle ones)."""

    WAITING = "waiting"
    PAUSED = "paused"
    OVER = "over"
    RESOLVED = "resolved"
    BUSY = "busy"
    STOPPED = "stopped"
    ERROR = "error"


#: The statuses of a game with nothing to do now: the ones a due-list entry may hold.
STATUSES = (RunStatus.WAITING, RunStatus.PAUSED, RunStatus.OVER)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_US = timedelta(microseconds=1)

Entry = list[Any]  # [status, until_us | None, config mark, log mark, pending names]


def micros(when: datetime) -> int:
    """``when`` as whole microseconds since the epoch (exact, unlike a float timestamp)."""
    return (when - _EPOCH) // _US


def mark(path: str) -> list[int] | None:
    """(size, mtime_ns, ctime_ns, inode) of a regular file, None if it is missing or not one."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    if (st.st_mode & 0o170000) != 0o100000:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def stable_mark(path: str) -> list[int] | None:
    """The mark of a file edited without the lock (config.yaml), or None when it changed too
    recently for its mark to show a later change (see :data:`RACY_SECONDS`)."""
    taken = time.time_ns()
    found = mark(path)
    if found is None or found[1] >= taken - int(RACY_SECONDS * 1e9):
        return None
    return found


def pending_names(game: str) -> list[str] | None:
    try:
        return sorted(os.listdir(game + "/outbox/pending"))
    except OSError:
        return None


def from_hint(hint: Any) -> Entry | None:
    """The due-list entry of a game's idle hint (None if the hint is not one)."""
    try:
        until = hint["until"]
        entry = [hint["status"], None if until is None else micros(parse_iso(until)),
                 hint["config"], hint["log"], hint.get("pending", [])]
    except (KeyError, TypeError, ValueError, AttributeError, PbemError):
        return None
    return entry if _valid(entry) else None


def _valid(entry: object) -> bool:
    return (isinstance(entry, list) and len(entry) == 5 and entry[0] in STATUSES
            and (entry[1] is None or isinstance(entry[1], int))
            and isinstance(entry[2], list) and isinstance(entry[3], list)
            and isinstance(entry[4], list))


def holds(game: str, entry: Entry, now_us: int) -> bool:
    """Whether the game at path ``game`` still has nothing to do at ``now_us``: its entry's
    time has not come and nothing it was made from changed."""
    until = entry[1]
    if until is not None and now_us >= until:
        return False
    if mark(game + "/config.yaml") != entry[2] or mark(game + "/log.jsonl") != entry[3]:
        return False
    if os.path.lexists(game + "/STOPPED"):
        return False
    return pending_names(game) == entry[4]


def load(root: Path) -> dict[str, Entry]:
    """The due list of ``root``; empty when it is missing, torn, unreadable or badly MAC'd."""
    key = trusted.mac_key(root)
    if key is None:
        return {}
    try:
        payload = hints.read(path(root), key, NAME)
        games = json.loads(payload)["games"] if payload is not None else {}
    except (hints.Unfit, ValueError, KeyError, TypeError, UnicodeDecodeError):
        return {}
    if not isinstance(games, dict):
        return {}
    return {name: e for name, e in games.items() if isinstance(name, str) and _valid(e)}


def save(root: Path, games: dict[str, Entry]) -> None:
    """Write the due list (best effort: a failure costs the next run its full visits)."""
    key = trusted.mac_key(root)
    if key is None:
        return
    payload = json.dumps({"games": games}, sort_keys=True, separators=(",", ":"),
                         ensure_ascii=True).encode("ascii")
    with contextlib.suppress(OSError):
        run_dir(root)
    hints.write(path(root), key, NAME, payload, failpoint="due-list-written")


def drop_stale_temps(root: Path) -> None:
    """Remove temporary due lists a killed run left behind in ``ROOT/.pbem-run/`` (an hour
    old: never one that a run at work now is writing)."""
    with contextlib.suppress(OSError):
        for name in os.listdir(root / DIR):
            if name.startswith(NAME + "."):
                with contextlib.suppress(OSError):
                    where = root / DIR / name
                    if time.time() - os.stat(where, follow_symlinks=False).st_mtime > 3600:
                        os.unlink(where)
