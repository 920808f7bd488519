"""The root's due list (pbem.host.duelist): an idle run reads one file and visits only the games
that are due or changed — and nothing due is ever skipped: a deadline, a reminder, a paused game
resumed, a gm extend, a deferred mail's retry, a new game, an accepted mail, a reply queued by
ingest, a hand edit of config.yaml, a STOPPED file; a missing, torn or forged list visits every
game; a run killed by SIGKILL between a game's change and the list's update skips nothing.

Whether a run visited a game is seen on disk: every test removes the game's trusted.json first,
which a visit writes again and a skip leaves missing."""

from __future__ import annotations

import email
import json
import os
import socket
import subprocess
import sys
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.cli.main import main as pbem_main
from pbem.host import duelist, turnjob
from pbem.mail.outbox import Outbox
from pbem.mail.transports import SMTPTransport
from pbem.store import trusted
from pbem.store.log import GameLog
from tests.support.pbem_host import Host, at, iso


def age(host: Host) -> None:
    """Date config.yaml an hour back, as a config written before this run would be (a config
    changed within a second of a visit gets no entry: duelist.RACY_SECONDS)."""
    config = host.path / "config.yaml"
    old = config.stat().st_mtime - 3600
    os.utime(config, (old, old))


def settled(tmp_path: Path, ids: tuple[str, ...] = ("g1",)) -> list[Host]:
    """Games whose welcome mail went out, each with its entry in the due list."""
    hosts = [Host(tmp_path, game_id=g) for g in ids]
    for host in hosts:
        age(host)
    runs = hosts[0].run(at(1))
    assert [r.status for r in runs] == ["waiting"] * len(ids), [r.line() for r in runs]
    assert set(duelist.load(hosts[0].root)) == set(ids)
    return hosts


def forget(*hosts: Host) -> None:
    for host in hosts:
        (host.path / trusted.NAME).unlink(missing_ok=True)


def visited(host: Host) -> bool:
    return (host.path / trusted.NAME).exists()


def test_an_idle_run_reports_every_game_from_the_list_and_opens_none(tmp_path: Path) -> None:
    g1, g2 = settled(tmp_path, ("g1", "g2"))
    entry = duelist.load(g1.root)["g1"]
    assert entry[0] == "waiting" and entry[1] == duelist.micros(at(24))  # half the turn
    forget(g1, g2)
    runs = g1.run(at(2))
    assert [(r.game, r.status) for r in runs] == [("g1", "waiting"), ("g2", "waiting")]
    assert not visited(g1) and not visited(g2)
    done = g1.run_cli(at(3))
    assert done.returncode == 0 and done.stdout.splitlines() == ["g1: waiting", "g2: waiting"]
    assert not visited(g1) and not visited(g2)


def test_the_reminder_time_and_the_deadline_make_the_game_due(tmp_path: Path) -> None:
    [host] = settled(tmp_path)
    forget(host)
    [run] = host.run(at(23.9))
    assert run.status == "waiting" and not visited(host)
    [run] = host.run(at(24))  # half the turn: the reminder is due
    assert visited(host) and run.queued == 4, run.line()
    assert duelist.load(host.root)["g1"][1] == duelist.micros(at(48))
    forget(host)
    [run] = host.run(at(47.9))
    assert run.status == "waiting" and not visited(host)
    [run] = host.run(at(48))  # the deadline
    assert visited(host) and run.queued > 0, run.line()


def test_a_paused_game_is_skipped_until_it_is_resumed(tmp_path: Path) -> None:
    [host] = settled(tmp_path)
    assert pbem_main(["gm", "pause", str(host.path), "--now", iso(at(2))]) == 0
    [run] = host.run(at(2))
    assert run.status == "paused" and duelist.load(host.root)["g1"][:2] == ["paused", None]
    forget(host)
    [run] = host.run(at(500))  # long past the old deadline: paused games are not due
    assert run.status == "paused" and not visited(host)
    assert pbem_main(["gm", "resume", str(host.path), "--now", iso(at(501))]) == 0
    [run] = host.run(at(501))
    assert run.status == "waiting" and visited(host)


