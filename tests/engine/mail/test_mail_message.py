"""Parsing with caps and finding order texts; hostile bytes never raise."""

from __future__ import annotations

import email
import random
from email import policy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail.errors import MessageTooBig
from pbem.mail.message import (
    Limits,
    contains_begin_line,
    display_name,
    order_texts,
    parse_message,
    scan_parts,
)
from pbem.mail.triage import triage
from tests.support.mail_corpus import OrderSpec, build, stand_in

ORDER = stand_in(OrderSpec("unit"))


def plain(body: str, extra: str = "") -> bytes:
    return (
        "From: vega@players.example\r\nTo: referee@pbem.example\r\nSubject: o\r\n"
        f"Message-ID: <u@players.example>\r\n{extra}\r\n{body}"
    ).encode()


def test_size_cap_is_checked_before_parsing() -> None:
    raw = plain("x" * 1000)
    parse_message(raw, Limits(message_bytes=len(raw)))  # exactly at the cap is fine
    with pytest.raises(MessageTooBig) as info:
        parse_message(raw, Limits(message_bytes=len(raw) - 1))
    assert info.value.problem.code == "message-too-big"
    assert f"{len(raw):,} bytes" in str(info.value)


def test_part_count_cap() -> None:
    body = "".join("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(12)) + "--b--\r\n"
    raw = plain(body, 'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b"\r\n')
    parse_message(raw, Limits(parts=20))
    with pytest.raises(MessageTooBig) as info:
        parse_message(raw, Limits(parts=10))
    assert info.value.problem.code == "too-many-parts"


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("-----BEGIN PBEM SIGNED ORDERS-----", True),
        ("> -----BEGIN PBEM SIGNED ORDERS-----", True),
        (">> > -----BEGIN PBEM SIGNED ORDERS-----  ", True),
        ("   -----BEGIN PBEM SIGNED ORDERS-----\r", True),
        ("see -----BEGIN PBEM SIGNED ORDERS-----", False),
        ("-----BEGIN PBEM SIGNED ORDERS----- and more", False),
        ("-----BEGIN PGP SIGNED MESSAGE-----", False),
    ],
)
def test_begin_line(line: str, found: bool) -> None:
    assert contains_begin_line(f"hello\n{line}\nbye") is found


def test_quoted_order_in_a_reply_is_found_with_its_quotes() -> None:
    quoted = "".join("> " + line + "\n" for line in ORDER.splitlines())
    (text,) = order_texts(parse_message(plain("On Monday you wrote:\r\n" + quoted)))
    assert text.origin == "body" and "> -----END PBEM SIGNED ORDERS-----" in text.text


def test_body_without_orders_gives_no_text_and_no_note() -> None:
    scan = scan_parts(parse_message(plain("just chatting\r\n")))
    assert scan.texts == () and scan.notes == () and scan.has_plain and not scan.html_only


def test_html_attachment_with_orders_counts_and_is_not_html_only() -> None:
    msg = email.message.EmailMessage()
    msg["From"] = "vega@players.example"
    msg.set_content("<p>hi</p>", subtype="html")
    msg.add_attachment(ORDER, subtype="html", filename="orders.html")
    scan = scan_parts(parse_message(msg.as_bytes()))
    assert [t.name for t in scan.texts] == ["orders.html"] and not scan.html_only


def test_forwarded_text_is_labelled() -> None:
    (case,) = [c for c in build() if c.name == "forwarded-rfc822"]
    (text,) = order_texts(parse_message(case.raw))
    assert text.forwarded and text.label == "the message body of a forwarded message"


def test_order_texts_accepts_compat32_messages() -> None:
    msg = email.message_from_bytes(plain(ORDER), policy=policy.compat32)
    assert len(order_texts(msg)) == 1


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("../../x.yaml", "x.yaml"),
        ("..\\..\\windows\\orders.yml", "orders.yml"),
        ("/etc/passwd", "passwd"),
        ("....", "attachment"),
        (".hidden.yaml", "hidden.yaml"),
        ("a\r\nb\x00c\u202e.yaml", "a__b_c_.yaml"),
        ("ordres été.yaml", "ordres été.yaml"),
        ("x" * 300 + ".yaml", "x" * 80),
        (None, "attachment"),
    ],
)
def test_display_name(raw: str | None, shown: str) -> None:
    assert display_name(raw) == shown


def _mutations(seed: int, raw: bytes) -> bytes:
    rng = random.Random(seed)
    data = bytearray(raw)
    for _ in range(rng.randint(1, 8)):
        op = rng.choice(("flip", "cut", "dup", "insert"))
        at = rng.randrange(len(data) or 1)
        if op == "flip" and data:
            data[at] = rng.randrange(256)
        elif op == "cut":
            del data[at : at + rng.randint(1, 200)]
        elif op == "dup":
            data[at:at] = data[at : at + rng.randint(1, 200)]
        else:
            data[at:at] = rng.choice(
                (b"\r\n", b"\r\n\r\n", b"--b\r\n", b"=?utf-8?b?", b"\x00", b"charset=", b'"', b";")
            )
    return bytes(data)


SMALL_CASES = [c.raw for c in build() if len(c.raw) < 100_000]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(SMALL_CASES) - 1), st.integers(0, 2**32))
def test_mutated_corpus_never_raises(index: int, seed: int) -> None:
    result = triage(_mutations(seed, SMALL_CASES[index]), own_addresses=["referee@pbem.example"])
    assert result.outcome


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_never_raise(raw: bytes) -> None:
    assert triage(raw).outcome


def test_nul_in_charset_is_a_note_not_a_crash() -> None:
    """Found by the fuzz test: the stdlib raises ValueError decoding such a part."""
    raw = plain(
        "caf\xe9\r\n" + ORDER,
        'MIME-Version: 1.0\r\nContent-Type: text/plain; charset="utf\x00-8"\r\n',
    ).replace("\xe9".encode(), b"\xe9")
    result = triage(raw)
    assert len(result.texts) == 1 and ORDER in result.texts[0].text
    assert [n.code for n in result.notes] == ["charset"]
