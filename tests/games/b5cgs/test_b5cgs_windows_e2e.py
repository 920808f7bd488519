"""Babylon 5 CGS under its window policies (docs/plugins.md, "Window policies"; RULES.md,
"Mail and standing answers"; issue 31), played end to end by mail: ``pbem new --game b5cgs
--variant modular-4`` (contested space is played), every player on ``when-due`` digests
(``pbem gm digest``), orders written with pbem's own tool from the view.json of each player's
last mail and mailed through ``pbem ingest --stdin``, every step resolved by ``pbem run`` (the
command lines run in the test process, ``pbem_here``; the audit's a process, as a user reads it):

* each step of play mails a full report only to the powers it touched (the mover, whoever was
  fired on) and to the next mover; the others read it in a digest when next named: each
  player's mails are counted and printed against one report a step, and are far fewer;
* a standing contested-space answer (``turn: standing``, D3.42) mailed once by a player who is
  not due answers every later step that listens to him: the log names it in ``used`` at each,
  his receipt names it ("Standing file received"), the state holds it, it is announced to him
  once (not at every step), and ``pbem audit`` counts it and passes.
"""

from __future__ import annotations

import copy
import subprocess
from datetime import datetime
from email.message import EmailMessage
from typing import Any

import pytest

from pbem.audit import AuditFailure, audit_bytes
from pbem.audit.export import lines_of
from pbem.cli.main import main as pbem_main
from pbem.protocol.envelope import STANDING_TURN
from pbem.store import log as glog
from pbem.store.log import Entry
from pbem.store.referee import referee_key
from tests.support.b5cgs_mail import Player, demo
from tests.support.mail_player import Inbox, MailPlayer
from tests.support.pbem_host import Host, at, iso
from tests.support.run import pbem_here, pbem_text

GAME_ID, VARIANT = "b5-windows", "modular-4"
ROUNDS = 3  # rounds of play after the set-up step, the deal and the four starting fleets
STANDING = {"default": "deny", "allow": [], "deny": []}  # the answer, "allow" filled in below


def _reports(mails: list[EmailMessage]) -> list[EmailMessage]:
    """Reports and digests among a player's mails (not the welcome, receipts or reminders)."""
    return [m for m in mails if str(m["Subject"]).endswith(" resolved")
            or "game is over" in str(m["Subject"]).lower()]