def test_a_gm_extend_is_seen_before_the_old_deadline_passes(tmp_path: Path) -> None:
    [host] = settled(tmp_path)
    forget(host)
    assert pbem_main(["gm", "extend", str(host.path), "--by", "24h", "--now",
                      iso(at(30))]) == 0
    [run] = host.run(at(49))  # past the old deadline, before the new one
    assert visited(host) and run.status == "waiting", run.line()
    assert duelist.load(host.root)["g1"][1] == duelist.micros(at(72))


def test_a_deferred_mail_is_retried_at_its_next_try(tmp_path: Path) -> None:
    host = Host(tmp_path)
    age(host)
    with socket.socket() as sock:  # a port nothing listens on: connection refused
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    [run] = _refused(host, port)
    assert run.deferred == 4 and run.hint is not None, run.line()
    next_try = min(e.next_try for e in Outbox(host.path / "outbox").pending())
    assert next_try is not None and duelist.load(host.root)["g1"][1] == duelist.micros(next_try)
    forget(host)
    [run] = host.run(at(1))  # before the retry time: nothing to do
    assert not visited(host) and run.sent == 0
    [run] = host.run(next_try)
    assert visited(host) and run.sent == 4, run.line()


def _refused(host: Host, port: int) -> list[turnjob.GameRun]:
    transport = SMTPTransport("127.0.0.1", port, security="none", timeout=5)
    try:
        return turnjob.run_root(host.root, at(1), transport)
    finally:
        transport.close()


def test_a_new_game_and_an_accepted_order_are_visited(tmp_path: Path) -> None:
    [g1] = settled(tmp_path)
    forget(g1)
    g2 = Host(tmp_path, game_id="g2")
    runs = g1.run(at(2))
    assert [(r.game, r.sent) for r in runs] == [("g1", 0), ("g2", 4)]
    assert not visited(g1) and visited(g2)
    assert g1.submit("algol", {}, at(3)).verdict == "accepted"
    forget(g1)
    g1.run(at(4))
    assert visited(g1)


