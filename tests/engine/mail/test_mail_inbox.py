"""The inbox store: durable before acting, duplicates handled once, quarantine keeps everything."""

from __future__ import annotations

import hashlib
from pathlib import Path

from pbem.mail.inbox import Inbox, duplicate_key

MSG = (
    b"From: vega@players.example\r\nTo: referee@pbem.example\r\nSubject: orders\r\n"
    b"Message-ID: <m1@players.example>\r\n\r\nbody\r\n"
)


def test_store_writes_the_exact_bytes_named_by_sha256(tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    stored = inbox.store(MSG)
    assert stored.sha256 == hashlib.sha256(MSG).hexdigest()
    assert stored.path == tmp_path / "inbox" / f"{stored.sha256}.eml"
    assert stored.path.read_bytes() == MSG
    assert stored.fresh and stored.handled is None and not stored.duplicate
    assert stored.message_id == "<m1@players.example>"
    assert not any(p.name.startswith(".") for p in stored.path.parent.iterdir())


def test_same_message_twice_is_handled_once(tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    first = inbox.store(MSG)
    inbox.done(first, "accepted", game="demo-1")
    again = inbox.store(MSG)
    assert again.duplicate and again.handled == {
        "sha256": first.sha256,
        "message_id": "<m1@players.example>",
        "outcome": "accepted",
        "game": "demo-1",
    }
    inbox.done(again, "accepted twice?")  # a duplicate keeps its first record
    assert inbox.outcome(first.sha256)["outcome"] == "accepted"


def test_redelivery_with_other_trace_headers_is_a_duplicate(tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    inbox.done(inbox.store(MSG), "accepted")
    redelivered = b"Received: from mx2 by mx3; Tue, 1 Dec 2026\r\nDelivered-To: x\r\n" + MSG
    stored = inbox.store(redelivered)
    assert stored.duplicate
    assert stored.sha256 == hashlib.sha256(MSG).hexdigest()  # the first copy


def test_reused_message_id_with_other_body_is_not_a_duplicate(tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    inbox.done(inbox.store(MSG), "accepted")
    other = MSG.replace(b"body", b"other orders")
    stored = inbox.store(other)
    assert not stored.duplicate and stored.fresh
    assert duplicate_key(other)[0] != duplicate_key(MSG)[0]


def test_without_message_id_only_identical_bytes_are_duplicates(tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    bare = b"From: a@b.example\r\n\r\nhello\r\n"
    inbox.done(inbox.store(bare), "ignored")
    assert inbox.store(bare).duplicate
    assert not inbox.store(b"X-Trace: 1\r\n" + bare).duplicate


def test_crash_after_store_before_done_handles_it_on_the_rerun(tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    first = inbox.store(MSG)
    # ... crash: no done record, the source was never acked, so the message comes again.
    assert [s.sha256 for s in Inbox(tmp_path).pending()] == [first.sha256]
    again = Inbox(tmp_path).store(MSG)
    assert again.handled is None and not again.fresh and again.sha256 == first.sha256
    Inbox(tmp_path).done(again, "accepted")
    assert Inbox(tmp_path).pending() == []


def test_quarantine_moves_with_reason_and_nothing_vanishes(tmp_path: Path) -> None:
    inbox = Inbox(tmp_path)
    stored = inbox.store(MSG)
    target = inbox.quarantine(stored, "the message is 20,971,520 bytes;\nover the cap")
    assert target == tmp_path / "quarantine" / f"{stored.sha256}.eml"
    assert target.read_bytes() == MSG and not stored.path.exists()
    assert inbox.quarantined() == [(stored.sha256, "the message is 20,971,520 bytes; over the cap")]
    assert inbox.read(stored) == MSG
    assert inbox.outcome(stored.sha256)["outcome"] == "quarantined"
    redelivered = inbox.store(MSG)  # a redelivery of a quarantined message is a duplicate
    assert redelivered.duplicate and redelivered.path == target
    assert inbox.pending() == []
