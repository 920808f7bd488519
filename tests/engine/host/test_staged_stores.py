"""Ingest's group commit writes a batch's inbox copies and submission records first and puts
them in place together (pbem.staged.Group): nothing shows under its name before its fsync, what
is written is seen by the round that wrote it, and a batch that fails before its sync leaves
nothing behind."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbem import staged
from pbem.host import ingest
from pbem.mail.inbox import Inbox
from pbem.mail.sources import Incoming
from pbem.store.submissions import MARKER, SubmissionError, SubmissionStore, sync_all

T0 = datetime(2026, 12, 1, tzinfo=UTC)


def message(n: int) -> bytes:
    return (f"From: vega@players.example\r\nTo: referee@pbem.example\r\nSubject: orders {n}\r\n"
            f"Message-ID: <m{n}@players.example>\r\n\r\nbody {n}\r\n").encode()


def visible(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if not p.name.startswith("."))


def test_staged_copies_are_in_the_inbox_only_after_sync_stored(tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    stored = [inbox.store(message(n), arrived=T0 + timedelta(seconds=n), sync_dir=False)
              for n in range(3)]
    again = inbox.store(message(1), arrived=T0, sync_dir=False)  # a copy, earlier in the batch
    assert again.sha256 == stored[1].sha256 and not again.fresh and again.handled is None
    assert not any(s.path.exists() for s in stored) and inbox.pending() == []
    inbox.sync_stored()
    assert [s.sha256 for s in inbox.pending()] == [s.sha256 for s in stored]  # in store order
    assert all(inbox.read(s) == message(n) for n, s in enumerate(stored))
    assert inbox.arrived(stored[2].sha256) == T0 + timedelta(seconds=2)
    same = [inbox.store(message(n), arrived=T0, sync_dir=False) for n in range(5, 8)]
    inbox.sync_stored()  # one arrival time: one file, a name for each message
    assert {(tmp_path / "inbox" / f"{s.sha256}.arrived").stat().st_nlink for s in same} == {3}
    assert {inbox.arrived(s.sha256) for s in same} == {T0}
    fresh = Inbox(tmp_path).store(message(0), arrived=T0, sync_dir=False)
    assert not fresh.fresh and fresh.sha256 == stored[0].sha256


def test_dropped_copies_leave_nothing_and_are_stored_again(tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    inbox.store(message(0), arrived=T0, sync_dir=False)
    inbox.drop_staged()
    inbox.sync_stored()
    assert [p for p in visible(tmp_path / "inbox") if p.endswith((".eml", ".arrived"))] == []
    assert not any(p.name.startswith(".") for p in (tmp_path / "inbox").iterdir())
    # its key may remain; it names no file, so the message is stored afresh
    again = Inbox(tmp_path).store(message(0), arrived=T0)
    assert again.fresh and again.path.read_bytes() == message(0)


class FailingSource:
    """A source whose listing fails after two messages (a Maildir on a dying disk, say)."""

    def __init__(self) -> None:
        self.acked: list[str] = []

    def messages(self) -> Iterator[Incoming]:
        for n in range(2):
            yield Incoming(f"id{n}", message(n))
        raise OSError("the source broke")

    def ack(self, ident: str) -> None:
        self.acked.append(ident)


def test_a_source_failing_mid_batch_acknowledges_and_leaves_nothing(tmp_path: Path) -> None:
    source = FailingSource()
    with pytest.raises(OSError, match="the source broke"):
        ingest.ingest(tmp_path, source, T0)
    assert source.acked == []
    assert [p for p in (tmp_path / "inbox").iterdir() if p.is_file()] == []


def test_staged_records_are_seen_by_the_round_and_in_place_after_sync(tmp_path: Path) -> None:
    store = SubmissionStore(tmp_path)
    rejected = store.record(turn=1, power="algol", data=b"one", received=T0,
                            verdict="rejected", problems=["bad"], seq=1, sync_dir=False)
    assert store.recorded(1, "algol", rejected.name + ".json")
    assert not rejected.path.exists()
    store.sync()
    first = store.record(turn=2, power="algol", data=b"two", received=T0,
                         verdict="rejected", problems=["bad"], seq=1, sync_dir=False)
    accepted = store.record(turn=2, power="algol", data=b"three", received=T0 + timedelta(1),
                            verdict="accepted", seq=2, sync_dir=False)
    other = SubmissionStore(tmp_path / "other")
    other.record(turn=1, power="vega", data=b"x", received=T0, verdict="accepted", seq=1,
                 sync_dir=False)
    sync_all([store, other])
    assert [s.name for s in store.list(2, "algol")] == [first.name, accepted.name]
    assert store.accepted(2)["algol"].name == accepted.name
    marker = accepted.path.parent / MARKER
    assert marker.read_text().strip() == accepted.name + ".txt"
    assert [s.power for s in other.list(1)] == ["vega"]


def test_a_staged_verdict_never_overwrites_a_recorded_one(tmp_path: Path) -> None:
    store = SubmissionStore(tmp_path)
    kept = store.record(turn=1, power="algol", data=b"one", received=T0, verdict="accepted",
                        seq=1)
    again = SubmissionStore(tmp_path)
    again.record(turn=1, power="algol", data=b"one", received=T0, verdict="rejected",
                 problems=["bad"], seq=1, sync_dir=False)
    with pytest.raises(SubmissionError, match="a different verdict is recorded already"):
        again.sync()
    assert store.list(1, "algol")[0].verdict == "accepted" and kept.path.exists()


def test_the_file_transport_puts_staged_mail_in_place_at_commit(tmp_path: Path) -> None:
    from pbem.mail.transports import FileTransport

    transport = FileTransport(tmp_path / "mail")
    raws = [f"Subject: {n}\r\n\r\nbody {n}\r\n".encode() for n in range(6)]
    for raw in [*raws, raws[0]]:  # the same bytes twice: one file
        transport.stage(raw, "referee@pbem.example", ["p@players.example"])
    assert visible(tmp_path / "mail") == []
    accepted = transport.commit()  # one acceptance a message staged, in order, naming its file
    names = [hashlib.sha256(raw).hexdigest()[:24] + ".eml" for raw in [*raws, raws[0]]]
    assert [a.reply for a in accepted] == [f"written to {name}" for name in names]
    assert [(tmp_path / "mail" / name).read_bytes() for name in names] == [*raws, raws[0]]
    files = sorted((tmp_path / "mail").iterdir())
    assert len(files) == 6 and sorted(f.read_bytes() for f in files) == sorted(raws)
    assert transport.commit() == []  # nothing staged: nothing to do
    transport.send(b"Subject: x\r\n\r\nx\r\n", "referee@pbem.example", ["p@players.example"])
    assert len(visible(tmp_path / "mail")) == 7


def test_the_file_transport_commits_more_messages_than_it_holds_open(tmp_path: Path) -> None:
    """Past ``staged.MANY_OPEN`` messages the transport puts the first ones in place early
    (each durable first); the commit still answers for every message, in order."""
    from pbem.mail.transports import FileTransport

    transport = FileTransport(tmp_path / "mail")
    raws = [f"Subject: {n}\r\n\r\nbody {n}\r\n".encode() for n in range(staged.MANY_OPEN + 6)]
    for raw in raws:
        transport.stage(raw, "referee@pbem.example", ["p@players.example"])
    assert len(visible(tmp_path / "mail")) == staged.MANY_OPEN
    accepted = transport.commit()
    assert [a.reply for a in accepted] == [
        f"written to {hashlib.sha256(raw).hexdigest()[:24]}.eml" for raw in raws]
    assert len(visible(tmp_path / "mail")) == len(raws)
    assert not [p for p in (tmp_path / "mail").iterdir() if p.name.startswith(".")]


def test_a_file_transport_commit_that_cannot_place_a_message_acknowledges_none(
        tmp_path: Path) -> None:
    """A message that cannot be renamed into place (its name taken by a directory): the
    commit raises TemporaryFailure (the outbox keeps every staged message pending), the
    messages before it are in place, none after it, and no temporary file is left; the next
    commit, once the name is free, writes them all."""
    from pbem.mail.transports import FileTransport, TemporaryFailure

    transport = FileTransport(tmp_path / "mail")
    raws = [f"Subject: {n}\r\n\r\nbody {n}\r\n".encode() for n in range(6)]
    blocked = tmp_path / "mail" / FileTransport.name_of(raws[3])
    (blocked / "in-the-way").mkdir(parents=True)
    for raw in raws:
        transport.stage(raw, "referee@pbem.example", ["p@players.example"])
    with pytest.raises(TemporaryFailure, match=blocked.name):
        transport.commit()
    assert visible(tmp_path / "mail") == sorted(
        [blocked.name, *(FileTransport.name_of(raw) for raw in raws[:3])])
    assert not [p for p in (tmp_path / "mail").iterdir() if p.name.startswith(".")]
    blocked.joinpath("in-the-way").rmdir()
    blocked.rmdir()
    for raw in raws:
        transport.stage(raw, "referee@pbem.example", ["p@players.example"])
    assert len(transport.commit()) == len(raws)
    assert sorted(f.read_bytes() for f in (tmp_path / "mail").iterdir()) == sorted(raws)


def test_a_rounds_done_records_are_one_file_and_each_reads_its_own(tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    stored = [inbox.store(message(n), arrived=T0, sync_dir=False) for n in range(4)]
    inbox.sync_stored()
    for n, s in enumerate(stored):
        inbox.done(s, "accepted" if n % 2 else "rejected", sync_dir=False, turn=n)
    inbox.flush_done()
    day = tmp_path / "inbox" / "handled" / T0.strftime("%Y-%m-%d")
    paths = [day / f"{s.sha256}.json" for s in stored]
    assert {p.stat().st_ino for p in paths} == {paths[0].stat().st_ino}
    assert inbox.pending() == []
    fresh = Inbox(tmp_path)
    for n, s in enumerate(stored):
        expected = {"sha256": s.sha256, "message_id": f"<m{n}@players.example>",
                    "outcome": "accepted" if n % 2 else "rejected", "turn": n}
        assert fresh.outcome(s.sha256, s.day) == expected
        assert fresh.store(message(n), arrived=T0).handled == expected  # a redelivery
    assert dict(fresh.records()) == {s.sha256: fresh.outcome(s.sha256, s.day) for s in stored}
    # A record written later (a file of its own) leaves the round's as they are.
    fresh.quarantine(fresh.store(message(9), arrived=T0), "test")
    assert fresh.outcome(stored[1].sha256, stored[1].day)["outcome"] == "accepted"
