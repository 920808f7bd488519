"""Raw mail bytes → a parsed message → the decoded texts that may hold signed orders.

Players use every mail client there is, so an order can arrive as the text/plain body (possibly
quoted behind "> " in a reply), inside multipart/alternative, as a .yaml/.yml/.txt attachment, in a
forwarded message/rfc822, in quoted-printable or base64, in any charset. This module finds every
such text and returns it decoded, with where it came from; it does not look inside the armor (that
is :func:`pbem.protocol.orderdoc.find_signed_blocks`).

Hostile or broken input never raises anything but :class:`~pbem.mail.errors.MessageRefused` (from
:func:`parse_message`, for a message over a cap or one the stdlib parser cannot read); anything
else becomes a :class:`Problem` note:
an unknown charset is decoded as UTF-8 with replacement characters, bad base64 is only a defect, a
zip is ignored. Attachment filenames are sanitised for display and never used as paths.

Size: the parsing budgets, the part walk and the decoding of each part are one defence against
hostile mail: the limits are checked where the parts are walked, and splitting them would spread
that check over modules.
"""

from __future__ import annotations

import email
import functools
import re
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage, Message
from email.policy import EmailPolicy
from typing import Literal

from pbem.errors import Problem
from pbem.mail.errors import MessageRefused, MessageTooBig
from pbem.record import Record

#: The first line of a signed order document (see pbem.protocol.orderdoc); finding it is all
#: we do with it.
BEGIN_MARKER = "-----BEGIN PBEM SIGNED ORDERS-----"

#: The first line of a signed press block (pbem.protocol.pressdoc): a text holding it is read too.
PRESS_MARKER = "-----BEGIN PBEM SIGNED PRESS-----"
#: The first line of a signed vote block (pbem.protocol.votedoc): read too.
VOTE_MARKER = "-----BEGIN PBEM SIGNED VOTE-----"

#: The BEGIN line, possibly indented or behind one or more reply-quote prefixes ("> ", ">>").
_BEGIN_LINE = re.compile(r"^[ \t]*(?:>[ \t]*)*(?:" + re.escape(BEGIN_MARKER) + "|"
                         + re.escape(PRESS_MARKER) + "|" + re.escape(VOTE_MARKER)
                         + r")[ \t]*\r?$", re.M)

#: Attachment names whose content is read as text even when the part is application/octet-stream.
ORDER_FILE_SUFFIXES = (".yaml", ".yml", ".txt")

MiB = 1024 * 1024

# Cheap pre-parse bounds: the stdlib parser's cost grows with every MIME part (bench/README.md,
# "Measurements behind the code") and it recurses once per nesting level (RecursionError at
# ~3000), so hostile structure is refused before it is parsed.
_DASH_LINE = re.compile(rb"^--", re.M)
_CONTAINER_TYPE = re.compile(rb"^content-type:\s*(?:multipart/|message/rfc822)", re.M | re.I)
_ENCODED_WORD = re.compile(rb"=\?[^?\s]{0,75}\?[BbQq]\?")
_HEADER_FIELD = re.compile(rb"^[!-9;-~]+:", re.M)
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")


@functools.lru_cache(maxsize=1024)
def _parsed_header(name: str, value: str) -> object:
    return policy.default.header_fetch_parse(name, value)


class _ParsePolicy(EmailPolicy):
    """``email.policy.default`` with parsed header values cached.

    The default policy re-parses a header on every ``msg.get()`` — and the parser itself and
    ``get_content_type()``/``get_param()`` call it again and again for the same Content-Type —
    which made header parsing ~80 % of reading an order mail. Header objects are immutable, so a
    small LRU keyed by (name, raw value) returns the same result much faster (bench/README.md,
    "Measurements behind the code").
    """

    def header_fetch_parse(self, name: str, value: str) -> object:  # type: ignore[override]
        if hasattr(value, "name") or len(value) > 4096:
            return super().header_fetch_parse(name, value)
        return _parsed_header(name, value)


#: The policy :func:`parse_message` uses: ``policy.default`` semantics, faster header access.
PARSE_POLICY = _ParsePolicy()


