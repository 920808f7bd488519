"""The board: units per system (space) and per planet, planet control and exhausted flags,
command tokens on systems and in each player's pools (RULES.md T1, T2).

A ``Board`` is immutable: every change is made on a ``Draft`` (``board.edit()``), a private
copy, and frozen again (``draft.freeze()``), so a resolution never changes the board it was
given. ``to_data`` is the canonical JSON-able form (sorted keys, no zero counts) and
``from_data`` reads it back; ``start`` sets up the factions' home systems from a checked pack.

Places: ``("space", system)`` or ``("planet", planet)``. Per place and player, a count per unit
and a count of those damaged (sustain damage). The player economy (trade goods, strategy cards,
objectives) is not here: the table keeps it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from .units import Catalog

Place = tuple[str, str]
Counts = dict[str, int]
POOLS = ("tactic", "fleet", "strategy")


def space(system: str) -> Place:
    return ("space", system)


def planet(pid: str) -> Place:
    return ("planet", pid)


class _Reads:
    """What may be read of a board, frozen or draft."""

    units: dict[Place, dict[str, Counts]]
    damaged: dict[Place, dict[str, Counts]]
    owner: dict[str, str]
    exhausted: set[str] | frozenset[str]
    tokens: dict[str, set[str]] | dict[str, frozenset[str]]
    pools: dict[str, Counts]

    def stack(self, place: Place, player: str) -> Counts:
        """``player``'s units at ``place`` (a copy)."""
        return dict(self.units.get(place, {}).get(player, {}))

    def count(self, place: Place, player: str, unit: str) -> int:
        return self.units.get(place, {}).get(player, {}).get(unit, 0)

    def damaged_count(self, place: Place, player: str, unit: str) -> int:
        return self.damaged.get(place, {}).get(player, {}).get(unit, 0)

    def players_at(self, place: Place) -> list[str]:
        return sorted(p for p, units in self.units.get(place, {}).items() if units)

    def holds_token(self, system: str, player: str) -> bool:
        return player in self.tokens.get(system, ())

    def pool(self, player: str, name: str) -> int:
        return self.pools.get(player, {}).get(name, 0)

    def total(self, player: str, unit: str) -> int:
        """How many of ``unit`` ``player`` has on the board (plastic in use)."""
        return sum(by.get(player, {}).get(unit, 0) for by in self.units.values())

    def tokens_of(self, player: str) -> int:
        """Command tokens of ``player``: on the board plus in his pools."""
        on_board = sum(1 for holders in self.tokens.values() if player in holders)
        return on_board + sum(self.pools.get(player, {}).values())

    def places(self) -> list[Place]:
        return sorted(p for p, by in self.units.items() if any(by.values()))

    def to_data(self) -> dict[str, Any]:
        """The canonical form: plain JSON types, sorted, no zero counts or empty places."""
        def group(table: Mapping[Place, Mapping[str, Counts]], kind: str) \
                -> dict[str, dict[str, Counts]]:
            out: dict[str, dict[str, Counts]] = {}
            for (k, where), by in sorted(table.items()):
                if k != kind:
                    continue
                players = {p: dict(sorted((u, n) for u, n in units.items() if n))
                           for p, units in sorted(by.items())}
                players = {p: u for p, u in players.items() if u}
                if players:
                    out[where] = players
            return out
        return {"space": group(self.units, "space"), "planets": group(self.units, "planet"),
                "damaged": {"space": group(self.damaged, "space"),
                            "planets": group(self.damaged, "planet")},
                "owner": dict(sorted(self.owner.items())),
                "exhausted": sorted(self.exhausted),
                "tokens": {s: sorted(h) for s, h in sorted(self.tokens.items()) if h},
                "pools": {p: {k: v for k, v in sorted(pool.items())}
                          for p, pool in sorted(self.pools.items())}}


class Board(_Reads):
    """An immutable board: read it, or ``edit()`` a draft and ``freeze()`` that."""

    __slots__ = ("units", "damaged", "owner", "exhausted", "tokens", "pools")

    def __init__(self, units: Mapping[Place, Mapping[str, Mapping[str, int]]],
                 damaged: Mapping[Place, Mapping[str, Mapping[str, int]]],
                 owner: Mapping[str, str], exhausted: Iterable[str],
                 tokens: Mapping[str, Iterable[str]], pools: Mapping[str, Mapping[str, int]]):
        object.__setattr__(self, "units", _table(units))
        object.__setattr__(self, "damaged", _table(damaged))
        object.__setattr__(self, "owner", dict(owner))
        object.__setattr__(self, "exhausted", frozenset(exhausted))
        object.__setattr__(self, "tokens", {s: frozenset(h) for s, h in tokens.items() if h})
        object.__setattr__(self, "pools", {p: dict(v) for p, v in pools.items()})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Board is immutable: edit() a Draft and freeze() it")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.to_data() == other.to_data()

    def __hash__(self) -> int:
        return hash(repr(self.to_data()))

    def edit(self) -> Draft:
        return Draft(self)

    @staticmethod
    def from_data(data: Mapping[str, Any]) -> Board:
        def ungroup(groups: Mapping[str, Any]) -> dict[Place, dict[str, Counts]]:
            out: dict[Place, dict[str, Counts]] = {}
            for kind, key in (("space", "space"), ("planet", "planets")):
                for where, by in (groups.get(key) or {}).items():
                    out[(kind, where)] = {p: dict(u) for p, u in by.items()}
            return out
        return Board(ungroup(data), ungroup(data.get("damaged") or {}), data.get("owner") or {},
                     data.get("exhausted") or (), data.get("tokens") or {},
                     data.get("pools") or {})

    def tokens_back(self) -> Board:
        """Every command token on the board back to its owner's tactic pool (the status phase's
        "take your command tokens back"; the table may redistribute them after)."""
        d = self.edit()
        for holders in d.tokens.values():
            for p in holders:
                d.pools.setdefault(p, {}).setdefault("tactic", 0)
                d.pools[p]["tactic"] += 1
        d.tokens = {}
        return d.freeze()


