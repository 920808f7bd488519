"""The hash-chained log on real files: every kind of damage is named by line and seq."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pbem import canonical
from pbem.store import log as glog
from tests.support.workcount import calls

T0 = "2026-11-30T17:00:00Z"


def build(path, n=10):
    g = glog.GameLog.create(path, T0, {"game": "andromeda-7"})
    for i in range(1, n):
        g.append("orders" if i % 2 else "resolve", T0, {"turn": i, "text": f"orders {i}"})
    return g


def lines(path):
    return path.read_bytes().split(b"\n")[:-1]


def write_lines(path, items):
    path.write_bytes(b"".join(x + b"\n" for x in items))


@pytest.fixture
def logfile(tmp_path):
    path = tmp_path / "log.jsonl"
    build(path)
    return path


def test_genesis_and_hash_definition(tmp_path):
    path = tmp_path / "log.jsonl"
    g = glog.GameLog.create(path, datetime(2026, 11, 30, 17, tzinfo=UTC), {"a": 1})
    e = g.genesis
    assert (e.seq, e.prev, e.kind, e.time) == (0, "0" * 64, "genesis", T0)
    preimage = b"pbem-log-v1\0" + canonical.encode(
        {"seq": 0, "prev": "0" * 64, "kind": "genesis", "time": T0, "body": {"a": 1}}
    )
    assert e.hash == hashlib.sha256(preimage).hexdigest()
    assert path.read_bytes() == canonical.encode({**e.unhashed(), "hash": e.hash}) + b"\n"
    assert g.head == (1, e.hash)


def test_append_then_reload_verifies(logfile):
    g = glog.GameLog.load(logfile)
    assert len(g) == 10 and g.head.length == 10
    entry = g.append("resolve", T0, {"turn": 10})
    assert entry.seq == 10 and entry.prev == g[9].hash
    again = glog.GameLog.load(logfile)
    assert again.head == g.head and again[10].body == {"turn": 10}


def test_create_refuses_existing_log(logfile):
    with pytest.raises(glog.PbemError):
        glog.GameLog.create(logfile, T0, {"other": True})


def test_time_is_given_not_read(tmp_path):
    g = glog.GameLog.create(tmp_path / "l", T0, {})
    with pytest.raises(glog.PbemError, match="ISO-8601 UTC"):
        g.append("resolve", "2026-11-30 17:00", {})
    with pytest.raises(glog.PbemError, match="genesis"):
        g.append("genesis", T0, {})


def test_flipped_byte_is_named(logfile):
    raw = bytearray(logfile.read_bytes())
    offset = sum(len(x) + 1 for x in lines(logfile)[:4]) + 12  # inside line 5 (seq 4)
    raw[offset] ^= 0x01
    logfile.write_bytes(bytes(raw))
    with pytest.raises(glog.LogError, match=r"line 5") as info:
        glog.GameLog.load(logfile)
    assert info.value.line == 5


def test_every_single_byte_flip_is_detected(logfile):
    original = logfile.read_bytes()
    for pos in range(0, len(original), 7):
        raw = bytearray(original)
        raw[pos] = (raw[pos] + 1) % 256 if raw[pos] != 0x0A - 1 else 0x41
        logfile.write_bytes(bytes(raw))
        with pytest.raises(glog.LogError):
            glog.GameLog.load(logfile)


def test_altered_content_reports_hash_mismatch(logfile):
    items = lines(logfile)
    obj = json.loads(items[3])
    obj["body"]["text"] = "orders forged"
    items[3] = canonical.encode(obj)
    write_lines(logfile, items)
    with pytest.raises(glog.CorruptEntry, match=r"line 4 \(seq 3\): content does not match"):
        glog.GameLog.load(logfile)


def test_non_canonical_line_is_rejected(logfile):
    items = lines(logfile)
    items[2] = json.dumps(json.loads(items[2])).encode()  # same content, spaces added
    write_lines(logfile, items)
    with pytest.raises(glog.CorruptEntry, match=r"line 3 \(seq 2\): .*canonical"):
        glog.GameLog.load(logfile)


def test_rehashed_entry_breaks_the_chain(logfile):
    """A forger who recomputes the altered entry's hash still breaks the next entry's prev."""
    items = lines(logfile)
    obj = json.loads(items[3])
    obj["body"]["text"] = "forged"
    obj["hash"] = glog.entry_hash(obj["seq"], obj["prev"], obj["kind"], obj["time"], obj["body"])
    items[3] = canonical.encode(obj)
    write_lines(logfile, items)
    with pytest.raises(glog.BrokenChain, match=r"line 5 \(seq 4\): prev is .* chain is broken"):
        glog.GameLog.load(logfile)


def test_deleted_entry(logfile):
    items = lines(logfile)
    del items[4]
    write_lines(logfile, items)
    with pytest.raises(glog.BrokenChain, match=r"line 5 \(seq 5\): expected seq 4, found seq 5"):
        glog.GameLog.load(logfile)


def test_duplicated_entry(logfile):
    items = lines(logfile)
    items.insert(5, items[4])
    write_lines(logfile, items)
    with pytest.raises(glog.BrokenChain, match=r"line 6 \(seq 4\): duplicate of line 5"):
        glog.GameLog.load(logfile)


def test_reordered_entries(logfile):
    items = lines(logfile)
    items[3], items[6] = items[6], items[3]
    write_lines(logfile, items)
    with pytest.raises(glog.BrokenChain, match=r"line 4 \(seq 6\): expected seq 3, found seq 6"):
        glog.GameLog.load(logfile)


def test_wrong_fields_and_not_json(logfile):
    items = lines(logfile)
    write_lines(logfile, [*items[:2], b"garbage", *items[3:]])
    with pytest.raises(glog.CorruptEntry, match="line 3: not valid JSON"):
        glog.GameLog.load(logfile)
    obj = json.loads(items[2])
    obj["extra"] = 1
    write_lines(logfile, [*items[:2], canonical.encode(obj), *items[3:]])
    with pytest.raises(
        glog.CorruptEntry, match=r"line 3 \(seq 2\): wrong fields: missing \[\], unexpected"
    ):
        glog.GameLog.load(logfile)


def test_empty_log_and_missing_genesis(tmp_path, logfile):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(glog.CorruptEntry, match="empty"):
        glog.GameLog.load(empty)
    write_lines(logfile, lines(logfile)[1:])
    with pytest.raises(glog.BrokenChain, match="expected seq 0, found seq 1"):
        glog.GameLog.load(logfile)


def test_torn_tail_is_reported_then_repaired(logfile):
    good = logfile.read_bytes()
    g = glog.GameLog.load(logfile)
    torn = g[9].line()[:-1]  # pretend an append of a copy of seq 9's line stopped early
    logfile.write_bytes(good + torn[:57])
    with pytest.raises(glog.TornTail, match=r"line 11: the last line is incomplete \(57 bytes"):
        glog.GameLog.load(logfile)
    assert glog.repair_torn_tail(logfile) == torn[:57]
    assert logfile.read_bytes() == good
    assert glog.repair_torn_tail(logfile) == b""  # nothing else is ever dropped
    glog.GameLog.load(logfile).append("resolve", T0, {"after": "repair"})
    assert len(glog.GameLog.load(logfile)) == 11


def test_repair_never_drops_a_complete_damaged_line(logfile):
    items = lines(logfile)
    items[-1] = b"garbage"
    write_lines(logfile, items)
    assert glog.repair_torn_tail(logfile) == b""
    with pytest.raises(glog.CorruptEntry, match="line 10"):
        glog.GameLog.load(logfile)


def test_append_refuses_when_file_changed_underneath(logfile):
    a = glog.GameLog.load(logfile)
    b = glog.GameLog.load(logfile)
    a.append("resolve", T0, {"by": "a"})
    with pytest.raises(glog.LogChanged, match="changed since it was read"):
        b.append("resolve", T0, {"by": "b"})
    assert len(glog.GameLog.load(logfile)) == 11


def _bench_log(path: Path, turns: int) -> None:
    g = glog.GameLog.create(path, T0, {"game": "bench"})
    order = {"power": "algol", "turn": 1, "seq": 1, "signed_text": "x" * 1500, "sha256": "a" * 64}
    entries = [g.genesis]
    for turn in range(turns):
        entries.append(
            glog.make_entry(
                entries[-1],
                "resolve",
                T0,
                {"turn": turn, "events": [{"battle": i} for i in range(10)]},
            )
        )
        for _ in range(4):
            entries.append(glog.make_entry(entries[-1], "orders", T0, order))
    path.write_bytes(b"".join(e.line() for e in entries))


def test_verifying_a_log_is_linear_in_its_entries(tmp_path):
    """200 turns x (1 resolve + 4 orders) take twice the work of 100 turns, counted in function
    calls (deterministic, unlike a clock): verification is linear, never quadratic."""
    work = {}
    for turns in (100, 200):
        path = tmp_path / f"log-{turns}.jsonl"
        _bench_log(path, turns)
        loaded, work[turns] = calls(lambda path=path: glog.GameLog.load(path))
        assert len(loaded) == 5 * turns + 1
    assert work[200] <= 2.1 * work[100], work
