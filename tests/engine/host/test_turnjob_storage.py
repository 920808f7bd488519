"""Disk full or a read-only directory during a turn: the turn fails cleanly (nothing half
written, the other games go on) and the next run completes it. Real file systems: a small tmpfs
filled to ENOSPC and a read-only remount (mounting needs root: make test and CI run as root;
elsewhere the test fails saying so)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from pbem.store.log import GameLog
from tests.support.pbem_host import Host, at


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


def test_disk_full_in_the_inbox_pass_is_one_line_loses_nothing_and_visits_the_games(small_fs):
    """Issue 27: ``pbem run`` died with an OSError traceback in its inbox pass before visiting
    any game. Now: one line naming the problem and the file, a non-zero exit, every game
    visited (the turn a stored message may still change is not resolved), nothing lost: once
    there is room, the stored correction is judged and used."""
    from email.message import EmailMessage

    from pbem.mail.inbox import Inbox

    host = ready(small_fs)
    msg = EmailMessage()
    msg["From"], msg["To"] = "algol@example.org", "referee@example.org"
    msg["Subject"], msg["Message-ID"] = "correction", "<correction@example.org>"
    msg.set_content(host.orders_text("algol", {"depart": host.depart("algol", "Algol", 4,
                                                                     "Hamal")}, seq=5))
    Inbox(host.root).store(bytes(msg), arrived=at(2))  # stored, not judged yet
    filler = small_fs / "filler"
    with open(filler, "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 65536)
        except OSError:
            pass
    full = host.run_cli(at(49))
    assert full.returncode != 0
    assert "Traceback" not in full.stderr, full.stderr
    lines = full.stderr.strip().splitlines()
    assert len(lines) == 1 and "the disk is full" in lines[0] and str(host.root) in lines[0], \
        full.stderr
    assert "g1: " in full.stdout, full.stdout  # the game was visited
    assert resolves(host) == 0
    filler.unlink()
    done = host.run_cli(at(50))
    assert done.returncode == 0, done.stderr
    entries = GameLog.load(host.path / "log.jsonl").entries
    used = [e for e in entries if e.kind == "resolve"][0].body["used"]["algol"]
    assert used == [e for e in entries if e.kind == "orders" and e.body["seq"] == 5][0] \
        .body["sha256"]


def test_a_mail_batch_that_cannot_be_written_still_commits_the_resolution(small_fs):
    """The resolution's mail is written to its batch file before the log commit (the two are
    fsynced together): when the outbox cannot take it (here ``outbox/pending/`` read-only),
    the resolution is committed all the same and the game reports the error; the next run's
    catch-up queues the mail, and every report goes out once."""
    host = ready(small_fs)
    pending = host.path / "outbox" / "pending"
    pending.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "--bind", str(pending), str(pending)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(pending)], check=True)
        runs = host.run(at(2))
    finally:
        subprocess.run(["umount", str(pending)], check=True)
    assert runs[0].status == "error" and "read-only" in " ".join(runs[0].notes).lower(), \
        runs[0].line()
    assert resolves(host) == 1, "the resolution is committed"
    assert not list(host.path.rglob(".*.tmp-*"))
    runs = host.run(at(2))
    assert runs[0].queued == 5, runs[0].line()
    assert resolves(host) == 1
    reports = [m for m in host.sent() if "report" in str(m["Subject"]).lower()]
    assert len(reports) == 4 and len({str(m["To"]) for m in reports}) == 4