def test_a_reply_queued_by_ingest_is_delivered_by_the_next_run(tmp_path: Path) -> None:
    """A registered player's mail without signed orders changes no log: ingest only queues the
    reply in the game's outbox; the run sees the new pending mail."""
    [host] = settled(tmp_path)
    forget(host)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = ("algol@example.org", "referee@example.org",
                                              "my orders")
    msg["Message-ID"] = "<plain@example.org>"
    msg.set_content("pbem: 1\ngame: g1\npower: algol\nturn: 1\nseq: 1\norders: {}\n")
    done = subprocess.run([sys.executable, "-m", "pbem", "ingest", str(host.root), "--stdin",
                           "--now", iso(at(2))], input=bytes(msg), capture_output=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert len(Outbox(host.path / "outbox").pending()) == 1
    [run] = host.run(at(3))
    assert visited(host) and run.sent == 1, run.line()
    sent = [email.message_from_bytes(p.read_bytes(), policy=policy.default)
            for p in (host.root / "sent-mail").glob("*.eml")]
    assert any("no signed order block" in m.get_body(("plain",)).get_content()
               for m in sent if str(m["To"]) == "algol@example.org")


def test_a_hand_edit_of_the_config_is_seen_and_a_fresh_one_gets_no_entry(
        tmp_path: Path) -> None:
    [host] = settled(tmp_path)
    forget(host)
    config = host.path / "config.yaml"
    config.write_text(config.read_text().replace("paused: false", "paused: true"))
    [run] = host.run(at(2))
    assert visited(host) and run.status == "paused"
    assert "g1" not in duelist.load(host.root)  # changed this second: visited again next run
    forget(host)
    [run] = host.run(at(3))
    assert visited(host) and run.status == "paused"
    age(host)
    host.run(at(4))
    assert duelist.load(host.root)["g1"][0] == "paused"


def test_a_stopped_game_is_visited_and_reported(tmp_path: Path) -> None:
    [host] = settled(tmp_path)
    (host.path / "STOPPED").write_text("stopped by hand for the test\n")
    [run] = host.run(at(2))
    assert run.status == "stopped" and "by hand" in run.line()
    assert "g1" not in duelist.load(host.root)


@pytest.mark.parametrize("damage", ["missing", "torn", "forged", "stale"])
def test_a_missing_torn_forged_or_stale_list_visits_every_game(tmp_path: Path,
                                                                damage: str) -> None:
    g1, g2 = settled(tmp_path, ("g1", "g2"))
    path = duelist.path(g1.root)
    raw = path.read_bytes()
    mac, _, payload = raw.partition(b"\n")
    data = json.loads(payload)
    if damage == "missing":
        path.unlink()
    elif damage == "torn":
        path.write_bytes(raw[: len(raw) // 2])
    elif damage == "forged":  # a later time, the MAC not recomputed
        for entry in data["games"].values():
            entry[1] = duelist.micros(at(10_000))
        path.write_bytes(mac + b"\n" + json.dumps(data).encode())
    else:  # under the real MAC, but the marks are not the files'
        for entry in data["games"].values():
            entry[3] = [entry[3][0] - 1, *entry[3][1:]]
        duelist.save(g1.root, data["games"])
    forget(g1, g2)
    runs = g1.run(at(49))  # past the deadline: both turns resolve
    assert [r.status for r in runs] == ["resolved", "resolved"]
    assert visited(g1) and visited(g2)
    assert duelist.load(g1.root) == {}  # resolved: each is visited again next run
    g1.run(at(50))
    assert set(duelist.load(g1.root)) == {"g1", "g2"}


@pytest.mark.parametrize("point", ["after-resolve-append", "after-first-queue",
                                   "due-list-written"])
def test_a_kill_between_a_change_and_the_list_update_skips_nothing(
        tmp_path: Path, point: str, smtp_servers) -> None:
    g1, g2 = [Host(tmp_path, game_id=g) for g in ("g1", "g2")]
    server = smtp_servers.start("none")
    (g1.root / "mail.yaml").write_text(
        f"smtp: {{host: 127.0.0.1, port: {server.port}, security: none}}\n")
    for host in (g1, g2):
        age(host)
    assert g1.run_cli(at(1)).returncode == 0
    assert set(duelist.load(g1.root)) == {"g1", "g2"}
    for power in g1.powers:  # g1's orders all in and ready: due now
        assert g1.submit(power, {}, at(2)).verdict == "accepted"
    crashed = g1.run_cli(at(3), env={"PBEM_CRASH_AT": point})
    assert crashed.returncode == -9, (crashed.returncode, crashed.stderr)
    assert duelist.load(g1.root)["g1"][3][0] < (g1.path / "log.jsonl").stat().st_size
    forget(g1, g2)
    done = g1.run_cli(at(3))
    assert done.returncode == 0, done.stderr
    assert visited(g1) and not visited(g2)
    g1.run_cli(at(4))
    log = GameLog.load(g1.path / "log.jsonl")
    assert len([e for e in log.entries if e.kind == "resolve"]) == 1
    received = [email.message_from_bytes(m.content, policy=policy.default)
                for m in server.received]
    ids = [str(m["Message-ID"]) for m in received]
    assert len(ids) == len(set(ids)), "a message went out twice"
    reports = [m for m in received if "report" in str(m["Subject"]).lower()
               and "g1" in str(m["Subject"])]
    assert len({str(m["To"]) for m in reports}) == 4, [str(m["Subject"]) for m in received]


def test_the_due_list_is_no_game(tmp_path: Path) -> None:
    """A temporary list a killed run left behind is neither a game nor kept forever."""
    [host] = settled(tmp_path)
    left = host.root / duelist.DIR / f"{duelist.NAME}.dead"
    left.write_bytes(b"x")
    old = left.stat().st_mtime - 7200
    os.utime(left, (old, old))
    runs = host.run(at(2))
    assert [r.game for r in runs] == ["g1"] and not left.exists()
