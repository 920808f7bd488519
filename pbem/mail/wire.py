"""The wire bytes of a composed mail (pbem.mail.compose writes every message with them): each
header line as the email package would write it (plain, folded, or RFC 2047 encoded words) and
each MIME part (text in the shorter of quoted-printable and base64, attachments in base64,
multiparts with a fresh boundary)."""

from __future__ import annotations

import base64
import binascii
import functools
import re
import secrets
import struct
from collections.abc import Sequence
from email import policy
from email.headerregistry import HeaderRegistry, UnstructuredHeader
from email.utils import format_datetime, parsedate_to_datetime
from typing import TYPE_CHECKING

from pbem.mail.plainheaders import ATOM, PLAIN_WORDS
from pbem.mail.plainheaders import MAX_LINE as _MAX_LINE
from pbem.mail.plainheaders import fold_words as _fold_words

if TYPE_CHECKING:
    from pbem.mail.compose import Attachment

# Headers whose plain value the email package writes back unchanged: unstructured text,
# well-formed message ids, To as a bare address (a display name may be quoted), a Date in
# the form it writes (_date_kept).
_ID = rf"<{ATOM}(?:\.{ATOM})*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*>"
_DIRECT = {
    "subject": PLAIN_WORDS, "list-id": PLAIN_WORDS, "auto-submitted": PLAIN_WORDS,
    "x-auto-response-suppress": PLAIN_WORDS, "date": PLAIN_WORDS,
    "message-id": re.compile(_ID), "in-reply-to": re.compile(_ID),
    "references": re.compile(rf"{_ID}(?: {_ID})*"),
    "to": re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"),
}


def header_line(name: str, value: str) -> bytes:
    """One header line: written directly when it is short plain ASCII the email package would
    write back unchanged (``name: value``), a plain unstructured value folded as it folds it
    (:func:`_fold_words`), else folded by the email package (:func:`_fold`). The direct paths
    skip the header registry's parse, which missed the cache for every per-game header and
    every Message-ID (tests/engine/mail/test_mail_compose_wire.py compares them with it)."""
    key = name.lower()
    pattern = _DIRECT.get(key)
    if (pattern is not None and len(name) + len(value) + 2 <= _MAX_LINE
            and "=?" not in value and pattern.fullmatch(value)
            and (key != "date" or _date_kept(value))):
        return f"{name}: {value}\r\n".encode("ascii")
    if (key in _UNSTRUCTURED and "=?" not in value and PLAIN_WORDS.fullmatch(value)
            and max(map(len, value.split(" "))) < _MAX_LINE):
        return _fold_words(name, value)
    if not value.isascii() and _unstructured(key):
        line = _encoded_words(name, value)
        if line is not None:
            return line
    return _fold(name, value)


@functools.lru_cache(maxsize=256)
def _unstructured(key: str) -> bool:
    """Whether the email package reads header ``key`` as unstructured text (Subject, List-Id,
    X-…): text whose RFC 2047 encoded words it decodes back to the characters written."""
    registry = policy.SMTP.header_factory
    assert isinstance(registry, HeaderRegistry)
    return issubclass(registry[key], UnstructuredHeader)


#: Printable ASCII words and words holding non-ASCII text, between single spaces: what
#: :func:`_encoded_words` writes (no control or format character: header_safe removes them).
_MIXED_WORDS = re.compile(r"[^\x00-\x20\x7f-\x9f]+(?: [^\x00-\x20\x7f-\x9f]+)*")
#: Bytes an encoded word of the "Q" encoding carries as themselves (RFC 2047 5(3)).
_Q_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!*+-/")
_Q_BYTE = [chr(b) if b in _Q_SAFE else "_" if b == 0x20 else f"={b:02X}" for b in range(256)]
#: The longest encoded word (RFC 2047 2): 75 characters, "=?utf-8?q?" and "?=" included.
_WORD_MAX = 75


def _encoded_words(name: str, value: str) -> bytes | None:
    """An unstructured header holding non-ASCII text, written without the email package's
    header parse and fold (0.1-0.3 ms per Subject: every report's has a dash and a player's
    name): ASCII words as they are, each run of words holding non-ASCII text as UTF-8 encoded
    words (RFC 2047: Q or base64, its spaces encoded so they survive decoding), the
    tokens filled greedily into lines of at most 78 characters, each further line starting
    with a space. Decoded, it is ``value`` exactly (whitespace between two encoded words is
    dropped, beside a plain word kept: RFC 2047 6.2). None where a plain word would not fit
    on a line or a value looks encoded already (the caller folds it as the email package
    does)."""
    if "=?" in value or not _MIXED_WORDS.fullmatch(value):
        return None
    tokens: list[str] = []
    run: list[str] = []
    for word in [*value.split(" "), None]:
        if word is not None and not word.isascii():
            run.append(word)
            continue
        if run:
            tokens += _q_words(" ".join(run), min(_WORD_MAX, _MAX_LINE - len(name) - 2))
            run = []
        if word is not None:
            if len(word) >= _MAX_LINE - 1:
                return None
            tokens.append(word)
    lines = [f"{name}:"]
    for token in tokens:
        if len(lines[-1]) + 1 + len(token) <= _MAX_LINE or lines[-1] == f"{name}:":
            lines[-1] += " " + token
        else:
            lines.append(" " + token)
    if len(lines[0]) > _MAX_LINE:
        return None
    return ("\r\n".join(lines) + "\r\n").encode("ascii")


