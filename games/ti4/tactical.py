"""One tactical action end to end, as one pure function (RULES.md T3, T29).

``tactical_action(board, catalog, player, order, standing, chance, resources)`` checks the
active player's order and, if it is legal, resolves the seed's steps in order: activation (a
tactic-pool token into the system), movement (gravity rifts roll, excess cargo removed), space
cannon offense, space combat, invasion, production. Other players' choices come from their
standing answers; every die from ``chance``. It returns an ``Outcome``: the new board, the
events (sentences for reports; a private one carries ``to``), the resources spent, and the
problems (non-empty: the order is refused whole, the board unchanged, no die drawn).

An order::

    activate: S24
    move: [{path: [S18, S24], ships: {tender: 1}, carry: {wing: 2}, lift: {abren: {trooper: 1}}}]
    bombard: {farro: {bastion: 1}}
    invade: {farro: {trooper: 2}}
    produce: {frigate: 1, wing: 2}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.errors import Problem
from pbem.game.chance import Chance

from .board import Board, Counts, Draft, planet, space
from .combat import (
    Event,
    Standing,
    cannon_offense,
    event,
    parse_standing,
    remove_excess,
    roll,
    say,
    space_combat,
    standing_problems,
)
from .galaxy import IMPASSABLE
from .invasion import invade
from .movement import Move, _counts, move_problems, parse_moves, ship_owners
from .production import produce, produce_problems
from .units import Catalog

ORDER_KEYS = ("activate", "move", "bombard", "invade", "produce")
#: A ship leaving a gravity rift is destroyed on a d10 at or below this (ruling T7).
RIFT_LOSS = 3


@dataclass(frozen=True)
class Outcome:
    board: Board
    events: list[Event] = field(default_factory=list)
    spent: int = 0
    problems: list[Problem] = field(default_factory=list)


@dataclass(frozen=True)
class Order:
    activate: str
    moves: list[Move]
    bombard: dict[str, Counts]
    invade: dict[str, Counts]
    produce: Counts


def _planet_counts(value: object, key: str, out: list[Problem]) -> dict[str, Counts]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        out.append(Problem("planet-counts", key, f"{key}: maps a planet to units"))
        return {}
    got: dict[str, Counts] = {}
    for pid, units in value.items():
        if not isinstance(units, Mapping) or not all(
                isinstance(n, int) and not isinstance(n, bool) and n > 0
                for n in units.values()):
            out.append(Problem("counts", f"{key}.{pid}", "a mapping of unit: how many"))
            continue
        got[str(pid)] = {str(u): n for u, n in units.items()}
    return got


def parse_order(order: object, out: list[Problem]) -> Order | None:
    if not isinstance(order, Mapping):
        out.append(Problem("order", "", "a tactical action is a mapping (activate, move, "
                           "bombard, invade, produce)"))
        return None
    for k in sorted(set(map(str, order)) - set(ORDER_KEYS)):
        out.append(Problem("unknown-field", k, f"a tactical action has no {k}:"))
    active = order.get("activate")
    parsed = Order(str(active), parse_moves(order.get("move"), out),
                   _planet_counts(order.get("bombard"), "bombard", out),
                   _planet_counts(order.get("invade"), "invade", out),
                   _counts(order.get("produce"), "produce", out))
    if not isinstance(active, str):
        out.append(Problem("activate", "activate", "activate: names the system to activate"))
        return None
    return parsed


def _after_move(board: Board, player: str, o: Order) -> Draft:
    d = board.edit()
    for mv in o.moves:
        _carry(d, player, mv)
    return d


def _carry(d: Draft, player: str, mv: Move) -> None:
    dest = space(mv.path[-1])
    for uid, n in sorted({**mv.ships, **mv.carry}.items()):
        d.move(space(mv.start), dest, player, uid, n)
    for pid, units in sorted(mv.lift.items()):
        for uid, n in sorted(units.items()):
            d.move(planet(pid), dest, player, uid, n)


def order_problems(board: Board, catalog: Catalog, player: str, o: Order, resources: int,
                   closed: frozenset[str]) -> list[Problem]:
    out: list[Problem] = []
    sid = o.activate
    if sid not in catalog.galaxy.tiles:
        return [Problem("activate", "activate", f"no system {sid!r} on the board")]
    if board.holds_token(sid, player):
        out.append(Problem("activate-token", "activate", f"{sid} already holds your command "
                           "token"))
    if board.pool(player, "tactic") < 1:
        out.append(Problem("activate-pool", "activate", "your tactic pool is empty"))
    if catalog.galaxy.anomaly(sid) in IMPASSABLE and o.moves:
        out.append(Problem("path-anomaly", "move", f"{sid} is a {catalog.galaxy.anomaly(sid)}:"
                           " no ship enters it"))
    out += move_problems(board, catalog, player, sid, o.moves)
    if out:
        return out
    after = _after_move(board, player, o)
    here = set(catalog.planets_in(sid))
    for key, table, want in (("bombard", o.bombard, "units with bombardment"),
                             ("invade", o.invade, "ground forces")):
        need: Counts = {}
        for pid, units in sorted(table.items()):
            if pid not in here:
                out.append(Problem("invasion-planet", f"{key}.{pid}", f"{pid} is not a planet "
                                   f"of {sid}"))
            if key == "invade" and pid in closed:
                out.append(Problem("invade-closed", f"{key}.{pid}", f"no one may land on {pid}"
                                   " now"))
            for uid, n in units.items():
                spec = catalog.units.get(uid)
                ok = spec is not None and (catalog.unit(uid, player).bombardment is not None
                                           if key == "bombard" else spec.ground)
                if not ok:
                    out.append(Problem("invasion-unit", f"{key}.{pid}.{uid}", f"{uid} may not "
                                       f"be named here: {key} names {want}"))
                need[uid] = need.get(uid, 0) + n
        for uid, n in sorted(need.items()):
            have = after.count(space(sid), player, uid)
            if n > have:
                out.append(Problem("invasion-count", key, f"{n} {uid} named, but {have} of yours "
                                   f"will be in {sid}'s space"))
    out += produce_problems(board, catalog, player, sid, o.produce, resources)
    return out


def tactical_action(board: Board, catalog: Catalog, player: str, order: object,
                    standing: Mapping[str, object], chance: Chance, resources: int = 0,
                    closed: frozenset[str] = frozenset()) -> Outcome:
    """One tactical action of ``player`` (see the module docstring). ``standing`` maps each
    player to his standing answers (games/ti4/combat.py ``Standing``); ``resources`` is what
    the player may spend on production; ``closed`` lists planets no one may land on."""
    problems: list[Problem] = []
    o = parse_order(order, problems)
    answers: dict[str, Standing] = {p: parse_standing(v, f"standing.{p}", problems)
                                    for p, v in sorted(standing.items())}
    for p, st in answers.items():
        problems += standing_problems(st, catalog, f"standing.{p}")
    if o is not None and not problems:
        problems = order_problems(board, catalog, player, o, resources, closed)
    if o is None or problems:
        return Outcome(board, problems=problems)
    d = board.edit()
    events: list[Event] = []
    sid = o.activate
    d.place_token(sid, player)
    events.append(event("activate", f"{player} activates {sid}.", player=player, system=sid))
    _movement(d, catalog, player, o.moves, chance, events)
    cannon_offense(d, catalog, sid, player, answers, chance, events)
    for p in d.players_at(space(sid)):
        remove_excess(d, catalog, sid, p, events, "after space cannon offense")
    foes = [p for p in ship_owners(d, catalog, sid) if p != player]
    if foes and player in ship_owners(d, catalog, sid):
        space_combat(d, catalog, sid, player, foes[0], answers, chance, events)
    invade(d, catalog, sid, player, o.bombard, o.invade, answers, chance, events)
    spent = produce(d, catalog, player, sid, o.produce, events)
    return Outcome(d.freeze(), events, spent)


def _movement(d: Draft, catalog: Catalog, player: str, moves: Sequence[Move], chance: Chance,
              events: list[Event]) -> None:
    for i, mv in enumerate(moves):
        _carry(d, player, mv)
        cargo = {**mv.carry}
        for units in mv.lift.values():
            for u, n in units.items():
                cargo[u] = cargo.get(u, 0) + n
        events.append(event("move", f"{player} moves {say(mv.ships)} from {mv.start} to "
                            f"{mv.path[-1]} by {' - '.join(mv.path)}"
                            + (f", carrying {say(cargo)}." if cargo else "."),
                            player=player, path=list(mv.path), ships=dict(mv.ships),
                            cargo=cargo))
        rifts = [s for s in mv.path[:-1] if catalog.galaxy.anomaly(s) == "gravity-rift"]
        for k, rift in enumerate(rifts):
            for uid, n in sorted(mv.ships.items()):
                here = min(n, d.count(space(mv.path[-1]), player, uid))
                if not here:
                    continue
                got = roll(chance, f"rift:{i}:{k}:{rift}:{player}:{uid}", here,
                           f"leaving the gravity rift {rift}", events)
                lost = sum(1 for x in got if x <= RIFT_LOSS)
                for _ in range(lost):
                    d.destroy(space(mv.path[-1]), player, uid)
                if lost:
                    events.append(event("rift", f"{player} loses {lost} {uid} leaving the "
                                        f"gravity rift {rift}.", player=player, unit=uid,
                                        count=lost))
    for sid in sorted({mv.start for mv in moves} | {mv.path[-1] for mv in moves}):
        remove_excess(d, catalog, sid, player, events, "at the end of movement")
