"""Players' votes by real mail: signed vote blocks piped to ``pbem ingest --stdin`` (a real
process under the hostile-mail memory cap), recorded in the log, told to every player and the
GM, acted on when unanimous, and replayed by ``pbem audit`` (docs/operations.md, "Votes").

The processes: the first test's player signs with ``pbem vote`` and each of its votes is piped to
a ``pbem ingest --stdin`` process, and its audit is the command a player types; a huge vote is
refused by a process under the memory cap, and the audit that refuses an end is a process (its
exit code). The other tests play through their votes and audits with the same command lines in
the test process (tests.support.run: ``pbem_here``)."""

from __future__ import annotations

from pathlib import Path

from pbem.host import gmops
from pbem.protocol.keys import PrivateKey
from pbem.protocol.votedoc import sign_vote, vote_text
from pbem.store import replay
from tests.support.ingest_helpers import order_mail, queued, registered, text_of
from tests.support.pbem_host import Host, at, iso
from tests.support.run import pbem, pbem_here, pbem_ok
from tests.support.votes import gm_ops, mail_block, mail_vote


def test_unanimous_draw_ends_the_game_and_the_audit_replays_it(tmp_path: Path) -> None:
    host = Host(tmp_path)
    first, *rest = host.powers
    # The first player signs with the command line, as a player would.
    keyfile = tmp_path / "keys" / f"{host.game_id}-{first}.key"
    block = pbem_ok("vote", "draw", "--game", host.game_id, "--power", first, "--key", keyfile,
                    "--seq", "1")
    raw = order_mail(block, msgid="<cli-vote@example.org>", sender=registered(first))
    done = pbem("ingest", host.root, "--stdin", "--now", iso(at(1)), stdin=raw)
    assert done.returncode == 0 and b"1 vote(s)" in done.stdout, done.stdout + done.stderr
    for power in rest:
        assert not host.plugin.is_over(host.state())
        mail_vote(host, power, "draw", 1)
    assert host.plugin.is_over(host.state())
    assert gm_ops(host) == ["vote"] * 4 + ["end"]
    end = host.entries(replay.GM)[-1]
    assert end.body["vote"] == "draw" and len(end.body["votes"]) == 4
    told = [(msg["To"], text_of(msg)) for _g, msg in queued(host.root)
            if "vote:" in str(msg["Subject"])]
    assert {to for to, _ in told} >= {registered(p) for p in host.powers} | {"gm@example.org"}
    assert any("The vote carried" in text for _to, text in told)
    out = pbem_ok("audit", host.path)
    assert "vote" in out, out


def test_a_vote_short_of_unanimous_only_informs_and_can_be_withdrawn(tmp_path: Path) -> None:
    host = Host(tmp_path)
    a, b, *_ = host.powers
    mail_vote(host, a, "draw", 1, process=False)
    mail_vote(host, b, "draw", 1, process=False)
    mail_vote(host, b, "draw", 2, withdraw=True, process=False)
    assert not host.plugin.is_over(host.state())
    assert gm_ops(host) == ["vote"] * 3
    texts = [text_of(msg) for _g, msg in queued(host.root) if "vote:" in str(msg["Subject"])]
    assert any("1 of 4 for it" in t and "not yet voted for it" in t for t in texts), texts
    # The same file again is a duplicate; an old seq is refused with a reason.
    out = mail_vote(host, b, "draw", 2, withdraw=True, process=False)
    assert "vote-duplicate" in out, out
    mail_vote(host, b, "draw", 2, process=False)
    assert gm_ops(host) == ["vote"] * 3
    reply = [text_of(msg) for _g, msg in queued(host.root)
             if msg["To"] == registered(b) and "seq 2 is not higher than 2" in text_of(msg)]
    assert reply


def test_a_forged_vote_is_rejected_with_a_clear_reply(tmp_path: Path) -> None:
    host = Host(tmp_path)
    a = host.powers[0]
    out = mail_vote(host, a, "draw", 1, key=PrivateKey.generate(),
                    process=False)
    assert "rejected" in out, out
    assert gm_ops(host) == []
    replies = [text_of(msg) for _g, msg in queued(host.root) if msg["To"] == registered(a)]
    assert any("not registered" in r or "key" in r for r in replies), replies


def test_concede_by_vote_needs_only_the_sender(tmp_path: Path) -> None:
    host = Host(tmp_path)
    a = host.powers[0]
    mail_vote(host, a, "concede", 1, process=False)
    assert gm_ops(host) == ["vote", "concede"]
    assert host.entries(replay.GM)[-1].body["power"] == a


def test_the_audit_refuses_an_end_the_votes_did_not_carry(tmp_path: Path) -> None:
    """A referee that ends the game citing two of four draw votes: the log is signed and
    chained, but the audit says the end did not have the votes it needed."""
    host = Host(tmp_path)
    a, b, *_ = host.powers
    mail_vote(host, a, "draw", 1, process=False)
    mail_vote(host, b, "draw", 1, process=False)
    seqs = [e.seq for e in host.entries(replay.GM)]
    gmops.end(host.path, at(2), "draw agreed by the players' vote", votes=seqs)
    assert host.plugin.is_over(host.state())
    out = pbem_ok("audit", host.path, ok=False)
    assert "field votes" in out and "4 draw votes of distinct powers" in out, out


def test_a_huge_signed_vote_is_refused_within_the_memory_cap(tmp_path: Path) -> None:
    """A vote file padded to megabytes of YAML, signed with the power's own key: ingest (capped
    at 1 GiB of address space) refuses it with a reason, logs nothing, and exits 0."""
    host = Host(tmp_path)
    a = host.powers[0]
    body = vote_text(host.game_id, a, 1, "draw") + "pad:\n" + "  - x\n" * 400_000
    block = sign_vote(body, host.keys[a], check=False)
    out = mail_block(host, a, block)
    assert "rejected" in out or "quarantined" in out, out
    assert gm_ops(host) == []


def test_a_majority_rule_in_the_config_ends_the_game_with_three_of_four(tmp_path: Path) -> None:
    host = Host(tmp_path)
    config = host.path / "config.yaml"
    config.write_text(config.read_text() + "votes: {draw: majority}\n")
    a, b, c, _d = host.powers
    mail_vote(host, a, "draw", 1, process=False)
    mail_vote(host, b, "draw", 1, process=False)
    assert not host.plugin.is_over(host.state())  # 2 of 4 is not more than half
    mail_vote(host, c, "draw", 1, process=False)
    assert host.plugin.is_over(host.state())
    end = host.entries(replay.GM)[-1]
    assert end.body["op"] == "end" and end.body["rule"] == "majority"
    audit = pbem_here("audit", host.path)
    assert audit.returncode == 0, audit.stdout + audit.stderr
