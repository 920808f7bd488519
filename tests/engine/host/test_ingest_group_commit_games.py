"""Group commit over several games (docs/operations.md, "Group commit in ingest"): the round
commits step by step across its games — every game's submission files, then every game's log,
then every game's replies, each step for the games at once — so a kill inside a step leaves one
game further on than the other. Killed (SIGKILL) at each durable step of a round that touches
two games, the rerun completes both: each accepted file logged once, one receipt each, every
message handled and acknowledged once."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail.inbox import Inbox
from pbem.mail.outbox import Outbox
from pbem.store.log import GameLog
from tests.support.group_commit import POINTS, ingest, subjects
from tests.support.ingest_helpers import order_mail
from tests.support.pbem_host import Host


def two_games(tmp_path: Path) -> tuple[list[Host], Path]:
    """Two games under one root and a Maildir with every power's orders for each."""
    hosts = [Host(tmp_path, game_id="g1"), Host(tmp_path, game_id="g2")]
    md = tmp_path / "md"
    for sub in ("new", "cur", "tmp"):
        (md / sub).mkdir(parents=True)
    number = 0
    for power in hosts[0].powers:  # interleaved: each game's mails alternate in the batch
        for host in hosts:
            text = host.orders_text(power, {"depart": host.depart(
                power, power.capitalize(), 3, "Hamal")})
            raw = order_mail(text, msgid=f"<{host.game_id}-{power}@example.org>",
                             sender=f"{power}@example.org")
            (md / "new" / f"{1000 + number}.host").write_bytes(raw)
            number += 1
    return hosts, md


def check(hosts: list[Host], md: Path) -> None:
    for host in hosts:
        orders = [e for e in GameLog.load(host.path / "log.jsonl").entries
                  if e.kind == "orders"]
        assert sorted(e.body["power"] for e in orders) == sorted(host.powers), host.game_id
        said = [s for s in subjects(host) if "Orders received" in s]
        assert len(said) == len(set(said)) == len(host.powers), (host.game_id, said)
        assert all(f"[{host.game_id}]" in s for s in said), said
    assert Inbox(hosts[0].root).pending() == [], "every message handled"
    assert not list((md / "new").iterdir()), "every message acknowledged"


def test_a_round_over_two_games_answers_each_once(tmp_path: Path) -> None:
    hosts, md = two_games(tmp_path)
    done = ingest(hosts[0], md)
    assert done.returncode == 0, done.stderr
    assert "8 message(s): 8 order block(s)" in done.stdout, done.stdout
    check(hosts, md)
    assert all(Outbox(h.path / "outbox").pending() for h in hosts)


@pytest.mark.parametrize("point", POINTS)
def test_a_round_over_two_games_killed_at_each_step_then_rerun(tmp_path: Path,
                                                                point: str) -> None:
    hosts, md = two_games(tmp_path)
    crashed = ingest(hosts[0], md, {"PBEM_CRASH_AT": point})
    assert crashed.returncode == -9, (point, crashed.stdout, crashed.stderr)
    if point == "ingest-replies-queued":
        # Killed once the first game's replies were queued. Each game's replies are queued at
        # once (a thread each: pbem.syncs.each), after every game's log: so both games are
        # logged, and the other game's batch is anywhere in its queueing, which is all or
        # nothing: every receipt queued, or none.
        for host in hosts:
            logged = [e for e in GameLog.load(host.path / "log.jsonl").entries
                      if e.kind == "orders"]
            assert len(logged) == len(host.powers)
        queued = [len([s for s in subjects(h) if "Orders received" in s]) for h in hosts]
        assert sorted(queued)[1] == len(hosts[0].powers), queued  # one game answered whole
        assert set(queued) <= {0, len(hosts[0].powers)}, queued
    done = ingest(hosts[0], md)
    assert done.returncode == 0, done.stderr
    check(hosts, md)
    again = ingest(hosts[0], md)
    assert again.returncode == 0, again.stderr
    check(hosts, md)