class Limits(Record):
    """Size caps. A message over ``message_bytes`` or with more parts / deeper nesting than allowed
    is refused whole; a single part over its cap is skipped with a note."""

    __slots__ = ("message_bytes", "part_bytes", "attachment_bytes", "parts", "depth",
                 "header_bytes", "headers", "encoded_words", "comment_depth")
    message_bytes: int
    #: Encoded size of one text/plain body part that is searched for orders.
    part_bytes: int
    #: Encoded size of one attachment that is read as an order file.
    attachment_bytes: int
    #: MIME parts in the whole message (containers included).
    parts: int
    #: Nesting of multiparts and forwarded messages.
    depth: int
    #: Bytes of the top-level header section (real mail with a long Received chain: ~20 KB).
    header_bytes: int
    #: Header fields in the top-level header section.
    headers: int
    #: RFC 2047 encoded words ("=?charset?q?…?=") in the whole message. The stdlib decodes a
    #: header of n encoded words in memory that grows with n² (280 KB of them took 2.7 GB).
    encoded_words: int
    #: Nesting of comments "(…)" in any header line; the stdlib address parsers recurse once per
    #: level (RecursionError at ~500).
    comment_depth: int

    def __init__(self,
                 message_bytes: int = 10 * MiB, part_bytes: int = 2 * MiB,
                 attachment_bytes: int = 1 * MiB, parts: int = 500, depth: int = 30,
                 header_bytes: int = 64 * 1024, headers: int = 300, encoded_words: int = 200,
                 comment_depth: int = 20) -> None:
        object.__setattr__(self, "message_bytes", message_bytes)
        object.__setattr__(self, "part_bytes", part_bytes)
        object.__setattr__(self, "attachment_bytes", attachment_bytes)
        object.__setattr__(self, "parts", parts)
        object.__setattr__(self, "depth", depth)
        object.__setattr__(self, "header_bytes", header_bytes)
        object.__setattr__(self, "headers", headers)
        object.__setattr__(self, "encoded_words", encoded_words)
        object.__setattr__(self, "comment_depth", comment_depth)


DEFAULT_LIMITS = Limits()

Origin = Literal["body", "attachment"]


class TextPart(Record):
    """One decoded text that contains the BEGIN line of a signed order document.

    ``text`` has its line endings normalised to "\\n" and a leading byte-order mark removed.
    ``name`` is a sanitised display name ("" for a body part): never a path.
    """

    __slots__ = ("origin", "name", "text", "content_type", "charset", "index", "forwarded")
    origin: Origin
    name: str
    text: str
    content_type: str
    charset: str
    #: Position of the part in a depth-first walk of the message (0 = the message itself).
    index: int
    #: True when the part sits inside a forwarded message (message/rfc822).
    forwarded: bool

    def __init__(self,
                 origin: Origin, name: str, text: str, content_type: str, charset: str,
                 index: int, forwarded: bool = False) -> None:
        object.__setattr__(self, "origin", origin)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "content_type", content_type)
        object.__setattr__(self, "charset", charset)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "forwarded", forwarded)

    @property
    def label(self) -> str:
        """Where the text came from, for a sentence in a receipt: "the message body",
        "attachment 'orders.yaml'"."""
        where = "the message body" if self.origin == "body" else f"attachment '{self.name}'"
        return f"{where} of a forwarded message" if self.forwarded else where


class PartScan(Record):
    """Everything :func:`scan_parts` learned about a message's parts."""

    __slots__ = ("texts", "notes", "has_plain", "has_html")
    texts: tuple[TextPart, ...]
    #: Parts ignored or repaired: code, path = where ("attachment 'x.zip'", "part 3"), message;
    #: ``str(note)`` is the sentence "attachment 'x.zip': ignored (zip archive): …".
    notes: tuple[Problem, ...]
    has_plain: bool
    has_html: bool

    def __init__(self,
                 texts: tuple[TextPart, ...], notes: tuple[Problem, ...], has_plain: bool,
                 has_html: bool) -> None:
        object.__setattr__(self, "texts", texts)
        object.__setattr__(self, "notes", notes)
        object.__setattr__(self, "has_plain", has_plain)
        object.__setattr__(self, "has_html", has_html)

    @property
    def html_only(self) -> bool:
        """HTML but no text/plain and no order attachment: ask for plain text or an attachment."""
        return self.has_html and not self.has_plain and not self.texts


