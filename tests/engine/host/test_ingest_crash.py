"""``pbem ingest`` killed (SIGKILL) between the accepted order's log entry and its receipt: the
rerun neither logs the order twice nor loses the receipt."""

from __future__ import annotations

import os
import subprocess
import sys
from email.message import EmailMessage

import pytest

from pbem import atomic
from pbem.mail.outbox import Outbox
from pbem.store.log import GameLog
from tests.support.pbem_host import Host, at, iso


def receipts(host: Host) -> list[str]:
    outbox = Outbox(host.path / "outbox")
    return [e.id for e in outbox.pending() if b"Orders received" in outbox.raw(e.id)]


@pytest.mark.parametrize("point", ["before-orders-append", "after-orders-append"])
def test_crash_around_the_orders_entry_then_rerun(tmp_path, point):
    host = Host(tmp_path)
    md = tmp_path / "md"
    for sub in ("new", "cur", "tmp"):
        (md / sub).mkdir(parents=True)
    msg = EmailMessage()
    msg["From"] = "algol@example.org"
    msg["To"] = "referee@example.org"
    msg["Subject"] = "orders"
    msg["Message-ID"] = "<crash-1@example.org>"
    msg.set_content(host.orders_text("algol", {"depart": host.depart("algol", "Algol", 4,
                                                                     "Hamal")}))
    (md / "new" / "1.eml").write_bytes(bytes(msg))
    cmd = [sys.executable, "-m", "pbem", "ingest", str(host.root), "--maildir", str(md),
           "--now", "2026-12-01T01:00:00Z"]
    crashed = subprocess.run(cmd, env={**os.environ, "PBEM_CRASH_AT": point},
                             capture_output=True, text=True, check=False)
    assert crashed.returncode == -9, crashed.stderr
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    entries = GameLog.load(host.path / "log.jsonl").entries
    assert len([e for e in entries if e.kind == "orders"]) == 1, "logged exactly once"
    assert len(receipts(host)) == 1, "the receipt is queued once"
    again = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert again.returncode == 0 and len(receipts(host)) == 1


def temp_files(root) -> list[str]:
    """Every temporary file under the root (pbem.atomic's names: ``.NAME.tmp-PID-HEX``)."""
    return sorted(str(p.relative_to(root)) for p in root.rglob(".*")
                  if atomic.temp_writer(p.name) is not None)


def mail(host: Host, msgid: str, seq: int, body: dict) -> bytes:
    msg = EmailMessage()
    msg["From"] = "algol@example.org"
    msg["To"] = "referee@example.org"
    msg["Subject"] = "orders"
    msg["Message-ID"] = msgid
    msg.set_content(host.orders_text("algol", body, seq=seq))
    return bytes(msg)


@pytest.mark.parametrize("nth", [1, 2, 3])
def test_killed_with_files_not_in_place_then_the_next_run_removes_them_and_uses_the_correction(
        tmp_path, nth):
    """SIGKILL after the n-th group of files was written and fsynced but before any was put
    in place (the inbox's copies, then the submissions, the log, the replies): they stay as
    temporary files. The MTA delivers again, the run resolves: no temporary file survives it,
    the correction (seq 1) is the one used, and its predecessor is never rejected."""
    host = Host(tmp_path)
    md = tmp_path / "md"
    for sub in ("new", "cur", "tmp"):
        (md / sub).mkdir(parents=True)
    (md / "new" / "1.eml").write_bytes(mail(host, "<seq0@x>", 0, {}))
    (md / "new" / "2.eml").write_bytes(mail(host, "<seq1@x>", 1, {
        "depart": host.depart("algol", "Algol", 4, "Hamal")}))
    cmd = [sys.executable, "-m", "pbem", "ingest", str(host.root), "--maildir", str(md),
           "--now", "2026-12-01T01:00:00Z"]
    crashed = subprocess.run(cmd, env={**os.environ, "PBEM_CRASH_AT": f"staged-synced#{nth}"},
                             capture_output=True, text=True, check=False)
    assert crashed.returncode == -9, crashed.stderr
    assert temp_files(host.root), "the kill left temporary files"
    redelivered = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert redelivered.returncode == 0, redelivered.stderr
    run = host.run_cli(at(49))
    assert run.returncode == 0, run.stderr
    assert temp_files(host.root) == []
    entries = GameLog.load(host.path / "log.jsonl").entries
    resolve = [e for e in entries if e.kind == "resolve"]
    seq1 = [e for e in entries if e.kind == "orders" and e.body["seq"] == 1]
    assert len(resolve) == 1 and len(seq1) == 1
    assert resolve[0].body["used"]["algol"] == seq1[0].body["sha256"]
    sent = [m for m in host.sent("algol@example.org")]
    assert not [m for m in sent if "rejected" in str(m["Subject"]).lower()]
    status = subprocess.run([sys.executable, "-m", "pbem", "gm", "status", str(host.path),
                             "--now", iso(at(49))], capture_output=True, text=True, check=False)
    assert "left by a crash" in status.stdout, status.stdout
