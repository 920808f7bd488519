"""SHA-256 continued from a published midstate: how a withheld log entry still proves its link.

A log entry's hash is ``SHA-256(DOMAIN || {"body":<body>,"kind":…,"prev":…,"seq":…,"time":…})``
(pbem.store.log). The body comes first, so the hash of a withheld entry can be *finished* by anyone
from the compression state after the 64-byte blocks of ``DOMAIN || {"body":<body>`` plus the
few bytes of it left over (fewer than 64), and the public suffix (kind, prev, seq, time). A
public export publishes exactly that: the body stays hidden, yet the entry's hash still binds
its seq, kind, time and the hash of the entry before it (finding another body for the same
state is a second preimage of SHA-256's compression function).

Pure Python (hashlib does not expose its state); only withheld entries pay for it.
"""

from __future__ import annotations

import hashlib
import struct
from typing import NamedTuple

_K = (
    0x428A2F98, 0x71374491, 0xB5C0FBCF, 0xE9B5DBA5, 0x3956C25B, 0x59F111F1, 0x923F82A4,
    0xAB1C5ED5, 0xD807AA98, 0x12835B01, 0x243185BE, 0x550C7DC3, 0x72BE5D74, 0x80DEB1FE,
    0x9BDC06A7, 0xC19BF174, 0xE49B69C1, 0xEFBE4786, 0x0FC19DC6, 0x240CA1CC, 0x2DE92C6F,
    0x4A7484AA, 0x5CB0A9DC, 0x76F988DA, 0x983E5152, 0xA831C66D, 0xB00327C8, 0xBF597FC7,
    0xC6E00BF3, 0xD5A79147, 0x06CA6351, 0x14292967, 0x27B70A85, 0x2E1B2138, 0x4D2C6DFC,
    0x53380D13, 0x650A7354, 0x766A0ABB, 0x81C2C92E, 0x92722C85, 0xA2BFE8A1, 0xA81A664B,
    0xC24B8B70, 0xC76C51A3, 0xD192E819, 0xD6990624, 0xF40E3585, 0x106AA070, 0x19A4C116,
    0x1E376C08, 0x2748774C, 0x34B0BCB5, 0x391C0CB3, 0x4ED8AA4A, 0x5B9CCA4F, 0x682E6FF3,
    0x748F82EE, 0x78A5636F, 0x84C87814, 0x8CC70208, 0x90BEFFFA, 0xA4506CEB, 0xBEF9A3F7,
    0xC67178F2,
)
_IV = (0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB,
       0x5BE0CD19)
_M = 0xFFFFFFFF
BLOCK = 64


class Midstate(NamedTuple):
    state: tuple[int, ...]  # the eight 32-bit words after ``length`` bytes
    length: int  # bytes consumed: a multiple of 64
    tail: bytes  # the prefix bytes after them (fewer than 64)

    def state_hex(self) -> str:
        return struct.pack(">8I", *self.state).hex()


def _compress(state: tuple[int, ...], block: bytes) -> tuple[int, ...]:
    w = list(struct.unpack(">16I", block))
    for i in range(16, 64):
        x, y = w[i - 15], w[i - 2]
        s0 = ((x >> 7 | x << 25) ^ (x >> 18 | x << 14) ^ (x >> 3)) & _M
        s1 = ((y >> 17 | y << 15) ^ (y >> 19 | y << 13) ^ (y >> 10)) & _M
        w.append((w[i - 16] + s0 + w[i - 7] + s1) & _M)
    a, b, c, d, e, f, g, h = state
    for i in range(64):
        s1 = ((e >> 6 | e << 26) ^ (e >> 11 | e << 21) ^ (e >> 25 | e << 7)) & _M
        t1 = (h + s1 + ((e & f) ^ (~e & g)) + _K[i] + w[i]) & _M
        s0 = ((a >> 2 | a << 30) ^ (a >> 13 | a << 19) ^ (a >> 22 | a << 10)) & _M
        t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) & _M
        a, b, c, d, e, f, g, h = (t1 + t2) & _M, a, b, c, (d + t1) & _M, e, f, g
    return tuple((x + y) & _M for x, y in zip(state, (a, b, c, d, e, f, g, h), strict=True))


def midstate(prefix: bytes) -> Midstate:
    """The state after the whole 64-byte blocks of ``prefix``, and the bytes left over."""
    state: tuple[int, ...] = _IV
    whole = len(prefix) - len(prefix) % BLOCK
    for at in range(0, whole, BLOCK):
        state = _compress(state, prefix[at : at + BLOCK])
    return Midstate(state, whole, prefix[whole:])


def finish(mid: Midstate, suffix: bytes) -> str:
    """SHA-256 (hex) of the prefix ``mid`` was made from followed by ``suffix``."""
    data = mid.tail + suffix
    total = mid.length + len(data)
    data += b"\x80" + b"\0" * ((55 - total) % BLOCK) + struct.pack(">Q", total * 8)
    state = mid.state
    for at in range(0, len(data), BLOCK):
        state = _compress(state, data[at : at + BLOCK])
    return struct.pack(">8I", *state).hex()


def from_hex(state_hex: str, length: int, tail: bytes) -> Midstate:
    raw = bytes.fromhex(state_hex)
    if len(raw) != 32 or length % BLOCK or length < 0 or len(tail) >= BLOCK:
        raise ValueError("a SHA-256 midstate is 32 bytes after a multiple of 64 bytes")
    return Midstate(struct.unpack(">8I", raw), length, tail)


def self_test() -> None:
    """Cheap check that the pure-Python rounds agree with hashlib (used by the tests)."""
    for n in (0, 1, 55, 56, 63, 64, 65, 119, 200):
        data = bytes(range(256))[:n] * 1
        assert finish(midstate(data[: n // 2]), data[n // 2 :]) == hashlib.sha256(data).hexdigest()
