"""Handled mail leaves the live inbox (pbem.mail.inbox): ``inbox/`` holds only pending mail, a
handled message and its done record sit under ``inbox/handled/DAY/``, and everything that looks
handled mail up still finds it — duplicates, quarantine and release, and a real ``pbem ingest
--stdin`` killed between the done record and the move."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbem.mail.inbox import Inbox
from pbem.mail.outbox import Outbox
from pbem.store.log import GameLog
from tests.support.ingest_helpers import REPO, World, ingest_cli, order_mail, pristine

MSG = (b"From: vega@players.example\r\nTo: referee@pbem.example\r\nSubject: orders\r\n"
       b"Message-ID: <m1@players.example>\r\n\r\nbody\r\n")
ARRIVED = datetime(2026, 12, 1, 5, 0, tzinfo=UTC)
DAY = "2026-12-01"


def live(root: Path) -> list[str]:
    """The message files of the live inbox (what every run lists)."""
    return sorted(n for n in os.listdir(root / "inbox") if n.endswith((".eml", ".arrived",
                                                                        ".key")))


def sha_of(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def test_handled_mail_leaves_the_live_inbox_for_its_arrival_day(tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    stored = inbox.store(MSG, arrived=ARRIVED)
    assert live(tmp_path) == [f"{stored.sha256}.arrived", f"{stored.sha256}.eml"]
    inbox.done(stored, "accepted", game="demo-1")
    assert live(tmp_path) == [] and Inbox(tmp_path).pending(archive=True) == []
    folder = tmp_path / "inbox" / "handled" / DAY
    assert sorted(p.name for p in folder.iterdir()) == [
        f"{stored.sha256}.arrived", f"{stored.sha256}.eml", f"{stored.sha256}.json"]
    assert (folder / f"{stored.sha256}.eml").read_bytes() == MSG
    # Looked up, not listed: a redelivery (other trace headers too) is the handled duplicate.
    for copy in (MSG, b"Received: from mx2; Tue, 1 Dec 2026\r\n" + MSG):
        again = Inbox(tmp_path).store(copy, arrived=datetime(2026, 12, 9, tzinfo=UTC))
        assert again.duplicate and again.handled is not None
        assert again.handled["outcome"] == "accepted"
        assert again.path == folder / f"{stored.sha256}.eml"
        assert Inbox(tmp_path).read(again) == MSG
    assert live(tmp_path) == []
    assert Inbox(tmp_path).outcome(stored.sha256) == again.handled
    assert dict(Inbox(tmp_path).records()) == {stored.sha256: again.handled}


def test_quarantine_and_release_keep_the_arrival_time_and_the_live_inbox_clean(
        tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    stored = inbox.store(MSG, arrived=ARRIVED)
    inbox.quarantine(stored, "no signed order block found")
    assert live(tmp_path) == []  # the .arrived went with the message
    assert Inbox(tmp_path).outcome(stored.sha256)["outcome"] == "quarantined"
    assert Inbox(tmp_path).store(MSG).duplicate
    target = Inbox(tmp_path).release(stored.sha256[:10])
    assert target == tmp_path / "inbox" / f"{stored.sha256}.eml"
    assert Inbox(tmp_path).arrived(stored.sha256) == ARRIVED
    assert Inbox(tmp_path).outcome(stored.sha256) is None
    [again] = Inbox(tmp_path).pending(archive=True)
    assert again.sha256 == stored.sha256 and not Inbox(tmp_path).store(MSG).duplicate
    Inbox(tmp_path).done(again, "accepted")
    assert live(tmp_path) == [] and Inbox(tmp_path).quarantined() == []
    assert (tmp_path / "inbox" / "handled" / DAY / f"{stored.sha256}.eml").read_bytes() == MSG


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return pristine(tmp_path_factory)


def orders_logged(root: Path) -> int:
    entries = GameLog.load(root / "demo-1" / "log.jsonl").entries
    return len([e for e in entries if e.kind == "orders"])


def receipts(root: Path) -> int:
    outbox = Outbox(root / "demo-1" / "outbox")
    return len([e for e in outbox.pending() if b"Orders received" in outbox.raw(e.id)])


def pipe(root: Path, raw: bytes, crash: str | None = None) -> int:
    done = ingest_cli(root, "--stdin", stdin=raw,
                      env={"PBEM_CRASH_AT": crash} if crash else None)
    assert done.returncode == (-9 if crash else 0), done.stderr.decode()[-2000:]
    return done.returncode


@pytest.mark.parametrize("point", ["inbox-recorded", "inbox-archived"])
def test_ingest_killed_between_the_done_record_and_the_move_handles_the_mail_once(
        world: World, tmp_path: Path, point: str) -> None:
    root = world.clone(tmp_path / "root")
    raw = order_mail(world.sign("algol"), msgid=f"<kill-{point}@example.org>")
    before = orders_logged(root)
    pipe(root, raw, crash=point)
    assert orders_logged(root) == before + 1 and receipts(root) == 1
    # The MTA retries (the pipe failed): a duplicate; the move is finished by this run.
    pipe(root, raw)
    assert orders_logged(root) == before + 1 and receipts(root) == 1
    assert live(root) == []
    records = dict(Inbox(root).records())
    assert records[sha_of(raw)]["outcome"] == "accepted"
    folders = list((root / "inbox" / "handled").glob(f"*/{sha_of(raw)}.*"))
    assert sorted(p.suffix for p in folders) == [".arrived", ".eml", ".json"]


def test_gm_release_killed_after_forgetting_the_outcome_is_finished_by_a_second_release(
        tmp_path: Path) -> None:
    """``pbem gm release`` deletes the done record first: killed right after, the message is
    still in quarantine (listed, releasable), never in the inbox with a record (which would
    archive it unhandled)."""
    root = tmp_path / "root"
    inbox = Inbox(root)
    stored = inbox.store(MSG, arrived=ARRIVED)
    inbox.quarantine(stored, "internal-error: a bug since fixed")
    cmd = [sys.executable, "-m", "pbem", "gm", "release", str(root), stored.sha256[:12]]
    killed = subprocess.run(cmd, capture_output=True, cwd=REPO, check=False, timeout=120,
                            env={**os.environ, "PBEM_CRASH_AT": "inbox-releasing"})
    assert killed.returncode == -9, killed.stderr
    assert Inbox(root).outcome(stored.sha256) is None
    assert [sha for sha, _ in Inbox(root).quarantined()] == [stored.sha256]
    assert Inbox(root).pending(archive=True) == []
    again = subprocess.run(cmd, capture_output=True, cwd=REPO, check=False, timeout=120)
    assert again.returncode == 0, again.stderr
    [pending] = Inbox(root).pending(archive=True)
    assert pending.sha256 == stored.sha256 and Inbox(root).arrived(stored.sha256) == ARRIVED
    assert live(root) == [f"{stored.sha256}.arrived", f"{stored.sha256}.eml"]
