"""The chance a game may draw from while it resolves a step: the interface only.

Games stay pure: they never call ``random``. A resolution that needs dice or a shuffle draws from
the ``Chance`` object the engine hands to ``resolve(state, orders, chance)``, so the same log
replays to the same state and every draw can be proven to the players afterwards. The fair
implementation (every player contributing, referee commitments at genesis: docs/protocol.md, "Fair
chance") lives in the ``pbem.chance`` package and implements
these Protocols; until a game is started with it, the engine passes ``NO_CHANCE``, which refuses
every draw with a clear error rather than inventing a seed the players could not check (a
deterministic seed from the game id and turn would be predictable by everyone, so not fair).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from pbem.errors import PbemError

T = TypeVar("T")


class Stream(Protocol):
    """One labelled sequence of draws (the label names the purpose, e.g. "battle:Vega")."""

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1."""
        ...

    def roll(self, faces: Sequence[int], count: int = 1) -> list[int]:
        """``count`` dice, each showing one of ``faces``."""
        ...

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A uniformly shuffled copy of ``items``."""
        ...


class Chance(Protocol):
    """Where a step's draws come from: public ones (dice everyone may check at once) and secret
    ones (shuffles, hidden draws: proven at the game's end)."""

    def public(self, label: str) -> Stream:
        ...

    def secret(self, label: str) -> Stream:
        ...


class ChanceUnavailable(PbemError):
    """A game drew from chance, but this game was started without a fair chance source."""


class NoChance:
    """The chance of a game without randomness: any draw is an error naming the label, so a
    game that needs dice fails loudly at its first draw instead of silently using unfair
    numbers. Fair chance comes from ``pbem.chance``."""

    def public(self, label: str) -> Stream:
        raise ChanceUnavailable(self._message("public", label))

    def secret(self, label: str) -> Stream:
        raise ChanceUnavailable(self._message("secret", label))

    @staticmethod
    def _message(kind: str, label: str) -> str:
        return (f"the game drew {kind} chance {label!r}, but this game has no fair chance "
                "source (pbem.chance): a game with dice or shuffles must be started with one")


NO_CHANCE = NoChance()
