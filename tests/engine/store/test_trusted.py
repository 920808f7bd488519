"""The trusted point (pbem.store.trusted): a visit verifies only the log after it, and never
trusts it over the log — a tampered point falls back to the whole chain, a truncated log is
caught, and the idle hint lets an idle visit read one file while audit still checks everything."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path

import pytest

from pbem import canonical
from pbem.audit.verify import AuditFailure, audit_bytes
from pbem.store import trusted
from pbem.store.gamedir import GameDir
from pbem.store.log import CorruptEntry, GameLog, LogError
from tests.support.pbem_host import Host, at


def played(tmp_path: Path, turns: int = 4) -> Host:
    """A game resolved ``turns`` times on standing orders, with one power's orders in the log."""
    host = Host(tmp_path)
    host.submit("algol", {"depart": host.depart("algol", "Algol", 2, "Hamal")}, at(1))
    when = 49.0
    for _ in range(turns):
        [run] = host.run(at(when))
        assert run.status == "resolved", run.line()
        when += 49
    return host


def corrupt_line(path: Path, seq: int) -> None:
    """Change one character of entry ``seq`` in place (same length, same inode)."""
    data = bytearray(path.read_bytes())
    start = 0
    for _ in range(seq):
        start = data.index(b"\n", start) + 1
    at_time = data.index(b'"time":"', start) + len(b'"time":"') + 3
    data[at_time] = ord("9") if data[at_time] != ord("9") else ord("8")
    with open(path, "r+b") as fh:
        fh.write(bytes(data))


def age_config(host: Host) -> None:
    """Date config.yaml an hour back: a config changed within a second of a visit gets no idle
    hint (pbem.host.duelist.RACY_SECONDS), and these tests run faster than that."""
    config = host.path / "config.yaml"
    old = config.stat().st_mtime - 3600
    os.utime(config, (old, old))


def stored(host: Host) -> dict:
    """The trusted file's content, after its MAC line."""
    return json.loads((host.path / trusted.NAME).read_bytes().partition(b"\n")[2])


def write_with_mac(host: Host, data: dict, mac: bytes | None = None) -> None:
    """Write a changed trusted file under the real key's MAC (a point that passes its MAC but
    does not fit the log), or under ``mac``."""
    key = trusted.mac_key(host.root)
    assert key is not None
    payload = canonical.encode(data)
    if mac is None:
        mac = hmac.new(key, host.path.name.encode() + b"\0" + payload, hashlib.sha256).digest()
    (host.path / trusted.NAME).write_bytes(mac.hex().encode() + b"\n" + payload)


def test_a_run_leaves_a_trusted_point_and_opening_from_it_gives_the_same_log(
        tmp_path: Path) -> None:
    host = played(tmp_path)
    point, _idle = trusted.read(host.path)
    assert point is not None and point.entries == len(host.entries())
    host.submit("pavo", {}, at(49 * 5))  # one entry after the point
    fast, whole = GameDir.open(host.path), GameDir.open(host.path, full=True)
    assert fast.log.head == whole.log.head and len(fast.log) == len(whole.log)
    assert fast.log.summary == whole.log.summary
    assert fast.registered_keys() == whole.registered_keys()
    assert list(fast.log.entries) == list(whole.log.entries)
    # the point measures the lines as read (fast) or as encoded again (whole): the same
    assert fast.log.trusted_point() == whole.log.trusted_point()
    fast.log.stage("note", at(49 * 5), {"n": "é" * 3})
    fast.log.commit()
    fast.log.append("note", at(49 * 5), {"n": 2})
    assert fast.log.trusted_point() == GameDir.open(host.path, full=True).log.trusted_point()


def test_a_point_that_fails_its_mac_falls_back_and_catches_an_earlier_corrupted_entry(
        tmp_path: Path) -> None:
    host = played(tmp_path)
    corrupt_line(host.path / "log.jsonl", 2)
    GameDir.open(host.path)  # from the point: entry 2 is below it and not read again
    old_mac = bytes.fromhex((host.path / trusted.NAME).read_bytes().partition(b"\n")[0].decode())
    data = stored(host)
    data["point"]["offset"] += 1  # changed, MAC not recomputed
    write_with_mac(host, data, old_mac)
    with pytest.raises(CorruptEntry, match=r"line 3 \(seq 2\)"):
        GameDir.open(host.path)
    data["point"]["offset"] -= 1
    write_with_mac(host, data, bytes(32))  # the right point under a wrong MAC
    with pytest.raises(CorruptEntry, match=r"line 3 \(seq 2\)"):
        GameDir.open(host.path)


