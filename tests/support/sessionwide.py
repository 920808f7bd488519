"""A directory made once per test session and shared by every xdist worker: the installed wheel
(tests/support/installed.py), each game's demo (tests/support/demos.py)."""

from __future__ import annotations

import fcntl
from collections.abc import Callable
from pathlib import Path


def made_once(where: Path, make: Callable[[Path], object]) -> Path:
    """``where`` (under a directory every worker sees), filled by ``make(where)`` by the first
    caller of the session, under a lock the others wait on. A ``make`` that failed leaves no
    mark: the next caller makes it again, and fails with the same message."""
    where.mkdir(parents=True, exist_ok=True)
    with open(where / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (where / ".done").exists():
            make(where)
            (where / ".done").touch()
    return where
