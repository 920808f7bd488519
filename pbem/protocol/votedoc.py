"""Signed votes: a player asks for a game-wide act (docs/protocol.md, "Votes").

A vote travels in the player's signed mail like orders and press, in its own armor and under its
own signature domain (``pbem-vote-v1``), so a vote signature never passes as orders or press::

    -----BEGIN PBEM SIGNED VOTE-----
    pbem: 1
    game: wild-7
    power: algol
    seq: 1              # per power, higher than any vote file it sent before
    vote: draw          # draw | cancel | pause | resume | concede
    withdraw: false     # optional: true takes back this power's vote of that kind
    -----BEGIN PBEM SIGNATURE-----
    key: <fingerprint>
    sig: <base64>
    -----END PBEM SIGNED VOTE-----

The sibling document in the same armor sets the sender's own preferences (``prefs:`` in place of
``vote:``; its keys are checked by pbem.store.prefs when the referee reads it)::

    pbem: 1
    game: wild-7
    power: algol
    seq: 2
    prefs: {reminder: 12h, quiet: "22:00-07:00", tz: Europe/Paris, digest: daily,
            tell_when_due: true}

This module checks the form only; whether the game is over, the seq and the tally are the
referee's (pbem.host.votes). ``VerifiedVote`` can only be made by :func:`verify_vote`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import Problem
from pbem.protocol.armor import SIGNATURE, armor
from pbem.protocol.armor import VOTE_BEGIN as BEGIN
from pbem.protocol.armor import VOTE_END as END
from pbem.protocol.envelope import MAX_NUMBER, did_you_mean, header_problems
from pbem.protocol.keys import PrivateKey, PublicKey
from pbem.protocol.orderdoc import (
    FingerprintLookup,
    KeysFor,
    open_document,
    refusing,
    sign_document,
)

DOMAIN = "pbem-vote-v1"
PAYLOAD_TYPE = "application/vnd.pbem.vote+yaml"
MARKERS = (BEGIN, SIGNATURE, END)
KEYS = ("pbem", "game", "power", "seq", "vote", "withdraw", "prefs")
REQUIRED = ("pbem", "game", "power", "seq")
#: What a vote may ask for. ``concede`` is the sender's alone; the others need the players.
KINDS = ("draw", "cancel", "pause", "resume", "concede")

_minting: ContextVar[bool] = ContextVar("_vote_minting", default=False)


@dataclass(frozen=True, slots=True)
class VerifiedVote:
    """A vote document whose signature verified and whose form is well-formed."""

    game: str
    power: str
    seq: int
    vote: str | None  # None: a prefs file
    withdraw: bool
    prefs: Mapping[str, Any] | None
    signed_text: str
    sha256: str
    key_fingerprint: str
    signature: bytes = field(repr=False)

    def __post_init__(self) -> None:
        if not _minting.get():
            raise TypeError("VerifiedVote is made only by pbem.protocol.votedoc.verify_vote")

    @property
    def block(self) -> str:
        return armor(self.signed_text, self.key_fingerprint, self.signature, BEGIN, END)


def check_vote(doc: Mapping[Any, Any]) -> tuple[dict[str, Any] | None, list[Problem]]:
    """The fields of a loaded vote document, or every problem with its path."""
    problems: list[Problem] = []

    def bad(code: str, path: str, message: str) -> None:
        problems.append(Problem(code, path, message))

    problems += header_problems(doc, KEYS, REQUIRED, "a vote file", repr)
    seq = doc.get("seq")
    if "seq" in doc and (type(seq) is not int or not 1 <= seq <= MAX_NUMBER):
        bad("type", "seq", f"must be a whole number from 1, not {seq!r}")
    vote = doc.get("vote")
    if ("vote" in doc) == ("prefs" in doc):
        bad("missing", "vote", "give either vote: (one of " + ", ".join(KINDS)
            + ") or prefs: (your settings), not both")
    prefs = doc.get("prefs")
    if "prefs" in doc and (not isinstance(prefs, dict) or not prefs):
        bad("type", "prefs", f"must be a mapping of your settings, not {prefs!r}")
    if "prefs" in doc and "withdraw" in doc:
        bad("unknown-key", "withdraw", "withdraw goes with a vote, not with prefs")
    if "vote" in doc and vote not in KINDS:
        bad("type", "vote", f"must be one of {', '.join(KINDS)}, not {vote!r}"
            + (did_you_mean(vote, KINDS) if isinstance(vote, str) else ""))
    withdraw = doc.get("withdraw", False)
    if not isinstance(withdraw, bool):
        bad("type", "withdraw", f"must be true or false, not {withdraw!r}")
    if problems:
        return None, problems
    return {"game": doc["game"], "power": doc["power"], "seq": seq, "vote": vote,
            "withdraw": bool(withdraw), "prefs": prefs}, []


def vote_text(game: str, power: str, seq: int, vote: str, withdraw: bool = False) -> str:
    """The YAML of a vote file (what ``pbem vote`` signs)."""
    return (f"pbem: 1\ngame: {game}\npower: {power}\nseq: {seq}\nvote: {vote}\n"
            + ("withdraw: true\n" if withdraw else ""))


def prefs_text(game: str, power: str, seq: int, prefs: Mapping[str, str | bool]) -> str:
    """The YAML of a prefs file (what ``pbem vote prefs`` signs): strings quoted as JSON."""
    lines = [f"  {key}: {'true' if value else 'false'}" if isinstance(value, bool)
             else f"  {key}: {json.dumps(value)}" for key, value in prefs.items()]
    return (f"pbem: 1\ngame: {game}\npower: {power}\nseq: {seq}\nprefs:\n"
            + "".join(line + "\n" for line in lines))


def sign_vote(yaml_text: str, key: PrivateKey, *, check: bool = True) -> str:
    """Normalise ``yaml_text``, sign it with ``key`` as a vote and return the armored block."""
    return sign_document(yaml_text, key, DOMAIN, PAYLOAD_TYPE,
                         refusing(check_vote) if check else None, BEGIN, END)


def verify_vote(block: str, keys_for: KeysFor, *,
                fingerprints: Mapping[str, PublicKey] | FingerprintLookup) -> VerifiedVote:
    """Verify one armored vote block; raise Rejected with every problem otherwise.

    The signature is checked over the normalised body first (domain ``pbem-vote-v1``); only those
    bytes are parsed; the signing key must be registered for the game and power the file names.
    """
    checked, armored, key = open_document(block, keys_for, fingerprints, BEGIN, END, DOMAIN,
                                          PAYLOAD_TYPE, "vote", " (sign votes with pbem vote)",
                                          check_vote)
    token = _minting.set(True)
    try:
        return VerifiedVote(
            game=checked["game"], power=checked["power"], seq=checked["seq"],
            vote=checked["vote"], withdraw=checked["withdraw"], prefs=checked["prefs"],
            signed_text=armored.body,
            sha256=hashlib.sha256(armored.body.encode("utf-8")).hexdigest(),
            key_fingerprint=key.fingerprint, signature=armored.signature)
    finally:
        _minting.reset(token)