def _table(t: Mapping[Place, Mapping[str, Mapping[str, int]]]) -> dict[Place, dict[str, Counts]]:
    return {place: {p: {u: n for u, n in units.items() if n} for p, units in by.items()}
            for place, by in t.items()}


class Draft(_Reads):
    """A private, changeable copy of a board, for one resolution."""

    exhausted: set[str]
    tokens: dict[str, set[str]]

    def __init__(self, board: Board):
        self.units = copy.deepcopy(board.units)
        self.damaged = copy.deepcopy(board.damaged)
        self.owner = dict(board.owner)
        self.exhausted = set(board.exhausted)
        self.tokens = {s: set(h) for s, h in board.tokens.items()}
        self.pools = copy.deepcopy(board.pools)

    def freeze(self) -> Board:
        return Board(self.units, self.damaged, self.owner, self.exhausted, self.tokens,
                     self.pools)

    def add(self, place: Place, player: str, unit: str, n: int = 1) -> None:
        stack = self.units.setdefault(place, {}).setdefault(player, {})
        stack[unit] = stack.get(unit, 0) + n

    def remove(self, place: Place, player: str, unit: str, n: int = 1) -> int:
        """Take up to ``n`` of ``unit`` away (undamaged ones first, so the damaged stay where
        they were: a moving or destroyed unit is the caller's choice, RULES.md T2); returns how
        many went."""
        have = self.count(place, player, unit)
        n = min(n, have)
        if n <= 0:
            return 0
        self.units[place][player][unit] = have - n
        hurt = self.damaged_count(place, player, unit)
        if hurt > have - n:
            self.damaged[place][player][unit] = have - n
        return n

    def destroy(self, place: Place, player: str, unit: str) -> None:
        """One unit destroyed: a damaged one if there is one."""
        hurt = self.damaged_count(place, player, unit)
        if hurt:
            self.damaged[place][player][unit] = hurt - 1
        self.remove(place, player, unit)

    def damage(self, place: Place, player: str, unit: str) -> None:
        stack = self.damaged.setdefault(place, {}).setdefault(player, {})
        stack[unit] = stack.get(unit, 0) + 1

    def move(self, src: Place, dst: Place, player: str, unit: str, n: int) -> int:
        """Move ``n`` units, damaged ones with them (damaged first)."""
        n = min(n, self.count(src, player, unit))
        hurt = min(n, self.damaged_count(src, player, unit))
        if hurt:
            self.damaged[src][player][unit] -= hurt
            self.damage_n(dst, player, unit, hurt)
        have = self.count(src, player, unit)
        self.units[src][player][unit] = have - n
        self.add(dst, player, unit, n)
        return n

    def damage_n(self, place: Place, player: str, unit: str, n: int) -> None:
        for _ in range(n):
            self.damage(place, player, unit)

    def place_token(self, system: str, player: str, pool: str = "tactic") -> None:
        self.pools[player][pool] -= 1
        self.tokens.setdefault(system, set()).add(player)


def start(pack: Mapping[str, Any], catalog: Catalog, factions: Mapping[str, str]) -> Board:
    """The board at set-up: each player (``factions``: player -> faction id) owns the planets of
    his faction's home system, readied, with its starting units: ships in space, ground forces
    and structures on the home system's first planet; pools as the pack's rules start them."""
    tokens = pack["rules"]["tokens"]
    d = Board({}, {}, {}, (), {}, {}).edit()
    for player, fid in sorted(factions.items()):
        faction = pack["factions"][fid]
        home = faction["home"]
        pids = catalog.planets_in(home)
        for pid in pids:
            d.owner[pid] = player
        for uid, n in sorted(faction["units"].items()):
            spec = catalog.unit(uid, player)
            d.add(space(home) if spec.ship else planet(pids[0]), player, uid, n)
        d.pools[player] = {k: int(tokens[k]) for k in POOLS}
    return d.freeze()
