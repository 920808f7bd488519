"""Commitments: a power binds itself to a secret value now and opens it later (docs/protocol.md,
"Commitments").

Generic: any game may commit to any text value. What is committed is named by the game id, the
power, a *slot* (the game's own name for the thing committed: 4000 A.D. uses the warp number,
and commits to a fleet's destination) and the turn the commitment was made on::

    commitment = SHA-256( "pbem-commitment-v1" || field(game) || field(power) || field(slot)
                          || field(turn) || field(value) || field(nonce) )

where field(x) is the 4-byte big-endian length of x followed by x; text fields are UTF-8, slot
and turn are decimal ASCII, the nonce is 32 raw bytes. The result is written as 64 lower-case hex
digits. (docs/protocol.md writes the 4000 A.D. names: warp, departure turn, destination; the bytes
are the same.) Pure: no I/O, no randomness (nonces are made by the caller, see ``new_nonce``).
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


def preimage(game: str, power: str, slot: int, turn: int, value: str, nonce: bytes) -> bytes:
    if len(nonce) != NONCE_BYTES:
        raise ValueError(f"nonce must be {NONCE_BYTES} bytes, not {len(nonce)}")
    return DOMAIN + slot_fields(game, power, slot, turn) + fields(value.encode("utf-8"), nonce)


def slot_fields(game: str, power: str, slot: int, turn: int) -> bytes:
    """The framed fields naming what is committed (shared with the escrow's associated data)."""
    return fields(
        game.encode("utf-8"),
        power.encode("utf-8"),
        str(int(slot)).encode("ascii"),
        str(int(turn)).encode("ascii"),
    )


def commit(game: str, power: str, slot: int, turn: int, value: str, nonce: bytes) -> str:
    """The commitment, as 64 lower-case hex digits."""
    return hashlib.sha256(preimage(game, power, slot, turn, value, nonce)).hexdigest()


def opens(
    commitment: str, game: str, power: str, slot: int, turn: int, value: str, nonce_hex: str
) -> bool:
    """Whether (value, nonce) opens ``commitment``; constant-time comparison. Remembered for
    the last few openings asked (:data:`_OPENED`): a game checks a reveal when it accepts the
    orders and again when it resolves them (4000 A.D.: the order check, then the move), and
    the audit replays both."""
    key = (commitment, game, power, slot, turn, value, nonce_hex)
    try:
        known = _OPENED.get(key)
    except TypeError:  # an unhashable argument: asked without the memo
        return _opens(*key)
    if known is None:
        if len(_OPENED) >= _MOST_OPENED:
            _OPENED.clear()
        known = _OPENED[key] = _opens(*key)
    return known


_OPENED: dict[tuple[object, ...], bool] = {}
"""The answers of :func:`opens` (pure) for the arguments asked lately, at most
:data:`_MOST_OPENED` (then cleared): what it holds was revealed already."""
_MOST_OPENED = 256


def _opens(commitment: str, game: str, power: str, slot: int, turn: int, value: str,
           nonce_hex: str) -> bool:
    if not is_hex64(nonce_hex) or not is_hex64(commitment):
        return False
    expected = commit(game, power, slot, turn, value, bytes.fromhex(nonce_hex))
    return hmac.compare_digest(expected, commitment)


def is_hex64(value: object) -> bool:
    return isinstance(value, str) and HEX64.fullmatch(value) is not None


def new_nonce() -> bytes:
    """A fresh 32-byte nonce (the shell's job: this is the one non-pure helper here)."""
    return secrets.token_bytes(NONCE_BYTES)
