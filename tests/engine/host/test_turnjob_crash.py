"""Crash safety of the cron job, with real processes killed by SIGKILL at each durable step of a
turn, then run again: the turn is resolved exactly once, no accepted order is lost, every mail
is delivered, and none twice — except in the one window no mail system can close (the server
accepted a message, the crash came before we recorded it), where the identical message with the
same Message-ID goes out again."""

from __future__ import annotations

import email
import subprocess
import sys
from collections import Counter
from email import policy

import pytest

from pbem.store.log import GameLog
from tests.support.pbem_host import Host, at, iso
from tests.support.relay_legs import standing_red_and_green

CRASH_POINTS = [
    "before-resolve-append",
    "resolution-batch-written",  # the mail's batch written, neither it nor the log synced
    "after-resolve-append",
    "after-state-write",
    "resolution-batch-synced",  # the log and the batch durable, the batch not in pending/
    "after-first-queue",
    "after-mailed-mark",
    "outbox-before-send",
    "outbox-recorded",
]


def played(tmp_path, servers) -> tuple[Host, object]:
    """A game whose four powers have sent orders, mailing through a real SMTP server."""
    host = Host(tmp_path)
    server = servers.start("none")
    (host.root / "mail.yaml").write_text(
        f"smtp: {{host: 127.0.0.1, port: {server.port}, security: none}}\n")
    for power in host.powers:
        body = {"depart": host.depart(power, host.state()["powers"][power]["home"], 3,
                                      "Hamal" if power == "algol" else "Vega")}
        assert host.submit(power, body, at(1)).verdict == "accepted"
    return host, server


def parsed(server) -> list[email.message.EmailMessage]:
    return [email.message_from_bytes(m.content, policy=policy.default) for m in server.received]


def deliveries(server) -> Counter:
    return Counter(str(m["Message-ID"]) for m in parsed(server))


@pytest.mark.parametrize("point", CRASH_POINTS)
def test_kill_at_each_step_then_rerun_resolves_once_and_mails_once(tmp_path, point,
                                                                    smtp_servers):
    host, server = played(tmp_path, smtp_servers)
    crashed = host.run_cli(at(2), env={"PBEM_CRASH_AT": point})
    assert crashed.returncode == -9, (crashed.returncode, crashed.stderr)
    done = host.run_cli(at(2))
    assert done.returncode == 0, done.stderr
    host.run_cli(at(3))
    log = GameLog.load(host.path / "log.jsonl")  # verifies the whole chain
    resolves = [e for e in log.entries if e.kind == "resolve"]
    assert len(resolves) == 1, "resolved exactly once"
    assert all(resolves[0].body["used"].values()), "no accepted order lost"
    sent = deliveries(server)
    assert sent and max(sent.values()) == 1, f"a message went out twice: {sent}"
    expected = {f"{p}@example.org" for p in host.powers} | {"gm@example.org"}
    assert {str(m["To"]) for m in parsed(server)} >= expected
    reports = [m for m in parsed(server) if "report" in str(m["Subject"]).lower()]
    assert len(reports) == 4, "every player's report, once"
    assert not list((host.path / "outbox" / "pending").glob("*.eml"))
    assert not list(host.path.rglob(".*.tmp-*")), "the batch a kill left unplaced is swept"


def test_the_one_unavoidable_window_resends_the_identical_message(tmp_path,
                                                                  smtp_servers):
    host, server = played(tmp_path, smtp_servers)
    crashed = host.run_cli(at(2), env={"PBEM_CRASH_AT": "outbox-accepted"})
    assert crashed.returncode == -9
    assert len(server.received) == 1, "the server took one message, then we died"
    first = server.received[0].content
    assert host.run_cli(at(2)).returncode == 0
    sent = deliveries(server)
    twice = [mid for mid, n in sent.items() if n == 2]
    assert len(twice) == 1, "exactly the message in the window went out again"
    assert all(n == 1 for mid, n in sent.items() if mid not in twice)
    copies = [m.content for m in server.received if m.content == first]
    assert len(copies) == 2, "the resend is byte-identical, same Message-ID"
    assert len([e for e in GameLog.load(host.path / "log.jsonl").entries
                if e.kind == "resolve"]) == 1


