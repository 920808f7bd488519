"""Hostile mail as an attacker sends it: real mails piped into ``pbem ingest ROOT --stdin`` as a
subprocess under a memory cap (RLIMIT_AS), so a regression fails the test, not the machine.

Each test here failed on the code before issue 11's fixes:

- a From with 500 nested parentheses raised RecursionError and stopped the root for good;
- a Subject of many RFC 2047 encoded words needed memory growing with its square;
- a message that kills its process is handled at most MAX_ATTEMPTS times, then quarantined;
- 2,400 forged blocks claiming a power made 2,400 rejection mails with the attacker's text;
- an autoresponder without RFC 3834 headers, or a forged From of a player, was answered every
  time (and its subject echoed);
- a player could grow the log without limit (no per-power quota);
- "Name <addr>" registrations never got a "no orders" reply.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml

from pbem.host import accept
from pbem.mail.inbox import MAX_ATTEMPTS, Inbox
from pbem.mail.replylimits import PER_POWER, PER_SENDER, SAME_SUBJECT
from pbem.protocol.orderdoc import sign_orders
from pbem.store.lock import try_lock
from pbem.store.log import GameLog
from tests.support.ingest_helpers import (
    NOW,
    REPO,
    World,
    everything_in,
    order_mail,
    pristine,
    queued,
    registered,
)
from tests.support.pbem_host import Host, at, instance_of, iso
from tests.support.run import cap_memory as _cap
from tests.support.run import pbem

#: The address-space cap of every ingest subprocess. A normal ingest needs well under it; the
#: quadratic subject of issue 11 needed 2.7 GB for 280 KB.
MARKER = "ATTACKER-TEXT-7d1c"


@pytest.fixture(scope="session")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return pristine(tmp_path_factory)


def pipe(root: Path, raw: bytes, now: datetime = NOW,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return pbem("ingest", str(root), "--stdin", "--now", iso(now), stdin=raw, env=env)


def mail(*, sender: str, subject: str, body: str, msgid: str,
         extra: dict[str, str] | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "referee@example.org"
    msg["Subject"] = subject
    msg["Message-ID"] = msgid
    for k, v in (extra or {}).items():
        msg[k] = v
    msg.set_content(body)
    return msg.as_bytes()


def reason_of(root: Path, raw: bytes) -> str | None:
    import hashlib
    sha = hashlib.sha256(raw).hexdigest()
    return dict(Inbox(root).quarantined()).get(sha)


def subjects(root: Path, to: str) -> list[str]:
    return [str(m["Subject"]) for _game, m in queued(root) if to in str(m["To"])]


# -- 1. poison message -------------------------------------------------------------------------


def test_nested_parentheses_in_from_are_quarantined_and_the_root_goes_on(
        world: World, tmp_path: Path) -> None:
    root = world.clone(tmp_path / "root")
    poison = (b"From: " + b"(" * 500 + b"x" + b")" * 500 + b" <evil@stranger.example>\r\n"
              b"To: referee@example.org\r\nSubject: hi\r\nMessage-ID: <poison@x>\r\n\r\nhello\r\n")
    assert len(poison) < 1200
    first = pipe(root, poison)
    assert first.returncode == 0, first.stderr.decode()[-2000:]
    reason = reason_of(root, poison)
    assert reason is not None and "headers-too-deep" in reason
    # The root goes on: the next order mail is accepted and pbem run works.
    order = order_mail(world.sign("algol"), msgid="<after-poison@example.org>")
    after = pipe(root, order)
    assert after.returncode == 0, after.stderr.decode()[-2000:]
    assert "accepted: demo-1/algol turn 3" in after.stdout.decode()
    run = pbem("run", str(root), "--now", iso(NOW), "--no-send")
    assert run.returncode == 0, run.stderr.decode()[-2000:]
    assert "Traceback" not in run.stderr.decode()


# -- 2. quadratic header decoding ---------------------------------------------------------------


def test_subject_of_many_encoded_words_is_refused_before_it_is_decoded(
        world: World, tmp_path: Path) -> None:
    root = world.clone(tmp_path / "root")
    words = " ".join(["=?utf-8?q?caf=C3=A9?="] * 14_000)  # ~280 KB
    raw = (f"From: stranger@example.net\r\nTo: referee@example.org\r\nSubject: {words}\r\n"
           f"Message-ID: <quadratic@x>\r\n\r\nhello\r\n").encode()
    assert len(raw) > 250_000
    done = pipe(root, raw)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    reason = reason_of(root, raw)
    assert reason is not None and ("headers-too-big" in reason
                                   or "too-many-encoded-words" in reason)


def test_many_encoded_words_in_a_small_header_section_are_refused_too(
        world: World, tmp_path: Path) -> None:
    """Under the header-size cap, the encoded-word budget is what refuses it."""
    root = world.clone(tmp_path / "root")
    words = " ".join(["=?utf-8?b?w6k=?="] * 2_000)
    raw = (f"From: stranger@example.net\r\nSubject: {words}\r\nMessage-ID: <ew@x>\r\n\r\nhi\r\n"
           ).encode()
    assert pipe(root, raw).returncode == 0
    reason = reason_of(root, raw)
    assert reason is not None and "too-many-encoded-words" in reason


# -- 3. bounded attempts ----------------------------------------------------------------------


def test_a_message_that_kills_its_process_is_quarantined_after_the_last_attempt(
        world: World, tmp_path: Path) -> None:
    """SIGKILL while handling (what the OOM killer does): the MTA and every later run retry;
    after MAX_ATTEMPTS unfinished starts the message is quarantined unread, and the rest of
    the root goes on."""
    root = world.clone(tmp_path / "root")
    raw = order_mail(world.sign("algol"), msgid="<killer@example.org>")
    crash = {"PBEM_CRASH_AT": "ingest-handling"}
    for _ in range(MAX_ATTEMPTS):
        killed = pipe(root, raw, env=crash)
        assert killed.returncode == -9
    done = pipe(root, raw)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    reason = reason_of(root, raw)
    assert reason is not None and f"started {MAX_ATTEMPTS} times and never finished" in reason
    gm = pbem("gm", "quarantine", str(root))
    assert gm.returncode == 0 and "never finished" in gm.stdout.decode()
    # The GM releases it once the cause is fixed: the next run handles it normally.
    released = pbem("gm", "release", str(root), Inbox(root).quarantined()[0][0][:12])
    assert released.returncode == 0, released.stderr.decode()
    again = pbem("run", str(root), "--now", iso(NOW), "--no-send")
    assert again.returncode == 0, again.stderr.decode()[-2000:]
    assert "accepted: demo-1/algol turn 3" in again.stdout.decode()
    assert reason_of(root, raw) is None


# -- 4. rejection flood -----------------------------------------------------------------------


def _forged_blocks(world: World, count: int) -> str:
    """``count`` blocks claiming Algol's orders, each with the attacker's text added after
    signing (a stranger has no key: the signature does not match)."""
    genuine = world.sign("algol")
    blocks = (genuine.replace("power: algol", f"power: algol\n# {MARKER} {i}", 1)
              for i in range(count))
    # Quoted as in a reply ("> "): the dash lines do not look like MIME boundaries then.
    return "\n".join("\n".join("> " + line for line in b.splitlines()) for b in blocks)


def test_thousands_of_forged_blocks_give_one_rejection_without_the_attackers_text(
        world: World, tmp_path: Path) -> None:
    root = world.clone(tmp_path / "root")
    body = _forged_blocks(world, 2_400)
    raw = mail(sender="evil@stranger.example", subject=f"{MARKER} orders", body=body,
               msgid="<flood@stranger.example>")
    assert len(raw) > 200_000
    done = pipe(root, raw)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert done.stdout.decode().count("rejected: demo-1/algol") == 2_400
    mails = [m for _g, m in queued(root) if registered("algol") in str(m["To"])]
    assert len(mails) == 1
    text = everything_in(mails[0])
    assert MARKER not in text
    assert "2400 block(s)" in text
    assert not [m for _g, m in queued(root) if "stranger.example" in str(m["To"])]


def test_reply_limits_per_sender_and_per_power(world: World, tmp_path: Path) -> None:
    """Each forged mail (one block) would get its rejection; the sender limit stops them at
    PER_SENDER, and many senders together at PER_POWER."""
    root = world.clone(tmp_path / "root")
    for i in range(PER_SENDER + 2):
        raw = mail(sender="evil@stranger.example", subject=f"try {i}",
                   body=_forged_blocks(world, 1), msgid=f"<s{i}@stranger.example>")
        assert pipe(root, raw).returncode == 0
    assert len(subjects(root, registered("algol"))) == PER_SENDER
    for i in range(PER_POWER):
        raw = mail(sender=f"evil{i}@stranger.example", subject=f"other {i}",
                   body=_forged_blocks(world, 1), msgid=f"<p{i}@stranger.example>")
        assert pipe(root, raw).returncode == 0
    assert len(subjects(root, registered("algol"))) == PER_POWER


def test_strangers_cannot_spend_the_reply_budget_of_the_players_own_signed_files(
        world: World, tmp_path: Path) -> None:
    """Forged mails claiming Algol (bad signatures, from strangers and from Algol's own
    address) spend every ordinary budget; the player's own file, signed with his key but
    rejected, still gets its rejection. That file sent again by a stranger gets none."""
    root = world.clone(tmp_path / "root")
    forgers = [registered("algol")] * PER_SENDER + [
        f"evil{i}@stranger.example" for i in range(PER_POWER + 2)]
    for i, sender in enumerate(forgers):
        raw = mail(sender=sender, subject=f"forged {i}", body=_forged_blocks(world, 1),
                   msgid=f"<forged-{i}@stranger.example>")
        done = pipe(root, raw)
        assert done.returncode == 0, done.stderr.decode()[-2000:]
    spent = subjects(root, registered("algol"))
    assert len(spent) == PER_POWER  # every ordinary reply to Algol is spent
    over = pipe(root, mail(sender="late@stranger.example", subject="one more",
                           body=_forged_blocks(world, 1), msgid="<forged-more@x>"))
    assert "not mailed: reply limit" in over.stdout.decode()

    own = world.sign("algol", {"depart": {"warp": 1, "from": "Algol", "ships": 9999,
                                          "commitment": "0" * 64}})
    done = pipe(root, order_mail(own, msgid="<own-bad@example.org>"))
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert "rejected: demo-1/algol turn 3 —" in done.stdout.decode()
    after = subjects(root, registered("algol"))
    assert len(after) == PER_POWER + 1
    [answer] = [m for _g, m in queued(root) if "own-bad@example.org" in str(m["In-Reply-To"])]
    assert "rejected" in str(answer["Subject"]).lower()
    assert "ships" in everything_in(answer)

    # The same signed file, sent again by a stranger: answered already, so it is one more
    # unauthenticated trigger, and that budget is spent.
    again = pipe(root, order_mail(own, msgid="<replayed@stranger.example>",
                                  sender="evil0@stranger.example"))
    assert again.returncode == 0, again.stderr.decode()[-2000:]
    assert "not mailed: reply limit" in again.stdout.decode()
    assert len(subjects(root, registered("algol"))) == PER_POWER + 1


# -- 5. and 6. autoresponders and forged From --------------------------------------------------


def test_autoresponder_without_rfc3834_headers_is_not_answered_in_a_loop(
        world: World, tmp_path: Path) -> None:
    root = world.clone(tmp_path / "root")
    for i in range(6):
        raw = mail(sender=registered("algol"), subject="Re: [demo-1] No signed orders found",
                   body="I am away until Monday.", msgid=f"<away{i}@example.org>")
        assert pipe(root, raw).returncode == 0
    assert len(subjects(root, registered("algol"))) == SAME_SUBJECT - 1


def test_out_of_office_subject_is_never_answered(world: World, tmp_path: Path) -> None:
    root = world.clone(tmp_path / "root")
    raw = mail(sender=registered("pavo"), subject="Out of Office: orders",
               body="I am away.", msgid="<ooo@example.org>")
    assert pipe(root, raw).returncode == 0
    assert subjects(root, registered("pavo")) == []
    assert "not answered" in (reason_of(root, raw) or "")


def test_forged_from_of_a_player_is_rate_limited_and_its_subject_not_echoed(
        world: World, tmp_path: Path) -> None:
    root = world.clone(tmp_path / "root")
    for i in range(PER_SENDER + 3):
        raw = mail(sender=registered("pavo"), subject=f"{MARKER} click http://evil.example/{i}",
                   body="no orders here", msgid=f"<forged{i}@evil.example>")
        assert pipe(root, raw).returncode == 0
    mails = [m for _g, m in queued(root) if registered("pavo") in str(m["To"])]
    assert len(mails) == PER_SENDER
    # (only the Message-ID comes back, in In-Reply-To: threading, not text)
    assert all(MARKER not in everything_in(m) and "evil.example/" not in everything_in(m)
               for m in mails)


# -- 7. arrival time and the resolution -------------------------------------------------------


def test_an_order_stored_while_the_inbox_is_held_counts_from_its_arrival_and_is_resolved(
        world: World, tmp_path: Path) -> None:
    root = world.clone(tmp_path / "root")
    arrived = at(50)  # before the deadline at(52)
    lock = try_lock(Inbox(root).inbox_dir)
    assert lock is not None
    try:
        raw = order_mail(world.sign("algol"), msgid="<while-held@example.org>")
        stored = pipe(root, raw, now=arrived)
        assert stored.returncode == 0
        assert "stored for it" in stored.stdout.decode()
        run = subprocess.Popen([sys.executable, "-m", "pbem", "run", str(root), "--now",
                                iso(at(53)), "--no-send"], cwd=REPO, preexec_fn=_cap,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    finally:
        lock.release()
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0, err.decode()[-2000:]
    assert "demo-1: resolved" in out.decode()
    entries = GameLog.load(root / "demo-1" / "log.jsonl").entries
    orders = [e for e in entries if e.kind == "orders" and e.body["turn"] == 3]
    assert [o.body["received"] for o in orders] == [iso(arrived)]
    resolve = [e for e in entries if e.kind == "resolve"][-1]
    assert resolve.body["turn"] == 3 and resolve.body["used"]["algol"] == orders[0].body["sha256"]


def test_a_correction_stored_while_another_process_holds_the_inbox_is_used(
        world: World, tmp_path: Path) -> None:
    """Issue 27: the run used to give up on the busy inbox after its wait and resolve without
    the stored correction, which the next run then rejected as late. Now the turn waits for
    every message stored before its deadline, however long the inbox is held."""
    root = world.clone(tmp_path / "root")
    first = pipe(root, order_mail(world.sign("algol", seq=10), msgid="<seq10@example.org>"),
                 now=at(49))
    assert b"accepted: demo-1/algol turn 3" in first.stdout, first.stdout
    lock = try_lock(Inbox(root).inbox_dir)  # another process, busy with the inbox
    assert lock is not None
    try:
        correction = world.sign("algol", {}, seq=11)
        stored = pipe(root, order_mail(correction, msgid="<seq11@example.org>"), now=at(50))
        assert b"stored for it" in stored.stdout
        held = pbem("run", str(root), "--now", iso(at(53)), "--no-send",
                    env={"PBEM_INBOX_WAIT": "0.2"})
    finally:
        lock.release()
    out = held.stdout.decode()
    assert held.returncode == 0, held.stderr.decode()[-2000:]
    assert "demo-1: waiting" in out and "1 message(s) stored before the deadline" in out, out
    assert f"(pid {os.getpid()} holds the inbox)" in out
    log = root / "demo-1" / "log.jsonl"
    assert [e.body["turn"] for e in GameLog.load(log).entries if e.kind == "resolve"] == [1, 2]
    done = pbem("run", str(root), "--now", iso(at(54)), "--no-send")
    assert done.returncode == 0 and "demo-1: resolved" in done.stdout.decode()
    entries = GameLog.load(log).entries
    used = [e for e in entries if e.kind == "resolve"][-1].body["used"]["algol"]
    seq11 = [e for e in entries if e.kind == "orders" and e.body["seq"] == 11]
    assert [o.body["received"] for o in seq11] == [iso(at(50))]
    assert used == seq11[0].body["sha256"], "the correction stored before the deadline is used"
    assert not [s for s in subjects(root, registered("algol")) if "rejected" in s.lower()
                or "too late" in s.lower()]


def test_a_message_pending_for_another_busy_game_does_not_hold_this_one(
        world: World, tmp_path: Path) -> None:
    """A game whose lock stays taken (a hung process) keeps its own mail pending, noted with
    that game: it never holds the turn of another game."""
    root = world.clone(tmp_path / "root")
    for power in world.demo.powers:  # every order of turn 3 in: due at the deadline
        assert b"accepted" in pipe(root, order_mail(world.sign(power, {}), msgid=f"<{power}-in>",
                                                    sender=registered(power)), now=at(40)).stdout
    lock = try_lock(root / "finished-1")
    assert lock is not None
    try:
        raw = order_mail(world.sign("algol", {}, game="finished-1", turn=3),
                         msgid="<busy@example.org>")
        waits = pipe(root, raw, now=at(50))
        assert b"finished-1 is busy" in waits.stdout, waits.stdout
        run = pbem("run", str(root), "--now", iso(at(53)), "--no-send",
                   env={"PBEM_INBOX_WAIT": "0.2"})
    finally:
        lock.release()
    assert run.returncode == 0 and "demo-1: resolved" in run.stdout.decode(), run.stdout


def test_an_older_seq_arriving_after_the_newer_one_is_superseded_not_rejected(
        world: World, tmp_path: Path) -> None:
    """Mail overtakes mail (and a crash can make a later file be judged first): seq 20 was
    accepted, then seq 19 arrives — before the resolution and after it. Neither is an error
    of the player: each is answered once as superseded, never as rejected, and seq 20 is the
    one used."""
    root = world.clone(tmp_path / "root")
    older = world.sign("algol", {}, seq=19)
    newer = world.sign("algol", seq=20)
    assert b"accepted" in pipe(root, order_mail(newer, msgid="<s20@x>"), now=at(49)).stdout
    late = pipe(root, order_mail(older, msgid="<s19@x>"), now=at(50))
    assert b"superseded: demo-1/algol turn 3" in late.stdout, late.stdout
    assert pbem("run", str(root), "--now", iso(at(53)), "--no-send").returncode == 0
    entries = GameLog.load(root / "demo-1" / "log.jsonl").entries
    used = [e for e in entries if e.kind == "resolve"][-1].body["used"]["algol"]
    assert used == [e for e in entries if e.kind == "orders" and e.body["seq"] == 20][0] \
        .body["sha256"]
    again = pipe(root, order_mail(older, msgid="<s19-again@x>"), now=at(54))  # after it was used
    assert b"superseded: demo-1/algol turn 3" in again.stdout, again.stdout
    to_algol = subjects(root, registered("algol"))
    assert not [s for s in to_algol if "rejected" in s.lower() or "too late" in s.lower()]
    assert len([s for s in to_algol if "seq 19 came after seq 20" in s]) == 1, to_algol


# -- 8. a crash between the log entry and the receipt --------------------------------------


def test_retry_after_a_crash_before_the_receipt_gets_the_receipt_not_a_rejection(
        world: World, tmp_path: Path) -> None:
    root = world.clone(tmp_path / "root")
    raw = order_mail(world.sign("algol"), msgid="<crash@example.org>")
    killed = pipe(root, raw, now=at(50), env={"PBEM_CRASH_AT": "after-orders-append"})
    assert killed.returncode == -9
    # The turn resolves (the logged order is used); the MTA retries the delivery afterwards.
    # (the run's own ingest would handle the stored message first: keep it out of the inbox)
    Inbox(root).quarantine(Inbox(root).pending()[0], "held back by the test")
    run = pbem("run", str(root), "--now", iso(at(53)), "--no-send")
    assert run.returncode == 0 and "demo-1: resolved" in run.stdout.decode()
    Inbox(root).release(Inbox(root).quarantined()[0][0])
    retry = pipe(root, raw, now=at(54))
    assert retry.returncode == 0, retry.stderr.decode()[-2000:]
    assert "already logged: demo-1/algol turn 3" in retry.stdout.decode()
    to_algol = subjects(root, registered("algol"))
    assert any("rejected" not in s.lower() and "turn 3" in s for s in to_algol), to_algol
    assert not [s for s in to_algol if "rejected" in s.lower()]


# -- 9. per-power quota -----------------------------------------------------------------------


def test_a_player_cannot_grow_the_log_past_the_quota(world: World, tmp_path: Path) -> None:
    root = world.clone(tmp_path / "root")
    host = world.demo
    padding = "\n".join(f"# {'x' * 70}" for _ in range(800))  # ~58 KB of comments
    texts = []
    for seq in range(10, 16):
        doc = {"pbem": 1, "game": "demo-1", "power": "algol", "turn": 3, "seq": seq,
               "instance": instance_of(root / "demo-1"), "orders": {}}
        texts.append(sign_orders(yaml.safe_dump(doc, sort_keys=False) + padding + "\n",
                                 host.keys["algol"]))
    msg = EmailMessage()
    msg["From"] = registered("algol")
    msg["Subject"] = "orders"
    msg["Message-ID"] = "<quota@example.org>"
    msg.set_content("six files")
    for i, text in enumerate(texts):
        msg.add_attachment(text, filename=f"o{i}.txt")
    done = pipe(root, msg.as_bytes())
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    out = done.stdout.decode()
    accepted = out.count("accepted: demo-1/algol")
    assert 0 < accepted < len(texts)
    cap = f"{accept.ORDER_BYTES_PER_TURN:,} bytes per power per turn"
    assert out.count(cap) == len(texts) - accepted
    logged = sum(len(e.body["text"].encode()) for e in
                 GameLog.load(root / "demo-1" / "log.jsonl").entries
                 if e.kind == "orders" and e.body["turn"] == 3)
    assert logged <= accept.ORDER_BYTES_PER_TURN
    [rejection] = [m for _g, m in queued(root) if "rejected" in str(m["Subject"]).lower()]
    assert cap in " ".join(everything_in(rejection).split())


# -- 10. "Name <addr>" registrations -----------------------------------------------------------


def test_name_addr_registration_gets_the_no_orders_reply(world: World, tmp_path: Path) -> None:
    root = world.clone(tmp_path / "root")
    config = root / "demo-1" / "config.yaml"
    text = config.read_text()
    assert "algol@example.org" in text
    config.write_text(text.replace("algol@example.org", '"Algol Player <algol@example.org>"', 1))
    raw = mail(sender="Algol <ALGOL@example.org>", subject="orders", body="forgot to sign",
               msgid="<nameaddr@example.org>")
    done = pipe(root, raw)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert "answered at algol@example.org" in done.stdout.decode()
    assert len(subjects(root, "algol@example.org")) == 1


# -- 11. a file of an earlier instance of the game -----------------------------------------------


def test_a_file_of_an_earlier_instance_of_the_game_is_refused_and_blocks_nothing(
        tmp_path: Path) -> None:
    """A game deleted and made again under the same id with the same players' keys is a new
    instance. Algol's file accepted by the first one, replayed in a new mail, is refused with
    one sentence naming both instances; a file without instance is refused with one sentence
    saying how to get it; neither stands in the way: his own seq 0 of the new instance is
    accepted after them."""
    host = Host(tmp_path)
    old = host.orders_text("algol", {}, seq=0)
    first = pipe(host.root, order_mail(old, msgid="<first@example.org>"), now=at(1))
    assert first.returncode == 0, first.stderr.decode()[-2000:]
    assert "accepted: g1/algol turn 1" in first.stdout.decode()
    was = instance_of(host.path)
    host.recreate()
    now = instance_of(host.path)
    assert now != was and not host.entries("orders")

    def refused(raw: bytes, when: float) -> str:
        done = pipe(host.root, raw, now=at(when))
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        assert "accepted" not in done.stdout.decode() and "Traceback" not in done.stderr.decode()
        mails = [m for _g, m in queued(host.root) if "rejected" in str(m["Subject"]).lower()]
        return " ".join(everything_in(mails[-1]).split())

    said = refused(order_mail(old, msgid="<replay@example.org>"), 2)
    assert (f"instance: this file is for another instance of game g1 ({was[:12]}…), not the "
            f"one running now ({now[:12]}…): start your orders from your latest report "
            "(`pbem orders new --view REPORT.eml`)") in said
    bare = {"pbem": 1, "game": "g1", "power": "algol", "turn": 1, "seq": 0, "orders": {}}
    said = refused(order_mail(sign_orders(yaml.safe_dump(bare, sort_keys=False),
                                          host.keys["algol"], check=False),
                                 msgid="<bare@example.org>"), 3)
    assert ("instance: missing: the game instance this file is for (the instance: line of your "
            "report's order form), which `pbem orders new --view REPORT.eml` writes") in said
    assert not host.entries("orders")
    mine = pipe(host.root, order_mail(host.orders_text("algol", {}, seq=0),
                                      msgid="<mine@example.org>"), now=at(4))
    assert mine.returncode == 0, mine.stderr.decode()[-2000:]
    assert "accepted: g1/algol turn 1" in mine.stdout.decode()
    [entry] = host.entries("orders")
    assert entry.body["seq"] == 0 and f"instance: {now}" in entry.body["text"]
