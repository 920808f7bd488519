"""The dice The Ashes of Empire rolls, and a practice chance source for tests and try-outs.

The rules never call ``random``: the one shuffle (``secret("shuffle:deck")``), the first player
(``public("first-player")``) and every battle's dice (``public("battle:turn<T>:<power>:attacker")``
and ``...:defender``) come from the ``chance`` argument of ``resolve``. The fair source is
pbem.chance (every player contributes; the referee commits at genesis; public draws can be
rechecked from the report, the shuffle at the end); the engine passes it in.

The shape of ``chance`` is pbem.game.chance.Chance. ``PracticeChance`` is a deterministic
source from SHA-256 of the game id, the step and the label, for tests and try-outs: it replays
exactly, but anybody can compute it, so it is NOT fair; every draw's event made with it says
``"chance": "practice"``. The engine never falls back to it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

from pbem.game.chance import Stream

T = TypeVar("T")
DIE = (1, 2, 3, 4, 5, 6)


class PracticeStream:
    """SHA-256 counter stream with rejection sampling (predictable: practice only)."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0

    def _word(self) -> int:
        block = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        return int.from_bytes(block[:8], "big")

    def below(self, n: int) -> int:
        if n < 1:
            raise ValueError(f"below({n})")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            word = self._word()
            if word < limit:
                return word % n

    def roll(self, faces: Sequence[int], count: int = 1) -> list[int]:
        return [faces[self.below(len(faces))] for _ in range(count)]

    def shuffle(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


class PracticeChance:
    """Deterministic chance from (game id, step): see the module docstring."""

    def __init__(self, game_id: str, step: int) -> None:
        self._prefix = f"ashes-practice\0{game_id}\0{step}\0"
        self._streams: dict[str, PracticeStream] = {}

    def _stream(self, scope: str, label: str) -> PracticeStream:
        key = f"{scope}\0{label}"
        if key not in self._streams:
            self._streams[key] = PracticeStream((self._prefix + key).encode("utf-8"))
        return self._streams[key]

    def public(self, label: str) -> Stream:
        return self._stream("public", label)

    def secret(self, label: str) -> Stream:
        return self._stream("secret", label)