def parse_message(raw: bytes, limits: Limits = DEFAULT_LIMITS) -> EmailMessage:
    """Parse ``raw`` with ``email.policy.default`` semantics (:data:`PARSE_POLICY`) after checking
    it against ``limits``.

    Raises :class:`MessageTooBig` (carrying a :class:`Problem`) when the message is over
    ``limits.message_bytes``, has too many parts or is nested too deeply. Defects (bad base64
    padding, missing boundaries, …) do not raise: they stay in ``msg.defects`` / ``part.defects``.
    """
    size = len(raw)
    if size > limits.message_bytes:
        raise MessageTooBig(
            Problem(
                "message-too-big",
                "",
                f"the message is {size:,} bytes; messages over {limits.message_bytes:,} bytes "
                "are not read",
            )
        )
    check_header_budget(raw, limits)
    dash_lines = len(_DASH_LINE.findall(raw))
    if dash_lines > 10 * limits.parts:
        raise _too_many_parts(dash_lines, limits, "boundary-like lines")
    containers = len(_CONTAINER_TYPE.findall(raw))
    if containers > 4 * limits.depth:
        # Not necessarily nested, but the parser's recursion makes many containers costly.
        raise MessageTooBig(
            Problem(
                "message-too-deep",
                "",
                f"the message has {containers:,} multipart or forwarded containers; "
                f"at most {4 * limits.depth} are read",
            )
        )
    try:
        msg = email.message_from_bytes(raw, policy=PARSE_POLICY)
    except RecursionError:  # the parser recurses per nesting level
        raise MessageTooBig(
            Problem("message-too-deep", "", "the message's parts are nested too deeply to read")
        ) from None
    except Exception as exc:  # the stdlib parser is lenient, but not proven never to raise
        raise MessageRefused(
            Problem("unreadable", "", f"the message cannot be parsed ({type(exc).__name__})")
        ) from None
    assert isinstance(msg, EmailMessage)
    try:
        _check_structure(msg, limits)
    except MessageRefused:
        raise
    except Exception as exc:  # a part header the stdlib cannot parse while walking
        raise MessageRefused(
            Problem("unreadable", "", f"the message cannot be parsed ({type(exc).__name__})")
        ) from None
    return msg


