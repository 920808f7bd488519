"""Building outgoing mail: receipts, reports and notices as ``EmailMessage`` objects.

Every message has a text/plain body with an optional text/html alternative, optional attachments
(e.g. ``view.json``), a fresh Message-ID, the Date the caller passes (no hidden clock), threading
headers (a reply threads under the player's message; reports of one game thread under the game's
root id), ``Auto-Submitted`` (``auto-replied`` for receipts, ``auto-generated`` for reports) and
``List-Id`` so that players' filters and other robots recognise us.

Text echoed from an incoming message (its Subject, a display name) goes through
:func:`header_safe` first: control characters — CR and LF above all — become spaces, so nothing a
player writes can add a header line. ``EmailMessage`` would raise ``ValueError`` on CR/LF anyway; we
sanitise so a hostile subject yields a normal receipt instead of a crash.
"""

from __future__ import annotations

import email
import functools
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, getaddresses, make_msgid
from typing import Literal, ParamSpec

from pbem.mail.wire import (
    attachment_part,
    header_line,
    header_values,
    multipart,
    multipart_pieces,
    text_part,
)
from pbem.record import Record

AutoSubmitted = Literal["auto-replied", "auto-generated"]
P = ParamSpec("P")

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_MSGID = re.compile(r"^<[^<>\s@]+@[^<>\s@]+>$")
_LIST_TOKEN = re.compile(r"[^a-z0-9-]+")


class Attachment(Record):
    """A file attached to an outgoing message; ``filename`` is ours (never a player's)."""

    __slots__ = ("filename", "content", "maintype", "subtype")
    filename: str
    content: bytes
    maintype: str
    subtype: str

    def __init__(self,
                 filename: str, content: bytes, maintype: str = "application",
                 subtype: str = "octet-stream") -> None:
        object.__setattr__(self, "filename", filename)
        object.__setattr__(self, "content", content)
        object.__setattr__(self, "maintype", maintype)
        object.__setattr__(self, "subtype", subtype)


def header_safe(text: str, *, limit: int = 200) -> str:
    """``text`` made safe to echo in a header: control and bidi characters (CR, LF, TAB, NUL, …)
    become spaces, runs of spaces collapse, and the result is cut to ``limit`` characters."""
    return " ".join(_CONTROL.sub(" ", text).split())[:limit]


def reply_subject(original: str, *, fallback: str = "your orders") -> str:
    """ "Re: <original>" with the original sanitised (and without piling up "Re: Re:")."""
    clean = header_safe(original)
    while clean[:3].lower() == "re:":
        clean = clean[3:].lstrip()
    return f"Re: {clean or fallback}"


def valid_message_id(value: str | None) -> str | None:
    """``value`` if it is a plausible ``<local@domain>`` Message-ID we may echo, else None."""
    if value is None:
        return None
    value = value.strip()
    return value if len(value) <= 250 and _MSGID.match(value) else None


@functools.lru_cache(maxsize=256)
def thread_root(game: str, domain: str) -> str:
    """The fixed Message-ID every message of ``game`` refers to, so clients thread them together."""
    return f"<game.{_token(game)}@{domain}>"


@functools.lru_cache(maxsize=256)
def list_id(game: str, domain: str) -> str:
    """``List-Id`` value for ``game``: "game <game.domain>" (RFC 2919)."""
    return f"{header_safe(game, limit=60)} <{_token(game)}.{domain}>"


def _token(text: str) -> str:
    return _LIST_TOKEN.sub("-", text.lower()).strip("-") or "game"


