"""The one unambiguous encoding of several byte strings as one: each is preceded by its length
as 4 big-endian bytes. Signatures (pbem.protocol.keys), commitments (pbem.protocol.commitment)
and escrow (pbem.protocol.escrow) all hash, sign or bind data framed this way, so no two
different tuples of fields ever give the same bytes."""

from __future__ import annotations


def field(data: bytes) -> bytes:
    """``len(data)`` as 4 big-endian bytes, then ``data``."""
    return len(data).to_bytes(4, "big") + data


def fields(*parts: bytes) -> bytes:
    """Every part framed by :func:`field`, concatenated."""
    return b"".join(field(p) for p in parts)
