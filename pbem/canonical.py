"""Canonical JSON: the one byte encoding used for hashing, signing and comparing states."""

from __future__ import annotations

import hashlib
import json

_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
"""Made once: ``json.dumps`` with these options builds a new encoder on every call (states are
encoded on every resolution and replay step). It keeps only its options, so sharing it is safe."""


def dumps(value: object) -> str:
    """Sorted keys, no insignificant whitespace, UTF-8 kept as is."""
    return _ENCODER.encode(value)


def encode(value: object) -> bytes:
    return dumps(value).encode("utf-8")


def digest(value: object) -> str:
    """SHA-256 hex digest of the canonical encoding."""
    return hashlib.sha256(encode(value)).hexdigest()
