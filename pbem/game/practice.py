"""A practice chance source for tests and try-outs: deterministic, NOT fair.

``PracticeChance(game, game_id, step)`` implements pbem.game.chance.Chance with SHA-256 counter
streams seeded by the game's name, the game id, the step and each stream's label (rejection
sampling for uniform draws, Fisher-Yates for shuffles). It replays exactly, so a test can play a
whole game with dice; but anybody can compute it, so a game must never be played on it: the
engine passes the fair source (pbem.chance) and never falls back to this one. A game may mark
what it drew from a practice source (The Ashes of Empire writes ``"chance": "practice"``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


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
    """Deterministic chance from (game, game id, step): see the module docstring."""

    def __init__(self, game: str, game_id: str, step: int) -> None:
        self._prefix = f"{game}-practice\0{game_id}\0{step}\0"
        self._streams: dict[str, PracticeStream] = {}

    def _stream(self, scope: str, label: str) -> PracticeStream:
        key = f"{scope}\0{label}"
        if key not in self._streams:
            self._streams[key] = PracticeStream((self._prefix + key).encode("utf-8"))
        return self._streams[key]

    def public(self, label: str) -> PracticeStream:
        return self._stream("public", label)

    def secret(self, label: str) -> PracticeStream:
        return self._stream("secret", label)
