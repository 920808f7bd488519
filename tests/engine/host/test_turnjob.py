"""The cron job, end to end on a real game directory: resolution when due, standing orders for
missing powers, reminders, reruns doing nothing extra, sequential mode, damaged files."""

from __future__ import annotations

import json

from pbem.game import registry
from pbem.store import replay
from tests.support.pbem_host import Host, at


def all_submit(host: Host, when, **bodies):
    for power in host.powers:
        verdict = host.submit(power, bodies.get(power), when)
        assert verdict.verdict == "accepted", verdict.line()


def test_turn_resolves_once_when_all_orders_are_in(tmp_path):
    host = Host(tmp_path)
    all_submit(host, at(1), algol={"depart": host.depart("algol", "Algol", 5, "Hamal")})
    runs = host.run(at(2))
    assert runs[0].status == "resolved" and len(runs[0].resolved) == 1
    resolve = host.entries("resolve")
    assert len(resolve) == 1 and resolve[0].body["turn"] == 1
    assert all(sha for sha in resolve[0].body["used"].values()), "every power's orders used"
    assert host.state()["turn"] == 2
    reports = [m for m in host.sent() if "report" in str(m["Subject"]).lower()]
    assert {str(m["To"]) for m in reports} == {f"{p}@example.org" for p in host.powers}
    assert host.sent("gm@example.org"), "the game master gets the summary"
    before = len(host.sent())
    again = host.run(at(3))
    assert again[0].status == "waiting" and not again[0].resolved
    assert len(host.entries("resolve")) == 1 and len(host.sent()) == before


def test_deadline_passes_with_missing_orders_standing_orders_apply(tmp_path):
    host = Host(tmp_path)
    host.submit("algol", {"depart": host.depart("algol", "Algol", 5, "Hamal")}, at(1))
    assert host.run(at(10))[0].status == "waiting"
    runs = host.run(at(48.5))
    assert runs[0].status == "resolved"
    used = host.entries("resolve")[0].body["used"]
    assert used["algol"] and used["pavo"] is None and used["regulus"] is None
    missed = host.game().log.summary.missed_turns()
    assert missed["pavo"] == {"total": 1, "in_a_row": 1} and missed["algol"]["total"] == 0
    state = host.state()
    assert state["warps"]["algol"]["1"]["travelled"] == 1


def test_reminders_before_the_deadline_are_sent_once(tmp_path):
    host = Host(tmp_path)
    host.submit("algol", {}, at(1))
    host.run(at(23))  # 25 h before the deadline: too early
    assert not [m for m in host.sent() if "remind" in str(m["Subject"]).lower()]
    host.run(at(25))
    reminders = [m for m in host.sent() if "remind" in str(m["Subject"]).lower()
                 or "due" in str(m["Subject"]).lower()]
    assert {str(m["To"]) for m in reminders} == {"pavo@example.org", "antares@example.org",
                                                 "regulus@example.org"}
    host.run(at(26))
    again = [m for m in host.sent() if "remind" in str(m["Subject"]).lower()
             or "due" in str(m["Subject"]).lower()]
    assert len(again) == len(reminders)


def test_late_orders_for_a_resolved_turn_are_rejected_and_change_nothing(tmp_path):
    host = Host(tmp_path)
    all_submit(host, at(1))
    host.run(at(2))
    verdict = host.submit("algol", {"depart": host.depart("algol", "Algol", 3, "Hamal")},
                          at(3), turn=1)
    assert verdict.verdict == "rejected" and verdict.problems[0].code == "turn"
    assert len(host.entries("orders")) == 4


def test_lower_seq_after_a_higher_one_is_superseded_and_previous_orders_stand(tmp_path):
    """An older seq arriving after a newer one changes nothing (issue 27: superseded, not the
    player's error)."""
    host = Host(tmp_path)
    first = host.submit("algol", {"depart": host.depart("algol", "Algol", 5, "Hamal")}, at(1),
                        seq=5)
    assert first.verdict == "accepted"
    older = host.submit("algol", {}, at(2), seq=4)
    assert older.verdict == "superseded" and older.problems[0].code == "superseded"
    standing = host.game().log.summary.standing_orders()
    assert standing["algol"]["seq"] == 5


def test_sequential_mode_resolves_one_slot_at_a_time(tmp_path):
    host = Host(tmp_path, extra=["--deadline", "24h", "--mode", "sequential"])
    assert host.submit("pavo", {}, at(1)).verdict == "accepted"
    refused = host.submit("algol", {}, at(1))
    assert refused.verdict == "rejected" and refused.problems[0].code == "not-due"
    host.run(at(2))
    assert host.state()["slot"] == 1
    assert host.submit("antares", {}, at(3)).verdict == "accepted"
    host.run(at(4))
    assert host.state()["slot"] == 2 and len(host.entries("resolve")) == 2


def test_corrupted_state_cache_is_rebuilt_from_the_log(tmp_path):
    host = Host(tmp_path)
    all_submit(host, at(1))
    host.run(at(2))
    good = host.state()
    (host.path / "state.json").write_text('{"log_length": 3, "head": "x", "st')
    runs = host.run(at(3))
    assert any("rebuilt" in n for n in runs[0].notes)
    assert host.state() == good


def test_corrupted_log_stops_the_game_and_tells_the_game_master(tmp_path):
    host = Host(tmp_path)
    all_submit(host, at(1))
    log = host.path / "log.jsonl"
    lines = log.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"seq":1', b'"seq":7')
    log.write_bytes(b"\n".join(lines))
    runs = host.run(at(2))
    assert runs[0].status == "stopped"
    assert (host.path / "STOPPED").exists()
    gm = host.sent("gm@example.org")
    assert gm and "stopped" in str(gm[0]["Subject"])
    assert host.run(at(3))[0].status == "stopped", "never silently fixed"
    assert len(host.sent("gm@example.org")) == 1


def test_torn_last_log_line_is_dropped_and_the_turn_completes(tmp_path):
    host = Host(tmp_path)
    all_submit(host, at(1))
    with open(host.path / "log.jsonl", "ab") as fh:
        fh.write(b'{"seq":5,"prev":"ab')
    runs = host.run(at(2))
    assert runs[0].status == "resolved"
    assert len(host.entries("resolve")) == 1


def test_resolve_entry_records_state_digest_that_replay_reproduces(tmp_path):
    host = Host(tmp_path)
    all_submit(host, at(1), algol={"depart": host.depart("algol", "Algol", 5, "Hamal")})
    host.run(at(2))
    all_submit(host, at(3))
    host.run(at(4))
    game = host.game()
    plugin = registry.load("4000ad")
    state = replay.replay(plugin, game.log.entries, game.initial_state(plugin))
    assert state == host.state()
    assert state["stars"]["Hamal"]["ships"] == {"algol": 5}
    assert json.loads((host.path / "mailed.json").read_text())["seq"] == len(game.log) - 1


def test_welcome_mails_lost_by_a_crash_after_pbem_new_are_queued_by_the_next_run(tmp_path):
    import shutil

    host = Host(tmp_path)
    shutil.rmtree(host.path / "outbox")  # pbem new died after creating the game
    host.run(at(1))
    welcomes = [m for m in host.sent() if "welcome" in str(m["Subject"]).lower()]
    assert sorted(str(m["To"]) for m in welcomes) == sorted(f"{p}@example.org"
                                                            for p in host.powers)
    host.run(at(2))
    assert len([m for m in host.sent() if "welcome" in str(m["Subject"]).lower()]) == 4
