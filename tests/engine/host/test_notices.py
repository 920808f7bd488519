"""What players are told besides their reports (issue 13): game-master operations mailed and
repeated in the next report, late orders refused with the late notice (or accepted until the run
where the game master allows it), last calls that never give a past deadline, the ``ready`` flag
that keeps early resolution from breaking the receipt's promise, missed turns and the order of
play in the report, the seq in rejection subjects, and one seq rule for the form and
``pbem orders new``.

Real games made by ``pbem new``, real signed orders, the real acceptance path and turn job; mail
goes through the file outbox and the file transport (``ROOT/sent-mail``)."""

from __future__ import annotations

import json
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml
from freezegun import freeze_time

from pbem.cli.main import main as pbem
from pbem.host import accept, gmops
from pbem.protocol.orderdoc import sign_orders
from pbem.schedule import to_iso
from pbem.store import replay
from pbem.store.gamedir import GameDir
from pbem.store.lock import locked
from pbem.store.referee import referee_key
from tests.support.ingest_helpers import REPO, order_mail
from tests.support.pbem_host import Host, at, instance_of, iso

DEADLINE = at(48)  # Host games: 48 h turns from T0


def plain(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content()).replace("\r\n", "\n")


def text_of(msg: EmailMessage) -> str:
    return " ".join(plain(msg).split())  # wrapped lines joined: search by sentence


def html_of(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("html",))
    assert part is not None
    return str(part.get_content())


def subjects(host: Host, to: str | None = None) -> list[str]:
    return [str(m["Subject"]) for m in host.sent(to)]


def mail(host: Host, to: str, contains: str) -> EmailMessage:
    found = [m for m in host.sent(to) if contains in str(m["Subject"])]
    assert len(found) == 1, (contains, subjects(host, to))
    return found[0]


def signed(host: Host, power: str, body: dict[str, Any], *, seq: int,
           ready: bool | None = None, turn: int | None = None) -> str:
    doc: dict[str, Any] = {"pbem": 1, "game": host.game_id, "power": power,
                           "turn": host.state()["turn"] if turn is None else turn, "seq": seq,
                           "instance": instance_of(host.path)}
    if ready is not None:
        doc["ready"] = ready
    doc["orders"] = body
    return sign_orders(yaml.safe_dump(doc, sort_keys=False), host.keys[power])


def send(host: Host, text: str, when: Any) -> accept.Verdict:
    return accept.handle_block(host.root, text, received=when,
                               message_id=f"<{hash(text)}.{when.timestamp()}@example.org>")


def others(host: Host, power: str = "algol") -> list[str]:
    return [p for p in host.powers if p != power]


def set_config(host: Host, old: str, new: str) -> None:
    path = host.path / "config.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


# -- game-master notices ---------------------------------------------------------------------
OPS = {
    "pause": ("Game paused by the game master", "paused the game"),
    "resume": ("Game resumed: orders for turn 1 due", "resumed the game"),
    "extend": ("New deadline for turn 1: Fri 4 Dec 2026 00:00 UTC", "moved the deadline"),
    "replace": ("Algol has a new player", "gave Algol to a new player"),
    "concede": ("Algol conceded", "Algol conceded"),
    "end": ("The game master ended the game", "ended the game"),
}


def gm_op(host: Host, op: str, tmp_path: Path) -> None:
    if op == "resume":
        gmops.pause(host.path, at(0.5), "")
    if op == "pause":
        gmops.pause(host.path, at(1), "holidays")
    elif op == "resume":
        gmops.resume(host.path, at(1))
    elif op == "extend":
        gmops.extend(host.path, at(1), to="2026-12-04T00:00:00Z", by=None)
    elif op == "replace":
        assert pbem(["keygen", str(tmp_path / "newbie")]) == 0
        assert pbem(["gm", "replace", str(host.path), "algol", "--email", "new@example.org",
                     "--key", str(tmp_path / "newbie.pub"), "--now", iso(at(1))]) == 0
    elif op == "concede":
        gmops.concede(host.path, at(1), "algol")
    else:
        gmops.end(host.path, at(1), "agreed")


