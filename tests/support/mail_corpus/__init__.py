"""The bad-mail corpus: messages players, clients, robots and attackers really send, each with the
outcome the transport layer must produce.

Messages are generated rather than stored as .eml blobs because many carry signed orders: pass a
``signer`` (``OrderSpec -> armored text``) to :func:`build`. The default :func:`stand_in` writes the
BEGIN / SIGNATURE / END marker lines around a YAML-like body without a real signature; the lead
plugs in the real signer so the routing layer can be tested on the same corpus.

``Expect`` is what :func:`pbem.mail.triage.triage` must report; ``routing`` documents what the
layer above (signature → game → accept/reject → receipt) must then do, for the lead's tests.
``python -m tests.support.mail_corpus`` prints the outcome table kept in README.md (``--write``
rewrites it).
"""

from __future__ import annotations

import base64
import quopri
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage

REFEREE = "referee@pbem.example"
PLAYER = "vega@players.example"


@dataclass(frozen=True)
class OrderSpec:
    """What a signed order document in the corpus is about (for the real signer)."""

    label: str
    game: str = "demo-1"
    power: str = "Vega"
    turn: int = 3


Signer = Callable[[OrderSpec], str]


def stand_in(spec: OrderSpec) -> str:
    """An armored text with the real marker lines and a fake signature."""
    return (
        "-----BEGIN PBEM SIGNED ORDERS-----\n"
        f"game: {spec.game}\n"
        f"power: {spec.power}\n"
        f"turn: {spec.turn}\n"
        "orders:\n"
        f"  - note: {spec.label}\n"
        "    warp: 2\n"
        "    from: Vega\n"
        "    ships: 5\n"
        "-----BEGIN PBEM SIGNATURE-----\n"
        f"c3RhbmQtaW4gc2lnbmF0dXJlIGZvciB7c3BlYy5sYWJlbH0={spec.turn}\n"
        "-----END PBEM SIGNED ORDERS-----\n"
    )


@dataclass(frozen=True)
class Expect:
    """The transport-level outcome of one message."""

    orders: int = 0
    html_only: bool = False
    #: Problem code when the message is refused whole (quarantine).
    too_big: str | None = None
    #: Problem code when no automatic reply may be sent.
    no_reply: str | None = None
    #: Note codes that must be among the notes.
    notes: frozenset[str] = frozenset()
    #: Display names of order attachments, in order ("" for a body text).
    names: tuple[str, ...] | None = None

    def summary(self) -> str:
        if self.too_big:
            return f"too big ({self.too_big}) → quarantine"
        parts = [f"orders {self.orders}"]
        if self.html_only:
            parts.append("html-only → polite plain-text reply")
        if self.no_reply:
            parts.append(f"no reply ({self.no_reply})")
        if self.notes:
            parts.append("notes: " + ", ".join(sorted(self.notes)))
        return "; ".join(parts)


@dataclass(frozen=True)
class Case:
    name: str
    description: str
    raw: bytes
    expect: Expect
    #: What routing must do with the texts (documentation for the ingest tests).
    routing: str = "verify signature, route by the signed game, receipt to the registered address"
    #: Armored texts that must appear verbatim (line ends normalised) in the found texts.
    signed: tuple[str, ...] = field(default=())


# -- building blocks ------------------------------------------------------------------------------

_DATE = "Tue, 01 Dec 2026 10:00:00 +0000"


def _headers(
    subject: str = "orders",
    *,
    sender: str | None = PLAYER,
    msgid: str = "<{name}@players.example>",
    extra: list[tuple[str, str]] | None = None,
) -> list[tuple[str, str]]:
    hs: list[tuple[str, str]] = []
    if sender is not None:
        hs.append(("From", sender))
    hs += [("To", REFEREE), ("Subject", subject), ("Date", _DATE), ("Message-ID", msgid)]
    hs += extra or []
    return hs


def _raw(headers: list[tuple[str, str]], body: bytes | str, name: str) -> bytes:
    head = "".join(f"{k}: {v.format(name=name)}\r\n" for k, v in headers)
    data = body.encode("utf-8") if isinstance(body, str) else body
    return head.encode("utf-8") + b"\r\n" + data


