"""Retention (pbem.host.retention): sent and handled mail older than keep_mail_days is pruned by
``pbem run``; newer and pending mail is kept; the records exactly-once rests on stay, so a rerun
queues no reply again and a redelivered old message is still a duplicate; ``pbem gm status``
shows the root's size on disk and what was pruned."""

from __future__ import annotations

import os
import re
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest

from pbem.cli.main import main
from pbem.host import retention
from pbem.mail import config
from pbem.mail.inbox import Inbox
from pbem.mail.outbox import Outbox
from pbem.mail.outbox_prune import prune_sent
from pbem.mail.transports import FileTransport

NOW = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
OLD = NOW - timedelta(days=40)
DAYS = 30


def mail(n: int, to: str = "algol@example.org") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "referee@example.org"
    msg["To"] = to
    msg["Subject"] = f"report {n}"
    msg["Message-ID"] = f"<report.{n}@example.org>"
    msg.set_content("x" * 20_000 + f" {n}\n")
    return msg


def test_sent_mail_older_than_the_period_is_pruned_and_its_keys_still_hold(tmp_path) -> None:
    box = Outbox(tmp_path / "outbox")
    old_single = box.queue(mail(1), key="receipt:old")
    old_batch = box.queue_many([("report:a", mail(2)), ("report:b", mail(3))], key="turn:1",
                               index_items=True)
    box.deliver(FileTransport(tmp_path / "sent-mail"), OLD)
    new_single = box.queue(mail(4), key="receipt:new")
    box.deliver(FileTransport(tmp_path / "sent-mail"), NOW - timedelta(days=2))  # (and
    # retires the sent batch: sent long ago, by its records)
    waiting = box.queue(mail(5), key="receipt:waiting")  # pending: never touched
    batch_file = box.sent_dir / f"{old_batch[0]}.batch"  # (a batch's id is its first's)
    before = batch_file.stat().st_size

    files, freed = prune_sent(box, NOW - timedelta(days=DAYS), tmp_path / "sent-mail")

    assert files == 2 and freed > 80_000  # the outbox's copies and the file transport's
    assert len(list((tmp_path / "sent-mail").glob("*.eml"))) == 1  # the new one's
    assert not box.raw(old_single) and not box.raw(old_batch[0])  # compacted: no bytes
    assert batch_file.stat().st_size < before // 10
    assert box.raw(new_single) and box.raw(waiting)  # sent lately, and pending: kept
    # Exactly-once: every key still names what it queued, and queueing again queues nothing.
    assert box.queued_under("receipt:old") == [old_single]
    assert box.queued_under("turn:1") == old_batch
    assert box.queued_under("report:b") == [old_batch[1]]
    assert box.queue(mail(1), key="receipt:old") == old_single
    assert box.queue_many([("report:a", mail(2))], key="turn:1") == old_batch
    assert [e.id for e in box.pending()] == [waiting]
    assert {box.state(i) for i in [old_single, *old_batch]} == {"sent"}
    # Every name of the compacted batch is the small file: the old bytes are freed.
    key_file = box._key_path("turn:1")
    assert key_file.stat().st_ino == batch_file.stat().st_ino
    assert prune_sent(box, NOW - timedelta(days=DAYS), tmp_path / "sent-mail") == (0, 0)