@pytest.mark.parametrize("op", list(OPS))
def test_every_gm_operation_is_mailed_to_every_player(tmp_path, op):
    host = Host(tmp_path)
    host.run(at(0.1))  # the welcome mails
    before = {p: len(host.sent(f"{p}@example.org")) for p in host.powers}
    gm_op(host, op, tmp_path)
    host.run(at(2))
    subject, sentence = OPS[op]
    players = [p for p in host.powers if not (op == "replace" and p == "algol")]
    addresses = [f"{p}@example.org" for p in players]
    if op == "replace":
        addresses.append("new@example.org")
    for address in addresses:
        msg = mail(host, address, subject)
        assert msg["Auto-Submitted"] == "auto-generated"
        assert sentence in text_of(msg) and sentence in " ".join(html_of(msg).split())
    if op == "replace":
        # The new player gets his view, to write orders before his first report.
        new = mail(host, "new@example.org", subject)
        names = [part.get_filename() for part in new.iter_attachments()]
        assert "view.json" in names
        assert "You are now the player of Algol" in text_of(new)
        # The old player is no longer mailed anything about the game.
        assert len(host.sent("algol@example.org")) == before["algol"]


def test_extend_tells_players_whose_orders_are_in_and_the_receipt_quotes_the_new_deadline(
        tmp_path):
    host = Host(tmp_path)
    assert send(host, signed(host, "algol", {}, seq=1), at(1)).verdict == "accepted"
    with freeze_time("2026-12-01T10:00:00Z"):  # gm extend without --now reads the clock
        assert pbem(["gm", "extend", str(host.path), "--by", "24h"]) == 0
    host.run(at(11))
    notice = text_of(mail(host, "algol@example.org", "New deadline for turn 1"))
    assert "Your orders for Algol, turn 1 (seq 1, ready), are in and stand." in notice
    assert "Orders for turn 1 are due Fri 4 Dec 2026 00:00 UTC." in notice
    assert "on Tue 1 Dec 2026 10:00 UTC" in notice
    assert "No orders have arrived yet for Pavo, turn 1." in text_of(
        mail(host, "pavo@example.org", "New deadline for turn 1"))
    # A receipt after the extension quotes the deadline as it is now.
    assert send(host, signed(host, "pavo", {}, seq=1), at(12)).verdict == "accepted"
    host.run(at(13))
    receipt = text_of(mail(host, "pavo@example.org", "Orders received"))
    assert "Orders for turn 1 are due Fri 4 Dec 2026 00:00 UTC." in receipt


def test_the_next_report_lists_the_notices_once(tmp_path):
    host = Host(tmp_path)
    gmops.extend(host.path, at(1), to="2026-12-04T00:00:00Z", by=None)
    for power in host.powers:
        send(host, signed(host, power, {}, seq=1), at(2))
    host.run(at(3))
    report = mail(host, "pavo@example.org", "Turn 1 report")
    assert "GAME MASTER NOTICES" in plain(report)
    assert "The game master moved the deadline for turn 1 on Tue 1 Dec 2026 01:00 UTC: " \
        "orders are now due Fri 4 Dec 2026 00:00 UTC." in text_of(report)
    assert "Game master notices" in html_of(report)
    for power in host.powers:
        send(host, signed(host, power, {}, seq=2), at(4))
    host.run(at(5))
    second = mail(host, "pavo@example.org", "Turn 2 report")
    assert "GAME MASTER NOTICES" not in plain(second)


def test_a_notice_lost_in_a_crash_is_queued_by_the_next_run(tmp_path):
    """A crash between the gm entry (the commit point) and its mail: the turn job queues it."""
    host = Host(tmp_path)
    with locked(host.path):
        game = GameDir.open(host.path)
        key, _ = referee_key(game.root)
        body = {"op": "extend", "deadline": "2026-12-04T00:00:00Z", "time": to_iso(at(1))}
        game.log.append(replay.GM, at(1), replay.sign_gm(key, body))
    host.run(at(2))
    for power in host.powers:
        mail(host, f"{power}@example.org", "New deadline for turn 1")
    host.run(at(3))  # once only
    assert len([s for s in subjects(host) if "New deadline" in s]) == len(host.powers)


