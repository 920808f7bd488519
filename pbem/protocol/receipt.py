"""Receipts: the referee's signed statement that it accepted one order file.

When it accepts an order file the referee signs (pbem.host.accept) the canonical JSON of
``{game, power, received, seq, sha256, turn}`` (``sha256``: of the signed order text, as the
log's ``orders`` entry records it) with the referee key, domain ``pbem-receipt-v1``, and mails
it in this text form (pbem.host.notify.signature_text), in the receipt mail or attached to it as
``receipt.txt``::

  pbem-receipt game=g1 power=algol received=2026-12-01T04:00:00Z seq=2 sha256=<64 hex> turn=2
   sig=<128 hex digits: the Ed25519 signature>

Why it matters: the receipt is the player's proof that the referee took the order file, so a
resolution that left it out is a provable lie (``pbem verify-receipt``, pbem.audit.receipts).
The text is read as whitespace-separated tokens, with ``>`` quote marks ignored, so a quoted or
re-wrapped copy still reads; a saved mail (.eml) is decoded first (quoted-printable, base64,
attachments).
"""

from __future__ import annotations

import email
import re
from dataclasses import dataclass
from email import policy
from typing import Any

from pbem import canonical
from pbem.errors import PbemError
from pbem.numbers import digits
from pbem.protocol.keys import BadSignature, PrivateKey, PublicKey

DOMAIN = "pbem-receipt-v1"
PAYLOAD_TYPE = "application/vnd.pbem.receipt+json"
TAG = "pbem-receipt"
_FIELDS = ("game", "power", "received", "seq", "sha256", "turn")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_SIG = re.compile(r"^[0-9a-f]{128}$")
_HEADER_LINE = re.compile(rb"^[!-9;-~]+:")


class ReceiptError(PbemError):
    """A receipt is missing, malformed, or not signed by the referee."""


@dataclass(frozen=True, slots=True)
class Receipt:
    game: str
    power: str
    turn: int
    seq: int
    sha256: str
    received: str
    signature: bytes

    def fields(self) -> dict[str, Any]:
        return {"game": self.game, "power": self.power, "received": self.received,
                "seq": self.seq, "sha256": self.sha256, "turn": self.turn}

    @classmethod
    def sign(cls, key: PrivateKey, fields: dict[str, Any]) -> Receipt:
        """The referee's receipt for ``fields`` (what pbem.host.accept signs)."""
        sig = key.sign(DOMAIN, PAYLOAD_TYPE, canonical.encode(dict(fields)))
        return cls(str(fields["game"]), str(fields["power"]), int(fields["turn"]),
                   int(fields["seq"]), str(fields["sha256"]), str(fields["received"]), sig)

    def verify(self, referee: PublicKey) -> None:
        """Raise ReceiptError unless ``referee`` signed exactly these fields."""
        try:
            referee.verify(DOMAIN, PAYLOAD_TYPE, canonical.encode(self.fields()), self.signature)
        except BadSignature:
            raise ReceiptError(f"the receipt's signature is not the referee's (key "
                               f"{referee.fingerprint}): the receipt was altered, or was not "
                               "signed by the referee of this game") from None

    def text(self) -> str:
        fields = self.fields()
        return (f"{TAG} " + " ".join(f"{k}={fields[k]}" for k in sorted(fields))
                + f"\n sig={self.signature.hex()}\n")

    def attests(self) -> str:
        return (f"game {self.game}, power {self.power}, turn {self.turn}, seq {self.seq}, "
                f"order file sha256 {self.sha256}, received {self.received}")

    @classmethod
    def parse(cls, text: str) -> Receipt:
        """The first receipt in ``text`` (quote marks and re-wrapping tolerated)."""
        lines = [re.sub(r"^[\s>]*", "", line) for line in text.splitlines()]
        tokens = " ".join(lines).split()
        if TAG not in tokens:
            raise ReceiptError(f"no receipt found (no {TAG!r} line)")
        found: dict[str, str] = {}
        for token in tokens[tokens.index(TAG) + 1:]:
            name, eq, value = token.partition("=")
            if not eq or name not in (*_FIELDS, "sig") or name in found:
                break
            found[name] = value
        missing = [k for k in (*_FIELDS, "sig") if k not in found]
        if missing:
            raise ReceiptError(f"the receipt lacks {', '.join(missing)}")
        turn, seq = digits(found["turn"]), digits(found["seq"])
        if turn is None or seq is None:
            raise ReceiptError("the receipt's seq and turn must be numbers")
        if not _HEX64.match(found["sha256"]) or not _SIG.match(found["sig"]):
            raise ReceiptError("the receipt's sha256 must be 64 hex digits and its sig 128")
        return cls(found["game"], found["power"], turn, seq,
                   found["sha256"], found["received"], bytes.fromhex(found["sig"]))


def text_of(data: bytes) -> str:
    """The text to look for a receipt in: a saved mail's decoded text parts and attachments
    (plain text first, HTML last), or the bytes themselves when they are not a mail."""
    if not _HEADER_LINE.match(data[:200]):
        return data.decode("utf-8", "replace")
    msg = email.message_from_bytes(data, policy=policy.default)
    plain: list[str] = []
    html: list[str] = []
    for part in msg.walk():
        if part.get_content_maintype() != "text":
            continue
        try:
            content = part.get_content()
        except (LookupError, ValueError):
            continue
        (html if part.get_content_subtype() == "html" else plain).append(str(content))
    return "\n".join(plain + html)


def read(data: bytes) -> Receipt:
    """The receipt in a saved receipt mail (.eml) or in the signed text itself."""
    return Receipt.parse(text_of(data))
