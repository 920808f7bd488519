"""Composing receipts and reports: headers, threading, loop markers, and no header injection."""

from __future__ import annotations

import email
from datetime import UTC, datetime
from email import policy

import pytest

from pbem.mail.compose import (
    Attachment,
    compose,
    header_safe,
    list_id,
    reply_subject,
    thread_root,
    to_bytes,
)
from pbem.mail.triage import triage
from tests.support.mail_corpus import REFEREE, build

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def receipt(subject: str, **kw: object) -> bytes:
    msg = compose(
        sender=REFEREE,
        to="vega@players.example",
        subject=reply_subject(subject),
        text="Your orders for turn 3 were accepted.",
        html="<p>Your orders for turn 3 were accepted.</p>",
        date=NOW,
        domain="pbem.example",
        auto_submitted="auto-replied",
        **kw,  # type: ignore[arg-type]
    )
    return to_bytes(msg)


def header_lines(raw: bytes) -> list[str]:
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii")
    return head.split("\r\n")


HOSTILE_SUBJECTS = [
    "orders\r\nBcc: victim@example.org",
    "orders\nBcc: victim@example.org",
    "orders\rBcc: victim@example.org",
    "orders\x00\r\n\r\n<html>spam</html>",
    "orders\u2028Bcc: victim@example.org",
    "orders\x85Bcc: victim@example.org",
    "x" * 5000,
]


@pytest.mark.parametrize("subject", HOSTILE_SUBJECTS)
def test_echoed_subject_cannot_inject_headers(subject: str) -> None:
    raw = receipt(subject)
    lines = header_lines(raw)
    names = [line.split(":", 1)[0].lower() for line in lines if line and not line[0].isspace()]
    assert "bcc" not in names
    assert names.count("subject") == 1
    parsed = email.message_from_bytes(raw, policy=policy.default)
    assert parsed["Bcc"] is None
    assert "\n" not in str(parsed["Subject"]) and "\r" not in str(parsed["Subject"])
    assert len(str(parsed["Subject"])) <= 250


def test_subjects_from_the_corpus_are_echoed_safely() -> None:
    """The injection cases of the corpus, parsed as ingest will, then echoed in a receipt."""
    for case in build():
        if not case.name.startswith("subject-injection"):
            continue
        result = triage(case.raw)
        raw = receipt(result.subject, in_reply_to=result.message_id)
        names = [line.split(":", 1)[0].lower() for line in header_lines(raw)]
        assert "bcc" not in names, case.name


def test_email_message_itself_refuses_raw_crlf() -> None:
    """Why header_safe exists: without it, a hostile subject would crash the receipt."""
    with pytest.raises(ValueError):
        compose(
            sender=REFEREE,
            to="a@b.example",
            subject="ok",
            text="x",
            date=NOW,
            domain="pbem.example",
            auto_submitted="auto-replied",
            extra_headers=(),
        )["X-Test"] = "a\r\nBcc: victim@example.org"


def test_header_safe_and_reply_subject() -> None:
    assert header_safe("a\r\n\tb  c\x00") == "a b c"
    assert header_safe("\u202eevil") == "evil"
    assert reply_subject("Re: RE: orders") == "Re: orders"
    assert reply_subject("") == "Re: your orders"


def test_receipt_headers_and_threading() -> None:
    raw = receipt(
        "orders",
        in_reply_to="<abc@players.example>",
        references=["<root@players.example>", "not an id", "<x y@z>"],
        game="Demo 1",
    )
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["X-Auto-Response-Suppress"] == "All"
    assert msg["In-Reply-To"] == "<abc@players.example>"
    assert msg["References"].split() == [
        thread_root("Demo 1", "pbem.example"),
        "<root@players.example>",
        "<abc@players.example>",
    ]
    assert msg["List-Id"] == list_id("Demo 1", "pbem.example") == "Demo 1 <demo-1.pbem.example>"
    assert msg["Message-ID"].endswith("@pbem.example>")
    assert msg["Date"] == "Tue, 01 Dec 2026 12:00:00 +0000"
    assert msg.get_content_type() == "multipart/alternative"
    assert [p.get_content_type() for p in msg.iter_parts()] == ["text/plain", "text/html"]
    assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")


def test_report_with_attachment_threads_under_the_game_root() -> None:
    msg = compose(
        sender=REFEREE,
        to=["vega@players.example"],
        subject="Turn 4 report — Vega",
        text="Report ✓",
        html="<p>Report ✓</p>",
        attachments=[Attachment("view.json", b'{"turn": 4}', "application", "json")],
        date=NOW,
        domain="pbem.example",
        auto_submitted="auto-generated",
        game="demo-1",
    )
    parsed = email.message_from_bytes(to_bytes(msg), policy=policy.default)
    assert parsed["Auto-Submitted"] == "auto-generated"
    assert parsed["In-Reply-To"] == parsed["References"] == "<game.demo-1@pbem.example>"
    assert parsed["Subject"] == "Turn 4 report — Vega"
    (attachment,) = parsed.iter_attachments()
    assert attachment.get_filename() == "view.json"
    assert attachment.get_content() == b'{"turn": 4}'
    assert max(len(line) for line in to_bytes(msg).split(b"\r\n")) <= 998


def test_our_own_mail_coming_back_is_never_answered() -> None:
    raw = receipt("orders", game="demo-1")
    result = triage(raw, own_addresses=[REFEREE])
    assert result.no_reply is not None and result.no_reply.code == "auto-submitted"


def test_naive_date_is_refused() -> None:
    with pytest.raises(ValueError):
        compose(
            sender=REFEREE,
            to="a@b.example",
            subject="x",
            text="x",
            date=datetime(2026, 1, 1),
            domain="pbem.example",
            auto_submitted="auto-generated",
        )
