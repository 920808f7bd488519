"""The submission archive: every submission kept, never overwritten, the right one accepted."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from pbem.atomic import FileExists
from pbem.errors import Problem
from pbem.store.submissions import SubmissionError, SubmissionStore

T = datetime(2026, 11, 30, 17, 0, 5, tzinfo=UTC)


@pytest.fixture
def store(tmp_path):
    return SubmissionStore(tmp_path)


def test_record_layout_and_sidecar(store, tmp_path):
    sub = store.record(
        turn=7,
        power="algol",
        data=b"orders v1\n",
        received=T,
        message_id="<m1@example.org>",
        verdict="accepted",
        seq=1,
    )
    directory = tmp_path / "submissions" / "turn-0007" / "algol"
    assert sub.path == directory / f"20261130T170005Z-{sub.sha256[:12]}.txt"
    assert sub.path.read_bytes() == b"orders v1\n"
    meta = json.loads(sub.path.with_suffix(".json").read_text())
    assert meta == {
        "file": sub.path.name,
        "message_id": "<m1@example.org>",
        "power": "algol",
        "problems": [],
        "received": "2026-11-30T17:00:05Z",
        "seq": 1,
        "sha256": sub.sha256,
        "turn": 7,
        "verdict": "accepted",
    }
    assert (directory / "ACCEPTED").read_text() == sub.path.name + "\n"


def test_latest_accepted_seq_wins_and_rejections_are_kept(store, tmp_path):
    a1 = store.record(turn=3, power="algol", data=b"seq 1", received=T, verdict="accepted", seq=1)
    a2 = store.record(
        turn=3,
        power="algol",
        data=b"seq 2",
        received=T + timedelta(hours=1),
        verdict="accepted",
        seq=2,
    )
    old = store.record(
        turn=3,
        power="algol",
        data=b"seq 1 resent",
        verdict="accepted",
        seq=1,
        received=T + timedelta(hours=2),
    )  # arrived last, but an older seq
    bad = store.record(
        turn=3,
        power="algol",
        data=b"nonsense",
        received=T + timedelta(hours=3),
        verdict="rejected",
        problems=[
            Problem("bad-star", "orders.depart[0].to", "no star 'Vgea'"),
            "signature does not verify",
        ],
    )
    pavo = store.record(turn=3, power="pavo", data=b"pavo", received=T, verdict="accepted", seq=5)
    listed = store.list(3)
    assert [s.name for s in listed] == [
        s.name for s in sorted([a1, a2, old, bad, pavo], key=lambda s: (s.received, s.power))
    ]
    assert store.accepted(3) == {"algol": a2, "pavo": pavo}
    assert (tmp_path / "submissions/turn-0003/algol/ACCEPTED").read_text() == a2.path.name + "\n"
    assert bad.verdict == "rejected" and bad.problems[0].path == "orders.depart[0].to"
    assert bad.problems[1].message == "signature does not verify"
    assert store.list(3, "pavo") == [pavo] and store.list(4) == [] and store.turns() == [3]


def test_same_bytes_same_second_is_idempotent_never_overwritten(store):
    first = store.record(turn=1, power="regulus", data=b"x", received=T, verdict="accepted", seq=1)
    again = store.record(turn=1, power="regulus", data=b"x", received=T, verdict="accepted", seq=1)
    assert again == first and len(store.list(1)) == 1
    with pytest.raises(SubmissionError, match="a different verdict is recorded already"):
        store.record(
            turn=1, power="regulus", data=b"x", received=T, verdict="rejected", problems=["late"]
        )
    later = store.record(
        turn=1,
        power="regulus",
        data=b"x",
        received=T + timedelta(seconds=1),
        verdict="accepted",
        seq=1,
    )
    assert later.name != first.name and len(store.list(1)) == 2


def test_crash_between_bytes_and_verdict(store, tmp_path):
    """The .txt is written first: a crash before the sidecar leaves a submission without verdict,
    which is listed (never lost) and completed by recording it again."""
    directory = tmp_path / "submissions" / "turn-0002" / "pavo"
    directory.mkdir(parents=True)
    sub = store.record(turn=2, power="pavo", data=b"orders", received=T, verdict="accepted", seq=4)
    sub.path.with_suffix(".json").unlink()
    (pending,) = store.list(2)
    assert pending.verdict is None and pending.sha256 == sub.sha256 and store.accepted(2) == {}
    assert (
        store.record(turn=2, power="pavo", data=b"orders", received=T, verdict="accepted", seq=4)
        == sub
    )


def test_bad_input(store):
    with pytest.raises(SubmissionError, match="verdict"):
        store.record(turn=1, power="algol", data=b"", received=T, verdict="maybe")
    with pytest.raises(SubmissionError, match="power"):
        store.record(turn=1, power="../etc", data=b"", received=T, verdict="rejected")
    with pytest.raises(SubmissionError, match="turn"):
        store.record(turn=-1, power="algol", data=b"", received=T, verdict="rejected")
    with pytest.raises(SubmissionError, match="cannot carry problems"):
        store.record(
            turn=1, power="algol", data=b"", received=T, verdict="accepted", problems=["x"]
        )


def test_damaged_txt_collision_refused(store):
    sub = store.record(
        turn=1, power="algol", data=b"a", received=T, verdict="rejected", problems=["x"]
    )
    sub.path.write_bytes(b"tampered")
    with pytest.raises(FileExists):
        store.record(
            turn=1, power="algol", data=b"a", received=T, verdict="rejected", problems=["x"]
        )