def _text(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


def _mail_orders(player: Player, hour: float) -> None:
    """The demo's orders for this step, written with ``pbem orders b5`` from his newest view;
    when the tool refuses the demo's volleys (the deal, so the map, differs every game), the
    same orders without them."""
    view = player.newest_view()
    flags = demo.flags(view) if view["window"]["kind"] not in ("setup", "deal") else []
    try:
        MailPlayer.mail_orders(player, hour, ("b5", *flags) if flags else ())
    except AssertionError:
        cut = flags.index("--fire")  # the demo puts its volleys last
        MailPlayer.mail_orders(player, hour, ("b5", *flags[:cut]) if flags[:cut] else ())


def _run(host: Host, when: datetime) -> subprocess.CompletedProcess[bytes]:
    """The referee's ``pbem run`` at ``when``, its command line run in this process."""
    return pbem_here("run", host.root, "--now", iso(when))


def _mails_to(inbox: Inbox, powers: list[str]) -> dict[str, list[EmailMessage]]:
    """Every mail delivered so far to each of ``powers`` (``Host.sent`` for each), each mail
    parsed once for them all."""
    got = inbox.to_each([f"{p}@example.org" for p in powers])
    return {p: got[f"{p}@example.org"] for p in powers}


@pytest.fixture(scope="module")
def b5(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("b5windows")
    host = Host(tmp, VARIANT, game="b5cgs", game_id=GAME_ID)
    for power in host.powers:
        assert pbem_main(["gm", "digest", str(host.path), power, "when-due"]) == 0
    inbox = Inbox(host)
    # the command lines in this process: the end-to-end test's game proves B5's path through
    # the processes
    players = {p: Player(host, p, tmp / "players", inbox=inbox, process=False)
               for p in host.powers}
    out: dict[str, Any] = {"host": host}
    assert _run(host, at(0.1)).returncode == 0  # the welcome mails
    out["welcomed"] = {p: len(m) for p, m in _mails_to(inbox, host.powers).items()}
    hour = 1.0
    while True:
        state = host.state()
        if state["phase"] == "play" and state["round"] > ROUNDS:
            break
        due = host.plugin.powers_due(state)
        if state["phase"] == "play" and "standing" not in out:
            # a player who is not due answers contested space once, for every later step
            who = next(p for p in host.powers if p not in due)
            answer = {**STANDING, "allow": [due[0]]}
            text = host.orders_text(who, {"contested": answer}, turn="standing",
                                    seq=players[who].seq)
            players[who].deliver(text, hour)
            out["standing"] = (who, answer, len(host.entries("resolve")))
        for power in due:
            _mail_orders(players[power], hour)
        hour += 1
        done = _run(host, at(hour))
        assert done.returncode == 0, done.stderr
    out["steps"] = len(host.entries("resolve"))
    done = pbem_here("gm", "end", str(host.path), "--reason", "the test is over", "--now",
                     iso(at(hour + 1)))
    assert done.returncode == 0, done.stderr
    assert _run(host, at(hour + 2)).returncode == 0
    export = tmp / f"{GAME_ID}.export"
    assert pbem_main(["export", str(host.path), "-o", str(export)]) == 0
    out["audit"] = pbem_text("audit", export)
    out["mails"] = _mails_to(inbox, host.powers)
    return out


def test_each_player_gets_far_fewer_mails_than_one_report_a_step(b5) -> None:
    host: Host = b5["host"]
    steps = b5["steps"]
    reports = {p: len(_reports(b5["mails"][p])) for p in host.powers}
    for p in host.powers:
        mails = len(b5["mails"][p]) - b5["welcomed"][p]
        print(f"b5cgs {VARIANT}, {steps} steps ({ROUNDS} rounds of play): {p} got "
              f"{reports[p]} reports/digests ({mails} mails in all, receipts included) "
              f"against {steps + 1} at one report a step")
    # in play, two reports of every four steps (the step before his turn, his turn) and one
    # for each step that fires on him (the dice are fresh each run); the set-up step, the deal
    # and the end go to everyone
    fired = {p: 0 for p in host.powers}
    fired_round: dict[str, dict[int, int]] = {p: {} for p in host.powers}
    for entry in host.entries("resolve"):
        events = entry.body["events"]
        begins = [e for e in events if e["type"] == "turn_begins"]
        for p in {e["power"] for e in events if e["type"] == "under_fire"}:
            fired[p] += 1
            if begins:
                rnd = begins[0]["round"]
                fired_round[p][rnd] = fired_round[p].get(rnd, 0) + 1
    assert all(0 < reports[p] <= (steps + 1) * 2 // 3 + fired[p] for p in host.powers), (
        reports, fired)
    assert sum(reports.values()) < (steps + 1) * len(host.powers)
    total = sum(reports.values())
    kb = sum(len(m.as_bytes()) for p in host.powers for m in _reports(b5["mails"][p])) / 1024
    print(f"b5cgs: the table got {total} reports/digests ({kb:.0f} KB) against "
          f"{(steps + 1) * len(host.powers)} at one report a step to each player")
    per_round: dict[str, dict[int, int]] = {p: {} for p in host.powers}
    for entry in host.entries("resolve"):
        begins = [e for e in entry.body["events"] if e["type"] == "turn_begins"]
        if begins:
            for p, got in entry.body["mailed"].items():
                rounds = per_round[p]
                rounds[begins[0]["round"]] = rounds.get(begins[0]["round"], 0) + (got != "later")
    for p in host.powers:
        print(f"b5cgs: {p}'s reports/digests per round of play: {per_round[p]} against "
              f"{len(host.powers)} (one a step)")
        assert all(n < len(host.powers) + fired_round[p].get(r, 0)
                   for r, n in per_round[p].items()), (per_round[p], fired_round[p])
    digests = [m for p in host.powers for m in _reports(b5["mails"][p])
               if "SINCE YOUR LAST MAIL" in _text(m)]
    assert digests


def test_the_touched_and_the_next_mover_get_the_report(b5) -> None:
    """After a turn: the mover, the next mover and whoever was fired on get the report at
    once (a digest when earlier steps were held back from them); the others later."""
    host: Host = b5["host"]
    fired_on = 0
    for entry in host.entries("resolve"):
        mailed = entry.body.get("mailed")
        events = entry.body["events"]
        if not any(e["type"] == "turn_begins" for e in events):
            continue
        assert isinstance(mailed, dict), entry.body.get("turn")
        mover = next(e["power"] for e in events if e["type"] == "turn_begins")
        assert mailed[mover] != "later"
        for e in events:
            if e["type"] == "under_fire":
                fired_on += 1
                assert mailed[e["power"]] != "later", e
        assert "later" in mailed.values()  # somebody reads it in a digest
    print(f"b5cgs: {fired_on} volleys at another power's units, each mailed to him at once")


def test_a_standing_contested_answer_sent_once_answers_every_later_step(b5) -> None:
    host: Host = b5["host"]
    who, answer, after = b5["standing"]
    [entry] = [e for e in host.entries("orders") if e.body["turn"] == STANDING_TURN]
    assert entry.body["power"] == who and entry.body["orders"] == {"contested": answer}
    sha = entry.body["sha256"]
    resolves = host.entries("resolve")[after:]
    listened = [r for r in resolves if who in r.body.get("listens", [])]
    used = [r for r in listened if r.body["used"].get(who) == sha]
    print(f"b5cgs: {who}'s standing contested answer, mailed once, was used at "
          f"{len(used)} of the {len(listened)} later steps that listened to him")
    assert len(used) == len(listened) >= 2 * (len(host.powers) - 1)
    assert host.state()["powers"][who]["contested"] == answer
    told = [e for r in resolves for e in r.body["events"]
            if e["type"] == "contested_answer" and e["power"] == who]
    assert len(told) == 1  # announced when it changed, not at every step that repeats it


def test_the_receipt_and_the_audit_name_the_standing_file(b5) -> None:
    host: Host = b5["host"]
    who, _answer, _after = b5["standing"]
    receipts = [m for m in b5["mails"][who] if "Standing file received" in str(m["Subject"])]
    assert len(receipts) == 1
    words = " ".join(_text(receipts[0]).split())
    assert "Your standing answers: - Contested space: deny by default, allow" in words, words
    audit = b5["audit"]
    assert audit.returncode == 0 and "audit passed" in audit.stdout, audit.stdout + audit.stderr
    assert "1 standing files (turn: standing)" in audit.stdout, audit.stdout
    assert host.plugin.is_over(host.state())


def test_no_digest_shows_a_player_another_s_private_answer(b5) -> None:
    """The standing answer is private to its player (RULES.md R12): no other player's mail,
    report or digest, names it."""
    host: Host = b5["host"]
    who, _answer, _after = b5["standing"]
    for power in host.powers:
        if power == who:
            continue
        for msg in b5["mails"][power]:
            assert "contested-space requests was" not in _text(msg), (power, msg["Subject"])


def test_a_referee_who_drops_a_listened_standing_file_is_named_by_the_audit(b5) -> None:
    """The audit's used-orders rule holds a listened power's standing file as it holds a due
    power's: a resolution that leaves it out (the referee ignoring the standing answer) fails,
    in the full export and in the public one."""
    host: Host = b5["host"]
    who, _answer, after = b5["standing"]
    entries = host.game().log.entries
    seq = next(e.seq for e in host.entries("resolve")[after + 1:]
               if e.body["used"].get(who) is not None and who not in e.body["due"])
    chain: list[Entry] = []
    for e in entries:
        body = copy.deepcopy(e.body)
        if e.seq == seq:
            body["used"].pop(who)
        chain.append(glog.make_entry(chain[-1] if chain else None, e.kind, e.time, body))
    key, _ = referee_key(host.root)
    for public in (False, True):
        data = b"".join(lines_of(chain, host.plugin, GAME_ID, key, public))
        with pytest.raises(AuditFailure) as info:
            audit_bytes(data, "b5w.export")
        assert f"used.{who}" in str(info.value), (public, str(info.value))
