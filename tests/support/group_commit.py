"""Ingest's group commit driven from a Maildir by ``pbem ingest ROOT --maildir`` (a process,
killed at a failpoint), and what the players were sent."""

from __future__ import annotations

import email
import os
import subprocess
import sys
from email import policy
from pathlib import Path

from pbem.mail.outbox import Outbox
from tests.support.pbem_host import Host

#: Every durable step of a grouped round, in the order they happen (pbem.host.ingestround).
POINTS = ["ingest-stored", "ingest-batch-begun", "ingest-handling", "before-orders-append",
          "after-orders-append", "ingest-replies-queued", "ingest-done-recorded"]


NOW = "2026-12-01T01:00:00Z"


def subjects(host: Host) -> list[str]:
    outbox = Outbox(host.path / "outbox")
    out = []
    for entry in outbox.pending():
        msg = email.message_from_bytes(outbox.raw(entry.id), policy=policy.default)
        out.append(str(msg["Subject"]))
    return out


def ingest(host: Host, md: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "pbem", "ingest", str(host.root), "--maildir", str(md),
           "--now", NOW]
    return subprocess.run(cmd, env={**os.environ, **(env or {})}, capture_output=True,
                          text=True, check=False)
