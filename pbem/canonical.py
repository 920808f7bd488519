"""Canonical JSON: the one byte encoding used for hashing, signing and comparing states."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def dumps(value: Any) -> str:
    """Sorted keys, no insignificant whitespace, UTF-8 kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def encode(value: Any) -> bytes:
    return dumps(value).encode("utf-8")


def digest(value: Any) -> str:
    """SHA-256 hex digest of the canonical encoding."""
    return hashlib.sha256(encode(value)).hexdigest()
