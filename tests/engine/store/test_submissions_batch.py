"""Submissions recorded by a batch (ingest's group commit): the new names are synced once by
``sync()``, the ACCEPTED pointer is decided against the one it names (not by reading every
sidecar of the power) and written once per power, and a missing or damaged pointer is rebuilt
from the sidecars."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pbem.store.submissions import MARKER, SubmissionStore

T = datetime(2026, 11, 30, 17, 0, 5, tzinfo=UTC)


def record(store: SubmissionStore, n: int, seq: int, *, verdict: str = "accepted",
           sync_dir: bool = False):
    return store.record(turn=3, power="algol", data=f"orders {n}\n".encode(),
                        received=T + timedelta(seconds=n), verdict=verdict, seq=seq,
                        problems=[] if verdict == "accepted" else ["bad"], sync_dir=sync_dir)


def test_a_batch_leaves_its_directories_and_pointer_to_sync(tmp_path):
    store = SubmissionStore(tmp_path)
    first = record(store, 1, 1)
    power_dir = first.path.parent
    # The new directories' parents and the power's directory wait for sync(); so does the
    # pointer, which the batch already decided in memory.
    assert power_dir in store.unsynced and tmp_path in store.unsynced
    assert not (power_dir / MARKER).exists()
    best = record(store, 2, 5)
    record(store, 3, 4)  # a lower seq later: does not stand
    record(store, 4, 9, verdict="rejected")
    store.sync()
    assert store.unsynced == set()
    assert (power_dir / MARKER).read_text().strip() == best.name + ".txt"
    assert store.accepted(3)["algol"] == best


def test_the_pointer_follows_the_rank_and_is_rebuilt_when_damaged(tmp_path):
    store = SubmissionStore(tmp_path)
    record(store, 1, 1, sync_dir=True)
    second = record(store, 2, 2, sync_dir=True)
    marker = second.path.parent / MARKER
    assert marker.read_text().strip() == second.name + ".txt"
    marker.write_text("not a submission\n")
    third = record(store, 3, 1, sync_dir=True)  # lower seq: the sidecars say `second` stands
    assert marker.read_text().strip() == second.name + ".txt"
    marker.unlink()
    fourth = record(store, 4, 7, sync_dir=True)
    assert marker.read_text().strip() == fourth.name + ".txt"
    assert store.accepted(3)["algol"] == fourth and third.seq == 1
