"""Group commit in ingest (docs/operations.md): a batch of mails from a Maildir is stored, judged,
logged and answered with one durable step per phase and per game. ``pbem ingest`` is killed
(SIGKILL) at every one of those steps in turn; the reruns neither lose nor double anything: each
accepted file logged once, one receipt per accepted file, one rejection per rejected message,
every message handled and acknowledged once."""

from __future__ import annotations

import email
from email import policy
from pathlib import Path

import pytest

from pbem.mail.inbox import Inbox
from pbem.mail.outbox import Outbox
from pbem.store.log import GameLog
from tests.support.group_commit import POINTS, ingest, subjects
from tests.support.ingest_helpers import order_mail
from tests.support.pbem_host import Host


def batch(host: Host, md: Path) -> dict[str, int]:
    """Six mails: every power's orders, a second file of algol's (replacing its first), one
    rejected file (wrong turn), and the first mail delivered twice. Returns what must come of
    it: accepted files, rejections."""
    for sub in ("new", "cur", "tmp"):
        (md / sub).mkdir(parents=True)
    raws = []
    for power in host.powers:
        text = host.orders_text(power, {"depart": host.depart(power, power.capitalize(), 3,
                                                              "Hamal")})
        raws.append(order_mail(text, msgid=f"<{power}-1@example.org>",
                               sender=f"{power}@example.org"))
    text = host.orders_text("algol", {"depart": host.depart("algol", "Algol", 4, "Hamal")})
    raws.append(order_mail(text, msgid="<algol-2@example.org>", sender="algol@example.org"))
    text = host.orders_text("pavo", {}, turn=7)
    raws.append(order_mail(text, msgid="<pavo-late@example.org>", sender="pavo@example.org"))
    raws.append(raws[0])  # the same message delivered again
    for number, raw in enumerate(raws):
        (md / "new" / f"{1000 + number}.host").write_bytes(raw)
    return {"accepted": len(host.powers) + 1, "rejections": 1}


def check(host: Host, md: Path, expected: dict[str, int]) -> None:
    orders = [e for e in GameLog.load(host.path / "log.jsonl").entries if e.kind == "orders"]
    shas = [e.body["sha256"] for e in orders]
    assert len(shas) == len(set(shas)) == expected["accepted"], "each file logged once"
    said = subjects(host)
    receipts = [s for s in said if "Orders received" in s]
    assert len(receipts) == len(set(receipts)) == expected["accepted"], said
    assert len([s for s in said if "Orders rejected" in s]) == expected["rejections"], said
    inbox = Inbox(host.root)
    assert inbox.pending() == [], "every message handled"
    assert not list((md / "new").iterdir()), "every message acknowledged"
    assert all(name.name.endswith(",S") for name in (md / "cur").iterdir())
    # No attempt left counted; a batch record left by a round killed after its done records
    # names nothing pending (the next round with mail drops it).
    attempts = inbox.inbox_dir / "attempts"
    left = [p.name for p in attempts.iterdir()] if attempts.exists() else []
    assert left in ([], ["batch.json"]), left


def test_a_batch_without_a_crash_gives_each_answer_once(tmp_path):
    host = Host(tmp_path)
    md = tmp_path / "md"
    expected = batch(host, md)
    done = ingest(host, md)
    assert done.returncode == 0, done.stderr
    assert "7 message(s): 6 order block(s)" in done.stdout, done.stdout
    check(host, md, expected)
    # The marker names the file that counts (algol's second), read without every sidecar.
    marker = host.path / "submissions" / "turn-0001" / "algol" / "ACCEPTED"
    best = host.game().submissions.accepted(1)["algol"]
    assert marker.read_text().strip() == best.name + ".txt" and best.seq == 2


@pytest.mark.parametrize("point", POINTS)
def test_killed_at_each_durable_step_of_a_batch_then_rerun(tmp_path, point):
    host = Host(tmp_path)
    md = tmp_path / "md"
    expected = batch(host, md)
    crashed = ingest(host, md, {"PBEM_CRASH_AT": point})
    assert crashed.returncode == -9, (point, crashed.stdout, crashed.stderr)
    done = ingest(host, md)
    assert done.returncode == 0, done.stderr
    check(host, md, expected)
    again = ingest(host, md)
    assert again.returncode == 0, again.stderr
    check(host, md, expected)


def test_after_a_killed_batch_its_messages_are_handled_one_by_one(tmp_path):
    """The round killed while handling leaves its batch record; the next round handles those
    messages alone, each counting its own attempts (a message that killed the batch cannot
    cost the others their tries), and finishes them."""
    host = Host(tmp_path)
    md = tmp_path / "md"
    expected = batch(host, md)
    crashed = ingest(host, md, {"PBEM_CRASH_AT": "ingest-handling"})
    assert crashed.returncode == -9
    inbox = Inbox(host.root)
    record = inbox.inbox_dir / "attempts" / "batch.json"
    assert record.exists() and len(inbox.pending()) == 6
    # Killed again at the first message, now handled alone: only that one counts an attempt.
    again = ingest(host, md, {"PBEM_CRASH_AT": "ingest-handling"})
    assert again.returncode == -9
    counted = [p.name for p in (inbox.inbox_dir / "attempts").iterdir() if p != record]
    assert len(counted) == 1
    done = ingest(host, md)
    assert done.returncode == 0, done.stderr
    check(host, md, expected)


def test_batched_replies_are_threaded_mail_with_text_and_html(tmp_path):
    """Receipts and rejections are composed as wire bytes and queued in one outbox batch per
    game: what the player receives is the same mail as before — to the registered address,
    threaded under the player's message and the game's thread, marked as an automatic reply,
    a text part with an HTML alternative."""
    host = Host(tmp_path)
    md = tmp_path / "md"
    batch(host, md)
    assert ingest(host, md).returncode == 0
    outbox = Outbox(host.path / "outbox")
    replies = {}
    for entry in outbox.pending():
        msg = email.message_from_bytes(outbox.raw(entry.id), policy=policy.default)
        if "Orders" in str(msg["Subject"]):
            assert entry.batch is not None, "queued in one batch with the game's other replies"
            replies[str(msg["In-Reply-To"])] = msg
    assert set(replies) == {f"<{p}-1@example.org>" for p in host.powers} | {
        "<algol-2@example.org>", "<pavo-late@example.org>"}
    for parent, msg in replies.items():
        power = parent[1:].split("-")[0]
        assert str(msg["To"]) == f"{power}@example.org"
        assert str(msg["From"]) == "Referee <referee@example.org>"
        assert str(msg["References"]).split() == ["<game.g1@example.org>", parent]
        assert str(msg["Auto-Submitted"]) == "auto-replied" and msg["List-Id"] is not None
        body = [p.get_content_type() for p in msg.walk() if not p.is_attachment()]
        assert [t for t in body if t.startswith("text/")] == ["text/plain", "text/html"]
        files = [p.get_filename() for p in msg.iter_attachments()]
        receipt = "Orders received" in str(msg["Subject"])
        assert files == (["checkpoint.txt", "receipt.txt"] if receipt else [])
    assert "seq 2" in str(replies["<algol-2@example.org>"]["Subject"])
    assert "rejected" in str(replies["<pavo-late@example.org>"]["Subject"])
