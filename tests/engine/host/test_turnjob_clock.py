"""Deadlines, grace, early processing and reminders with the real clock frozen (freezegun):
``pbem run`` without --now reads the time, in both turn modes and with a weekday schedule."""

from __future__ import annotations

import pytest
from freezegun import freeze_time

from pbem.cli.main import main as pbem
from tests.support.pbem_host import Host, at


def run_at(host: Host, when: str) -> None:
    with freeze_time(when):
        assert pbem(["run", str(host.root)]) == 0


def reminders(host: Host) -> list[str]:
    return sorted(str(m["To"]) for m in host.sent()
                  if "due" in str(m["Subject"]).lower() or "remind" in str(m["Subject"]).lower())


def resolved(host: Host) -> int:
    return len(host.entries("resolve"))


@pytest.mark.parametrize("mode", ["simultaneous", "sequential"])
def test_deadline_grace_and_reminders_follow_the_clock(tmp_path, mode):
    host = Host(tmp_path, extra=["--deadline", "48h", "--mode", mode])
    config = (host.path / "config.yaml").read_text()
    assert "grace: 0h" in config
    (host.path / "config.yaml").write_text(config.replace("grace: 0h", "grace: 2h"))
    due = list(host.state()["slots"][0]) if mode == "sequential" else list(host.powers)
    run_at(host, "2026-12-01T12:00:00Z")          # day one: nothing to do
    assert resolved(host) == 0 and not reminders(host)
    run_at(host, "2026-12-02T01:00:00Z")          # 23 h left: inside the 24 h reminder window
    assert reminders(host) == sorted(f"{p}@example.org" for p in due)
    run_at(host, "2026-12-02T02:00:00Z")          # again: no second reminder
    assert len(reminders(host)) == len(due)
    run_at(host, "2026-12-03T01:00:00Z")          # deadline passed, grace (2 h) running
    assert resolved(host) == 0
    run_at(host, "2026-12-03T02:00:01Z")          # grace over: standing orders for the missing
    assert resolved(host) == 1
    used = host.entries("resolve")[0].body["used"]
    assert set(used) == set(due) and all(sha is None for sha in used.values())


def test_early_processing_when_all_orders_are_in(tmp_path):
    host = Host(tmp_path, extra=["--deadline", "48h"])
    for power in host.powers:
        host.submit(power, {}, at(1))
    run_at(host, "2026-12-01T02:00:00Z")
    assert resolved(host) == 1
    assert host.entries("resolve")[0].body["deadline"] == "2026-12-03T02:00:00Z"


def test_early_processing_off_waits_for_the_deadline(tmp_path):
    host = Host(tmp_path, extra=["--deadline", "48h"])
    config = (host.path / "config.yaml").read_text()
    assert "early: true" in config
    (host.path / "config.yaml").write_text(config.replace("early: true", "early: false"))
    for power in host.powers:
        host.submit(power, {}, at(1))
    run_at(host, "2026-12-02T12:00:00Z")
    assert resolved(host) == 0
    run_at(host, "2026-12-03T00:00:00Z")
    assert resolved(host) == 1


def test_weekday_schedule_in_a_time_zone_across_dst(tmp_path):
    """Deadlines on Mondays and Thursdays at 18:00 Paris time: stored in UTC, 17:00 UTC in
    winter."""
    host = Host(tmp_path, extra=["--weekdays", "mon,thu", "--hour", "18:00",
                                 "--tz", "Europe/Paris"])
    genesis = host.entries("genesis")[0].body
    assert genesis["deadline"] == "2026-12-03T17:00:00Z"  # Thursday 3 Dec, 18:00 CET
    run_at(host, "2026-12-03T17:00:01Z")
    body = host.entries("resolve")[0].body
    assert body["deadline"] == "2026-12-07T17:00:00Z"  # next Monday
