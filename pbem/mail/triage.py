"""One call for ingest: parse a stored message, find its order texts, decide if it may be answered.

The result is a value, never an exception: ``too_big`` set means quarantine the message;
otherwise ``texts`` go to :func:`pbem.protocol.orderdoc.find_signed_blocks`, ``html_only`` asks
for the polite "please send plain text" reply, and ``no_reply`` (when set) forbids any automatic
answer.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from email.message import EmailMessage, Message

from pbem.errors import Problem
from pbem.mail.errors import MessageRefused
from pbem.mail.loops import header_text, no_reply_reason, reply_address
from pbem.mail.message import DEFAULT_LIMITS, Limits, TextPart, parse_message, scan_parts
from pbem.mail.plainheaders import ATOM, PLAIN_WORDS
from pbem.record import Record


class Triage(Record):
    """What the transport layer knows about one incoming message."""

    __slots__ = ("message", "too_big", "no_reply", "texts", "notes", "html_only", "sender",
                 "message_id", "subject", "references")
    #: The parsed message, or None when it was refused as too big.
    message: EmailMessage | None
    #: Set when the message is refused whole — over a size or structure cap ("message-too-big",
    #: "too-many-parts", "message-too-deep") or unreadable ("unreadable"): quarantine it.
    too_big: Problem | None
    #: Set when no automatic reply may be sent (RFC 3834, bounces, lists, our own mail…).
    no_reply: Problem | None
    texts: tuple[TextPart, ...]
    notes: tuple[Problem, ...]
    html_only: bool
    #: The one From address when usable (only for "please send plain text" to an unknown sender
    #: the caller should still prefer a registered address; From proves nothing).
    sender: str | None
    message_id: str | None
    subject: str
    references: tuple[str, ...]

    def __init__(self,
                 message: EmailMessage | None, too_big: Problem | None = None,
                 no_reply: Problem | None = None, texts: tuple[TextPart, ...] = (),
                 notes: tuple[Problem, ...] = (), html_only: bool = False,
                 sender: str | None = None, message_id: str | None = None, subject: str = "",
                 references: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "too_big", too_big)
        object.__setattr__(self, "no_reply", no_reply)
        object.__setattr__(self, "texts", texts)
        object.__setattr__(self, "notes", notes)
        object.__setattr__(self, "html_only", html_only)
        object.__setattr__(self, "sender", sender)
        object.__setattr__(self, "message_id", message_id)
        object.__setattr__(self, "subject", subject)
        object.__setattr__(self, "references", references)

    @property
    def refused(self) -> Problem | None:
        """The same as ``too_big``: why the message is refused whole (then quarantine it)."""
        return self.too_big

    @property
    def outcome(self) -> str:
        """A short stable summary used by the corpus table and logs."""
        if self.too_big is not None:
            return f"too-big ({self.too_big.code})"
        parts = [f"orders {len(self.texts)}"]
        if self.html_only:
            parts.append("html-only")
        if self.no_reply is not None:
            parts.append(f"no-reply ({self.no_reply.code})")
        return "; ".join(parts)


def triage(
    raw: bytes,
    *,
    own_addresses: Collection[str] = (),
    return_path: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> Triage:
    """Parse ``raw`` under ``limits`` and report texts, notes and the reply decision."""
    try:
        msg = parse_message(raw, limits)
        scan = scan_parts(msg, limits)
    except MessageRefused as exc:
        return Triage(message=None, too_big=exc.problem)
    except Exception as exc:  # scan_parts guards each part; this is the last line of defence
        problem = Problem("unreadable", "", f"the message cannot be read ({type(exc).__name__})")
        return Triage(message=None, too_big=problem)
    try:
        no_reply = no_reply_reason(msg, own_addresses, return_path=return_path)
    except Exception as exc:
        no_reply = Problem(
            "unreadable-headers", "", f"the headers cannot be read ({type(exc).__name__})"
        )
    refs = (plain_header_text(msg, "References") or "").split()
    return Triage(
        message=msg,
        no_reply=no_reply,
        texts=scan.texts,
        notes=scan.notes,
        html_only=scan.html_only,
        sender=plain_reply_address(msg),
        message_id=_message_id(plain_header_text(msg, "Message-ID")),
        subject=plain_header_text(msg, "Subject") or "",
        references=tuple(r for r in refs if r.startswith("<") and r.endswith(">"))[-20:],
    )


#: Raw header values that the email package's header classes give back unchanged (``str()`` of
#: the parsed header is the value itself): printable ASCII words between single spaces, no
#: RFC 2047 encoded word (checked apart), no folding; a Message-ID also has the strict
#: ``<dot-atom@dot-atom>`` form (nothing for its parser to drop or repair).
_PLAIN_MSG_ID = re.compile(rf"<{ATOM}(?:\.{ATOM})*@{ATOM}(?:\.{ATOM})*>")
_PLAIN_HEADERS = {"subject": PLAIN_WORDS, "references": PLAIN_WORDS,
                  "message-id": _PLAIN_MSG_ID}


def plain_header_text(msg: Message, name: str) -> str | None:
    """:func:`pbem.mail.loops.header_text` for Subject, References and Message-ID, without the
    email package's header parse when the raw value is plain (see ``_PLAIN_HEADERS``): that
    parse cost more than the rest of triage per header (bench/README.md) and missed the header
    cache for every Message-ID. Any other value (folded, encoded, non-ASCII, odd spacing) takes
    ``header_text`` itself.
    tests/engine/mail/test_mail_triage_headers.py checks both give the same text."""
    key = name.lower()
    pattern = _PLAIN_HEADERS[key]
    for field_name, value in msg.raw_items():  # msg.get's choice: the first field of the name
        if field_name.lower() == key:
            if isinstance(value, str) and "=?" not in value and pattern.fullmatch(value):
                return value
            return header_text(msg, name)
    return None


#: A From value that is a bare address the address parser gives back unchanged.
_PLAIN_ADDRESS = re.compile(r"[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*@[A-Za-z0-9-]+"
                            r"(?:\.[A-Za-z0-9-]+)+")


def plain_reply_address(msg: Message) -> str | None:
    """:func:`pbem.mail.loops.reply_address`, without the address parser when the message has
    one From field holding a plain bare address (what most order mails have):
    tests/engine/mail/test_mail_triage_headers.py checks both give the same."""
    found = [value for name, value in msg.raw_items() if name.lower() == "from"]
    if len(found) == 1 and isinstance(found[0], str) and _PLAIN_ADDRESS.fullmatch(found[0]):
        local, _, domain = found[0].rpartition("@")
        return f"{local}@{domain.lower()}"
    return reply_address(msg)


def _message_id(value: str | None) -> str | None:
    """The ``<…>`` Message-ID if it looks like one (no whitespace, no CR/LF), else None."""
    if value is None:
        return None
    token = value.strip()
    looks_right = token.startswith("<") and token.endswith(">") and len(token) <= 250
    if looks_right and not any(ch.isspace() or ord(ch) < 32 for ch in token):
        return token
    return None
