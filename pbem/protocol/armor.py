"""The text armor of a signed order document, and the normalisation that makes it survive email.

A signed order document is plain text a person can paste (docs/protocol.md, "Signed orders")::

    -----BEGIN PBEM SIGNED ORDERS-----
    <the order YAML>
    -----BEGIN PBEM SIGNATURE-----
    key: <fingerprint of the signing key>
    sig: <base64 of the 64-byte Ed25519 signature>
    -----END PBEM SIGNED ORDERS-----

What is signed is the YAML text *normalised*: line ends made LF, trailing spaces and tabs cut from
every line, blank lines at the start and the end dropped, exactly one final LF. Mail can change
exactly those things (CRLF, quoted-printable, format=flowed, editors), and none of them changes
what the YAML means. Finding blocks strips a reply's quote prefix (``> ``, ``>>``…) and ignores
everything around the block.

This module only cuts text; it neither verifies nor parses (see pbem.protocol.orderdoc).
"""

from __future__ import annotations

import base64
import binascii
import re

from pbem.errors import Problem, Rejected
from pbem.record import Record

BEGIN = "-----BEGIN PBEM SIGNED ORDERS-----"
SIGNATURE = "-----BEGIN PBEM SIGNATURE-----"
END = "-----END PBEM SIGNED ORDERS-----"
MARKERS = (BEGIN, SIGNATURE, END)
#: The markers of a signed press block (pbem.protocol.pressdoc), here so that finding blocks in
#: a mail (every mail ingest reads, spam too) needs neither the press module nor its imports.
PRESS_BEGIN = "-----BEGIN PBEM SIGNED PRESS-----"
PRESS_END = "-----END PBEM SIGNED PRESS-----"
#: The markers of a signed vote block (pbem.protocol.votedoc), here for the same reason.
VOTE_BEGIN = "-----BEGIN PBEM SIGNED VOTE-----"
VOTE_END = "-----END PBEM SIGNED VOTE-----"

SIG_BYTES = 64
_FINGERPRINT = re.compile(r"[0-9a-f]{16}")
_QUOTE = re.compile(r"[ \t]*(?:>[ \t]?)+")
_B64_TAIL = re.compile(r"[A-Za-z0-9+/=]+")


