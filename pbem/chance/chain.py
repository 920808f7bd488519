"""Hash chains: a value revealed each step that everyone can check against one published tip.

``x_0 = start`` and ``x_j = H(x_{j-1})``; the tip ``x_N`` is published first, and the value for
step t is ``x_{N-t}``. Revealing step t's value discloses the earlier steps' values (hash it
forward) but none of the later ones (a preimage), so the owner is bound to every future value by
the tip and can reveal them one at a time.

Walking is the cost: the value for step t is N - t hashes from the start. ``HashChain`` keeps
every 256th element it passes (8 KiB for N = 65,536), so in one process the first lookup walks
once and every later one costs at most 255 hashes; the checkpoints can be exported and handed
back by a store that keeps them (they are as secret as the start).
"""

from __future__ import annotations

import hashlib
import hmac
import threading
from collections.abc import Sequence

from pbem.chance.errors import ChanceError, ChanceMismatch

N = 65_536
EVERY = 256


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def iterate(value: bytes, times: int) -> bytes:
    """``H^times(value)``."""
    h = hashlib.sha256
    for _ in range(times):
        value = h(value).digest()
    return value


class HashChain:
    """The chain from ``start``: ``element(t) = H^(length - t)(start)``, ``tip = element(0)``."""

    def __init__(self, start: bytes, length: int = N,
                 checkpoints: Sequence[bytes] | None = None) -> None:
        if length < 1:
            raise ChanceError(f"a hash chain needs a length of at least 1, not {length}")
        self.length = length
        self._adding = threading.Lock()
        self._marks: list[bytes] = [start]
        if checkpoints:
            if checkpoints[0] != start:
                raise ChanceError("these checkpoints belong to another chain")
            self._marks = list(checkpoints)[: length // EVERY + 1]

    @property
    def checkpoints(self) -> list[bytes]:
        """Every 256th element walked so far (``x_0, x_256, …``), for the constructor."""
        return list(self._marks)

    @property
    def tip(self) -> bytes:
        return self.element(0)

    def element(self, step: int) -> bytes:
        """The value for ``step`` (0 = the tip, ``length`` = the start)."""
        if not 0 <= step <= self.length:
            raise ChanceError(f"step {step} is outside the chain (0 to {self.length})")
        j = self.length - step
        marks = len(self._marks)
        m = min(marks - 1, j // EVERY)
        value, at = self._marks[m], m * EVERY
        h = hashlib.sha256
        found: list[bytes] = []  # marks past the last kept one, added at the end
        while at < j:
            value = h(value).digest()
            at += 1
            if at % EVERY == 0 and at // EVERY == marks + len(found):
                found.append(value)
        if found:
            with self._adding:  # one chain may serve several threads: add each mark once
                if len(self._marks) == marks:
                    self._marks.extend(found)
        return value


def check_chain(value: bytes, step: int, known: bytes, known_step: int, who: str) -> None:
    """Raise ChanceMismatch unless hashing ``value`` (step ``step``) forward ``step - known_step``
    times gives ``known`` (the last value known for step ``known_step``; the tip is step 0).

    Steps a contributor missed need no catch-up: the check spans the gap.
    """
    if step <= known_step:
        raise ChanceMismatch(f"{who}: a value for step {step} must come after the last known "
                             f"value (step {known_step})")
    if step - known_step > N:
        raise ChanceMismatch(f"{who}: step {step} is beyond the chain's {N} steps")
    if not hmac.compare_digest(iterate(value, step - known_step), known):
        what = ("the committed tip" if known_step == 0
                else f"the value revealed for step {known_step}")
        raise ChanceMismatch(f"{who}: the value for step {step} ({value.hex()[:16]}…) does not "
                             f"hash to {what}")
