"""Disk full or a read-only directory during a turn: the turn fails cleanly (nothing half
written, the other games go on) and the next run completes it. Real file systems: a small tmpfs
filled to ENOSPC and a read-only remount (mounting needs root: make test and CI run as root;
elsewhere the test fails saying so)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from pbem.store.log import GameLog
from tests.pbem_host import Host, at


def ready(mnt: Path) -> Host:
    host = Host(mnt)
    for power in host.powers:
        assert host.submit(power, {}, at(1)).verdict == "accepted"
    (host.root / "sent-mail").mkdir()  # the file outbox of the embedded default
    return host


def resolves(host: Host) -> int:
    return len([e for e in GameLog.load(host.path / "log.jsonl").entries if e.kind == "resolve"])


def test_read_only_directory_fails_cleanly_then_next_run_completes(small_fs):
    host = ready(small_fs)
    subprocess.run(["mount", "-o", "remount,ro", str(small_fs)], check=True)
    try:
        runs = host.run(at(2))
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_fs)], check=True)
    assert runs[0].status == "error" and "read-only" in " ".join(runs[0].notes).lower()
    assert resolves(host) == 0
    runs = host.run(at(3))
    assert runs[0].status == "resolved" and resolves(host) == 1
    assert len([m for m in host.sent() if "report" in str(m["Subject"]).lower()]) == 4


def test_disk_full_fails_cleanly_then_next_run_completes(small_fs):
    host = ready(small_fs)
    filler = small_fs / "filler"
    with open(filler, "wb", buffering=0) as fh:  # unbuffered: nothing left to flush at close
        try:
            while True:
                fh.write(b"\0" * 65536)
        except OSError:
            pass
    runs = host.run(at(2))
    assert runs[0].status == "error", runs[0].line()
    GameLog.load(host.path / "log.jsonl")  # still a valid log
    filler.unlink()
    runs = host.run(at(3))
    assert runs[0].status in ("resolved", "waiting")
    assert resolves(host) == 1
    host.run(at(4))
    reports = [m for m in host.sent() if "report" in str(m["Subject"]).lower()]
    assert len(reports) == 4 and len({str(m["Message-ID"]) for m in reports}) == 4