def lines_lf(text: str) -> list[str]:
    """Split on any line end (CRLF, CR or LF) -- and only on those, unlike str.splitlines."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def normalize(text: str) -> str:
    """The canonical form of an order body: the exact text that is signed (as UTF-8)."""
    lines = [line.rstrip(" \t") for line in lines_lf(text)]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""


def _quote_depth(prefix: str) -> int:
    return prefix.count(">")


def _dequote(line: str, prefix: str) -> str | None:
    """``line`` without the quote prefix of its block, or None if it is not quoted alike."""
    if line.startswith(prefix):
        return line[len(prefix) :]
    if line.rstrip(" \t") == prefix.rstrip(" \t"):
        return ""  # an empty quoted line whose trailing space was stripped
    match = _QUOTE.match(line)
    if match and _quote_depth(match.group()) == _quote_depth(prefix):
        return line[match.end() :]  # same depth, quoted in another style ("> >" vs ">>")
    return None


def find_signed_blocks(text: str, begin: str = BEGIN, end: str = END) -> list[str]:
    """Every signed order block in ``text``, dequoted, with LF line ends, in order of appearance.

    Text around the blocks (a report, quoted reply text, a mail signature) is ignored. A block
    whose END line is missing is still returned (it runs to the end of its quoted region), so that
    verifying it can say what is missing rather than "nothing found". ``begin`` and ``end``
    name another kind of signed block (press: pbem.protocol.pressdoc).
    """
    blocks: list[str] = []
    lines = lines_lf(text)
    i = 0
    while i < len(lines):
        stripped = lines[i].rstrip(" \t")
        if not stripped.endswith(begin):
            i += 1
            continue
        prefix = stripped[: -len(begin)]
        if prefix.strip(" \t>"):
            i += 1  # the marker sits inside some other text line
            continue
        out = [begin]
        i += 1
        while i < len(lines):
            inner = _dequote(lines[i], prefix)
            if inner is None:
                break
            if inner.rstrip(" \t") == begin:
                break  # a new block starts: this one was cut short
            out.append(inner)
            i += 1
            if inner.rstrip(" \t") == end:
                break
        blocks.append("\n".join(out) + "\n")
    return blocks


class Armored(Record):
    """A block cut into its parts: the normalised body, the key fingerprint, the signature."""

    __slots__ = ("body", "key", "signature")
    body: str
    key: str
    signature: bytes

    def __init__(self, body: str, key: str, signature: bytes) -> None:
        object.__setattr__(self, "body", body)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "signature", signature)


def armor(body: str, key_fingerprint: str, signature: bytes, begin: str = BEGIN,
          end: str = END) -> str:
    """The armored block for a normalised body (as ``find_signed_blocks`` returns it)."""
    sig = base64.b64encode(signature).decode("ascii")
    return f"{begin}\n{body}{SIGNATURE}\nkey: {key_fingerprint}\nsig: {sig}\n{end}\n"


def marker_lines(body: str) -> list[int]:
    """Line numbers (1-based) of body lines that would be read as armor markers."""
    return [
        n
        for n, line in enumerate(body.split("\n"), 1)
        if line.strip(" \t>").startswith(("-----BEGIN PBEM", "-----END PBEM"))
    ]


def dearmor(block: str, begin: str = BEGIN, end: str = END) -> Armored:
    """Cut one block; raise Rejected listing every problem with the armor itself."""
    lines = [line.rstrip(" \t") for line in lines_lf(block)]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    if not lines or lines[0] != begin:
        raise Rejected([Problem("no-block", "", f"no signed block (a line {begin})")])
    try:
        sig_at = lines.index(SIGNATURE)
    except ValueError:
        raise Rejected(
            [Problem("unsigned", "signature", f"the orders are not signed: no {SIGNATURE} line "
                     "(sign the file with: pbem orders sign FILE --key KEY)")]
        ) from None
    problems: list[Problem] = []
    if lines[-1] != end:
        problems.append(Problem("no-end", "signature", f"the block has no {end} line: was the "
                                "message cut short?"))
        tail = lines[sig_at + 1 :]
    else:
        tail = lines[sig_at + 1 : -1]
    body = _normal_body(lines[1:sig_at])
    if not body:
        problems.append(Problem("empty", "", "the signed block holds no orders"))
    fields = _signature_fields(tail, problems)
    key = fields.get("key", "")
    if "key" not in fields:
        problems.append(Problem("missing", "signature.key", "missing: the fingerprint of the "
                                "signing key"))
    elif not _FINGERPRINT.fullmatch(key):
        problems.append(Problem("bad-key", "signature.key", f"{key!r} is not a key fingerprint "
                                "(16 lower-case hex digits)"))
    signature = b""
    if "sig" not in fields:
        problems.append(Problem("missing", "signature.sig", "missing: the signature"))
    else:
        try:
            signature = base64.b64decode(fields["sig"], validate=True)
        except (binascii.Error, ValueError):
            problems.append(Problem("bad-sig", "signature.sig", "is not base64"))
        else:
            if len(signature) != SIG_BYTES:
                problems.append(Problem("bad-sig", "signature.sig", f"must be {SIG_BYTES} bytes "
                                        f"(an Ed25519 signature), not {len(signature)}"))
    if problems:
        raise Rejected(problems)
    return Armored(body, key, signature)


def _normal_body(lines: list[str]) -> str:
    """``normalize`` of these lines joined, for lines already split at every line end and
    right-stripped (as ``dearmor`` has them): only the empty lines at either end remain to go,
    so they are not split and stripped a second time."""
    start, end = 0, len(lines)
    while start < end and not lines[start]:
        start += 1
    while end > start and not lines[end - 1]:
        end -= 1
    return "\n".join(lines[start:end]) + "\n" if end > start else ""


def _signature_fields(tail: list[str], problems: list[Problem]) -> dict[str, str]:
    """Read ``key: …`` and ``sig: …`` lines; a sig hard-wrapped by a mailer is joined again."""
    fields: dict[str, str] = {}
    last = ""
    for line in tail:
        text = line.strip()
        if not text:
            continue
        name, colon, value = text.partition(":")
        name = name.strip()
        if not colon:
            if last == "sig" and _B64_TAIL.fullmatch(text):
                fields["sig"] += text
                continue
            problems.append(Problem("bad-signature-line", "signature", f"cannot read {text!r} "
                                    "(expected key: … and sig: … lines)"))
            continue
        if name not in ("key", "sig"):
            problems.append(Problem("unknown-key", f"signature.{name}", "unknown field in the "
                                    "signature section (only key and sig)"))
            continue
        if name in fields:
            problems.append(Problem("duplicate-key", f"signature.{name}", "appears twice"))
            continue
        fields[name] = value.strip()
        last = name
    return fields


def find_press_blocks(text: str) -> list[str]:
    """Every signed press block in ``text`` (dequoted, as for orders)."""
    return find_signed_blocks(text, PRESS_BEGIN, PRESS_END)


def find_vote_blocks(text: str) -> list[str]:
    """Every signed vote block in ``text`` (dequoted, as for orders)."""
    return find_signed_blocks(text, VOTE_BEGIN, VOTE_END)