# -- late orders -----------------------------------------------------------------------------
def ingest(host: Host, text: str, when: Any, msgid: str) -> subprocess.CompletedProcess[bytes]:
    raw = order_mail(text, msgid=msgid, sender="algol@example.org")
    return subprocess.run([sys.executable, "-m", "pbem", "ingest", str(host.root), "--stdin",
                           "--now", iso(when)], input=raw, capture_output=True, cwd=REPO,
                          check=False, timeout=120)


def test_orders_after_deadline_and_grace_are_refused_with_the_late_notice(tmp_path):
    """55 minutes after the deadline (grace 0 h), before the next run: refused, not used."""
    host = Host(tmp_path)
    done = ingest(host, signed(host, "algol", {}, seq=1), at(48 + 55 / 60), "<late@example.org>")
    assert done.returncode == 0, done.stderr
    assert not host.entries("orders")
    host.run(at(49))
    notice = mail(host, "algol@example.org", "Too late")
    assert str(notice["Subject"]) == \
        "[g1] Too late: orders for Algol, turn 1, were refused"
    text = text_of(notice)
    assert "arrived Thu 3 Dec 2026 00:55 UTC, after the deadline for turn 1 " \
        "(Thu 3 Dec 2026 00:00 UTC)" in text
    assert not [s for s in subjects(host, "algol@example.org") if "Orders received" in s]
    (resolve,) = host.entries("resolve")
    assert resolve.body["used"]["algol"] is None


def test_orders_in_the_grace_period_are_accepted(tmp_path):
    host = Host(tmp_path)
    set_config(host, "grace: 0h", "grace: 2h")
    assert send(host, signed(host, "algol", {}, seq=1), at(49)).verdict == "accepted"
    assert send(host, signed(host, "pavo", {}, seq=1), at(50)).verdict == "rejected"


def test_late_orders_until_the_run_are_accepted_with_a_receipt_that_says_so(tmp_path):
    host = Host(tmp_path)
    config = (host.path / "config.yaml").read_text()
    (host.path / "config.yaml").write_text(config + "late_orders: until-run\n")
    verdict = send(host, signed(host, "algol", {}, seq=1), at(48 + 55 / 60))
    assert verdict.verdict == "accepted"
    host.run(at(49))
    receipt = text_of(mail(host, "algol@example.org", "Orders received"))
    assert "These orders arrived Thu 3 Dec 2026 00:55 UTC, after the deadline for turn 1 " \
        "(Thu 3 Dec 2026 00:00 UTC)." in receipt
    assert "Orders for turn 1 were due Thu 3 Dec 2026 00:00 UTC" in receipt
    (resolve,) = host.entries("resolve")
    assert resolve.body["used"]["algol"] is not None


def test_bad_late_orders_setting_is_refused():
    from pbem.store.gameconfig import ConfigError, GameConfig

    data = {"game_id": "g", "game": "4000ad", "variant": "independents-4",
            "powers": {"algol": {"email": "a@example.org"}},
            "schedule": {"period": "48h"}, "late_orders": "sometimes"}
    with pytest.raises(ConfigError, match="late_orders"):
        GameConfig.from_data(data)
    assert GameConfig.from_data({**data, "late_orders": "until-run"}).late_orders == "until-run"


def test_orders_for_a_missed_resolved_turn_get_the_late_notice(tmp_path):
    host = Host(tmp_path)
    late = signed(host, "algol", {}, seq=5)
    for power in others(host):
        send(host, signed(host, power, {}, seq=1), at(1))
    host.run(at(48))
    assert send(host, late, at(49)).verdict == "rejected"
    # An old file whose orders were used is a replay: a rejection, not a late notice.
    assert send(host, signed(host, "pavo", {}, seq=7, turn=1), at(49)).verdict == "rejected"
    host.run(at(50))
    text = text_of(mail(host, "algol@example.org", "Too late"))
    assert "after turn 1 was resolved. They were not used" in text
    assert "The next orders are due Sat 5 Dec 2026 00:00 UTC." in text
    assert not [s for s in subjects(host, "pavo@example.org") if "Too late" in s]
    assert [s for s in subjects(host, "pavo@example.org") if "rejected" in s]