def test_two_runs_started_together_resolve_the_turn_once(tmp_path, smtp_servers):
    host, server = played(tmp_path, smtp_servers)
    cmd = [sys.executable, "-m", "pbem", "run", str(host.root), "--now", iso(at(2))]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    log = GameLog.load(host.path / "log.jsonl")
    assert len([e for e in log.entries if e.kind == "resolve"]) == 1
    assert max(deliveries(server).values()) == 1


@pytest.mark.parametrize("nth", [1, 2])
def test_run_killed_with_mail_files_not_in_place_then_the_next_run_removes_them(tmp_path, nth):
    """The file transport's copies (``sent-mail/``) and the outbox written, fsynced and not
    yet in place when ``pbem run`` is killed: the next run (taking the game's lock the dead
    process held) removes them; every report is delivered once, 0600. A game's outbox is
    delivered in one commit of the file transport (its welcome mails, receipts and reports
    alike: every message is in a batch), so the second commit is the second game's."""
    hosts = [Host(tmp_path, game_id=f"g{n}") for n in range(1, nth + 1)]
    host = hosts[-1]
    for each in hosts:
        for power in each.powers:
            assert each.submit(power, {}, at(1)).verdict == "accepted"
    crashed = host.run_cli(at(49), env={"PBEM_CRASH_AT": f"staged-synced#{nth}"})
    assert crashed.returncode == -9, crashed.stderr
    assert [p for p in host.root.rglob(".*.tmp-*")], "the kill left temporary files"
    done = host.run_cli(at(49))
    assert done.returncode == 0, done.stderr
    assert "left by a crash" in done.stdout, done.stdout
    assert not list(host.root.rglob(".*.tmp-*"))
    for each in hosts:
        assert len([e for e in GameLog.load(each.path / "log.jsonl").entries
                    if e.kind == "resolve"]) == 1
        reports = [m for m in host.sent() if "report" in str(m["Subject"]).lower()
                   and f"[{each.game_id}]" in str(m["Subject"])]
        assert len(reports) == 4 and len({str(m["Message-ID"]) for m in reports}) == 4
    assert {oct(p.stat().st_mode & 0o777) for p in (host.root / "sent-mail").iterdir()} == \
        {"0o600"}


def relay_answered_twice(tmp_path) -> Host:
    """The relay toy with two standing files in: one run resolves baton legs 1 and 2, the
    first committed and queued within the visit before the second is resolved (the turn
    job's ``_flush_pending``: the group's phases for one game)."""
    tmp_path.mkdir()
    return standing_red_and_green(tmp_path)


def mails(host: Host) -> Counter:
    return Counter((str(m["To"]), str(m["Subject"])) for m in host.sent())


@pytest.mark.parametrize("point", [
    "resolution-batch-written#1", "after-resolve-append#1", "after-state-write#1",
    "resolution-batch-synced#1", "after-mailed-mark#1", "resolution-batch-synced#2"])
def test_a_visit_resolving_twice_killed_in_its_first_commit_resolves_each_once(tmp_path,
                                                                                point):
    """Killed at a durable step of the visit's first resolution (#1, committed within the
    visit) or its last (#2, in the group's phases): the next run resolves each leg once and
    sends every mail of both once, as a run that was not killed does."""
    clean = relay_answered_twice(tmp_path / "clean")
    assert clean.run_cli(at(0.6)).returncode == 0
    host = relay_answered_twice(tmp_path / "killed")
    crashed = host.run_cli(at(0.6), env={"PBEM_CRASH_AT": point})
    assert crashed.returncode == -9, (crashed.returncode, crashed.stderr)
    done = host.run_cli(at(0.6))
    assert done.returncode == 0, done.stderr
    assert [e.seq for e in host.entries("resolve")] == [e.seq for e in clean.entries("resolve")]
    assert host.state()["turn"] == 3
    assert mails(host) == mails(clean) and max(mails(host).values()) == 1
    assert not list(host.root.rglob(".*.tmp-*"))
