"""``Outbox.queue_many`` (and ``queue``, a batch of one): messages queued in one durable step
under one key, delivered and recorded one by one."""

from __future__ import annotations

import email
import json
import os
from datetime import UTC, datetime, timedelta
from email import policy
from pathlib import Path

import pytest

from pbem.mail.compose import compose, to_bytes
from pbem.mail.outbox import Outbox
from pbem.mail.transports import Accepted, FileTransport, PermanentFailure, TemporaryFailure
from tests.support.crash import Crash, crash_at

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def report(n: int, to: str = "vega@players.example") -> email.message.EmailMessage:
    return compose(sender="referee@pbem.example", to=to, subject=f"Turn {n} report ✓",
                   text=f"Report {n}", html=f"<p>Report {n}</p>", date=NOW,
                   domain="pbem.example", auto_submitted="auto-generated", game="demo-1")


def items(count: int = 3) -> list[tuple[str, email.message.EmailMessage]]:
    return [(f"report:{n}", report(n, f"p{n}@players.example")) for n in range(count)]


class Recorder:
    """A transport that keeps what it was given and can refuse chosen messages."""

    def __init__(self, fail: dict[int, Exception] | None = None) -> None:
        self.sent: list[bytes] = []
        self.fail = fail or {}
        self.calls = 0

    def send(self, raw: bytes, sender: str, recipients) -> Accepted:
        self.calls += 1
        if self.calls in self.fail:
            raise self.fail[self.calls]
        self.sent.append(raw)
        return Accepted("250 ok")

    def close(self) -> None:
        pass


