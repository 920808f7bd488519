"""Movement in a tactical action: which moves are legal, and capacity (RULES.md T5-T9).

A move is a group of ships leaving one system along one path to the active system, with what
they carry: fighters and ground forces from the start system's space (``carry``) and ground
forces picked up from the start system's planets (``lift``). Each ship's path is judged by
galaxy.path_problems with that ship's move value (adjacency, wormholes, anomalies, own command
tokens, enemy ships); the group's capacity holds its cargo; after movement, the active
system's ships within the fleet pool. ``capacity_excess`` lists what a system holds beyond
capacity, for removal at the end of movement, combat and production.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import Problem

from .board import Board, Counts, _Reads, planet, space
from .galaxy import Situation, path_problems
from .units import Catalog


@dataclass(frozen=True)
class Move:
    path: tuple[str, ...]
    ships: Mapping[str, int]
    carry: Mapping[str, int] = field(default_factory=dict)
    lift: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    @property
    def start(self) -> str:
        return self.path[0]


def _counts(value: object, path: str, out: list[Problem]) -> Counts:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and isinstance(n, int) and not isinstance(n, bool) and n > 0
            for k, n in value.items()):
        out.append(Problem("counts", path, "a mapping of unit: how many (1 or more)"))
        return {}
    return dict(value)


def parse_moves(value: object, out: list[Problem]) -> list[Move]:
    """``move:`` of an order: a list of ``{path, ships, carry?, lift?}``."""
    if value is None:
        return []
    if not isinstance(value, list):
        out.append(Problem("move", "move", "move: is a list of {path, ships, carry, lift}"))
        return []
    moves = []
    for i, entry in enumerate(value):
        at = f"move[{i}]"
        if not isinstance(entry, Mapping):
            out.append(Problem("move", at, "a move is {path: [...], ships: {unit: n}}"))
            continue
        path = entry.get("path")
        if not isinstance(path, list) or not all(isinstance(s, str) for s in path):
            out.append(Problem("move-path", f"{at}.path", "path: is a list of system ids"))
            continue
        lift_raw = entry.get("lift") or {}
        lift = {}
        if isinstance(lift_raw, Mapping):
            lift = {str(p): _counts(c, f"{at}.lift.{p}", out) for p, c in lift_raw.items()}
        else:
            out.append(Problem("counts", f"{at}.lift", "lift: maps a planet to units"))
        unknown = set(entry) - {"path", "ships", "carry", "lift"}
        for k in sorted(map(str, unknown)):
            out.append(Problem("unknown-field", f"{at}.{k}", f"a move has no field {k}"))
        moves.append(Move(tuple(path), _counts(entry.get("ships"), f"{at}.ships", out),
                          _counts(entry.get("carry"), f"{at}.carry", out), lift))
    return moves


def ship_owners(board: _Reads, catalog: Catalog, system: str) -> list[str]:
    """Players with ships (fighters included) in ``system``'s space."""
    return [p for p in board.players_at(space(system)) if _ships(board, catalog, system, p)]


def situation(board: Board, catalog: Catalog, player: str) -> Situation:
    enemy = {s for s in catalog.galaxy.tiles
             if any(p != player and _ships(board, catalog, s, p) for p in
                    board.players_at(space(s)))}
    tokens = {s for s in catalog.galaxy.tiles if board.holds_token(s, player)}
    return Situation.of(enemy, tokens)


def _ships(board: _Reads, catalog: Catalog, system: str, player: str) -> int:
    return sum(n for u, n in board.stack(space(system), player).items()
               if catalog.unit(u, player).ship)


def fleet_size(board: _Reads, catalog: Catalog, system: str, player: str) -> int:
    """Ships in ``system`` that count against the fleet pool (not fighters)."""
    return sum(n for u, n in board.stack(space(system), player).items()
               if catalog.unit(u, player).in_fleet)


