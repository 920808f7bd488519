"""The opening every judge of a signed block runs (press: pbem.host.press; votes and prefs:
pbem.host.votes): verify the block; a block that fails is a ``rejected`` verdict, not verified,
naming only the game and power the block *claims* (ingest tells that power by code only); a
verified block naming a game not under the root is an ``unknown`` verdict.

What a block claims is read, never trusted: its YAML when it parses, else (for press, whose
blocks may be long and damaged in transit) the top-level ``game:`` and ``power:`` lines.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from pbem.errors import Problem, Rejected
from pbem.host.accept import TOP_LEVEL, Outcome, Verdict
from pbem.protocol.armor import dearmor
from pbem.protocol.safeyaml import scan


class Signed(Protocol):
    """What the opening reads of a verified block."""

    @property
    def game(self) -> str: ...

    @property
    def power(self) -> str: ...


V = TypeVar("V", bound=Signed)


def claimed(block: str, begin: str, end: str, *,
            top_level: bool = False) -> tuple[str | None, str | None]:
    """The game and power a block *claims* (read, never trusted); with ``top_level``, a block
    too big or damaged to parse is read by its top-level lines."""
    try:
        body = dearmor(block, begin, end).body
        data, problems = scan(body)
        if problems or not isinstance(data, dict):
            if not top_level:
                return None, None
            data = {m.group(1): m.group(2) for m in TOP_LEVEL.finditer(body)}
        game, power = data.get("game"), data.get("power")
    except Exception:  # whatever the text, a claim is only a hint
        return None, None
    return (game if isinstance(game, str) else None, power if isinstance(power, str) else None)


def open_block(root: Path, block: str, verify: Callable[[str], V], begin: str, end: str, *,
               top_level: bool = False, turn: Callable[[V], int | None] = lambda v: None
               ) -> tuple[V, Path] | Verdict:
    """The verified block and its game's directory, or the verdict that ends the judging: a
    block that fails verification (``rejected``, not verified, the claimed game and power) or
    one naming no game here (``unknown``, with ``turn(v)``)."""
    try:
        v = verify(block)
    except Rejected as exc:
        game, power = claimed(block, begin, end, top_level=top_level)
        return Verdict(Outcome.REJECTED, game, power, None, exc.problems, verified=False)
    path = root / v.game
    if not (path / "config.yaml").exists():
        return Verdict(Outcome.UNKNOWN, v.game, v.power, turn(v),
                       [Problem("unknown-game", "game", f"no game {v.game!r} here")])
    return v, path