def raw_mail(n: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = "stranger@elsewhere.example"
    msg["To"] = "referee@example.org"
    msg["Subject"] = f"hello {n}"
    msg["Message-ID"] = f"<in.{n}@elsewhere.example>"
    msg.set_content("y" * 10_000 + "\n")
    return msg.as_bytes()


def test_handled_mail_older_than_the_period_is_pruned_and_a_redelivery_is_a_duplicate(
        tmp_path) -> None:
    inbox = Inbox(tmp_path)
    old = inbox.store(raw_mail(1), arrived=OLD)
    inbox.done(old, "ignored")
    new = inbox.store(raw_mail(2), arrived=NOW - timedelta(days=2))
    inbox.done(new, "ignored")
    waiting = inbox.store(raw_mail(3), arrived=OLD)  # stored, not handled: never touched

    files, freed = inbox.prune_handled(NOW - timedelta(days=DAYS))

    old_day = inbox.handled_dir / OLD.strftime("%Y-%m-%d")
    assert files == 2 and freed >= 10_000  # the .eml and its .arrived
    assert not (old_day / f"{old.sha256}.eml").exists()
    assert (old_day / f"{old.sha256}.json").exists()
    new_day = inbox.handled_dir / (NOW - timedelta(days=2)).strftime("%Y-%m-%d")
    assert (new_day / f"{new.sha256}.eml").exists()
    assert [s.sha256 for s in inbox.pending()] == [waiting.sha256]
    again = inbox.store(raw_mail(1), arrived=NOW)
    assert again.duplicate and again.sha256 == old.sha256
    assert not inbox.path(old.sha256).exists()  # not stored again


def test_pbem_run_prunes_once_a_day_and_gm_status_shows_the_size(tmp_path, capsys) -> None:
    """The whole path: a played game's old report mail (its outbox and the file transport's
    sent-mail/) and the old handled mail are pruned by ``pbem run``; a second run the same day
    prunes nothing; ``pbem gm status`` says the root's size and what was pruned; a redelivered
    old message through ``pbem ingest`` is a duplicate, not handled again."""
    from tests.support.pbem_host import Host, iso

    host = Host(tmp_path)
    spam = raw_mail(9)
    inbox = Inbox(host.root)
    inbox.done(inbox.store(spam, arrived=OLD), "quarantined")
    start = time.time()
    assert main(["run", str(host.root), "--now", iso(NOW - timedelta(days=45))]) == 0
    sent = [p for p in (host.path / "outbox" / "sent").iterdir()]
    assert any(p.suffix in (".eml", ".batch") for p in sent)
    copies = set((host.root / "sent-mail").glob("*.eml"))
    assert copies
    capsys.readouterr()

    assert main(["run", str(host.root), "--now", iso(NOW)]) == 0
    out = capsys.readouterr().out
    assert "retention: pruned" in out, out
    assert not copies & set((host.root / "sent-mail").glob("*.eml"))  # (new mail is kept)
    assert not [p for p in sent if p.suffix == ".eml" and p.exists()]
    assert all(os.stat(p).st_mtime >= start for p in (host.path / "outbox" / "sent").iterdir()
               if p.suffix == ".batch")  # compacted: rewritten now
    assert main(["run", str(host.root), "--now", iso(NOW + timedelta(hours=1))]) == 0
    assert "retention" not in capsys.readouterr().out  # once a day

    assert main(["gm", "status", str(host.path), "--now", iso(NOW)]) == 0
    status = capsys.readouterr().out
    sizes = re.search(rf"disk: the root {re.escape(str(host.root))} holds ([0-9.]+ \w+); of "
                      r"it sent mail ([0-9.]+ \w+) \(every game's outbox/sent\), handled mail "
                      r"([0-9.]+ \w+) \(inbox/handled\)", status)
    assert sizes, status
    total, sent_mail, handled_mail = (_bytes(t) for t in sizes.groups())
    assert 0 < sent_mail < total and 0 < handled_mail < total, sizes.groups()
    assert "retention: sent and handled mail kept 30 days" in status
    assert "last pruned at 2027-03-01T12:00:00Z" in status

    import io

    from pbem.host import ingest
    from pbem.mail.sources import StdinSource

    report = ingest.ingest(host.root, StdinSource(io.BytesIO(spam)), NOW)
    assert report.duplicates == 1 and report.quarantined == 0


@pytest.mark.parametrize("text,days", [("keep_mail_days: 7\n", 7), ("keep_mail_days: never\n",
                                                                    None), (None, 30)])
def test_the_period_is_read_from_mail_yaml(tmp_path, text, days) -> None:
    if text is not None:  # (None: no mail.yaml, the embedded default)
        (tmp_path / "mail.yaml").write_text(text)
    assert config.keep_mail_days(tmp_path) == days
    assert retention.prune_root(tmp_path, NOW, None) is None


@pytest.mark.parametrize("value", ["0", "-3", "thirty", "2.5", "true"])
def test_a_bad_period_is_refused_with_its_name(tmp_path, value) -> None:
    (tmp_path / "mail.yaml").write_text(f"keep_mail_days: {value}\n")
    with pytest.raises(config.MailSettingsError, match="keep_mail_days"):
        config.keep_mail_days(tmp_path)


def _bytes(text: str) -> float:
    """``12.5 KB`` (as gm status writes a size) in bytes."""
    number, unit = text.split()
    return float(number) * 1024 ** ["bytes", "KB", "MB", "GB"].index(unit)
