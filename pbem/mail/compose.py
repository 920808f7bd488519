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

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import Literal

AutoSubmitted = Literal["auto-replied", "auto-generated"]

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_MSGID = re.compile(r"^<[^<>\s@]+@[^<>\s@]+>$")
_LIST_TOKEN = re.compile(r"[^a-z0-9-]+")


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file attached to an outgoing message; ``filename`` is ours (never a player's)."""

    filename: str
    content: bytes
    maintype: str = "application"
    subtype: str = "octet-stream"


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


def thread_root(game: str, domain: str) -> str:
    """The fixed Message-ID every message of ``game`` refers to, so clients thread them together."""
    return f"<game.{_token(game)}@{domain}>"


def list_id(game: str, domain: str) -> str:
    """``List-Id`` value for ``game``: "game <game.domain>" (RFC 2919)."""
    return f"{header_safe(game, limit=60)} <{_token(game)}.{domain}>"


def _token(text: str) -> str:
    return _LIST_TOKEN.sub("-", text.lower()).strip("-") or "game"


def compose(
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
) -> EmailMessage:
    """Build one outgoing message.

    ``date`` must be timezone-aware. ``domain`` is the referee's mail domain (Message-ID, List-Id).
    ``in_reply_to``/``references`` thread a reply under a player's message (invalid ids are
    dropped); with ``game`` set, the game's :func:`thread_root` is added to References and List-Id
    is set. ``subject`` and extra header values are passed through :func:`header_safe`.
    """
    if date.tzinfo is None:
        raise ValueError("compose() needs a timezone-aware date")
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"] = sender
    recipients = [to] if isinstance(to, str | Address) else list(to)
    msg["To"] = ", ".join(str(r) for r in recipients)
    msg["Subject"] = header_safe(subject, limit=250)
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = make_msgid(domain=domain)
    refs = [r for r in (valid_message_id(x) for x in references) if r]
    if game is not None:
        root = thread_root(game, domain)
        refs = [root, *[r for r in refs if r != root]]
        msg["List-Id"] = list_id(game, domain)
    parent = valid_message_id(in_reply_to)
    if parent is not None:
        msg["In-Reply-To"] = parent
        refs = [*[r for r in refs if r != parent], parent]
    elif game is not None:
        msg["In-Reply-To"] = thread_root(game, domain)
    if refs:
        msg["References"] = " ".join(refs[-20:])
    msg["Auto-Submitted"] = auto_submitted
    # Ask Exchange/Outlook not to send out-of-office or read receipts back to a robot.
    msg["X-Auto-Response-Suppress"] = "All"
    for name, value in extra_headers:
        msg[header_safe(name, limit=60).replace(" ", "-")] = header_safe(value, limit=900)
    msg.set_content(text)
    if html is not None:
        msg.add_alternative(html, subtype="html")
    for item in attachments:
        msg.add_attachment(
            item.content, maintype=item.maintype, subtype=item.subtype, filename=item.filename
        )
    return msg


def to_bytes(msg: EmailMessage) -> bytes:
    """The exact wire bytes (CRLF line endings) that the outbox stores and sends."""
    return msg.as_bytes(policy=policy.SMTP)