def test_last_call_names_the_end_of_grace_never_a_past_deadline(tmp_path):
    host = Host(tmp_path)
    set_config(host, "grace: 0h", "grace: 2h")
    with freeze_time("2026-12-03T01:00:00Z"):  # deadline passed, grace running
        assert pbem(["run", str(host.root)]) == 0
    msg = mail(host, "algol@example.org", "Last call")
    assert str(msg["Subject"]) == \
        "[g1] Last call: orders for Algol, turn 1, taken until Thu 3 Dec 2026 02:00 UTC"
    text = text_of(msg)
    assert "The deadline (Thu 3 Dec 2026 00:00 UTC) has passed. Orders that arrive before " \
        "Thu 3 Dec 2026 02:00 UTC, when the grace period ends, are still used" in text
    assert "They are due" not in text and "due Thu 3 Dec 2026 00:00" not in text


# -- ready and early resolution --------------------------------------------------------------
def test_not_ready_orders_keep_the_turn_open_for_a_correction(tmp_path):
    host = Host(tmp_path)
    for power in others(host):
        send(host, signed(host, power, {}, seq=1), at(1))
    first = host.depart("algol", "Algol", 3, "Caph")
    assert send(host, signed(host, "algol", {"depart": first}, seq=1, ready=False),
                at(1)).verdict == "accepted"
    assert host.run(at(2))[0].status == "waiting"  # all in, one not ready: no early resolution
    receipt = text_of(mail(host, "algol@example.org", "Orders received"))
    assert "Your orders are marked not ready (ready: false): you can still replace them " \
        "with a later file with a higher seq (2 or more)" in receipt
    correction = signed(host, "algol", {}, seq=2)  # ready by default
    assert send(host, correction, at(3)).verdict == "accepted"
    assert host.run(at(4))[0].status == "resolved"
    (resolve,) = host.entries("resolve")
    used = resolve.body["used"]["algol"]
    assert used == host.entries("orders")[-1].body["sha256"]
    assert "marked ready: the turn resolves when every power's orders are ready" in text_of(
        [m for m in host.sent("algol@example.org") if "(seq 2)" in str(m["Subject"])][0])


def test_not_ready_orders_are_used_at_the_deadline(tmp_path):
    host = Host(tmp_path)
    for power in others(host):
        send(host, signed(host, power, {}, seq=1), at(1))
    send(host, signed(host, "algol", {}, seq=1, ready=False), at(1))
    assert host.run(at(47))[0].status == "waiting"
    assert host.run(at(48))[0].status == "resolved"
    assert host.entries("resolve")[0].body["used"]["algol"] is not None


def test_ready_must_be_true_or_false(tmp_path):
    from pbem.errors import Rejected
    from pbem.protocol.envelope import check_envelope

    doc = {"pbem": 1, "game": "g1", "power": "algol", "turn": 1, "seq": 1,
           "instance": "0" * 32, "ready": "later", "orders": {}}
    envelope, problems = check_envelope(doc)
    assert envelope is None and [(p.path, p.message) for p in problems] == \
        [("ready", "must be true or false, not 'later'")]
    host = Host(tmp_path)
    with pytest.raises(Rejected, match="ready: must be true or false"):
        sign_orders(yaml.safe_dump(doc, sort_keys=False), host.keys["algol"])
    assert check_envelope({**doc, "ready": False})[0].ready is False
    assert check_envelope({k: v for k, v in doc.items() if k != "ready"})[0].ready is True