@pytest.mark.parametrize("field", ["head", "offset", "genesis_hash", "last_start"])
def test_a_mac_valid_point_that_does_not_fit_the_log_falls_back_to_the_whole_chain(
        tmp_path: Path, field: str) -> None:
    host = played(tmp_path)
    corrupt_line(host.path / "log.jsonl", 3)
    data = stored(host)
    point = data["point"]
    if field in ("head", "genesis_hash"):
        point[field] = "f" * 64
    else:
        point[field] -= 7
    write_with_mac(host, data)
    with pytest.raises(CorruptEntry, match=r"\(seq 3\)"):
        GameDir.open(host.path)


def test_a_log_truncated_below_the_trusted_point_is_caught(tmp_path: Path) -> None:
    host = played(tmp_path)
    log = host.path / "log.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:-2]))  # a valid chain, two entries short
    GameLog.load(log)  # on its own the shorter chain verifies
    with pytest.raises(LogError, match="truncated: it has"):
        GameDir.open(host.path)
    [run] = host.run(at(49 * 5))
    assert run.status == "stopped" and "truncated" in run.line()


def test_a_rewritten_last_verified_line_is_caught(tmp_path: Path) -> None:
    host = played(tmp_path)
    count = len(host.entries())
    corrupt_line(host.path / "log.jsonl", count - 1)
    with pytest.raises(CorruptEntry, match=rf"\(seq {count - 1}\)"):
        GameDir.open(host.path)


def test_an_idle_visit_reads_the_hint_and_audit_still_checks_the_whole_chain(
        tmp_path: Path) -> None:
    host = played(tmp_path, turns=2)
    age_config(host)
    [run] = host.run(at(49 * 2 + 1))
    assert run.status == "waiting"
    _point, idle = trusted.read(host.path)
    assert idle is not None and idle["status"] == "waiting" and idle["until"] is not None
    log = host.path / "log.jsonl"
    before = os.stat(log)
    corrupt_line(log, 2)  # in place, and the mtime put back: the hint still holds
    os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns))
    [run] = host.run(at(49 * 2 + 2))
    assert run.status == "waiting" and not run.notes
    with pytest.raises(AuditFailure, match="seq 2"):
        audit_bytes(log.read_bytes(), str(log))
    with pytest.raises(CorruptEntry):
        GameDir.open(host.path, full=True)


def test_the_idle_hint_gives_way_to_new_orders_a_config_change_and_the_deadline(
        tmp_path: Path) -> None:
    host = played(tmp_path, turns=1)
    age_config(host)
    [run] = host.run(at(50))
    assert run.status == "waiting" and trusted.read(host.path)[1] is not None
    host.submit("algol", {}, at(51))  # the log grows: a full visit, the hint is rewritten
    [run] = host.run(at(52))
    assert run.status == "waiting"
    config = host.path / "config.yaml"
    config.write_text(config.read_text().replace("paused: false", "paused: true"))
    [run] = host.run(at(53))
    assert run.status == "paused"
    config.write_text(config.read_text().replace("paused: true", "paused: false"))
    age_config(host)
    [run] = host.run(at(54))
    assert run.status == "waiting"
    _point, idle = trusted.read(host.path)
    assert idle is not None
    [run] = host.run(at(49 + 49))  # past the deadline: the turn resolves
    assert run.status == "resolved"


def test_the_idle_hint_ends_at_half_way_for_a_long_reminder_window(tmp_path: Path) -> None:
    """Reminders wait for half the turn even when the reminder window is longer: the hint
    written before then must end there too, or the reminder would be missed."""
    host = Host(tmp_path)
    config = host.path / "config.yaml"
    text = config.read_text()
    assert "reminder: 1d" in text
    config.write_text(text.replace("reminder: 1d", "reminder: 40h"))
    age_config(host)
    host.submit("algol", {}, at(1))
    [run] = host.run(at(10))  # past the reminder time (8 h), before half the turn (24 h)
    assert run.status == "waiting"
    _point, idle = trusted.read(host.path)
    assert idle is not None and idle["until"] == "2026-12-02T00:00:00Z"
    [run] = host.run(at(25))
    assert run.queued == 3, run.line()  # the three powers without orders are reminded
