"""Standing files (``turn: standing``, docs/protocol.md "Standing files") end to end on High Card,
whose standing section is ``policy`` ("if I must play without orders, play my highest card"):
signed mails through ``pbem ingest ROOT --stdin`` and ``pbem run`` as subprocesses.

North writes his standing answer while round 1 is open; it arrives after round 1 resolved (a
file for turn 1 would be refused), is accepted, named in its receipt, and used at every later
round north sends nothing for; the export passes the audit, which reports it. A standing file
with a section that is not standing is refused with its path, a game that declares no standing
section refuses them all, and a log whose referee dropped the standing file fails the audit."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.audit import AuditFailure, audit_path
from pbem.game import registry
from pbem.game.chance import NO_CHANCE
from pbem.game.versions import setup_options
from pbem.host import accept
from pbem.protocol.envelope import STANDING_TURN
from pbem.store import replay
from pbem.store.summary import summarize
from tests.support.ingest_helpers import everything_in, order_mail
from tests.support.lying import chain_of
from tests.support.pbem_host import Host, at, iso
from tests.support.run import pbem

HC = registry.load("highcard")


def mail(host: Host, power: str, text: str, tag: str, hours: float) -> None:
    """One signed order block mailed to the referee: ``pbem ingest ROOT --stdin``."""
    raw = order_mail(text, sender=f"{power}@example.org", msgid=f"<{power}.{tag}@example.org>")
    done = pbem("ingest", str(host.root), "--stdin", "--now", iso(at(hours)), stdin=raw)
    assert done.returncode == 0, done.stderr


def run(host: Host, hours: float) -> None:
    done = host.run_cli(at(hours))
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Host, str, Path]:
    tmp = tmp_path_factory.mktemp("standing")
    host = Host(tmp, "duel-2", game="highcard", game_id="hc-s")
    run(host, 0.1)  # the welcome mails
    # Written while round 1 is open, sent only later.
    standing = host.orders_text("north", {"policy": "highest"}, turn="standing", seq=1)
    mail(host, "north", host.orders_text("north", {"play": "ember-9"}), "r1", 1)
    mail(host, "south", host.orders_text("south", {"play": "frost-2"}), "r1", 1)
    run(host, 2)  # round 1 resolves early: both files are ready
    assert len(host.entries("resolve")) == 1
    mail(host, "north", standing, "standing", 3)  # arrives after round 1 resolved
    run(host, 3.5)  # round 2 waits for its deadline; the receipt goes out
    mail(host, "south", host.orders_text("south", {"play": "frost-9"}), "r2", 4)
    run(host, 51)  # the deadline of round 2: north plays on his standing file
    mail(host, "south", host.orders_text("south", {"play": "frost-5"}), "r3", 52)
    run(host, 100)
    run(host, 149)  # round 4: nobody sent a file
    export = tmp / "hc-s.export"
    done = pbem("export", str(host.path), "-o", str(export))
    assert done.returncode == 0, done.stderr
    return host, standing, export


def _standing_entry(host: Host) -> Any:
    [entry] = [e for e in host.entries("orders") if e.body["turn"] == STANDING_TURN]
    return entry


def test_the_standing_file_sent_after_its_round_resolved_is_accepted(game) -> None:
    host, _, _ = game
    entry = _standing_entry(host)
    assert entry.body["power"] == "north" and entry.body["orders"] == {"policy": "highest"}
    first_resolution = host.entries("resolve")[0]
    assert entry.seq > first_resolution.seq


def test_it_is_used_at_every_later_round_north_sent_nothing_for(game) -> None:
    host, _, _ = game
    sha = _standing_entry(host).body["sha256"]
    resolves = host.entries("resolve")
    assert len(resolves) == 4 and host.state()["result"] is not None
    assert resolves[0].body["used"]["north"] != sha  # round 1: his file of the round
    assert [r.body["used"]["north"] for r in resolves[1:]] == [sha, sha, sha]
    assert resolves[3].body["used"]["south"] is None  # no standing file: the game's default
    played = {(e["turn"], e["power"]): e["card"] for r in resolves for e in r.body["events"]
              if e.get("type") == "played"}
    # north's highest card each time (ember-9 was played in round 1), south's lowest in round 4
    assert [played[(t, "north")] for t in (2, 3, 4)] == ["ember-7", "ember-5", "ember-2"]
    assert played[(4, "south")] == "frost-7"


def test_its_receipt_names_the_standing_answers(game) -> None:
    host, _, _ = game
    receipts = [m for m in host.sent("north@example.org")
                if "Standing file received" in str(m["Subject"])]
    assert len(receipts) == 1
    text = everything_in(receipts[0])
    assert "Your standing answers:" in text and "Play your highest card." in text


def test_the_reports_of_the_rounds_it_played_name_it(game) -> None:
    host, _, _ = game
    reports = {str(m["Subject"]): everything_in(m) for m in host.sent("north@example.org")
               if "report" in str(m["Subject"])}
    named = [s for s, text in reports.items() if "the standing file (seq 1) was used. Your "
             "standing answers: Play your highest card." in " ".join(text.split())]
    assert len(named) == 3, sorted(reports)  # rounds 2, 3 and 4
    assert not any("Round 1" in s for s in named)


def test_the_export_passes_the_audit_which_reports_the_standing_file(game) -> None:
    _, _, export = game
    done = pbem("audit", str(export))
    assert done.returncode == 0, done.stderr
    assert b"audit passed" in done.stdout
    assert b"1 standing files (turn: standing)" in done.stdout, done.stdout
    assert audit_path(export).tally.standing_files == 1


def test_the_public_export_passes_the_audit_too(game, tmp_path: Path) -> None:
    """Withheld, the standing file is known by its public claims (power, turn 0, seq) and each
    resolution's claim of the entry it used is held to the same rule."""
    host, _, _ = game
    public = tmp_path / "hc-s.public"
    done = pbem("export", str(host.path), "-o", str(public), "--public")
    assert done.returncode == 0, done.stderr
    report = audit_path(public)
    assert report.tally.standing_files == 1 and report.tally.used_checked == 4


