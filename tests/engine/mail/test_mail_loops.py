"""RFC 3834 and friends: which messages must never get an automatic reply."""

from __future__ import annotations

import email
from email import policy

import pytest

from pbem.mail.loops import no_reply_reason, reply_address

OWN = ["referee@pbem.example"]


def msg(headers: str, body: str = "hi\r\n"):
    return email.message_from_bytes(
        (headers.replace("\n", "\r\n") + "\r\n" + body).encode(), policy=policy.default
    )


BASE = "From: Vega <vega@players.example>\nTo: referee@pbem.example\nSubject: x\n"


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ("", None),
        ("Auto-Submitted: no\n", None),
        ("Auto-Submitted: No\n", None),
        ("Auto-Submitted: auto-replied\n", "auto-submitted"),
        ("Auto-Submitted: auto-generated; by=cron\n", "auto-submitted"),
        ("Auto-Submitted: auto-notified\n", "auto-submitted"),
        ("X-Autorespond: yes\n", "auto-submitted"),
        ("Precedence: bulk\n", "bulk"),
        ("Precedence: JUNK\n", "bulk"),
        ("Precedence: first-class\n", None),
        ("List-Id: <players.lists.example>\n", "list"),
        ("List-Unsubscribe: <mailto:x@lists.example>\n", "list"),
        ("Return-Path: <>\n", "bounce"),
        ("Return-Path: <vega@players.example>\n", None),
        ("Return-Path: <referee@pbem.example>\n", "own-address"),
        ('Content-Type: multipart/report; report-type=delivery-status; boundary="b"\n', "report"),
    ],
)
def test_headers(extra: str, code: str | None) -> None:
    reason = no_reply_reason(msg(BASE + extra), OWN)
    assert (reason.code if reason else None) == code
    if reason:
        assert str(reason) and "\n" not in str(reason)


@pytest.mark.parametrize(
    ("sender", "code"),
    [
        ("MAILER-DAEMON@mx.players.example", "robot-sender"),
        ("Mail Delivery System <mailer-daemon@mx.players.example>", "robot-sender"),
        ("postmaster@players.example", "robot-sender"),
        ("no-reply@players.example", "robot-sender"),
        ("Referee <REFEREE@pbem.example>", "own-address"),
        ("vega@localhost", "bad-from"),
        ("a@x.example, b@y.example", "bad-from"),
        ("undisclosed-recipients:;", "no-from"),
    ],
)
def test_senders(sender: str, code: str) -> None:
    m = msg(f"From: {sender}\nTo: referee@pbem.example\n")
    reason = no_reply_reason(m, OWN)
    assert reason is not None and reason.code == code


def test_envelope_sender_from_the_mta_overrides_the_header() -> None:
    m = msg(BASE + "Return-Path: <vega@players.example>\n")
    reason = no_reply_reason(m, OWN, return_path="<>")
    assert reason is not None and reason.code == "bounce"


def test_reply_address() -> None:
    assert reply_address(msg("From: Vega <Vega@Players.Example>\n")) == "Vega@players.example"
    assert reply_address(msg("To: x@y.example\n")) is None