def _headers(
    sender: str | Address,
    to: str | Address | Sequence[str | Address],
    subject: str,
    date: datetime,
    domain: str,
    auto_submitted: AutoSubmitted,
    in_reply_to: str | None,
    references: Sequence[str],
    game: str | None,
    extra_headers: Sequence[tuple[str, str]],
) -> list[tuple[str, str | Address]]:
    """The top-level headers of :func:`compose` and :func:`compose_wire`, in order."""
    if date.tzinfo is None:
        raise ValueError("compose() needs a timezone-aware date")
    out: list[tuple[str, str | Address]] = [("From", sender)]
    recipients = [to] if isinstance(to, str | Address) else list(to)
    out.append(("To", ", ".join(str(r) for r in recipients)))
    out.append(("Subject", header_safe(subject, limit=250)))
    out.append(("Date", _date_value(date)))
    out.append(("Message-ID", make_msgid(domain=domain)))
    refs = [r for r in (valid_message_id(x) for x in references) if r]
    if game is not None:
        root = thread_root(game, domain)
        refs = [root, *[r for r in refs if r != root]]
        out.append(("List-Id", list_id(game, domain)))
    parent = valid_message_id(in_reply_to)
    if parent is not None:
        out.append(("In-Reply-To", parent))
        refs = [*[r for r in refs if r != parent], parent]
    elif game is not None:
        out.append(("In-Reply-To", thread_root(game, domain)))
    if refs:
        out.append(("References", " ".join(refs[-20:])))
    out.append(("Auto-Submitted", auto_submitted))
    # Ask Exchange/Outlook not to send out-of-office or read receipts back to a robot.
    out.append(("X-Auto-Response-Suppress", "All"))
    for name, value in extra_headers:
        out.append((header_safe(name, limit=60).replace(" ", "-"), header_safe(value, limit=900)))
    return out


@functools.lru_cache(maxsize=64)
def _date_value(date: datetime) -> str:
    """``format_datetime(date)``: the mails of one visit share their date (3 us a mail)."""
    return format_datetime(date)


# -- the same message as wire bytes, without building an EmailMessage ----------------------------
class Wire(Record):
    """A composed message as the exact bytes to send, with its envelope (what the outbox
    stores); :meth:`pbem.mail.outbox.Outbox.queue` takes it like an ``EmailMessage``."""

    __slots__ = ("raw", "sender", "recipients", "message_id")
    raw: bytes
    sender: str
    recipients: tuple[str, ...]
    message_id: str

    def __init__(self,
                 raw: bytes, sender: str, recipients: tuple[str, ...], message_id: str) -> None:
        object.__setattr__(self, "raw", raw)
        object.__setattr__(self, "sender", sender)
        object.__setattr__(self, "recipients", recipients)
        object.__setattr__(self, "message_id", message_id)


_FILENAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
_MIME_TOKEN = re.compile(r"^[a-z0-9][a-z0-9.+-]{0,63}$")
# 78: the limit the email package folds and encodes at


