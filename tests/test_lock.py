"""The per-game lock, held by real separate processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from pbem.store.lock import Busy, locked, try_lock

REPO = Path(__file__).resolve().parent.parent

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
        start = time.perf_counter()
        assert try_lock(tmp_path) is None
        with pytest.raises(Busy, match=rf"busy: .* \(held by pid {proc.pid}\)"), locked(tmp_path):
            pass
        assert time.perf_counter() - start < 0.5  # never waits
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
        import sys, time
        from pbem.store.lock import try_lock
        lock = try_lock(sys.argv[1])
        print("won" if lock else "busy", flush=True)
        time.sleep(2)
    """)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", racer, str(tmp_path)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results = sorted(p.communicate(timeout=20)[0].strip() for p in procs)
    assert results == ["busy", "won"]


def test_same_process_second_lock_is_busy(tmp_path):
    # flock belongs to the open file, so a second open in the same process is refused too
    with locked(tmp_path), pytest.raises(Busy), locked(tmp_path):
        pass
