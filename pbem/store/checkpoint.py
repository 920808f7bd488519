"""Referee checkpoints: a signed (game, log length, head hash) that players keep from their mail.

The signature is made with the referee key through :mod:`pbem.protocol.keys` under the domain
``pbem-checkpoint-v1`` over the canonical JSON ``{"game":…,"head":…,"length":…}``. The text form
fits a mail and survives quoting and re-wrapping (it is read as whitespace-separated tokens, with
leading ``>`` quote marks ignored)::

  pbem-checkpoint game=andromeda-7 length=53 head=9c41…(64 hex)
   sig=<base64url of the 64-byte signature>

A player who kept a checkpoint can later show that a published log extends it (the log's entry at
``length - 1`` has that hash); a rewritten or forked log cannot, unless the referee's key signed two
different heads for the same length, which is itself the proof of cheating.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence

from pbem import canonical
from pbem.errors import PbemError
from pbem.numbers import digits
from pbem.protocol.keys import BadSignature, PrivateKey, PublicKey
from pbem.record import Record
from pbem.store.log import Entry

DOMAIN = "pbem-checkpoint-v1"
PAYLOAD_TYPE = "application/vnd.pbem.checkpoint+json"
TAG = "pbem-checkpoint"
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_GAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")


class CheckpointError(PbemError):
    """A checkpoint is malformed, does not verify, or the log does not extend it."""


class Checkpoint(Record):
    __slots__ = ("game", "length", "head", "signature")
    game: str
    length: int
    head: str
    signature: bytes

    def __init__(self, game: str, length: int, head: str, signature: bytes = b"") -> None:
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "length", length)
        object.__setattr__(self, "head", head)
        object.__setattr__(self, "signature", signature)
        self.__post_init__()

    def __post_init__(self) -> None:
        if not _GAME.match(self.game):
            raise CheckpointError(f"checkpoint game {self.game!r} is not a game id")
        if type(self.length) is not int or self.length < 1:
            raise CheckpointError(
                f"checkpoint length must be a positive integer, not {self.length!r}"
            )
        if not _HEX64.match(self.head):
            raise CheckpointError(f"checkpoint head {self.head[:20]!r} is not 64 hex digits")

    def payload(self) -> bytes:
        return canonical.encode({"game": self.game, "head": self.head, "length": self.length})

    @classmethod
    def sign(cls, key: PrivateKey, game: str, length: int, head: str) -> Checkpoint:
        unsigned = cls(game, length, head)
        return cls(game, length, head, key.sign(DOMAIN, PAYLOAD_TYPE, unsigned.payload()))

    def verify(self, referee: PublicKey) -> None:
        """Raise CheckpointError unless the referee key signed exactly this checkpoint."""
        if not self.signature:
            raise CheckpointError(f"checkpoint {self.short()} is not signed")
        try:
            referee.verify(DOMAIN, PAYLOAD_TYPE, self.payload(), self.signature)
        except BadSignature as exc:
            raise CheckpointError(f"checkpoint {self.short()}: {exc}") from None

    def short(self) -> str:
        return f"{self.game}@{self.length}:{self.head[:12]}"

    def text(self) -> str:
        """Two lines of at most 130 characters; :meth:`parse` reads them back."""
        sig = base64.urlsafe_b64encode(self.signature).decode().rstrip("=")
        return f"{TAG} game={self.game} length={self.length} head={self.head}\n sig={sig}\n"

    @classmethod
    def parse(cls, text: str) -> Checkpoint:
        """Read a checkpoint from mail text (quote marks and line wrapping tolerated)."""
        lines = [re.sub(r"^[\s>]*", "", line) for line in text.splitlines()]
        tokens = " ".join(lines).split()
        if TAG not in tokens:
            raise CheckpointError(f"no {TAG!r} line found")
        fields: dict[str, str] = {}
        for token in tokens[tokens.index(TAG) + 1 :]:
            name, eq, value = token.partition("=")
            if not eq or name not in ("game", "length", "head", "sig"):
                break
            if name in fields:
                raise CheckpointError(f"checkpoint names {name} twice")
            fields[name] = value
        missing = [k for k in ("game", "length", "head", "sig") if k not in fields]
        if missing:
            raise CheckpointError(f"checkpoint lacks {', '.join(missing)}")
        length = digits(fields["length"])
        if length is None:
            raise CheckpointError(f"checkpoint length {fields['length'][:40]!r} is not a number")
        sig_text = fields["sig"]
        try:
            sig = base64.urlsafe_b64decode(sig_text + "=" * (-len(sig_text) % 4))
        except (binascii.Error, ValueError):
            raise CheckpointError("checkpoint sig is not base64") from None
        if len(sig) != 64:
            raise CheckpointError(f"checkpoint sig must be 64 bytes, not {len(sig)}")
        return cls(fields["game"], length, fields["head"].lower(), sig)


def extends(entries: Sequence[Entry], checkpoint: Checkpoint) -> bool:
    """Whether a (verified) log has the checkpoint's head hash at entry ``length - 1``."""
    n = checkpoint.length
    return len(entries) >= n and entries[n - 1].hash == checkpoint.head


def check_extends(entries: Sequence[Entry], checkpoint: Checkpoint) -> None:
    """Raise CheckpointError saying how the log contradicts the checkpoint (verify the log's chain
    and the checkpoint's signature first: this only compares hashes)."""
    n = checkpoint.length
    if len(entries) < n:
        raise CheckpointError(
            f"checkpoint {checkpoint.short()} names {n} entries but the log has "
            f"only {len(entries)}: the log was truncated"
        )
    found = entries[n - 1].hash
    if found != checkpoint.head:
        raise CheckpointError(
            f"checkpoint {checkpoint.short()}: entry seq {n - 1} has hash "
            f"{found[:16]}…, the checkpoint says {checkpoint.head[:16]}…: the "
            f"log was rewritten or forked at or before seq {n - 1}"
        )