def check_header_budget(raw: bytes, limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse (:class:`MessageTooBig`) a message whose headers would cost the stdlib parsers
    more than linear work: too large a header section, too many fields, too many RFC 2047
    encoded words, comments nested too deeply. Runs in linear time on the raw bytes, before any
    parsing, so a hostile header is refused before it costs memory or recursion."""
    end = _BLANK_LINE.search(raw)
    head = raw[: end.start()] if end else raw
    if len(head) > limits.header_bytes:
        raise MessageTooBig(Problem(
            "headers-too-big", "", f"the header section is {len(head):,} bytes; at most "
            f"{limits.header_bytes:,} are read"))
    fields = len(_HEADER_FIELD.findall(head))
    if fields > limits.headers:
        raise MessageTooBig(Problem(
            "too-many-headers", "", f"the message has {fields:,} header fields; at most "
            f"{limits.headers} are read"))
    words = len(_ENCODED_WORD.findall(raw))
    if words > limits.encoded_words:
        raise MessageTooBig(Problem(
            "too-many-encoded-words", "", f"the message has {words:,} RFC 2047 encoded words "
            f"(=?…?=); at most {limits.encoded_words} are read"))
    depth = _comment_depth(head)
    if depth > limits.comment_depth:
        raise MessageTooBig(Problem(
            "headers-too-deep", "", f"a header nests comments (…) {depth} levels deep; at most "
            f"{limits.comment_depth} are read"))


#: Where a header field starts: after a line end not followed by a space or tab (a fold).
_FIELD_START = re.compile(rb"\n(?![ \t])")
#: What counts in a field: a backslash with the byte it escapes, "(" and ")".
_COMMENT_TOKEN = re.compile(rb"\\.|[()]", re.S)


def _comment_depth(head: bytes) -> int:
    """The deepest nesting of "(" in ``head`` (counted per header field, escapes skipped).

    Field by field, over the parentheses and escapes of fields holding a "(": the count
    starts again at each field and a field without "(" nests nothing, so the Python loop runs
    over a few tokens instead of every byte of the header section (a 20 KB Received chain)."""
    deepest = 0
    for field in _FIELD_START.split(head):
        if b"(" not in field:
            continue
        depth = 0
        for token in _COMMENT_TOKEN.findall(field):  # parentheses and escaped bytes only
            if token == b"(":
                depth += 1
                deepest = max(deepest, depth)
            elif token == b")":
                depth = max(0, depth - 1)
    return deepest


def _check_structure(msg: Message, limits: Limits) -> None:
    for count, (_part, depth, _fwd) in enumerate(_walk(msg), start=1):
        if count > limits.parts:
            raise _too_many_parts(count, limits, "parts")
        if depth > limits.depth:
            raise MessageTooBig(
                Problem(
                    "message-too-deep",
                    "",
                    f"the message's parts are nested more than {limits.depth} levels deep",
                )
            )


def _too_many_parts(count: int, limits: Limits, what: str) -> MessageTooBig:
    return MessageTooBig(
        Problem(
            "too-many-parts",
            "",
            f"the message has {count:,} {what}; at most {limits.parts} MIME parts are read",
        )
    )


def _walk(msg: Message) -> Iterator[tuple[Message, int, bool]]:
    """Depth-first, in document order, without recursion: (part, depth, inside a forward)."""
    stack: list[tuple[Message, int, bool]] = [(msg, 0, False)]
    while stack:
        part, depth, forwarded = stack.pop()
        yield part, depth, forwarded
        if part.is_multipart():
            payload = part.get_payload()
            children = payload if isinstance(payload, list) else [payload]
            inner = forwarded or part.get_content_type() == "message/rfc822"
            for child in reversed(children):
                if isinstance(child, Message):
                    stack.append((child, depth + 1, inner))


def order_texts(msg: Message, limits: Limits = DEFAULT_LIMITS) -> list[TextPart]:
    """The decoded texts of ``msg`` that contain the BEGIN line of a signed order document."""
    return list(scan_parts(msg, limits).texts)



def scan_parts(msg: Message, limits: Limits = DEFAULT_LIMITS) -> PartScan:
    """Walk every part once: collect order texts, note what was ignored, see plain vs HTML.

    Candidates are text/plain parts that are not attachments, attachments named .yaml/.yml/.txt,
    and any text/* attachment. A candidate counts only if it holds the BEGIN line (maybe quoted);
    an identical text found twice (a client that adds an attachment inline too) is kept once.
    """
    texts: list[TextPart] = []
    notes: list[Problem] = []
    seen: set[str] = set()
    has_plain = has_html = False
    for index, (part, _depth, forwarded) in enumerate(_walk(msg)):
        if part.is_multipart():
            continue
        try:
            found = _scan_leaf(part, index, forwarded, limits, notes)
        except Exception as exc:
            # The stdlib raises on a few malformed parameters (e.g. a NUL in a charset) only
            # when the part is decoded; one such part must not hide the others.
            notes.append(
                Problem(
                    "unreadable-part",
                    f"part {index}",
                    f"cannot be decoded ({type(exc).__name__}); it was skipped",
                )
            )
            continue
        kind, text = found
        if kind == "plain":
            has_plain = True
        elif kind == "html":
            has_html = True
        if text is None:
            continue
        if text.text in seen:
            notes.append(
                Problem("duplicate-text", text.label, "repeats an earlier part; read once")
            )
            continue
        seen.add(text.text)
        texts.append(text)
    return PartScan(tuple(texts), tuple(notes), has_plain, has_html)


def _scan_leaf(
    part: Message, index: int, forwarded: bool, limits: Limits, notes: list[Problem]
) -> tuple[str, TextPart | None]:
    """Look at one leaf part: its kind ("plain", "html", "attachment", "other") and the order
    text it holds, if any; notes go to ``notes``."""
    ctype = part.get_content_type()
    raw_name = _filename(part)
    attached = raw_name is not None or _disposition(part) == "attachment"
    if not attached:
        if ctype == "text/html":
            return "html", None
        if ctype != "text/plain":
            notes.append(Problem("ignored-part", f"part {index}", f"ignored ({ctype})"))
            return "other", None
        kind, name, cap = "plain", "", limits.part_bytes
        origin: Origin = "body"
        label = "the message body"
    else:
        name = display_name(raw_name, fallback=f"part-{index}")
        label = f"attachment '{name}'"
        readable = part.get_content_maintype() == "text"
        if not (name.lower().endswith(ORDER_FILE_SUFFIXES) or readable):
            what = "zip archive" if _is_zip(ctype, name) else ctype
            notes.append(
                Problem(
                    "ignored-attachment",
                    label,
                    f"ignored ({what}): only .yaml, .yml and .txt files are read",
                )
            )
            return "other", None
        kind, cap = "attachment", limits.attachment_bytes
        origin = "attachment"
    size = _encoded_size(part)
    if size > cap:
        notes.append(
            Problem(
                "part-too-big",
                label,
                f"{size:,} bytes; parts over {cap:,} bytes are not read",
            )
        )
        return kind, None
    text, charset, note = _decode_text(part, default_charset="utf-8")
    if note:
        notes.append(Problem("charset", label, note))
    if part.defects:
        notes.append(
            Problem(
                "defects",
                label,
                f"malformed ({_defect_names(part)}); read what could be decoded",
            )
        )
    if not _BEGIN_LINE.search(text):
        if origin == "attachment":
            notes.append(Problem("no-orders", label, "holds no signed orders"))
        return kind, None
    return kind, TextPart(origin, name, text, ctype, charset, index, forwarded)


def contains_begin_line(text: str) -> bool:
    """True if some line of ``text`` is the BEGIN marker (maybe indented or behind "> ")."""
    return _BEGIN_LINE.search(text) is not None


def display_name(filename: str | None, *, fallback: str = "attachment") -> str:
    """A filename made safe to show: last path component only, no control or bidi characters, no
    leading dots, at most 80 characters. For display only — never join it to a directory."""
    name = (filename or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch if ch.isprintable() else "_" for ch in name)
    name = re.sub(r"[^\w.+()\- ]", "_", name).strip(" .")
    return name[:80] or fallback


def _filename(part: Message) -> str | None:
    try:
        name = part.get_filename()
    except Exception:  # a malformed RFC 2231/2047 parameter must not stop the scan
        return "unnamed"
    return None if name is None else str(name)


def _disposition(part: Message) -> str | None:
    try:
        return part.get_content_disposition()
    except Exception:
        return None


def _is_zip(ctype: str, name: str) -> bool:
    return "zip" in ctype or name.lower().endswith((".zip", ".gz", ".7z", ".rar", ".tgz"))


def _encoded_size(part: Message) -> int:
    try:
        payload = part.get_payload(decode=False)
    except ValueError:
        # 8-bit payload with a charset the codec machinery rejects (e.g. holding a NUL):
        # the stdlib raises here but decodes fine with decode=True.
        payload = part.get_payload(decode=True)
    return len(payload) if isinstance(payload, str | bytes) else 0


def _defect_names(part: Message) -> str:
    return ", ".join(sorted({type(d).__name__ for d in part.defects}))


_ASCII_NAMES = {"us-ascii", "ascii", "ansi_x3.4-1968", "646"}


def _decode_text(part: Message, *, default_charset: str) -> tuple[str, str, str]:
    """(text, charset used, note) for a leaf part; never raises.

    The payload is un-transfer-encoded by the stdlib (bad base64 becomes a defect, not an error),
    then decoded with the declared charset; a declared US-ASCII is read as UTF-8 (a superset, and
    what unlabelled 8-bit mail usually is); an unknown or non-text charset falls back to UTF-8 with
    replacement characters and a note.
    """
    payload = part.get_payload(decode=True)
    data = payload if isinstance(payload, bytes) else b""
    declared = part.get_content_charset()
    charset = declared or default_charset
    if charset.lower() in _ASCII_NAMES:
        charset = "utf-8"
    note = ""
    try:
        text = data.decode(charset, errors="replace")
    except (LookupError, ValueError):
        note = f"unknown charset {display_name(declared, fallback='?')!r}, read as UTF-8"
        charset = "utf-8"
        text = data.decode("utf-8", errors="replace")
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    return text, charset, note
