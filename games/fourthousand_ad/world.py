"""A working copy of a 4000 A.D. state with the queries and moves the rules are written in.

The rules core never mutates a state it was given: ``World`` deep-copies it, the resolution
mutates the copy, and ``World.state`` is returned as the new state. Everything here is pure:
no clock, no randomness, no I/O.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from pbem.game.base import canonical
from pbem.game.events import private

from .board import Board, board_of
from .variants import Variant, load_variant

Ships = dict[str, int]


def deadline_turn(mode: str, slots: list[list[str]], owner: str, turn: int, slot: int) -> int:
    """The round in whose turn ``owner`` must have regained a home star lost at (turn, slot):
    its first turn whose orders were written after the capture (ruling R23)."""
    if mode == "simultaneous":
        return turn + 1
    mine = next(i for i, s in enumerate(slots) if owner in s)
    return turn if mine > slot else turn + 1


@cache
def variant_named(name: str) -> Variant:
    """``load_variant`` made once per name: every World and view asks for its game's variant,
    which never changes (variants.yaml is read once); an unknown name raises every time."""
    return load_variant(name)


def copy_state(state: dict[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(state))
    return copied


_BOARD: list[tuple[Any, Any]] = []  # (a state's board data, its canonical-order copy)


def canonical_copy(state: dict[str, Any]) -> dict[str, Any]:
    """A working copy of ``state`` in canonical (sorted) key order, as
    ``json.loads(canonical.dumps(state))`` gives it (copied in Python: ``_sorted_copy``),
    except that the board data (recorded in the state, the same for the whole game, never
    written by the rules) is one sorted copy shared by the states that follow: a resolution
    copies only what it may change, and the view and the next resolution find the board they
    already built (board_of, by identity). Equal value, equal digest; only the board is
    shared."""
    if "board" not in state:
        copied: dict[str, Any] = json.loads(canonical.dumps(state))
        return copied
    board = state["board"]
    if _BOARD and (board is _BOARD[0][0] or board is _BOARD[0][1]):
        shared = _BOARD[0][1]
    else:
        shared = json.loads(canonical.dumps(board))
        _BOARD[:] = [(board, shared)]  # held, so neither id is reused while remembered
    try:
        rest = _sorted_copy({k: v for k, v in state.items() if k != "board"})
    except _NotJson:
        rest = json.loads(canonical.dumps({k: v for k, v in state.items() if k != "board"}))
    return {k: shared if k == "board" else rest[k] for k in sorted([*rest, "board"])}


class _NotJson(Exception):
    """A mapping key that is not a string: the JSON round trip decides what it becomes."""


def _sorted_copy(value: dict[str, Any]) -> dict[str, Any]:
    """``json.loads(canonical.dumps(value))`` for JSON data, copied in Python instead of
    encoded and parsed (half the time): every mapping in sorted key order, tuples as lists,
    strings, numbers, booleans and None shared (they are immutable)."""
    out: dict[str, Any] = {}
    for key in sorted(value):
        if type(key) is not str:
            raise _NotJson
        item = value[key]
        kind = type(item)
        out[key] = (_sorted_copy(item) if kind is dict
                    else _list_copy(item) if kind is list or kind is tuple else item)
    return out


def _list_copy(value: list[Any] | tuple[Any, ...]) -> list[Any]:
    return [_sorted_copy(x) if type(x) is dict
            else _list_copy(x) if type(x) is list or type(x) is tuple else x for x in value]


class World:
    def __init__(
        self, state: dict[str, Any], board: Board | None = None, *, copy: bool = True
    ) -> None:
        # copy=False: read-only use (the view), or a state the caller copied for this World.
        self.s = copy_state(state) if copy else state
        self.board = board or board_of(self.s.get("board"))  # the game's own board
        self.variant: Variant = variant_named(self.s["variant"])
        self.events: list[dict[str, Any]] = []
        self.step_powers: set[str] = set()  # powers whose orders this resolution uses
        self.orders: dict[str, Any] = {}  # those powers' orders (surrender: on elimination)

    # -- bookkeeping -------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        return self.s

    @property
    def turn(self) -> int:
        return int(self.s["turn"])

    @property
    def version(self) -> str:
        return str(self.s["version"])

    @property
    def options(self) -> dict[str, Any]:
        opts: dict[str, Any] = self.s["options"]
        return opts

    def emit(self, kind: str, visible_to: list[str] | None = None,
             **fields: Any) -> dict[str, Any]:
        """Record an event. ``visible_to`` restricts who may see it (None: every power)."""
        event: dict[str, Any] = {"type": kind, "turn": self.turn, "slot": self.s["slot"]}
        event.update(fields)
        if visible_to is not None:
            event = private(event, *visible_to)
        self.events.append(event)
        return event

    # -- powers and alliances ----------------------------------------------------------------
    def powers(self) -> list[str]:
        return list(self.variant.powers)

    def alive(self, power: str) -> bool:
        return bool(self.s["powers"][power]["status"] == "active")

    def live_powers(self) -> list[str]:
        return [p for p in self.variant.powers if self.alive(p)]

    def home(self, power: str) -> str:
        return str(self.s["powers"][power]["home"])

    def home_owner(self, star: str) -> str | None:
        """The live power whose home star this is (an eliminated power's home is ordinary)."""
        for p in self.variant.powers:
            if self.home(p) == star and self.alive(p):
                return p
        return None

    def original_home_owner(self, star: str) -> str | None:
        for p in self.variant.powers:
            if self.home(p) == star:
                return p
        return None

    def alliance_of(self, a: str, b: str) -> dict[str, Any] | None:
        for alliance in self.s["alliances"]:
            if a in alliance["members"] and b in alliance["members"]:
                return alliance  # type: ignore[no-any-return]
        return None

    def allied(self, a: str, b: str) -> bool:
        return a == b or self.alliance_of(a, b) is not None

    def allies(self, power: str) -> list[str]:
        return [p for p in self.variant.powers if p != power and self.allied(power, p)]

    def announce(self, a: str, b: str, why: str) -> None:
        """A cooperating action makes a secret (Wild Alliance) alliance public."""
        alliance = self.alliance_of(a, b)
        if alliance is not None and a != b and not alliance["public"]:
            alliance["public"] = True
            self.emit("alliance_announced", members=sorted(alliance["members"]), why=why)

    # -- stars -------------------------------------------------------------------------------
    def star(self, name: str) -> dict[str, Any]:
        stars: dict[str, Any] = self.s["stars"]
        if name not in stars:
            stars[name] = {"holder": None, "ships": {}, "arrived": []}
        return stars[name]  # type: ignore[no-any-return]

    def ships_at(self, name: str) -> Ships:
        entry = self.s["stars"].get(name)
        return dict(entry["ships"]) if entry else {}

    def holder(self, name: str) -> str | None:
        entry = self.s["stars"].get(name)
        return entry["holder"] if entry else None

    def live_ships_at(self, name: str) -> Ships:
        return {p: n for p, n in self.ships_at(name).items() if n > 0 and self.alive(p)}

    def add_ships(self, name: str, power: str, n: int) -> None:
        if n <= 0:
            return
        entry = self.star(name)
        entry["ships"][power] = entry["ships"].get(power, 0) + n
        if power not in entry["arrived"]:
            entry["arrived"].append(power)

    def remove_ships(self, name: str, power: str, n: int) -> None:
        entry = self.star(name)
        left = entry["ships"].get(power, 0) - n
        if left < 0:
            raise AssertionError(f"removing {n} {power} ships from {name} holding {left + n}")
        if left:
            entry["ships"][power] = left
        else:
            entry["ships"].pop(power, None)
            if power in entry["arrived"]:
                entry["arrived"].remove(power)

    def set_holder(self, name: str, power: str | None) -> None:
        entry = self.star(name)
        before = entry["holder"]
        entry["holder"] = power
        owner = self.home_owner(name)
        if owner is not None:
            lost = self.s["powers"][owner]
            if power != owner and before == owner:
                lost["home_lost"] = {"turn": self.turn, "slot": self.s["slot"]}
            elif power == owner:
                lost["home_lost"] = None
        self.tidy(name)

    def tidy(self, name: str) -> None:
        entry = self.s["stars"].get(name)
        if entry and not entry["ships"] and entry["holder"] is None:
            del self.s["stars"][name]

    def settle_after_leaving(self, name: str) -> None:
        """After ships left a star: the holder passes to the longest-present live power still
        there; an empty home star returns to its owner; any other empty star is held by no one
        (rulebook: "Occupation of Other Stars"; ADC2: "OCCUPATION")."""
        entry = self.s["stars"].get(name)
        if entry is None:
            return
        holder = entry["holder"]
        present = [p for p in entry["arrived"] if entry["ships"].get(p, 0) > 0 and self.alive(p)]
        if holder in present:
            return
        if present:
            self.set_holder(name, present[0])
            return
        owner = self.home_owner(name)
        self.set_holder(name, owner)

    # -- warps -------------------------------------------------------------------------------
    def warps(self, power: str) -> dict[str, Any]:
        return self.s["warps"][power]  # type: ignore[no-any-return]

    def warps_in_flight(self, power: str) -> list[tuple[str, dict[str, Any]]]:
        """Own warps on the path, leading one first (most spaces travelled, then warp number)."""
        flying = [(k, w) for k, w in self.warps(power).items() if w is not None]
        return sorted(flying, key=lambda kw: (-kw[1]["travelled"], int(kw[0])))

    # -- tallies -----------------------------------------------------------------------------
    def tally(self, kind: str, power: str, n: int) -> None:
        if n:
            bucket = self.s["tally"][kind]
            bucket[power] = bucket.get(power, 0) + n

    def total_ships(self, power: str) -> int:
        """Every ship of ``power``: at stars and in any warp (allied ships lent to another
        power's warp still belong to their owner)."""
        at_stars = sum(e["ships"].get(power, 0) for e in self.s["stars"].values())
        in_warps = sum(
            w["ships"].get(power, 0)
            for ws in self.s["warps"].values()
            for w in ws.values()
            if w is not None
        )
        return int(at_stars + in_warps)

    def all_totals(self) -> dict[str, int]:
        """``total_ships`` of every power in one pass."""
        totals: dict[str, int] = {}
        for entry in self.s["stars"].values():
            for p, n in entry["ships"].items():
                totals[p] = totals.get(p, 0) + n
        for ws in self.s["warps"].values():
            for w in ws.values():
                if w is not None:
                    for p, n in w["ships"].items():
                        totals[p] = totals.get(p, 0) + n
        return totals

    def stars_held(self, power: str) -> list[str]:
        held = [n for n, e in self.s["stars"].items() if e["holder"] == power]
        return sorted(held)