def compose_wire(
    *,
    sender: str | Address,
    to: str | Address | Sequence[str | Address],
    subject: str,
    text: str,
    date: datetime,
    domain: str,
    auto_submitted: AutoSubmitted,
    html: str | None = None,
    attachments: Sequence[Attachment] = (),
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    game: str | None = None,
    extra_headers: Sequence[tuple[str, str]] = (),
) -> Wire:
    """One outgoing message as wire bytes with its envelope (:func:`compose` is these bytes
    parsed): the headers (each folded and encoded by the email package's own header classes,
    so non-ASCII and long values come out as it writes them), then the MIME tree (text/plain,
    with text/html as an alternative, then the attachments in a multipart/mixed). Each part is
    as small as its content allows: a text part unencoded (7bit or 8bit) when every line fits
    in the 998 bytes a message line may hold (the email package encodes every line over 78),
    else as ``text_part`` says; an attachment in base64 (``attachment_part``). It builds no
    ``EmailMessage``, which cost several milliseconds per report.

    Parsed, the bytes are the message the email package composes from the same arguments,
    with the same decoded contents; only the text parts' transfer encodings differ, where
    these are shorter (tests/engine/mail/test_mail_compose_wire.py checks it)."""
    for item in attachments:
        if not _plain_names(item.filename, item.maintype, item.subtype):
            raise ValueError(f"attachment {item.filename!r}: a plain file name and MIME type")
    headers = _headers(sender, to, subject, date, domain, auto_submitted, in_reply_to,
                       references, game, extra_headers)
    head = [header_line(name, str(value)) for name, value in headers]
    head.append(b"MIME-Version: 1.0\r\n")
    parts = [text_part("plain", text)]
    if html is not None:
        parts = [multipart("alternative", [parts[0], text_part("html", html)])]
    if attachments:
        parts += [attachment_part(item) for item in attachments]  # (names checked above)
        head += multipart_pieces("mixed", parts, attachments=len(attachments))
    else:
        head.append(parts[0])
    raw = b"".join(head)
    envelope = _address_pairs((str(sender),))
    rcpts = [a for _, a in _address_pairs(tuple(str(r) for r in (
        [to] if isinstance(to, str | Address) else to))) if a]
    # the Message-ID as its line reads (ours comes before any extra header of that name)
    ours = next(i for i, (name, _) in enumerate(headers) if name == "Message-ID")
    message_id = header_values([head[ours]])[0][1]
    return Wire(raw, envelope[0][1] if envelope else "", tuple(dict.fromkeys(rcpts)),
                message_id)


@functools.lru_cache(maxsize=256)
def _plain_names(filename: str, maintype: str, subtype: str) -> bool:
    """Whether an attachment's file name and MIME type are plain (a game's few names, checked
    once: view.json and map.svg on every mail)."""
    return bool(_FILENAME.match(filename) and _MIME_TOKEN.match(maintype)
                and _MIME_TOKEN.match(subtype))


def as_message(wire: Wire) -> EmailMessage:
    """A composed message as an ``EmailMessage`` (its bytes parsed)."""
    msg = email.message_from_bytes(wire.raw, policy=policy.SMTP)
    assert isinstance(msg, EmailMessage)
    return msg


def _parsed(fn: Callable[P, Wire]) -> Callable[P, EmailMessage]:
    @functools.wraps(fn)
    def parsed(*args: P.args, **kwargs: P.kwargs) -> EmailMessage:
        return as_message(fn(*args, **kwargs))

    parsed.__doc__ = """One outgoing message as an ``EmailMessage``: :func:`compose_wire`'s bytes,
    parsed, with its arguments (the one composer: headers, MIME tree and encodings are written
    there once).

    ``date`` must be timezone-aware. ``domain`` is the referee's mail domain (Message-ID,
    List-Id). ``in_reply_to``/``references`` thread a reply under a player's message (invalid
    ids are dropped); with ``game`` set, the game's :func:`thread_root` is added to References
    and List-Id is set. ``subject`` and extra header values are passed through
    :func:`header_safe`."""
    parsed.__name__ = parsed.__qualname__ = "compose"
    parsed.__annotations__ = {**fn.__annotations__, "return": "EmailMessage"}
    return parsed


compose = _parsed(compose_wire)


@functools.lru_cache(maxsize=1024)
def _address_pairs(values: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """``getaddresses(values)`` (cached: the sender and the players' addresses of a game are
    parsed again for every mail; bench/README.md gives the cost); one bare plain address (a
    player's, as registered) is its own result without the parser."""
    if len(values) == 1 and _BARE_ADDRESS.fullmatch(values[0]):
        return (("", values[0]),)
    return tuple(getaddresses(list(values)))


#: An address getaddresses gives back as it is, with no display name.
_BARE_ADDRESS = re.compile(r"[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*@[A-Za-z0-9-]+"
                           r"(?:\.[A-Za-z0-9-]+)*")


def to_bytes(msg: EmailMessage) -> bytes:
    """The exact wire bytes (CRLF line endings) that the outbox stores and sends."""
    return msg.as_bytes(policy=policy.SMTP)