def test_a_referee_who_drops_the_standing_file_fails_the_audit(game, tmp_path: Path) -> None:
    """The lying referee resolves round 2 as if north had no standing file (the game's default:
    his lowest card), records that consistently (state, events, used: null) and ends the log
    there: only the rule on used order files catches it."""
    host, _, _ = game
    entries = host.entries()
    items = [{"kind": e.kind, "time": e.time, "body": copy.deepcopy(e.body)} for e in entries]
    at_seq = host.entries("resolve")[1].seq
    chain = chain_of(items[:at_seq])
    initial = HC.setup(chain[0].body["variant"], setup_options(chain[0].body))
    state = replay.replay(HC, chain, initial)
    orders, used, _, _ = replay.gather_orders(HC, state, summarize(chain).standing_orders(),
                                              None)  # no standing files
    assert used["north"] is None
    result = replay.resolve_step(HC, state, orders, NO_CHANCE)
    items[at_seq]["body"].update(used=used, state=canonical.digest(result.state),
                                 events=result.events)
    del items[at_seq + 1:]
    gamedir = tmp_path / "hc-s"
    gamedir.mkdir()
    (gamedir / "log.jsonl").write_bytes(b"".join(e.line() for e in chain_of(items)))
    with pytest.raises(AuditFailure) as info:
        audit_path(gamedir)
    failure = str(info.value)
    assert "used.north" in failure and "A dropped standing file" in failure, failure


def test_a_standing_file_with_a_section_that_is_not_standing_is_refused(tmp_path: Path) -> None:
    host = Host(tmp_path, "duel-2", game="highcard", game_id="hc-r")
    text = host.orders_text("north", {"policy": "highest", "play": "ember-2"}, turn="standing")
    verdict = accept.handle_block(host.root, text, received=at(1), message_id="<r@example.org>")
    assert verdict.verdict == accept.Outcome.REJECTED
    assert [(p.code, p.path) for p in verdict.problems] == [("not-standing", "orders.play")]
    assert not [e for e in host.entries("orders")]


def test_a_game_without_standing_sections_refuses_standing_files(tmp_path: Path) -> None:
    host = Host(tmp_path)  # 4000 A.D. declares none
    text = host.orders_text("algol", {}, turn="standing")
    verdict = accept.handle_block(host.root, text, received=at(1), message_id="<s@example.org>")
    assert verdict.verdict == accept.Outcome.REJECTED
    assert [(p.code, p.path) for p in verdict.problems] == [("standing", "turn")]
