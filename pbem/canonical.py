"""Canonical JSON: the one byte encoding used for hashing, signing and comparing states."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                            check_circular=False)
"""Made once: ``json.dumps`` with these options builds a new encoder on every call (states are
encoded on every resolution and replay step). It keeps only its options, so sharing it is safe.
No cycle check: what is encoded is JSON data (parsed, or made by the rules as plain data), and
the check kept a table of every container encoded, a fifth of a state's encoding time (a
4000 A.D. state at turn 1,000: 0.088 -> 0.068 ms); the bytes are the same, and a cycle would
still fail, with RecursionError for ValueError."""


_C_ENCODER = (None if c_make_encoder is None else c_make_encoder(
    None, _ENCODER.default, encode_basestring, None, ":", ",", True, False, True))
"""The C encoder ``_ENCODER.encode`` makes on every call (with these options: no markers, sorted
keys, NaN allowed), made once: 0.5 us a call of the ~40 a 4000 A.D. game-turn makes, most of
them of small values. The same chunks; None where the C accelerator is missing."""


def dumps(value: object) -> str:
    """Sorted keys, no insignificant whitespace, UTF-8 kept as is."""
    if _C_ENCODER is None:
        return _ENCODER.encode(value)
    return "".join(_C_ENCODER(value, 0))


def dumps_with(value: Mapping[str, Any], done: Mapping[str, str]) -> str:
    """``dumps(value)`` of a mapping with string keys, where ``done`` gives the encoding of
    the values at its keys (made once, or faster, by the caller): the rest is encoded in runs
    of consecutive keys, one encoder call a run. A mapping's canonical encoding is its items in
    sorted key order, joined by commas in braces. Not string keys: ``dumps(value)``."""
    if not all(type(k) is str for k in value):
        return dumps(value)
    parts: list[str] = []
    run: dict[str, Any] = {}
    for key in sorted(value):
        text = done.get(key)
        if text is None:
            run[key] = value[key]
            continue
        if run:
            parts.append(dumps(run)[1:-1])
            run = {}
        parts.append(f"{encode_basestring(key)}:{text}")  # a key as the encoder writes it
    if run:
        parts.append(dumps(run)[1:-1])
    return "{" + ",".join(parts) + "}"


def encode(value: object) -> bytes:
    return dumps(value).encode("utf-8")


def digest(value: object) -> str:
    """SHA-256 hex digest of the canonical encoding."""
    return hashlib.sha256(encode(value)).hexdigest()


class Digests:
    """``digest`` of a sequence of states (mappings) that share parts by identity, e.g. the
    board data a game copies once and hands from state to state: a top-level value that is the
    very object of the previous state is encoded once and its bytes kept while the states hold
    it; the rest is encoded in runs of consecutive keys. The same digest as ``digest``: a
    mapping's canonical encoding is its items in sorted key order, joined by commas in braces.
    Relies on what the rules core promises (pbem.game.plugin: pure, inputs never mutated), as
    every cache by identity does; it holds the previous state's top-level values only."""

    def __init__(self) -> None:
        self._last: dict[str, Any] = {}  # the previous state's top-level values
        self._kept: dict[str, tuple[Any, bytes]] = {}  # key -> (value, its item's bytes)

    def digest(self, value: Any) -> str:
        if type(value) is not dict or not all(type(k) is str for k in value):
            self._last, self._kept = {}, {}
            return digest(value)
        last, kept = self._last, self._kept
        parts: list[bytes] = []
        run: dict[str, Any] = {}
        now: dict[str, tuple[Any, bytes]] = {}
        for key in sorted(value):
            item = value[key]
            hit = kept.get(key)
            if hit is None and key in last and last[key] is item:
                hit = (item, encode({key: item})[1:-1])  # the same object again: keep it
            if hit is None or hit[0] is not item:
                run[key] = item
                continue
            if run:
                parts.append(encode(run)[1:-1])
                run = {}
            parts.append(hit[1])
            now[key] = hit
        if run:
            parts.append(encode(run)[1:-1])
        self._last, self._kept = dict(value), now
        return hashlib.sha256(b"{" + b",".join(parts) + b"}").hexdigest()
