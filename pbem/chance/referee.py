"""The referee's side: a per-game secret K derived from the referee key, its hash chain, and the
two commitments recorded at genesis.

    K           = HKDF-SHA256(ikm = referee private key (32 raw Ed25519 bytes), salt = none,
                              info = "pbem-random-v1" || field(game id) || field(nonce), length 32)
    c0          = SHA-256("pbem-chain-v1" || K)
    r_t         = H^(N - t)(c0)                     the referee's value for step t (1 <= t <= N)
    tip         = H^N(c0)                           recorded at genesis
    secret_commit = SHA-256("pbem-secret-v1" || K)  recorded at genesis; K revealed at the end

Derived, not stored: nothing new to back up or lose beside the referee key. The nonce is 16
random bytes recorded (publicly) in genesis: a game id that is reused under the same referee key
(a game deleted and made again) gets a fresh K, so the K revealed at the old game's end tells
nobody anything about the new one. Revealing K reveals nothing about the referee key (HKDF is
one-way) nor about any other game.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.chance.chain import HashChain, N, check_chain, sha256
from pbem.chance.errors import ChanceError, ChanceMismatch
from pbem.framing import fields

RANDOM_INFO = b"pbem-random-v1"
CHAIN_TAG = b"pbem-chain-v1"
SECRET_TAG = b"pbem-secret-v1"
NONCE_BYTES = 16


def new_nonce() -> bytes:
    """The genesis nonce: fresh for every game (see the module docstring)."""
    return secrets.token_bytes(NONCE_BYTES)


def derive_k(private_key: bytes, game: str, nonce: bytes) -> bytes:
    """The game's secret K from the referee's 32 raw private-key bytes."""
    if len(private_key) != 32:
        raise ChanceError(f"the referee key must be 32 raw bytes, not {len(private_key)}")
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                info=RANDOM_INFO + fields(game.encode("utf-8"), nonce))
    return hkdf.derive(private_key)


def chain_start(k: bytes) -> bytes:
    return sha256(CHAIN_TAG + k)


def secret_commit(k: bytes) -> bytes:
    return sha256(SECRET_TAG + k)


def check_secret(k: bytes, commit: bytes, referee_tip: bytes | None = None) -> None:
    """Raise ChanceMismatch unless K opens the genesis ``secret_commit`` (and, given the genesis
    ``referee_tip``, unless K's chain ends at it: N hashes, once per game)."""
    if len(k) != 32 or not hmac.compare_digest(secret_commit(k), commit):
        raise ChanceMismatch(f"referee: the revealed secret K ({k.hex()[:16]}…) does not match "
                             "the secret_commit recorded at genesis")
    if referee_tip is not None and not hmac.compare_digest(
            HashChain(chain_start(k)).tip, referee_tip):
        raise ChanceMismatch("referee: the revealed secret K does not make the referee_tip "
                             "recorded at genesis")


def check_referee_reveal(value: bytes, step: int, known: bytes, known_step: int = 0) -> None:
    """Raise ChanceMismatch unless r_step hashes to the referee's last known value (the genesis
    tip is step 0; the audit passes the previous step's value, one hash per step)."""
    check_chain(value, step, known, known_step, "referee")


@dataclass(frozen=True, slots=True)
class Commitments:
    """What genesis records (all public)."""

    nonce: bytes
    referee_tip: bytes
    secret_commit: bytes

    def to_json(self) -> dict[str, Any]:
        return {"nonce": self.nonce.hex(), "referee_tip": self.referee_tip.hex(),
                "secret_commit": self.secret_commit.hex()}


class RefereeChance:
    """The referee's chance material for one game: K, the chain and the commitments.

    Keep one per game for the life of a process: the chain's checkpoints make every lookup after
    the first cost at most 255 hashes.
    """

    def __init__(self, private_key: bytes, game: str, nonce: bytes, length: int = N) -> None:
        self.game = game
        self.nonce = nonce
        self.k = derive_k(private_key, game, nonce)
        self.chain = HashChain(chain_start(self.k), length)

    def commitments(self) -> Commitments:
        return Commitments(self.nonce, self.chain.tip, secret_commit(self.k))

    def reveal(self, step: int) -> bytes:
        """r_step (step 1 is the first step that draws)."""
        if step < 1:
            raise ChanceError(f"steps that draw count from 1, not {step}")
        return self.chain.element(step)
