"""``pbem ingest`` killed (SIGKILL) between the accepted order's log entry and its receipt: the
rerun neither logs the order twice nor loses the receipt."""

from __future__ import annotations

import os
import subprocess
import sys
from email.message import EmailMessage

import pytest

from pbem.mail.outbox import Outbox
from pbem.store.log import GameLog
from tests.pbem_host import Host


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
