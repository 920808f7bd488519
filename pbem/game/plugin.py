"""The game-plugin interface: everything the engine knows about a game.

A game is a directory under ``games/`` holding ``game.yaml`` (its manifest), its data files and a
Python package (``__init__.py`` exporting ``PLUGIN``). The engine, the store, the turn job, the
reports and the audit talk to a game only through this protocol, so nothing outside ``games/``
assumes 4000 A.D.

Contract, for every game:

* States, orders, events and views are plain JSON data (dicts, lists, str, int, bool, None). A
  state is never mutated after it is returned; ``resolve`` returns a new one.
* Every method is pure and deterministic: no clock, no randomness, no I/O. The same arguments give
  byte-identical canonical JSON results.
* ``view`` is the only way hidden information leaves a state. Whatever is sent to a power (report,
  receipt, order check) is computed from ``view(state, power)``.
* ``check_orders`` sees only that view, so the referee and a player's offline checker run the same
  validation on the same information.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pbem.errors import Problem

JSON = Any
State = dict[str, Any]
Orders = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Resolution:
    """What one resolution step produced: the new state and what happened, in order."""

    state: State
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class VariantInfo:
    name: str
    title: str
    powers: tuple[str, ...]
    description: str = ""


class GamePlugin(Protocol):
    """What a game provides to the engine."""

    id: str
    title: str

    def variants(self) -> Mapping[str, VariantInfo]:
        """The variants this game can be played in, by name."""
        ...

    def setup(self, variant: str, options: Mapping[str, Any]) -> State:
        """The initial state of a new game (raises PbemError for an unknown variant/option)."""
        ...

    def powers_due(self, state: State) -> list[str]:
        """Powers whose orders the next ``resolve`` uses (empty once the game is over)."""
        ...

    def orders_turn(self, state: State) -> int:
        """The turn number that order files for the next ``resolve`` must carry."""
        ...

    def normalize_orders(self, body: Mapping[str, Any], view: View) -> tuple[Orders, list[Problem]]:
        """Check an order body (already parsed from YAML, envelope removed) against the power's
        view. Returns the normalised orders and every problem found (the file is rejected whole
        if the list is not empty)."""
        ...

    def default_orders(self, state: State, power: str) -> Orders:
        """Standing orders used when a power sent none (no-move-received)."""
        ...

    def nmr_orders(
        self,
        state: State,
        power: str,
        open_escrow: Callable[[str, str, int], tuple[str, str] | None] | None,
    ) -> tuple[Orders, dict[str, Any]]:
        """Orders for a power that sent none: the standing orders, plus whatever the game does
        with reveals escrowed to the referee. ``open_escrow(warp, blob, departure turn)`` gives
        (destination, nonce) or None. Returns (orders, what was opened, for the log)."""
        ...

    def concede(self, state: State, power: str) -> Resolution:
        """``power`` concedes now (a game-master operation on the player's request)."""
        ...

    def resolve(self, state: State, orders: Mapping[str, Orders]) -> Resolution:
        """Resolve the next unit of play with the given orders (per power)."""
        ...

    def view(self, state: State, power: str | None) -> View:
        """What ``power`` may see of ``state``; ``None`` is the public view."""
        ...

    def view_events(self, events: Sequence[Mapping[str, Any]], power: str | None) -> list[Event]:
        """The events ``power`` may see (``None``: the public ones)."""
        ...

    def end_game(self, state: State, reason: str) -> Resolution:
        """End the game now by agreement (a game-master operation)."""
        ...

    def secrets(self, state: State, power: str) -> list[str]:
        """Strings that belong to ``power`` alone at this point (for leak tests and audits)."""
        ...

    def is_over(self, state: State) -> bool:
        ...

    def check_components(self, data: Any) -> list[Problem]:
        """Every problem of a component pack (cards, tokens, map pieces; for 4000 A.D. the
        board), each with its path; [] if a game can be played with it. A game taking no pack
        returns a problem saying so. Rules versions and the default pack: pbem.game.versions."""
        ...
