"""The per-game lock, held by real separate processes."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from pbem.store.lock import Busy, locked, try_lock

REPO = Path(__file__).resolve().parents[3]

HOLDER = textwrap.dedent("""
    import sys
    from pbem.store.lock import locked
    with locked(sys.argv[1]):
        print("locked", flush=True)
        sys.stdin.read()  # hold until the parent closes our stdin
    print("released", flush=True)
""")


def start_holder(game_dir: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(game_dir)],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == "locked\n"
    return proc


def test_busy_game_fails_at_once_then_frees(tmp_path):
    proc = start_holder(tmp_path)
    try:
        # The holder keeps the lock until we close its stdin, so a call that waited for it
        # would never return: the calls run in a thread, and returning at all proves they do
        # not wait (the join's limit only turns such a hang into a failure).
        outcome: list[object] = []

        def attempt() -> None:
            outcome.append(try_lock(tmp_path))
            try:
                with locked(tmp_path):
                    outcome.append("locked")
            except Busy as exc:
                outcome.append(str(exc))

        thread = threading.Thread(target=attempt, daemon=True)
        thread.start()
        thread.join(60)
        assert not thread.is_alive(), "try_lock or locked waited for the holder"
        assert outcome[0] is None
        assert re.search(rf"busy: .* \(held by pid {proc.pid}\)", str(outcome[1])), outcome
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        assert proc.stdout is not None
        assert proc.stdout.readline() == "released\n"
        proc.wait(timeout=10)
    with locked(tmp_path) as lock:
        assert lock.held
    assert not lock.held


def test_killed_holder_releases_the_lock(tmp_path):
    proc = start_holder(tmp_path)
    assert try_lock(tmp_path) is None
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    lock = try_lock(tmp_path)
    assert lock is not None
    lock.release()


def test_two_processes_race_one_wins(tmp_path):
    racer = textwrap.dedent("""
        import sys
        from pbem.store.lock import try_lock
        lock = try_lock(sys.argv[1])
        print("won" if lock else "busy", flush=True)
        sys.stdin.read()  # keep whatever we got until the parent has heard from both
    """)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", racer, str(tmp_path)],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    # Both have tried before either lets go: the winner holds the lock until its stdin closes.
    lines = []
    for p in procs:
        assert p.stdout is not None
        lines.append(p.stdout.readline().strip())
    for p in procs:
        p.communicate(timeout=20)
    results = sorted(lines)
    assert results == ["busy", "won"]


def test_same_process_second_lock_is_busy(tmp_path):
    # flock belongs to the open file, so a second open in the same process is refused too
    with locked(tmp_path), pytest.raises(Busy), locked(tmp_path):
        pass
