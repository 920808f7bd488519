"""Signed press (diplomacy messages): sign, find, verify, and only then parse (docs/protocol.md,
"Press").

Press travels in the player's signed mail like orders, in its own armor and under its own
signature domain, so a press signature can never pass as orders (or the reverse) and a
press-only mail never touches the power's orders::

    -----BEGIN PBEM SIGNED PRESS-----
    pbem: 1
    game: wild-7
    power: algol
    turn: 3
    press:
      - to: regulus                 # one power, a list of powers, or all
        text: Shall we take Mira together?
      - to: all
        anonymous: true             # grey press, where the game allows it
        text: Mira is weak.
    -----BEGIN PBEM SIGNATURE-----
    key: <fingerprint>
    sig: <base64>
    -----END PBEM SIGNED PRESS-----

This module checks the form (envelope and messages) only; which powers exist, whether grey press
is allowed and the per-turn cap are the referee's (pbem.host.press). ``VerifiedPress`` can only be
made by :func:`verify_press`, so holding one proves the signature was checked.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import Problem
from pbem.protocol.armor import PRESS_BEGIN as BEGIN
from pbem.protocol.armor import PRESS_END as END
from pbem.protocol.armor import (
    SIGNATURE,
    armor,
)
from pbem.protocol.envelope import MAX_NAME, MAX_NUMBER, did_you_mean, header_problems
from pbem.protocol.keys import PrivateKey, PublicKey
from pbem.protocol.orderdoc import (
    FingerprintLookup,
    KeysFor,
    open_document,
    refusing,
    sign_document,
)

DOMAIN = "pbem-press-v1"
PAYLOAD_TYPE = "application/vnd.pbem.press+yaml"
MARKERS = (BEGIN, SIGNATURE, END)
KEYS = ("pbem", "game", "power", "turn", "press")
MESSAGE_KEYS = ("to", "text", "anonymous")
ALL = "all"
#: Messages in one press document, and characters in one message's text.
MAX_MESSAGES = 20
MAX_TEXT = 8000

_minting: ContextVar[bool] = ContextVar("_press_minting", default=False)


@dataclass(frozen=True, slots=True)
class Message:
    """One press message: ``to`` is ``("all",)`` or the addressed powers, sorted."""

    to: tuple[str, ...]
    text: str
    anonymous: bool = False

    @property
    def to_all(self) -> bool:
        return self.to == (ALL,)

    def to_data(self) -> dict[str, Any]:
        return {"to": list(self.to), "text": self.text, "anonymous": self.anonymous}


@dataclass(frozen=True, slots=True)
class VerifiedPress:
    """A press document whose signature verified and whose form is well-formed."""

    game: str
    power: str
    turn: int
    messages: tuple[Message, ...]
    signed_text: str
    sha256: str
    key_fingerprint: str
    signature: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if not _minting.get():
            raise TypeError("VerifiedPress is made only by pbem.protocol.pressdoc.verify_press")

    @property
    def block(self) -> str:
        return armor(self.signed_text, self.key_fingerprint, self.signature, BEGIN, END)


def _describe(value: object) -> str:
    if value is None:
        return "empty"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value)


def check_press(doc: Mapping[Any, Any]) -> tuple[dict[str, Any] | None, list[Problem]]:
    """The envelope and messages of a loaded press document, or every problem with its path."""
    problems: list[Problem] = []

    def bad(code: str, path: str, message: str) -> None:
        problems.append(Problem(code, path, message))

    problems += header_problems(doc, KEYS, KEYS, "a press file", _describe)
    turn = doc.get("turn")
    if "turn" in doc and (type(turn) is not int or not 1 <= turn <= MAX_NUMBER):
        bad("type", "turn", f"must be a whole number from 1, not {_describe(turn)}")
    raw = doc.get("press")
    messages: list[Message] = []
    if "press" in doc:
        if not isinstance(raw, list) or not raw:
            bad("type", "press", f"must be a list of messages, not {_describe(raw)}")
        elif len(raw) > MAX_MESSAGES:
            bad("too-many", "press", f"{len(raw)} messages in one file; at most {MAX_MESSAGES}")
        else:
            for i, item in enumerate(raw):
                message = _message(item, f"press[{i}]", bad)
                if message is not None:
                    messages.append(message)
    if problems:
        return None, problems
    return {"game": doc["game"], "power": doc["power"], "turn": turn,
            "messages": tuple(messages)}, []


def _message(item: Any, path: str, bad: Any) -> Message | None:
    if not isinstance(item, dict):
        bad("type", path, f"must be a mapping with to: and text:, not {_describe(item)}")
        return None
    ok = True
    for key in item:
        if key not in MESSAGE_KEYS:
            bad("unknown-key", f"{path}.{key}", f"unknown key{did_you_mean(str(key), MESSAGE_KEYS)}"
                f" (a message has only {', '.join(MESSAGE_KEYS)})")
            ok = False
    to = item.get("to")
    names: list[str] = []
    if isinstance(to, str):
        names = [to]
    elif isinstance(to, list) and to and all(isinstance(t, str) for t in to):
        names = list(to)
    else:
        bad("type", f"{path}.to", f"must be a power, a list of powers or all, not {_describe(to)}")
        ok = False
    for j, name in enumerate(names):
        if not name or len(name) > MAX_NAME or name != name.strip():
            where = f"{path}.to" if isinstance(to, str) else f"{path}.to[{j}]"
            bad("type", where, f"must be a power name, not {name!r}")
            ok = False
    if ALL in names and len(names) > 1:
        bad("type", f"{path}.to", "all already means every power: give all alone")
        ok = False
    text = item.get("text")
    if not isinstance(text, str) or not text.strip():
        bad("type", f"{path}.text", f"must be the message text, not {_describe(text)}")
        ok = False
    elif len(text) > MAX_TEXT:
        bad("too-long", f"{path}.text", f"{len(text):,} characters; at most {MAX_TEXT:,}")
        ok = False
    anonymous = item.get("anonymous", False)
    if not isinstance(anonymous, bool):
        bad("type", f"{path}.anonymous", f"must be true or false, not {_describe(anonymous)}")
        ok = False
    if not ok:
        return None
    assert isinstance(text, str)
    return Message(tuple(sorted(set(names))), text.strip("\n") + "\n", bool(anonymous))


def sign_press(yaml_text: str, key: PrivateKey, *, check: bool = True) -> str:
    """Normalise ``yaml_text``, sign it with ``key`` as press and return the armored block."""
    return sign_document(yaml_text, key, DOMAIN, PAYLOAD_TYPE,
                         refusing(check_press) if check else None, BEGIN, END)


def verify_press(block: str, keys_for: KeysFor, *,
                 fingerprints: Mapping[str, PublicKey] | FingerprintLookup) -> VerifiedPress:
    """Verify one armored press block; raise Rejected with every problem otherwise.

    The signature is checked over the normalised body first (domain ``pbem-press-v1``); only those
    bytes are parsed; the signing key must be registered for the game and power the file names.
    """
    checked, armored, key = open_document(block, keys_for, fingerprints, BEGIN, END, DOMAIN,
                                          PAYLOAD_TYPE, "press",
                                          " (sign press with pbem press sign)", check_press)
    token = _minting.set(True)
    try:
        return VerifiedPress(
            game=checked["game"], power=checked["power"], turn=checked["turn"],
            messages=checked["messages"], signed_text=armored.body,
            sha256=hashlib.sha256(armored.body.encode("utf-8")).hexdigest(),
            key_fingerprint=key.fingerprint,
            signature=armored.signature)
    finally:
        _minting.reset(token)


def messages_from_data(data: Sequence[Mapping[str, Any]]) -> list[Message]:
    """The messages of a logged press entry (``to_data`` of each) back as :class:`Message`."""
    return [Message(tuple(m["to"]), str(m["text"]), bool(m.get("anonymous"))) for m in data]