# -- the report: missed turns, order of play ---------------------------------------------------
def test_report_says_what_was_done_for_a_missed_turn_and_the_order_of_play(tmp_path):
    host = Host(tmp_path)
    for power in host.powers:
        if power != "algol":
            send(host, signed(host, power, {}, seq=1), at(1))
    host.run(at(48))
    (resolve,) = host.entries("resolve")
    order = ", ".join(p.capitalize() for p in resolve.body["due"])
    algol = text_of(mail(host, "algol@example.org", "Turn 1 report"))
    assert "MISSED TURN - Algol sent no orders for turn 1: its standing orders were used. " \
        "- Turns missed so far: 1 (1 in a row)." in algol
    pavo = mail(host, "pavo@example.org", "Turn 1 report")
    assert "MISSED TURN" not in text_of(pavo)
    assert f"ORDER OF PLAY THIS ROUND The powers were resolved one after the other, in this " \
        f"order: {order}." in text_of(pavo)
    assert "Order of play this round" in html_of(pavo)


# -- seq -------------------------------------------------------------------------------------
def test_rejection_subject_carries_the_seq(tmp_path):
    host = Host(tmp_path)
    bad = {"depart": {"warp": 1, "from": "Nowhere", "ships": 1, "to": "Caph"}}
    for seq in (4, 5):
        assert send(host, signed(host, "algol", bad, seq=seq), at(1)).verdict == "rejected"
    host.run(at(2))
    rejected = [s for s in subjects(host, "algol@example.org") if "rejected" in s]
    assert len(rejected) == 2
    assert any(", seq 4 (" in s for s in rejected) and any(", seq 5 (" in s for s in rejected)


def test_the_form_and_orders_new_give_the_next_seq_after_the_last_accepted(tmp_path):
    host = Host(tmp_path)
    send(host, signed(host, "algol", {}, seq=1), at(1))
    send(host, signed(host, "algol", {}, seq=3), at(1))
    for power in others(host):
        send(host, signed(host, power, {}, seq=1), at(1))
    host.run(at(2))
    report = mail(host, "algol@example.org", "Turn 1 report")
    assert "\nseq: 4\n" in plain(report)
    view = next(p for p in report.iter_attachments() if p.get_filename() == "view.json")
    (tmp_path / "view.json").write_bytes(view.get_content())
    assert json.loads((tmp_path / "view.json").read_text())["last_seq"] == 3
    made = subprocess.run([sys.executable, "-m", "pbem", "orders", "new", "--view",
                           str(tmp_path / "view.json"), "--vault", str(tmp_path / "v.json")],
                          capture_output=True, text=True, cwd=REPO, check=False, timeout=120)
    assert made.returncode == 0, made.stderr
    assert yaml.safe_load(made.stdout)["seq"] == 4
    pavo = mail(host, "pavo@example.org", "Turn 1 report")
    assert "\nseq: 2\n" in plain(pavo)


def test_a_correction_made_with_orders_new_after_sending_the_form_is_accepted(tmp_path):
    """Issue 13: the form was sent, then `pbem orders new` made a correction that was refused as
    an older seq. The player's tool remembers what it signed (the vault), so the correction
    gets the next seq and replaces the form's orders."""
    host = Host(tmp_path)
    (tmp_path / "algol.key").write_bytes((tmp_path / "keys" / "g1-algol.key").read_bytes())
    env_vault = str(tmp_path / "vault.json")

    def tool(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "pbem", "orders", *args, "--vault",
                               env_vault], capture_output=True, text=True, cwd=tmp_path,
                              check=False, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    host.run(at(0.1))
    welcome = mail(host, "algol@example.org", "Welcome")
    view = next(p for p in welcome.iter_attachments() if p.get_filename() == "view.json")
    (tmp_path / "view.json").write_bytes(view.get_content())
    form = plain(welcome).split("----- 8< ----- order file")[1].split("\n", 1)[1]
    form = form.split("----- 8< ----- end of order file")[0]
    (tmp_path / "form.yaml").write_text(form)
    sent = tool("sign", "form.yaml", "--key", "algol.key")
    assert send(host, sent, at(1)).verdict == "accepted"
    correction = tool("new", "--view", "view.json")
    assert yaml.safe_load(correction)["seq"] == yaml.safe_load(form)["seq"] + 1
    (tmp_path / "fix.yaml").write_text(correction)
    verdict = send(host, tool("sign", "fix.yaml", "--key", "algol.key"), at(2))
    assert verdict.verdict == "accepted", verdict.problems
