"""Triage's header fast paths give exactly what the general path (the email package's header
classes, through pbem.mail.loops) gives: Subject, References and Message-ID as text, and the
reply address, for plain values (taken directly) and every other value (handed on)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.loops import header_text, reply_address
from pbem.mail.message import parse_message
from pbem.mail.triage import plain_header_text, plain_reply_address, triage

# What a header value can hold on the wire (no CR/LF: those would end the field): printable
# ASCII and the characters the header parsers treat specially, tabs, runs of spaces, encoded
# words, non-ASCII (read back as surrogates from 8-bit bytes).
_PIECES = st.sampled_from([
    "a", "Z", "0", ".", "@", "<", ">", " ", "  ", "\t", "(", ")", "\\", '"', ",", ";", ":",
    "=?", "?=", "=?utf-8?q?caf=C3=A9?=", "=?utf-8?b?w6k=?=", "é", "-", "_", "+", "[", "]",
    "orders", "x.y", "players.example", "!#$%&'*/=?^`{|}~",
])
_VALUES = st.lists(_PIECES, max_size=12).map("".join)


def _message(fields: list[tuple[str, str]]) -> object:
    head = b"".join(f"{name}: ".encode("ascii") + value.encode("utf-8") + b"\r\n"
                    for name, value in fields)
    return parse_message(head + b"\r\nMy orders.\r\n")


@settings(max_examples=400, deadline=None)
@given(name=st.sampled_from(["Subject", "References", "Message-ID", "message-id", "SUBJECT"]),
       value=_VALUES, second=st.none() | _VALUES)
def test_plain_header_text_is_header_text(name: str, value: str, second: str | None) -> None:
    fields = [("From", "vega@players.example"), (name, value)]
    if second is not None:
        fields.append((name, second))  # the first field counts, as for msg.get
    msg = _message(fields)
    assert plain_header_text(msg, name) == header_text(msg, name)


@pytest.mark.parametrize("value", [
    "<a.b@c.example>", "<!#$%&'*/=?^`{|}~@x.example>", "<a@b>", "<a..b@c.example>",
    "<.a@c.example>", "<a@b.>", "< a@b.example>", "<a@b.example> x", "<a@[1.2.3.4]>", "a@b",
    "<a@b.example>(comment)", "orders 3", "Re: orders", "x  y", "=?utf-8?q?x?=", "a =? b",
])
@pytest.mark.parametrize("name", ["Subject", "References", "Message-ID"])
def test_plain_header_text_cases(name: str, value: str) -> None:
    msg = _message([(name, value)])
    assert plain_header_text(msg, name) == header_text(msg, name)


def test_plain_header_text_missing_and_folded() -> None:
    msg = _message([("From", "vega@players.example")])
    assert plain_header_text(msg, "Subject") is None
    assert plain_header_text(msg, "Message-ID") is None
    folded = parse_message(b"Subject: orders for\r\n turn 3\r\nReferences: <a@b.example>\r\n"
                           b" <c@d.example>\r\n\r\nx\r\n")
    assert plain_header_text(folded, "Subject") == header_text(folded, "Subject") \
        == "orders for turn 3"
    assert plain_header_text(folded, "References") == header_text(folded, "References")


@settings(max_examples=400, deadline=None)
@given(froms=st.lists(_VALUES | st.sampled_from([
    "vega@players.example", "Vega@Players.EXAMPLE", "a.b+c@x-y.example.org", "a..b@x.example",
    ".a@x.example", "a@x", "a@.x.example", "a@x.example.", "Vega <vega@players.example>",
    "a%b_c-d@mail.example"]), min_size=0, max_size=2))
def test_plain_reply_address_is_reply_address(froms: list[str]) -> None:
    msg = _message([("From", f) for f in froms] + [("To", "referee@pbem.example")])
    assert plain_reply_address(msg) == reply_address(msg)


def test_triage_takes_the_plain_values() -> None:
    """A typical order mail: the fast paths answer, with the values the general path gives."""
    raw = (b"From: vega@Players.Example\r\nTo: referee@pbem.example\r\nSubject: orders 3\r\n"
           b"Message-ID: <vega.3@players.example>\r\nReferences: <r1@pbem.example> "
           b"<r2@pbem.example>\r\n\r\nno orders here\r\n")
    t = triage(raw)
    assert (t.sender, t.subject, t.message_id, t.references) == (
        "vega@players.example", "orders 3", "<vega.3@players.example>",
        ("<r1@pbem.example>", "<r2@pbem.example>"))