def _crlf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def _b64(data: bytes, *, line: int = 76) -> str:
    encoded = base64.b64encode(data).decode("ascii")
    return "\r\n".join(encoded[i : i + line] for i in range(0, len(encoded), line)) + "\r\n"


def _plain_mime(text: str, charset: str = "utf-8", cte: str = "8bit") -> list[tuple[str, str]]:
    return [
        ("MIME-Version", "1.0"),
        ("Content-Type", f'text/plain; charset="{charset}"'),
        ("Content-Transfer-Encoding", cte),
    ]


def _email(name: str, subject: str = "orders", sender: str = PLAYER) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = REFEREE
    msg["Subject"] = subject
    msg["Date"] = _DATE
    msg["Message-ID"] = f"<{name}@players.example>"
    return msg


def build(signer: Signer = stand_in) -> list[Case]:
    """Every corpus case, freshly generated (the 20 MB one included)."""
    order = signer(OrderSpec("main"))
    cases: list[Case] = []

    def add(
        name: str,
        description: str,
        raw: bytes,
        expect: Expect,
        routing: str | None = None,
        signed: tuple[str, ...] | None = None,
    ) -> None:
        if signed is None:
            signed = (order,) if expect.orders == 1 and not expect.too_big else ()
        case = Case(name, description, raw, expect, routing or Case.routing, signed)
        cases.append(case)

    # 1. The normal cases -------------------------------------------------------------------------
    add(
        "plain-body",
        "The order pasted into a plain-text body.",
        _raw(
            _headers() + _plain_mime(""),
            _crlf(f"Hi referee,\n\n{order}\n-- \nVega\n"),
            "plain-body",
        ),
        Expect(orders=1, names=("",)),
    )
    msg = _email("alternative")
    msg.set_content(f"My orders:\n\n{order}")
    msg.add_alternative(f"<p>My orders:</p><pre>{order}</pre>", subtype="html")
    add(
        "alternative",
        "multipart/alternative: text/plain with the order plus an HTML copy.",
        msg.as_bytes(),
        Expect(orders=1, names=("",)),
    )
    attached = signer(OrderSpec("attached"))
    msg = _email("base64-attachment")
    msg.set_content("Orders attached.")
    msg.add_attachment(
        attached.encode(),
        maintype="application",
        subtype="octet-stream",
        filename="orders.yaml",
    )
    add(
        "base64-attachment",
        "orders.yaml as application/octet-stream, base64.",
        msg.as_bytes(),
        Expect(orders=1, names=("orders.yaml",)),
        signed=(attached,),
    )
    msg = _email("two-order-files")
    msg.set_content("Two files this time.")
    two = []
    for label, power in (("first", "Vega"), ("second", "Altair")):
        two.append(signer(OrderSpec(label, power=power)))
        msg.add_attachment(
            two[-1].encode(),
            maintype="text",
            subtype="plain",
            filename=f"{label}.yml",
        )
    add(
        "two-order-files",
        "Two order files (.yml, text/plain attachments) in one message.",
        msg.as_bytes(),
        Expect(orders=2, names=("first.yml", "second.yml")),
        "each file verified and routed on its own; one receipt per file",
        signed=tuple(two),
    )
    crlf_qp = quopri.encodestring(_crlf(f"Orders:\n{order}").encode()).decode("ascii")
    add(
        "qp-crlf",
        "Order pasted with CRLF line ends, sent quoted-printable (soft breaks, =0D escapes).",
        _raw(_headers() + _plain_mime("", cte="quoted-printable"), _crlf(crlf_qp), "qp-crlf"),
        Expect(orders=1, names=("",)),
    )
    qp_escaped = quopri.encodestring(order.replace("\n", "\r\n").encode(), quotetabs=True)
    # Escape only the hard line ends: a line ending in "=" is a soft break and stays one.
    qp_escaped = b"".join(
        line + b"\n" if line.rstrip(b"\r").endswith(b"=") else line.rstrip(b"\r") + b"=0D=0A=\r\n"
        for line in qp_escaped.split(b"\n")[:-1]
    ) + qp_escaped.split(b"\n")[-1]
    add(
        "qp-escaped-crlf",
        "Quoted-printable with every CR LF escaped as =0D=0A (Outlook-style).",
        _raw(_headers() + _plain_mime("", cte="quoted-printable"), qp_escaped, "qp-escaped-crlf"),
        Expect(orders=1, names=("",)),
    )
    add(
        "latin1",
        "ISO-8859-1 body with accented words around the order.",
        _raw(
            _headers() + _plain_mime("", charset="iso-8859-1"),
            _crlf(f"Ordres de l'empire, très sécrètes:\n{order}").encode("iso-8859-1"),
            "latin1",
        ),
        Expect(orders=1),
    )
    add(
        "utf16-base64",
        "UTF-16 body (with BOM), base64.",
        _raw(
            _headers() + _plain_mime("", charset="utf-16", cte="base64"),
            _b64(_crlf(f"Orders ✓\n{order}").encode("utf-16")),
            "utf16-base64",
        ),
        Expect(orders=1),
    )
    add(
        "iso-2022-jp",
        "A Japanese client: ISO-2022-JP, 7bit.",
        _raw(
            _headers() + _plain_mime("", charset="iso-2022-jp", cte="7bit"),
            _crlf(f"命令です。\n{order}").encode("iso-2022-jp"),
            "iso-2022-jp",
        ),
        Expect(orders=1),
    )
    add(
        "undeclared-8bit",
        "UTF-8 body with no MIME headers at all (8-bit, no charset).",
        _raw(_headers(), _crlf(f"Ordres: très bien\n{order}"), "undeclared-8bit"),
        Expect(orders=1),
    )
    add(
        "unknown-charset",
        'A charset nobody knows ("x-klingon"): read as UTF-8 with replacement.',
        _raw(_headers() + _plain_mime("", charset="x-klingon"), _crlf(order), "unknown-charset"),
        Expect(orders=1, notes=frozenset({"charset"})),
    )
    add(
        "non-text-codec-charset",
        'charset="zlib_codec": a Python codec that is not a text encoding.',
        _raw(_headers() + _plain_mime("", charset="zlib_codec"), _crlf(order), "zlib"),
        Expect(orders=1, notes=frozenset({"charset"})),
    )
    b64 = _b64(_crlf(order).encode()).replace("=", "")
    add(
        "broken-base64",
        "Base64 body with its padding stripped (a defect, not a rejection).",
        _raw(_headers() + _plain_mime("", cte="base64"), b64, "broken-base64"),
        Expect(orders=1, notes=frozenset({"defects"})),
    )
    msg = _email("nested")
    msg.set_content(f"Nested:\n{order}")
    msg.add_alternative("<p>Nested <img src='cid:logo'></p>", subtype="html")
    html_part = msg.get_payload()[1]
    html_part.add_related(b"\x89PNG\r\n", maintype="image", subtype="png", cid="<logo>")
    msg.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf", filename="map.pdf")
    add(
        "nested-multiparts",
        "mixed > alternative > (plain, related > (html, image)) + a PDF attachment.",
        msg.as_bytes(),
        Expect(orders=1, notes=frozenset({"ignored-attachment"})),
    )
    inner = _email("forwarded-inner")
    inner.set_content(f"Original orders:\n{order}")
    outer = _email("forwarded", subject="Fwd: orders")
    outer.set_content("Forwarding my orders from my other account.")
    outer.add_attachment(inner)
    add(
        "forwarded-rfc822",
        "The original order mail forwarded as a message/rfc822 attachment.",
        outer.as_bytes(),
        Expect(orders=1),
        "accepted on the signature; the receipt goes to the registered address, not the forwarder",
    )
    msg = _email("inline-and-attached")
    msg.set_content(order)
    msg.add_attachment(order.encode(), maintype="text", subtype="plain", filename="orders.txt")
    add(
        "inline-and-attached",
        "The same order as the body and as orders.txt: found once.",
        msg.as_bytes(),
        Expect(orders=1, notes=frozenset({"duplicate-text"})),
    )

    # 2. Wrong shape ------------------------------------------------------------------------------
    html_only = _email("html-only")
    html_only.set_content(
        f"<html><body><p>My orders</p><pre>{order}</pre></body></html>", subtype="html"
    )
    add(
        "html-only",
        "HTML only, the order pasted inside (escaped and reflowed by the client).",
        html_only.as_bytes(),
        Expect(orders=0, html_only=True),
        "polite reply: please send plain text or an attachment (only if a reply is allowed)",
    )
    msg = _email("zip-attachment")
    msg.set_content("My orders are in the zip.")
    msg.add_attachment(
        b"PK\x03\x04zip", maintype="application", subtype="zip", filename="orders.zip"
    )
    add(
        "zip-attachment",
        "Orders zipped: the zip is ignored with a note.",
        msg.as_bytes(),
        Expect(orders=0, notes=frozenset({"ignored-attachment"})),
        "reply: no orders found; archives are not opened",
    )
    msg = _email("text-attachment-without-orders")
    msg.set_content("Notes attached.")
    msg.add_attachment(b"diplomacy notes\n", maintype="text", subtype="plain", filename="notes.txt")
    add(
        "text-attachment-without-orders",
        "A .txt attachment without the BEGIN line.",
        msg.as_bytes(),
        Expect(orders=0, notes=frozenset({"no-orders"})),
    )
    add(
        "empty-body",
        "Headers and an empty body.",
        _raw(_headers(), b"", "empty-body"),
        Expect(orders=0),
        "reply: no orders found",
    )
    add(
        "headers-only",
        "No blank line, no body at all.",
        _raw(_headers(), b"", "headers-only").rstrip(b"\r\n"),
        Expect(orders=0),
    )
    big = ("x" * 1023 + "\n") * (2 * 1024 + 16)
    msg = _email("attachment-too-big")
    msg.set_content("Big file.")
    msg.add_attachment(
        (order + big).encode(), maintype="text", subtype="plain", filename="big.yaml"
    )
    add(
        "attachment-too-big",
        "A 2 MB .yaml attachment (over the 1 MiB attachment cap): skipped with a note.",
        msg.as_bytes(),
        Expect(orders=0, notes=frozenset({"part-too-big"})),
    )
    filler = _b64(b"\0" * (15 * 1024 * 1024))
    add(
        "twenty-mb",
        "A 20 MB message (a huge base64 attachment): refused before parsing.",
        _raw(
            _headers()
            + [("MIME-Version", "1.0"), ("Content-Type", 'multipart/mixed; boundary="b"')],
            _crlf(f"--b\nContent-Type: text/plain\n\n{order}\n--b\n")
            + "Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n"
            + filler
            + "--b--\r\n",
            "twenty-mb",
        ),
        Expect(too_big="message-too-big"),
        "quarantine; the game master sees the reason",
    )
    many = "".join("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(6000))
    add(
        "too-many-parts",
        "6,000 tiny MIME parts (a parser-cost bomb).",
        _raw(
            _headers()
            + [("MIME-Version", "1.0"), ("Content-Type", 'multipart/mixed; boundary="b"')],
            many + "--b--\r\n",
            "too-many-parts",
        ),
        Expect(too_big="too-many-parts"),
    )
    deep = "".join(
        f'Content-Type: multipart/mixed; boundary="d{i}"\r\n\r\n--d{i}\r\n' for i in range(300)
    )
    deep += "Content-Type: text/plain\r\n\r\nhi\r\n" + "".join(
        f"--d{i}--\r\n" for i in reversed(range(300))
    )
    add(
        "deep-nesting",
        "300 nested multiparts (the stdlib parser recurses per level).",
        _raw(_headers() + [("MIME-Version", "1.0")], deep, "deep-nesting"),
        Expect(too_big="message-too-deep"),
    )

    # 3. Filenames and headers that attack ------------------------------------------------------
    msg = _email("filename-traversal")
    msg.set_content("See file.")
    msg.add_attachment(
        order.encode(), maintype="application", subtype="octet-stream", filename="../../x.yaml"
    )
    add(
        "filename-traversal",
        "Attachment named ../../x.yaml: shown as x.yaml, never used as a path.",
        msg.as_bytes(),
        Expect(orders=1, names=("x.yaml",)),
    )
    add(
        "rfc2231-evil-filename",
        "RFC 2231 filename*=utf-8''..%2F..%2Fetc%2Fpasswd.yaml.",
        _raw(
            _headers()
            + [("MIME-Version", "1.0"), ("Content-Type", 'multipart/mixed; boundary="b"')],
            _crlf(
                "--b\nContent-Type: text/plain\n\nsee attachment\n--b\n"
                "Content-Type: application/octet-stream\n"
                "Content-Disposition: attachment; filename*=utf-8''..%2F..%2Fetc%2Fpasswd.yaml\n\n"
                f"{order}\n--b--\n"
            ),
            "rfc2231",
        ),
        Expect(orders=1, names=("passwd.yaml",)),
    )
    add(
        "rfc2231-control-filename",
        "RFC 2231 filename with CR LF, NUL and a right-to-left override (U+202E).",
        _raw(
            _headers()
            + [("MIME-Version", "1.0"), ("Content-Type", 'multipart/mixed; boundary="b"')],
            _crlf(
                "--b\nContent-Type: text/plain\n\nsee attachment\n--b\n"
                "Content-Type: text/plain; charset=utf-8\n"
                "Content-Disposition: attachment; "
                "filename*=utf-8''orders%0D%0ABcc%3A%20x%00%E2%80%AEgpj.yaml\n\n"
                f"{order}\n--b--\n"
            ),
            "rfc2231-control",
        ),
        Expect(orders=1, names=("orders__Bcc_ x__gpj.yaml",)),
    )
    add(
        "subject-injection-encoded",
        "Subject with an encoded CR LF and a Bcc line (=?utf-8?q?…=0D=0ABcc:…?=).",
        _raw(
            _headers(subject="=?utf-8?q?orders=0D=0ABcc:_victim@example.org?=") + _plain_mime(""),
            _crlf(order),
            "subject-injection-encoded",
        ),
        Expect(orders=1),
        "any echo of the subject goes through compose.header_safe (tested in test_mail_compose)",
    )
    add(
        "subject-injection-bare-cr",
        "Subject holding a bare CR followed by a fake header.",
        _raw(
            _headers(subject="orders\rBcc: victim@example.org") + _plain_mime(""),
            _crlf(order),
            "bare-cr",
        ),
        Expect(orders=1),
    )
    add(
        "malformed-from",
        "From: <<<@@@>>> (unparseable).",
        _raw(_headers(sender="<<<@@@>>>") + _plain_mime(""), _crlf(order), "malformed-from"),
        Expect(orders=1, no_reply="no-from"),
        "the signature still decides; a receipt goes to the registered address only",
    )

    # 4. Who sent it ----------------------------------------------------------------------------
    add(
        "forged-from",
        "From a stranger's address, carrying a valid-looking order of Vega.",
        _raw(
            _headers(sender="victim@stranger.example") + _plain_mime(""),
            _crlf(order),
            "forged-from",
        ),
        Expect(orders=1),
        "signature decides; a receipt or rejection goes to Vega's registered address, "
        "never to victim@stranger.example",
    )
    add(
        "missing-from",
        "No From header at all.",
        _raw(_headers(sender=None) + _plain_mime(""), _crlf(order), "missing-from"),
        Expect(orders=1, no_reply="no-from"),
    )
    add(
        "two-from",
        "From: with two addresses.",
        _raw(
            _headers(sender="a@players.example, b@players.example") + _plain_mime(""),
            _crlf(order),
            "two-from",
        ),
        Expect(orders=1, no_reply="bad-from"),
    )
    add(
        "from-without-domain",
        "From: vega (no domain).",
        _raw(_headers(sender="vega") + _plain_mime(""), _crlf(order), "from-no-domain"),
        Expect(orders=1, no_reply="bad-from"),
    )
    add(
        "own-address",
        "Our own report coming back (From: the referee).",
        _raw(_headers(sender=REFEREE) + _plain_mime(""), "Turn 3 report\r\n", "own-address"),
        Expect(orders=0, no_reply="own-address"),
        "ignored; no reply (mail loop)",
    )
    old = signer(OrderSpec("old", turn=1))
    add(
        "replayed-old-orders",
        "A correctly signed order for an earlier turn, sent again.",
        _raw(_headers() + _plain_mime(""), _crlf(old), "replayed"),
        Expect(orders=1),
        "rejected as a replay (turn 1 is over); rejection to the registered address",
        signed=(old,),
    )
    late = signer(OrderSpec("late", game="finished-1", turn=40))
    add(
        "finished-game",
        "A signed order for a game that has ended.",
        _raw(_headers() + _plain_mime(""), _crlf(late), "finished"),
        Expect(orders=1),
        "rejected: the game is finished",
        signed=(late,),
    )

    # 5. Robots -----------------------------------------------------------------------------------
    add(
        "auto-replied",
        "An out-of-office answer to our receipt (Auto-Submitted: auto-replied).",
        _raw(
            _headers(subject="Out of office", extra=[("Auto-Submitted", "auto-replied")])
            + _plain_mime(""),
            "I am away until Monday.\r\n",
            "auto-replied",
        ),
        Expect(orders=0, no_reply="auto-submitted"),
        "ignored; never answered",
    )
    add(
        "auto-generated-with-order",
        "A robot (Auto-Submitted: auto-generated) relaying a signed order.",
        _raw(
            _headers(extra=[("Auto-Submitted", "auto-generated; by=relay")]) + _plain_mime(""),
            _crlf(order),
            "auto-generated",
        ),
        Expect(orders=1, no_reply="auto-submitted"),
        "orders may be recorded on the signature, but no automatic receipt",
    )
    add(
        "auto-submitted-no",
        "Auto-Submitted: no (a person): answered normally.",
        _raw(_headers(extra=[("Auto-Submitted", "no")]) + _plain_mime(""), _crlf(order), "as-no"),
        Expect(orders=1),
    )
    add(
        "x-autoreply",
        "An autoresponder that only sets X-Autoreply: yes.",
        _raw(
            _headers(subject="Re: turn 3", extra=[("X-Autoreply", "yes")]) + _plain_mime(""),
            "Thanks for your mail.\r\n",
            "x-autoreply",
        ),
        Expect(orders=0, no_reply="auto-submitted"),
    )
    bounce = (
        "--r\nContent-Type: text/plain\n\nDelivery to vega@players.example failed.\n"
        "--r\nContent-Type: message/delivery-status\n\n"
        "Reporting-MTA: dns; mx.players.example\n\n"
        "Final-Recipient: rfc822; vega@players.example\nAction: failed\nStatus: 5.1.1\n"
        "--r\nContent-Type: text/rfc822-headers\n\n"
        f"From: {REFEREE}\nTo: vega@players.example\nSubject: Turn 3 report\n"
        "--r--\n"
    )
    add(
        "bounce-dsn",
        "A delivery-status bounce from MAILER-DAEMON with an empty Return-Path.",
        _raw(
            [("Return-Path", "<>")]
            + _headers(
                subject="Undelivered Mail Returned to Sender",
                sender="MAILER-DAEMON@mx.players.example",
            )
            + [
                ("MIME-Version", "1.0"),
                ("Content-Type", 'multipart/report; report-type=delivery-status; boundary="r"'),
            ],
            _crlf(bounce),
            "bounce-dsn",
        ),
        Expect(orders=0, no_reply="report"),
        "ignored; the game master may want to see undeliverable addresses (outbox failed())",
    )
    bounce_full = _email(
        "bounce-full", subject="Delivery failure", sender="postmaster@players.example"
    )
    bounce_full.set_content("Your message could not be delivered.")
    original = _email("bounce-original")
    original.set_content(order)
    bounce_full.add_attachment(original)
    add(
        "bounce-with-original",
        "A postmaster bounce carrying the full original order mail (message/rfc822).",
        bounce_full.as_bytes(),
        Expect(orders=1, no_reply="robot-sender"),
        "a signed order inside a bounce: replay protection decides; never answered",
    )
    add(
        "empty-return-path",
        "Plain-text bounce recognised only by its empty Return-Path.",
        _raw(
            [("Return-Path", "<>")]
            + _headers(subject="failure notice", sender="mx@players.example")
            + _plain_mime(""),
            "Sorry, we were unable to deliver your message.\r\n",
            "empty-return-path",
        ),
        Expect(orders=0, no_reply="bounce"),
    )
    add(
        "read-receipt",
        "A read receipt (multipart/report; report-type=disposition-notification).",
        _raw(
            _headers(subject="Read: Turn 3 report")
            + [
                ("MIME-Version", "1.0"),
                (
                    "Content-Type",
                    'multipart/report; report-type=disposition-notification; boundary="r"',
                ),
            ],
            _crlf(
                "--r\nContent-Type: text/plain\n\nYour message was read.\n"
                "--r\nContent-Type: message/disposition-notification\n\n"
                "Disposition: manual-action/MDN-sent-manually; displayed\n--r--\n"
            ),
            "read-receipt",
        ),
        Expect(orders=0, no_reply="report"),
    )
    add(
        "list-precedence",
        "Mail from a mailing list (Precedence: list).",
        _raw(_headers(extra=[("Precedence", "list")]) + _plain_mime(""), _crlf(order), "prec"),
        Expect(orders=1, no_reply="bulk"),
    )
    add(
        "list-id",
        "Mail through a list server (List-Id, List-Unsubscribe).",
        _raw(
            _headers(
                extra=[
                    ("List-Id", "4000 AD players <players.lists.example>"),
                    ("List-Unsubscribe", "<mailto:leave@lists.example>"),
                ]
            )
            + _plain_mime(""),
            _crlf(order),
            "list-id",
        ),
        Expect(orders=1, no_reply="list"),
    )

    # 6. The report sent back -------------------------------------------------------------------
    add(
        "report-sent-back",
        "A reply quoting our whole report (text + HTML + view.json) with the signed order form "
        "quoted behind '> '.",
        _report_reply(signer(OrderSpec("from the report form"))),
        Expect(orders=1, names=("",), notes=frozenset({"ignored-attachment"})),
        "de-quote the block (pbem.orderdoc), verify, accept; receipt in the same thread",
        signed=(),  # present, but behind "> " quote prefixes
    )
    return cases


def _report_reply(order: str) -> bytes:
    """A player's reply to a report: the report and the signed order form quoted with "> "."""
    from pbem.mail.compose import Attachment, compose

    report = compose(
        sender=REFEREE,
        to=PLAYER,
        subject="Turn 3 report — Vega",
        text="Turn 3 report for Vega\n\nYour fleets: ...\n\nOrder form:\n" + order,
        html="<h1>Turn 3 report</h1><pre>" + order + "</pre>",
        attachments=[Attachment("view.json", b'{"turn": 3}', "application", "json")],
        date=datetime(2026, 12, 1, 9, 0, tzinfo=UTC),
        domain="pbem.example",
        auto_submitted="auto-generated",
        game="demo-1",
    )
    quoted = "\n".join(
        "> " + line for line in report.get_body(("plain",)).get_content().splitlines()
    )
    reply = _email("report-sent-back", subject="Re: Turn 3 report — Vega")
    reply["In-Reply-To"] = report["Message-ID"]
    reply.set_content(f"Here are my orders, signed, in your form.\n\n{quoted}\n")
    reply.add_alternative(
        f"<blockquote>{report.get_body(('html',)).get_content()}</blockquote>", subtype="html"
    )
    reply.make_mixed()
    reply.add_attachment(
        b'{"turn": 3}', maintype="application", subtype="json", filename="view.json"
    )
    return reply.as_bytes()


def table(cases: list[Case]) -> str:
    """The Markdown outcome table for README.md."""
    rows = [
        "| # | case | message | transport outcome | what routing must do |",
        "|---|---|---|---|---|",
    ]
    for i, case in enumerate(cases, 1):
        rows.append(
            f"| {i} | `{case.name}` | {case.description} | {case.expect.summary()} "
            f"| {case.routing} |"
        )
    return "\n".join(rows) + "\n"