def move_problems(board: Board, catalog: Catalog, player: str, active: str,
                  moves: Sequence[Move]) -> list[Problem]:
    """Every reason the moves are not legal into ``active`` (empty: legal)."""
    out: list[Problem] = []
    here = situation(board, catalog, player)
    taken: dict[tuple[Any, ...], int] = {}
    for i, mv in enumerate(moves):
        at = f"move[{i}]"
        if not mv.path or mv.path[-1] != active:
            out.append(Problem("move-dest", f"{at}.path", f"a path ends in the active system "
                               f"{active}"))
            continue
        if mv.start not in catalog.galaxy.tiles:
            out.append(Problem("path-system", f"{at}.path[0]", f"no system {mv.start!r}"))
            continue
        if not mv.ships:
            out.append(Problem("move-ships", f"{at}.ships", "a move names at least one ship"))
        room = 0
        for uid, n in sorted(mv.ships.items()):
            spec = catalog.units.get(uid)
            if spec is None or not spec.ship or spec.needs_capacity:
                out.append(Problem("move-unit", f"{at}.ships.{uid}", f"{uid} is not a ship "
                                   "that moves on its own (fighters and ground forces ride "
                                   "in carry:)"))
                continue
            spec = catalog.unit(uid, player)
            room += n * spec.capacity
            taken[(mv.start, None, uid)] = taken.get((mv.start, None, uid), 0) + n
            out += [Problem(p.code, f"{at}.{p.path}", f"{uid}: {p.message}")
                    for p in path_problems(catalog.galaxy, list(mv.path), spec.move, here)]
        cargo = 0
        for uid, n in sorted(mv.carry.items()):
            spec = catalog.units.get(uid)
            if spec is None or not spec.needs_capacity:
                out.append(Problem("move-carry", f"{at}.carry.{uid}", f"{uid} does not ride "
                                   "in capacity"))
                continue
            cargo += n
            taken[(mv.start, None, uid)] = taken.get((mv.start, None, uid), 0) + n
        for pid, units in sorted(mv.lift.items()):
            if pid not in catalog.planets or catalog.system_of(pid) != mv.start:
                out.append(Problem("move-lift", f"{at}.lift.{pid}", f"{pid} is not a planet "
                                   f"of {mv.start}, where the move starts"))
                continue
            for uid, n in sorted(units.items()):
                spec = catalog.units.get(uid)
                if spec is None or not spec.ground:
                    out.append(Problem("move-lift", f"{at}.lift.{pid}.{uid}", f"{uid} is not "
                                       "a ground force"))
                    continue
                cargo += n
                taken[(mv.start, pid, uid)] = taken.get((mv.start, pid, uid), 0) + n
        if cargo > room:
            out.append(Problem("capacity", at, f"the ships carry {cargo} but have capacity "
                               f"{room}"))
    for (sid, pid, uid), n in sorted(taken.items(), key=str):
        where = space(sid) if pid is None else planet(pid)
        have = board.count(where, player, uid)
        if n > have:
            out.append(Problem("move-count", "move", f"{n} {uid} leave {pid or sid}, which "
                               f"holds {have} of yours"))
    if not out and moves:
        after = fleet_size(board, catalog, active, player) + sum(
            n for mv in moves for u, n in mv.ships.items() if catalog.unit(u, player).in_fleet)
        fleet = board.pool(player, "fleet")
        if after > fleet:
            out.append(Problem("fleet-pool", "move", f"{after} ships in {active} after the "
                               f"move, but your fleet pool holds {fleet} tokens"))
    return out


def capacity_excess(board: _Reads, catalog: Catalog, system: str, player: str) \
        -> tuple[Counts, Counts]:
    """(ground forces, fighters) in ``system``'s space beyond ``player``'s capacity. Ground
    forces ride ships only; fighters take the ships' room left over plus his structures' room
    on the system's planets (ruling T8). The cheapest go first (then by id)."""
    ship_room, dock_room, ground, fighters = 0, 0, {}, {}
    for uid, n in board.stack(space(system), player).items():
        spec = catalog.unit(uid, player)
        if spec.ground:
            ground[uid] = n
        elif spec.fighter:
            fighters[uid] = n
        elif spec.ship:
            ship_room += n * spec.capacity
    for pid in catalog.planets_in(system):
        for uid, n in board.stack(planet(pid), player).items():
            spec = catalog.unit(uid, player)
            if spec.structure:
                dock_room += n * spec.capacity
    over_ground = _over(ground, ship_room, catalog, player)
    left = max(0, ship_room - sum(ground.values())) + dock_room
    return over_ground, _over(fighters, left, catalog, player)


def _over(units: Counts, room: int, catalog: Catalog, player: str) -> Counts:
    excess = sum(units.values()) - room
    out: Counts = {}
    for uid in sorted(units, key=lambda u: (catalog.unit(u, player).cost or 0, u)):
        if excess <= 0:
            break
        k = min(excess, units[uid])
        out[uid] = k
        excess -= k
    return out
