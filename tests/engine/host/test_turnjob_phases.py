"""``pbem run`` over several games at once, one durable barrier per phase across them
(docs/operations.md, "One barrier per phase"): every game's resolution is staged and its mail
written, then every log and every mail batch is fsynced at once, then every game's mail is
queued at once, then delivered. Killed (SIGKILL, a real process) in any phase at any game of
the group and run again, each game is resolved exactly once and each player gets his report
once."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from pbem.store.log import GameLog
from tests.support.pbem_host import Host, at

GAMES = ("g1", "g2", "g3")

# Each point at the first, a middle and the last game of the group to reach it (the log and
# queue phases run the games at once, so which game is the n-th is the file system's order).
POINTS = ["before-resolve-append#2", "resolution-batch-written#2", "after-resolve-append#1",
          "after-resolve-append#3", "after-state-write#2", "resolution-batch-synced#1",
          "resolution-batch-synced#3", "after-first-queue#1", "after-first-queue#3",
          "after-mailed-mark#2", "outbox-before-send#7", "outbox-recorded#2"]


def games(tmp_path: Path) -> list[Host]:
    """Three games under one root, each with every power's orders in."""
    hosts = [Host(tmp_path, game_id=gid) for gid in GAMES]
    for host in hosts:
        for power in host.powers:
            assert host.submit(power, {}, at(1)).verdict == "accepted"
    return hosts


def check(hosts: list[Host]) -> None:
    for host in hosts:
        log = GameLog.load(host.path / "log.jsonl")  # verifies the whole chain
        resolves = [e for e in log.entries if e.kind == "resolve"]
        assert len(resolves) == 1, f"{host.game_id}: resolved exactly once"
        assert all(resolves[0].body["used"].values()), "no accepted order lost"
        assert not list((host.path / "outbox" / "pending").iterdir()), "nothing left to send"
        assert not list(host.path.rglob(".*.tmp-*")), "no temporary file left"
    reports = Counter((str(m["To"]), str(m["Subject"]).split("]")[0])
                      for m in hosts[0].sent() if "report" in str(m["Subject"]).lower())
    assert set(reports.values()) == {1}, f"a report went out twice: {reports}"
    assert len(reports) == 4 * len(hosts), "every player's report of every game"


def test_one_run_resolves_and_mails_every_game_of_the_group(tmp_path):
    hosts = games(tmp_path)
    runs = hosts[0].run(at(49))
    assert [(r.game, r.status, len(r.resolved), r.queued) for r in runs] == [
        (gid, "resolved", 1, 5) for gid in GAMES]
    check(hosts)


@pytest.mark.parametrize("point", POINTS)
def test_killed_in_any_phase_then_rerun_each_game_resolves_once_and_mails_once(tmp_path,
                                                                             point):
    hosts = games(tmp_path)
    crashed = hosts[0].run_cli(at(49), env={"PBEM_CRASH_AT": point})
    assert crashed.returncode == -9, (crashed.returncode, crashed.stderr)
    done = hosts[0].run_cli(at(49))
    assert done.returncode == 0, done.stderr
    check(hosts)
