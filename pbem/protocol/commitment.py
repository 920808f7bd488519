"""Commitments to secret destinations (docs/protocol.md, "Commitments").

commitment = SHA-256( "pbem-commitment-v1" || field(game) || field(power) || field(warp)
                      || field(departure turn) || field(destination) || field(nonce) )

where field(x) is the 4-byte big-endian length of x followed by x; text fields are UTF-8, warp
and turn are decimal ASCII, the nonce is 32 raw bytes. The result is written as 64 lower-case hex
digits. Pure: no I/O, no randomness (nonces are made by the caller, see ``new_nonce``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from pbem.framing import fields

DOMAIN = b"pbem-commitment-v1"
NONCE_BYTES = 32
HEX64 = re.compile(r"[0-9a-f]{64}")


def preimage(game: str, power: str, warp: int, turn: int, destination: str, nonce: bytes) -> bytes:
    if len(nonce) != NONCE_BYTES:
        raise ValueError(f"nonce must be {NONCE_BYTES} bytes, not {len(nonce)}")
    return DOMAIN + departure_fields(game, power, warp, turn) + fields(
        destination.encode("utf-8"), nonce
    )


def departure_fields(game: str, power: str, warp: int, turn: int) -> bytes:
    """The framed fields naming one departure (shared with the escrow's associated data)."""
    return fields(
        game.encode("utf-8"),
        power.encode("utf-8"),
        str(int(warp)).encode("ascii"),
        str(int(turn)).encode("ascii"),
    )


def commit(game: str, power: str, warp: int, turn: int, destination: str, nonce: bytes) -> str:
    """The commitment, as 64 lower-case hex digits."""
    return hashlib.sha256(preimage(game, power, warp, turn, destination, nonce)).hexdigest()


def opens(
    commitment: str, game: str, power: str, warp: int, turn: int, destination: str, nonce_hex: str
) -> bool:
    """Whether (destination, nonce) opens ``commitment``; constant-time comparison."""
    if not is_hex64(nonce_hex) or not is_hex64(commitment):
        return False
    expected = commit(game, power, warp, turn, destination, bytes.fromhex(nonce_hex))
    return hmac.compare_digest(expected, commitment)


def is_hex64(value: object) -> bool:
    return isinstance(value, str) and HEX64.fullmatch(value) is not None


def new_nonce() -> bytes:
    """A fresh 32-byte nonce (the shell's job: this is the one non-pure helper here)."""
    return secrets.token_bytes(NONCE_BYTES)
