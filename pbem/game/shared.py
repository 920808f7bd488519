"""The part of a report every reader of one resolution shares, made once (a game's presenter:
the map, the public events' sentences, the table).

A resolution's readers come one after another with views whose public part is the same;
``SharedParts.get(inputs, make)`` (``inputs``: the public data it is made from, e.g. the
public view and events) calls ``make`` once for equal inputs and hands the
same value to the next reader. Two readers share a value only when the public data it was made
from is equal, so nothing one reader may not see reaches another through it (the inputs must be
public: the caller's duty, e.g. the view without its ``you``). The key is the SHA-256 of the
inputs' pickle (its bytes say every key, value and type in order: data equal but built in
another order only misses); the last reader's inputs are compared first, which costs a fraction
of the digest. The ``keep`` most recent values are kept.
"""

from __future__ import annotations

import hashlib
import pickle
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class SharedParts(Generic[T]):
    def __init__(self, keep: int = 8) -> None:
        self.keep = keep
        self._made: OrderedDict[bytes, T] = OrderedDict()
        self._last: tuple[Any, bytes] | None = None

    def get(self, inputs: Any, make: Callable[[], T]) -> T:
        """What ``make`` makes of ``inputs``, made once for equal inputs."""
        last = self._last
        if last is not None and last[0] == inputs:
            key = last[1]
        else:
            key = hashlib.sha256(pickle.dumps(inputs, pickle.HIGHEST_PROTOCOL)).digest()
            self._last = (inputs, key)
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = make()
            while len(self._made) > self.keep:
                self._made.popitem(last=False)
        else:
            self._made.move_to_end(key)
        return made
