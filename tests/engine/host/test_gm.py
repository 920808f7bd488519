"""Game-master operations: each a referee-signed log entry with the documented effect."""

from __future__ import annotations

import pytest

from pbem.cli.main import main as pbem_main
from pbem.host import gmops
from pbem.protocol.keys import PrivateKey
from pbem.store import replay
from pbem.store.log import GameLog
from pbem.store.referee import referee_public
from pbem.store.summary import summarize
from tests.support.pbem_host import Host, at


def gm_entries(host: Host, kind: str = "gm"):
    return [e for e in GameLog.load(host.path / "log.jsonl").entries if e.kind == kind]


def test_every_operation_is_logged_and_signed_by_the_referee(tmp_path):
    host = Host(tmp_path)
    gmops.pause(host.path, at(1), "holiday")
    gmops.resume(host.path, at(2))
    gmops.extend(host.path, at(3), to=None, by="24h")
    referee = referee_public(host.root)
    ops = [e.body["op"] for e in gm_entries(host)]
    assert ops == ["pause", "resume", "extend"]
    for entry in gm_entries(host):
        replay.verify_gm(referee, entry.body)
    tampered = dict(gm_entries(host)[2].body, deadline="2030-01-01T00:00:00Z")
    with pytest.raises(Exception, match="signature"):
        replay.verify_gm(referee, tampered)


def test_paused_game_does_not_resolve_and_resume_gives_a_fresh_deadline(tmp_path):
    host = Host(tmp_path)
    gmops.pause(host.path, at(1), "")
    assert host.run(at(100))[0].status == "paused"
    assert not gm_entries(host, "resolve")
    gmops.resume(host.path, at(100))
    clock = summarize(GameLog.load(host.path / "log.jsonl").entries).clock()
    assert clock.deadline == "2026-12-07T04:00:00Z" and not clock.paused
    assert host.run(at(101))[0].status == "waiting"
    assert host.run(at(148.5))[0].status == "resolved"


def test_extend_moves_the_deadline(tmp_path):
    host = Host(tmp_path)
    gmops.extend(host.path, at(1), to="2026-12-04T00:00:00Z", by=None)
    assert host.run(at(49))[0].status == "waiting"
    assert host.run(at(72.5))[0].status == "resolved"
    with pytest.raises(Exception, match="not later"):
        gmops.extend(host.path, at(73), to="2026-12-01T00:00:00Z", by=None)


def test_replace_a_player_new_key_accepted_old_key_refused(tmp_path):
    host = Host(tmp_path)
    assert pbem_main(["keygen", str(tmp_path / "newbie")]) == 0
    new_key = PrivateKey.load(tmp_path / "newbie.key")
    assert pbem_main(["gm", "replace", str(host.path), "algol", "--email",
                      "newbie@example.org", "--key", str(tmp_path / "newbie.pub"),
                      "--now", "2026-12-01T01:00:00Z"]) == 0
    replay.verify_gm(referee_public(host.root), gm_entries(host, "key")[0].body)
    old = host.submit("algol", {}, at(2))
    assert old.verdict == "rejected"
    host.keys["algol"] = new_key
    assert host.submit("algol", {}, at(3)).verdict == "accepted"
    assert host.game().config.powers["algol"].email == "newbie@example.org"


def test_concede_on_behalf_and_end_by_agreement(tmp_path):
    host = Host(tmp_path, "independents-3")
    gmops.concede(host.path, at(1), "antares")
    assert host.state()["powers"]["antares"]["status"] == "eliminated"
    assert host.state()["result"] is None
    gmops.end(host.path, at(2), "the players agreed")
    result = host.state()["result"]
    assert result["reason"] == "the players agreed"
    host.run(at(3))
    ends = [m for m in host.sent() if "over" in str(m["Subject"]).lower()
            or "end" in str(m["Subject"]).lower()]
    assert {str(m["To"]) for m in ends} == {"regulus@example.org", "mira@example.org",
                                            "antares@example.org"}
    with pytest.raises(Exception, match="over"):
        gmops.end(host.path, at(4), "again")


def test_status_lists_what_the_game_waits_for(tmp_path, capsys):
    host = Host(tmp_path)
    host.submit("algol", {}, at(1))
    assert pbem_main(["gm", "status", str(host.path), "--now", "2026-12-01T02:00:00Z"]) == 0
    out = capsys.readouterr().out
    assert "turn 1" in out and "deadline 2026-12-03T00:00:00Z" in out
    assert "algol" in out and "orders in (seq 1" in out and "no orders yet" in out
