"""Labelled streams: every purpose draws from its own stream, so adding a draw in one place never
shifts another.

A stream is the byte string ``block_0 || block_1 || …`` with
``block_i = SHA-256(seed || field(label) || u64be(i))``, read front to back; bytes a draw leaves
unread are used by the next draw on the same stream.

* ``below(n)``: let k be the bit length of n - 1; read ceil(k / 8) bytes as a big-endian
  integer, keep its low k bits, and return it if it is below n, else read again (rejection
  sampling: no modulo bias, and each try succeeds with probability above 1/2). ``below(1)`` is 0
  and reads nothing.
* ``roll(faces, count)``: ``faces[below(len(faces))]``, count times (any faces: 1-6, 0-9, a
  custom die such as ``[0, 0, 1, 1, 2, 3]``).
* ``shuffle(items)``: Fisher–Yates from the end: for i = n-1 down to 1, swap i with ``below(i+1)``.

Every draw is appended to a ``Draws`` record (scope, label, kind, inputs, result), so the engine
can publish the public ones and the audit can recompute them.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pbem.chance.errors import ChanceError
from pbem.framing import field

T = TypeVar("T")

PUBLIC = "public"
SECRET = "secret"
KINDS = ("below", "roll", "shuffle")


@dataclass(frozen=True, slots=True)
class Draw:
    """One draw: which stream (scope and label), what was asked (kind and inputs), what came."""

    scope: str
    label: str
    kind: str
    inputs: dict[str, Any]
    result: Any

    def to_json(self) -> dict[str, Any]:
        """The published form: ``{label, kind, <inputs>, result}`` (scope is where it is kept)."""
        return {"label": self.label, "kind": self.kind, **self.inputs, "result": self.result}


class Draws:
    """Every draw of one step, in the order made."""

    def __init__(self) -> None:
        self._items: list[Draw] = []

    def add(self, draw: Draw) -> None:
        self._items.append(draw)

    def __iter__(self) -> Iterator[Draw]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def of(self, scope: str) -> list[Draw]:
        return [d for d in self._items if d.scope == scope]

    def to_json(self, scope: str = PUBLIC) -> list[dict[str, Any]]:
        return [d.to_json() for d in self.of(scope)]


@functools.lru_cache(maxsize=256)
def _byte_tables(n: int) -> tuple[int, bytes, bytes]:
    """For one-byte tries below n: the mask, a translation table keeping the low bits, and the
    bytes whose low bits are n or more (rejected)."""
    mask = (1 << (n - 1).bit_length()) - 1
    table = bytes(b & mask for b in range(256))
    return mask, table, bytes(b for b in range(256) if b & mask >= n)


def check_label(label: object) -> str:
    if not isinstance(label, str) or not label:
        raise ChanceError(f"a stream label must be a non-empty string, not {label!r}")
    return label


def check_bound(n: object) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ChanceError(f"below(n) needs a whole number n of at least 1, not {n!r}")
    return n


class Stream:
    """One labelled stream of one seed (see the module docstring for the construction)."""

    def __init__(self, seed: bytes, label: str, *, scope: str = PUBLIC,
                 record: Draws | None = None) -> None:
        self.label = check_label(label)
        self.scope = scope
        self.record = record if record is not None else Draws()
        self._prefix = seed + field(label.encode("utf-8"))
        self._block = 0
        self._buffer = b""
        self._pos = 0  # bytes of _buffer before _pos are used

    @property
    def blocks_used(self) -> int:
        """How many SHA-256 blocks this stream has computed (the benchmark's floor counts them)."""
        return self._block

    def _next_block(self) -> bytes:
        block = hashlib.sha256(self._prefix + self._block.to_bytes(8, "big")).digest()
        self._block += 1
        return block

    def _read(self, count: int) -> bytes:
        while len(self._buffer) - self._pos < count:
            self._buffer = self._buffer[self._pos:] + self._next_block()
            self._pos = 0
        out = self._buffer[self._pos:self._pos + count]
        self._pos += count
        return out

    def _small(self, n: int, count: int) -> list[int]:
        """``count`` values of ``below(n)`` for 2 <= n <= 256: one byte per try (the same
        construction as the general case; dice are the common draw, so whole blocks are masked
        and filtered by ``bytes.translate`` rather than byte by byte)."""
        mask, table, rejected = _byte_tables(n)
        out: list[int] = []
        buf, pos = self._buffer, self._pos
        while len(out) < count:
            if pos >= len(buf):
                buf, pos = self._next_block(), 0
            accepted = buf[pos:].translate(table, rejected)
            need = count - len(out)
            if len(accepted) < need:  # all of it (equal: stop at the last one, below)
                out += accepted
                pos = len(buf)
                continue
            for i, byte in enumerate(buf[pos:]):  # the last block: stop after the need-th value
                if byte & mask < n:
                    need -= 1
                    if need == 0:
                        out += buf[pos:pos + i + 1].translate(table, rejected)
                        pos += i + 1
                        break
        self._buffer, self._pos = buf, pos
        return out

    def _below(self, n: int) -> int:
        if n == 1:
            return 0
        if n <= 256:
            return self._small(n, 1)[0]
        bits = (n - 1).bit_length()
        width, mask = (bits + 7) // 8, (1 << bits) - 1
        while True:
            value = int.from_bytes(self._read(width), "big") & mask
            if value < n:
                return value

    def _note(self, kind: str, inputs: dict[str, Any], result: Any) -> None:
        self.record.add(Draw(self.scope, self.label, kind, inputs, result))

    def below(self, n: int) -> int:
        """A uniform integer in 0 .. n-1."""
        value = self._below(check_bound(n))
        self._note("below", {"n": n}, value)
        return value

    def roll(self, faces: Sequence[int], count: int = 1) -> list[int]:
        """``count`` rolls of a die with these faces (each face equally likely)."""
        faces = list(faces)
        if not faces or any(isinstance(f, bool) or not isinstance(f, int) for f in faces):
            raise ChanceError(f"a die needs a non-empty list of whole-number faces, not {faces!r}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ChanceError(f"the number of rolls must be a whole number >= 0, not {count!r}")
        n = len(faces)
        if 2 <= n <= 256:
            result = [faces[i] for i in self._small(n, count)]
        else:
            result = [faces[self._below(n)] for _ in range(count)]
        self._note("roll", {"faces": faces, "count": count}, result)
        return result

    def permutation(self, n: int) -> list[int]:
        """The Fisher–Yates permutation of ``range(n)`` (not recorded: ``shuffle`` records it)."""
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self._below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order

    def shuffle(self, items: Iterable[T]) -> list[T]:
        """A new list: ``items`` in a uniformly random order. The record keeps the permutation
        (position -> original index), never the items, so a hidden deck is not copied into it."""
        items = list(items)
        order = self.permutation(len(items))
        self._note("shuffle", {"n": len(items)}, order)
        return [items[i] for i in order]