def test_queue_many_stores_every_message_and_delivers_each_once(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    batch = items()
    ids = outbox.queue_many(batch, key="resolution:g:5")
    assert len(ids) == 3 and ids == sorted(ids)
    assert [outbox.raw(i) for i in ids] == [to_bytes(m) for _, m in batch]
    assert [outbox.state(i) for i in ids] == ["pending"] * 3
    pending = outbox.pending()
    assert [e.id for e in pending] == ids
    assert [e.recipients for e in pending] == [(f"p{n}@players.example",) for n in range(3)]
    assert [e.message_id for e in pending] == [m["Message-ID"] for _, m in batch]
    result = outbox.deliver(FileTransport(tmp_path / "mail"), NOW)
    assert result.sent == ids and outbox.pending() == []
    assert sorted(f.read_bytes() for f in (tmp_path / "mail").glob("*.eml")) == sorted(
        to_bytes(m) for _, m in batch)
    assert [outbox.state(i) for i in ids] == ["sent"] * 3
    assert [e.id for e in outbox.sent()] == ids and outbox.sent()[0].reply
    assert list((tmp_path / "outbox" / "pending").iterdir()) == []  # the batch moved to sent/
    assert outbox.raw(ids[1]) == to_bytes(batch[1][1])
    assert outbox.deliver(FileTransport(tmp_path / "mail"), NOW).sent == []


def test_a_prepared_batch_is_queued_only_once_placed(tmp_path: Path) -> None:
    """``prepare_many`` writes the batch to a temporary file and queues nothing: no key, no
    pending message; ``sync`` then ``place`` queue it as ``queue_many`` would; ``discard``
    leaves no file behind (turn job: the batch is fsynced with the log entry)."""
    outbox = Outbox(tmp_path / "outbox")
    batch = outbox.prepare_many(items(), key="resolution:g:5", durable_key=False)
    assert outbox.queued_under("resolution:g:5") is None and outbox.pending() == []
    assert outbox.find_queued("resolution:g:5") is None
    batch.sync()
    assert outbox.pending() == [], "synced is not queued"
    batch.place()
    assert outbox.queued_under("resolution:g:5") == batch.ids and len(batch.ids) == 3
    assert [e.id for e in outbox.pending()] == batch.ids
    dropped = outbox.prepare_many(items(), key="resolution:g:6")
    dropped.discard()
    assert outbox.queued_under("resolution:g:6") is None
    assert sorted(p.name for p in (tmp_path / "outbox" / "pending").iterdir()) == [
        f"{batch.ids[0]}.batch"], "no temporary file left"


def test_queue_many_is_idempotent_by_its_key(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    first = outbox.queue_many(items(), key="resolution:g:5")
    assert outbox.queue_many(items(), key="resolution:g:5") == first  # fresh Message-IDs: ignored
    assert outbox.queued_under("resolution:g:5") == first
    assert len(outbox.pending()) == 3
    outbox.deliver(FileTransport(tmp_path / "mail"), NOW)
    assert outbox.queue_many(items(), key="resolution:g:5") == first  # also once sent
    assert outbox.queued_under("resolution:g:6") is None


@pytest.mark.parametrize("stage", ["batch-written", "batch-keyed"])
def test_crash_while_queueing_leaves_nothing_queued_and_a_rerun_queues_once(
        tmp_path: Path, stage: str) -> None:
    outbox = Outbox(tmp_path / "outbox")
    with pytest.raises(Crash):
        outbox.queue_many(items(), key="resolution:g:5", on_stage=crash_at(stage))
    assert outbox.pending() == [] and outbox.queued_under("resolution:g:5") is None
    ids = outbox.queue_many(items(), key="resolution:g:5")
    assert [e.id for e in outbox.pending()] == ids
    transport = Recorder()
    outbox.deliver(transport, NOW)
    assert len(transport.sent) == 3


def test_items_queued_singly_are_not_queued_again_in_a_batch(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    old = outbox.queue(report(0, "p0@players.example"), key="report:0")
    ids = outbox.queue_many(items(), key="resolution:g:5")
    assert len(ids) == 2 and old not in ids
    transport = Recorder()
    outbox.deliver(transport, NOW)
    assert len(transport.sent) == 3


def test_crash_after_a_record_never_resends(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    ids = outbox.queue_many(items(), key="k")
    transport = Recorder()
    with pytest.raises(Crash):
        outbox.deliver(transport, NOW, on_stage=crash_at("recorded"))
    assert outbox.state(ids[0]) == "sent" and len(transport.sent) == 1
    assert Outbox(tmp_path / "outbox").deliver(transport, NOW).sent == ids[1:]
    assert len(transport.sent) == 3 and len(set(transport.sent)) == 3


def test_crash_between_acceptance_and_record_resends_that_message_identically(
        tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    ids = outbox.queue_many(items(), key="k")
    transport = Recorder()
    with pytest.raises(Crash):
        outbox.deliver(transport, NOW, on_stage=crash_at("accepted"))
    assert outbox.state(ids[0]) == "pending"
    assert Outbox(tmp_path / "outbox").deliver(transport, NOW).sent == ids
    assert transport.sent[0] == transport.sent[1] == outbox.raw(ids[0])
    assert len(transport.sent) == 4


def test_a_torn_record_counts_as_not_recorded(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    ids = outbox.queue_many(items(2), key="k")
    (batch,) = (tmp_path / "outbox" / "pending").glob("*.batch")
    with open(batch, "ab") as fh:  # a crash inside the append of the first message's record
        fh.write(json.dumps({"id": ids[0], "reply": "250"}).encode()[:-3])
    transport = Recorder()
    assert outbox.deliver(transport, NOW).sent == ids
    assert [outbox.state(i) for i in ids] == ["sent", "sent"]
    lines = batch.parent.parent.joinpath("sent", batch.name).read_bytes().split(b"\n")
    assert lines[-1] == b""  # every record ends its line


def test_permanent_failure_of_one_message_then_retry(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    ids = outbox.queue_many(items(), key="k")
    transport = Recorder({2: PermanentFailure("550 no such user", 550)})
    result = outbox.deliver(transport, NOW)
    assert result.failed == [ids[1]] and result.sent == [ids[0], ids[2]]
    (failed,) = outbox.failed()
    assert failed.id == ids[1] and failed.code == 550
    assert outbox.raw(ids[1]) == (tmp_path / "outbox" / "failed" / f"{ids[1]}.eml").read_bytes()
    again = outbox.retry_failed(ids[1])
    assert outbox.failed() == [] and outbox.state(ids[1]) == "failed"
    assert outbox.deliver(transport, NOW).sent == [again]
    assert transport.sent[-1] == outbox.raw(ids[1]) == outbox.raw(again)
    assert outbox.pending() == [] and outbox.state(again) == "sent"
    assert outbox.retry_failed(ids[1]) == again and outbox.deliver(transport, NOW).sent == []


def test_temporary_failure_of_one_message_waits_then_goes_out(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    ids = outbox.queue_many(items(), key="k")
    transport = Recorder({1: TemporaryFailure("451 later", 451)})
    result = outbox.deliver(transport, NOW)
    assert result.deferred == [ids[0]] and result.sent == ids[1:]
    (entry,) = outbox.pending()
    assert entry.attempts == 1 and entry.next_try == NOW + timedelta(minutes=1)
    assert outbox.deliver(transport, NOW).waiting == [ids[0]]
    assert outbox.deliver(transport, NOW + timedelta(minutes=1)).sent == [ids[0]]
    assert outbox.pending() == [] and not list((tmp_path / "outbox" / "pending").iterdir())
    assert len(transport.sent) == 3


def test_a_batch_this_outbox_queued_is_read_again_once_another_recorded_in_it(
        tmp_path: Path) -> None:
    """The outbox that queued a batch delivers it from the bytes it wrote only while the file
    is the one it placed: once another delivery (another process, a crash's rerun) has
    appended records to it, the file is read again, and what it records sent is never sent
    again; a batch retired meanwhile is not delivered at all."""
    queuer = Outbox(tmp_path / "outbox")
    ids = queuer.queue_many(items(), key="k")
    other = Recorder({2: TemporaryFailure("451 later", 451)})
    assert Outbox(tmp_path / "outbox").deliver(other, NOW).sent == [ids[0], ids[2]]
    mail = FileTransport(tmp_path / "mail")
    result = queuer.deliver(mail, NOW + timedelta(minutes=1))
    assert result.sent == [ids[1]] and queuer.pending() == []
    assert [f.read_bytes() for f in (tmp_path / "mail").iterdir()] == [queuer.raw(ids[1])]
    again = Outbox(tmp_path / "outbox")
    second = again.queue_many(items(2), key="k2")
    Outbox(tmp_path / "outbox").deliver(Recorder(), NOW)  # all of it sent, the batch retired
    assert again.deliver(mail, NOW).sent == [] and again.state(second[0]) == "sent"
    assert len(list((tmp_path / "mail").iterdir())) == 1


def test_batched_bytes_parse_as_the_messages_queued(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    batch = items(2)
    ids = outbox.queue_many(batch, key="k")
    for ident, (_, msg) in zip(ids, batch, strict=True):
        parsed = email.message_from_bytes(outbox.raw(ident), policy=policy.default)
        assert parsed["Subject"] == msg["Subject"] and parsed["To"] == msg["To"]
    assert os.stat(next((tmp_path / "outbox" / "pending").glob("*.batch"))).st_mode & 0o077 == 0


def test_a_damaged_batch_is_reported_never_skipped(tmp_path: Path) -> None:
    from pbem.mail.outbox import BatchDamaged

    outbox = Outbox(tmp_path / "outbox")
    outbox.queue_many(items(), key="k")
    (batch,) = (tmp_path / "outbox" / "pending").glob("*.batch")
    data = batch.read_bytes()
    os.truncate(batch, len(data) // 2)
    with pytest.raises(BatchDamaged, match="damaged outbox batch"):
        outbox.deliver(Recorder(), NOW)


def test_item_keys_find_their_own_message_through_links_to_the_batch(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    ids = outbox.queue_many(items(), key="ingest-batch:g:1", index_items=True)
    assert [outbox.queued_under(f"report:{n}") for n in range(3)] == [[i] for i in ids]
    assert outbox.queued_under("ingest-batch:g:1") == ids
    assert outbox.queued_under("report:9") is None
    # One file: each item key is a hard link to the batch (no file of its own per message).
    keys = list((tmp_path / "outbox" / "keys").iterdir())
    assert len(keys) == 4 and len({k.stat().st_ino for k in keys}) == 1
    assert keys[0].stat().st_nlink == 5  # pending/<b>.batch and the four keys
    # A second batch does not queue an item again, and queue() finds it too.
    again = outbox.queue_many(items(4), key="ingest-batch:g:2", index_items=True)
    assert len(again) == 1 and outbox.queued_under("report:3") == again
    assert outbox.queue(report(1, "p1@players.example"), key="report:1") == ids[1]
    outbox.deliver(FileTransport(tmp_path / "mail"), NOW)
    assert [outbox.queued_under(f"report:{n}") for n in range(3)] == [[i] for i in ids]


@pytest.mark.parametrize("stage", ["batch-written", "batch-keyed"])
def test_a_crash_while_queueing_leaves_no_item_key_counted(tmp_path: Path, stage: str) -> None:
    outbox = Outbox(tmp_path / "outbox")
    with pytest.raises(Crash):
        outbox.queue_many(items(), key="ingest-batch:g:1", on_stage=crash_at(stage),
                          index_items=True)
    assert [outbox.queued_under(f"report:{n}") for n in range(3)] == [None] * 3
    ids = outbox.queue_many(items(), key="ingest-batch:g:1", index_items=True)
    assert [outbox.queued_under(f"report:{n}") for n in range(3)] == [[i] for i in ids]


def test_a_message_queued_alone_is_a_batch_of_one(tmp_path: Path) -> None:
    """``queue`` writes the one format: a batch of one message (its id the batch's), its key a
    hard link to it; without a key, no key file. Nothing else is written in pending/."""
    outbox = Outbox(tmp_path / "outbox")
    keyed = outbox.queue(report(1), key="receipt:1")
    alone = outbox.queue(report(2))
    names = sorted(p.name for p in outbox.pending_dir.iterdir())
    assert names == sorted([f"{keyed}.batch", f"{alone}.batch"])
    (key_file,) = outbox.keys_dir.iterdir()
    assert key_file.stat().st_ino == (outbox.pending_dir / f"{keyed}.batch").stat().st_ino
    assert outbox.queued_under("receipt:1") == [keyed]
    assert outbox.queue(report(3), key="receipt:1") == keyed
    assert [e.id for e in outbox.pending()] == [keyed, alone]
    transport = Recorder()
    assert outbox.deliver(transport, NOW).sent == [keyed, alone]
    assert not list(outbox.pending_dir.iterdir())
    assert [outbox.state(i) for i in (keyed, alone)] == ["sent", "sent"]
    assert [e.id for e in outbox.sent()] == [keyed, alone]
    assert outbox.queued_under("receipt:1") == [keyed]


def test_a_batch_whose_key_was_not_made_durable_is_found_by_its_header(tmp_path: Path) -> None:
    """``queue_many(durable_key=False)``: two fsyncs, the key linked but its directory not
    synced. Were the link lost (a power cut), ``queued_under`` says nothing is queued, and
    ``find_queued`` finds the batch by its header, in pending/ or, delivered, in sent/, and
    links the key again."""
    outbox = Outbox(tmp_path / "outbox")
    ids = outbox.queue_many(items(), key="resolution:g:5", durable_key=False)
    for deliver in (False, True):
        if deliver:
            assert outbox.deliver(Recorder(), NOW).sent == ids
        outbox._key_path("resolution:g:5").unlink()
        assert outbox.queued_under("resolution:g:5") is None
        assert outbox.find_queued("resolution:g:5") == ids
        assert outbox.queued_under("resolution:g:5") == ids
        assert outbox.queue_many(items(), key="resolution:g:5") == ids
    assert outbox.find_queued("resolution:g:6") is None