def _q_words(text: str, longest: int) -> list[str]:
    """``text`` as UTF-8 encoded words, each at most ``longest`` characters (so that one fits
    on the header's first line) and each holding whole characters (a decoder may decode each
    word on its own): in the Q encoding (RFC 2047 4.2: readable where the text is mostly
    ASCII) or in base64 (4.1), whichever is shorter."""
    room = longest - len("=?utf-8?q??=")
    q_words: list[str] = []
    b_words: list[str] = []
    current = ""
    chunk = b""
    for char in text:
        data = char.encode("utf-8")
        piece = "".join(_Q_BYTE[b] for b in data)
        if current and len(current) + len(piece) > room:
            q_words.append(f"=?utf-8?q?{current}?=")
            current = ""
        current += piece
        if chunk and -(-(len(chunk) + len(data)) // 3) * 4 > room:
            b_words.append(f"=?utf-8?b?{base64.b64encode(chunk).decode('ascii')}?=")
            chunk = b""
        chunk += data
    q_words.append(f"=?utf-8?q?{current}?=")
    b_words.append(f"=?utf-8?b?{base64.b64encode(chunk).decode('ascii')}?=")
    return q_words if sum(map(len, q_words)) <= sum(map(len, b_words)) else b_words


#: Headers the email package reads as unstructured text (plain values are folded by
#: :func:`_fold_words`).
_UNSTRUCTURED = frozenset({"subject", "references", "list-id"})


@functools.lru_cache(maxsize=64)
def _date_kept(value: str) -> bool:
    """Whether the email package's Date header writes ``value`` back unchanged: it parses the
    date and writes ``format_datetime`` of it, so the value must be that already (what
    :func:`_headers` gives for any ordinary date). The fold of a Date missed the cache for
    every mail (each has its own time; cost: bench/README.md); this check is a fraction, and
    cached: the mails of one visit share their Date (7 us a mail)."""
    try:
        return format_datetime(parsedate_to_datetime(value)) == value
    except (TypeError, ValueError, OverflowError):
        return False


@functools.lru_cache(maxsize=1024)
def _fold(name: str, value: str) -> bytes:
    """One header line as the email package folds it under policy.SMTP (cached: From, To,
    List-Id and the threading headers repeat in every mail of a game)."""
    header = policy.SMTP.header_factory(name, value)
    return header.fold(policy=policy.SMTP).encode("ascii", "surrogateescape")


def header_values(head: Sequence[bytes]) -> list[tuple[str, str]]:
    out = []
    for line in head:
        name, _, value = line.decode("ascii", "replace").partition(":")
        out.append((name.lower(), " ".join(value.split())))
    return out


#: The longest line a message may carry (RFC 5322 2.1.1: 998 characters without the CRLF).
_MAX_WIRE_LINE = 998


def text_part(subtype: str, text: str) -> bytes:
    """A text part, unencoded (7bit, or 8bit for UTF-8) when every line fits the 998 bytes
    RFC 5322 allows: the email package would encode any line over 78, and an HTML report
    (long lines of markup and its inline map) grew by a third in base64 for nothing.
    Longer lines: quoted-printable or base64, whichever is shorter on the wire (both
    lengths exact: encoding quoted-printable in C costs a fraction of the composing)."""
    data = text.encode("utf-8")
    if b"\r" not in data and _lines_fit(data):
        # the lines as splitlines cuts them, each ended by CRLF (the last one too)
        body = data.replace(b"\n", b"\r\n") + (b"" if data.endswith(b"\n") else b"\r\n")
        return _text_head(subtype, "7bit" if body.isascii() else "8bit") + body
    lines = data.splitlines()
    if max(map(len, lines), default=0) <= _MAX_WIRE_LINE:
        body = b"\r\n".join(lines) + b"\r\n"
        cte = "7bit" if body.isascii() else "8bit"
    else:
        data = b"\n".join(lines) + b"\n"
        encoded = -(-len(data) // 3) * 4
        b64 = encoded + 2 * -(-encoded // _B64_LINE)
        # Quoted-printable is at least its bytes plus two for each it escapes: where that is
        # longer than base64 already, it is not encoded at all (its encoding costs 8 times
        # base64's).
        qp = b""
        if len(data) + 2 * len(data.translate(None, _QP_LITERAL)) <= b64:
            qp = binascii.b2a_qp(data, istext=True)
        if not qp or len(qp) + qp.count(b"\n") > b64:
            cte, body = "base64", _base64_lines(data)
        else:
            cte, body = "quoted-printable", qp.replace(b"\n", b"\r\n")
    return _text_head(subtype, cte) + body


def _text_head(subtype: str, cte: str) -> bytes:
    return (f'Content-Type: text/{subtype}; charset="utf-8"\r\n'
            f"Content-Transfer-Encoding: {cte}\r\n\r\n").encode("ascii")


def _lines_fit(data: bytes) -> bool:
    """Whether every line of ``data`` (cut at LF) has at most 998 bytes, without cutting it
    into lines (a report's ~330 lines a part): from a line's start, the last LF within the
    next 999 bytes ends every line that starts before it, so the next look starts after it."""
    start, end = 0, len(data)
    while end - start > _MAX_WIRE_LINE:
        last = data.rfind(b"\n", start, start + _MAX_WIRE_LINE + 1)
        if last < 0:
            return False
        start = last + 1
    return True


#: The bytes quoted-printable writes as themselves (all but "=", controls and non-ASCII).
_QP_LITERAL = bytes(b for b in range(33, 127) if b != ord("=")) + b" \t\n"

_B64_LINE = 76  # characters per base64 line: 57 bytes of content, as base64.encodebytes writes


def _base64_lines(data: bytes) -> bytes:
    """``base64.encodebytes(data)`` with CRLF line ends, byte for byte: encoded in one call and
    cut into lines, where encodebytes encodes each 57-byte line on its own (a Python loop
    over the reports' and attachments' ~400 KB per game-turn). The lines are cut by
    ``struct`` in blocks of whole lines (:data:`_B64_BLOCKS`), a third of the time of a slice
    per line (~2,300 lines per 4000 A.D. game-turn: 0.17 -> 0.05 ms)."""
    encoded = binascii.b2a_base64(data, newline=False)
    if not encoded:
        return b""
    lines: list[bytes] = []
    offset, end = 0, len(encoded) - len(encoded) % _B64_LINE
    for block in _B64_BLOCKS:
        while end - offset >= block.size:
            lines += block.unpack_from(encoded, offset)
            offset += block.size
    if offset < len(encoded):
        lines.append(encoded[offset:])
    return b"\r\n".join(lines) + b"\r\n"


#: Runs of whole base64 lines, longest first, that :func:`_base64_lines` cuts in one call each.
_B64_BLOCKS = tuple(struct.Struct(f"{_B64_LINE}s" * rows) for rows in (256, 32, 4, 1))


def attachment_part(item: Attachment) -> bytes:
    """An attachment in base64, its bytes kept exactly. (Quoted-printable would be shorter
    for the ASCII files, JSON and SVG, by 10-25 %, but costs 5-7 times the CPU to encode:
    0.4 ms for a B5 map, ~10 % of a step's render and compose.)"""
    return (f"Content-Type: {item.maintype}/{item.subtype}\r\n"
            f"Content-Transfer-Encoding: base64\r\n"
            f'Content-Disposition: attachment; filename="{item.filename}"\r\n\r\n'
            ).encode("ascii") + _base64_lines(item.content)


def multipart(subtype: str, parts: Sequence[bytes]) -> bytes:
    return b"".join(multipart_pieces(subtype, parts))


def multipart_pieces(subtype: str, parts: Sequence[bytes], *,
                     attachments: int = 0) -> list[bytes]:
    """The bytes of :func:`multipart` in pieces, for the caller to join with what goes
    before them (a message's headers) in one copy: a report is ~65 KB, copied once less.
    The boundary is one no part holds; the last ``attachments`` parts are
    :func:`attachment_part`'s of plain names (pbem.mail.compose checks them), which cannot
    hold one (a boundary is fifteen "=" and digits; base64 has an "=" only in its last two
    characters, the names none), so they are not searched (~40 KB of a report)."""
    searched = parts[:len(parts) - attachments]
    while True:
        boundary = f"==============={secrets.randbelow(10**19):019d}==".encode("ascii")
        if not any(b"--" + boundary in part for part in searched):
            break
    out = [f'Content-Type: multipart/{subtype};\r\n boundary="'.encode("ascii"), boundary,
           b'"\r\n']
    for part in parts:
        out += [b"\r\n--", boundary, b"\r\n", part]
    out += [b"\r\n--", boundary, b"--\r\n"]
    return out
