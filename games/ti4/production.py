"""Production in a tactical action (RULES.md T24-T28).

The active player's structures with production in the active system build units: their total
production is each one's value plus, where the pack says so, its planet's resources (the
seed's "dock bonus"); each unit built counts 1 against it, and two-for-one units (cost 0.5)
cost 1 a pair. ``produce_problems`` refuses an order the player could never pay or fit;
``produce`` builds on the board as combat left it: no ships while another player's ships are in
the system, nothing beyond the plastic limits or (ships) the fleet pool. Resources are an
input; what was spent is returned.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.errors import Problem

from .board import Board, Counts, Draft, _Reads, planet, space
from .combat import Event, event, remove_excess, say
from .movement import fleet_size, ship_owners
from .units import Catalog, cost_of


def docks(board: _Reads, catalog: Catalog, system: str, player: str) -> tuple[int, list[str]]:
    """(production, planets holding ``player``'s producing units) in ``system``."""
    total, where = 0, []
    for pid in catalog.planets_in(system):
        for uid, n in sorted(board.stack(planet(pid), player).items()):
            spec = catalog.unit(uid, player)
            if spec.production is not None and n:
                bonus = catalog.planets[pid].resources if spec.plus_resources else 0
                total += n * (spec.production + bonus)
                where.append(pid)
    return total, where


def produce_problems(board: Board, catalog: Catalog, player: str, system: str,
                     build: Counts, resources: int) -> list[Problem]:
    out: list[Problem] = []
    if not build:
        return out
    for uid in sorted(build):
        spec = catalog.units.get(uid)
        if spec is None or spec.cost is None:
            out.append(Problem("produce-unit", f"produce.{uid}", f"{uid} cannot be built"))
    capacity, where = docks(board, catalog, system, player)
    if not where:
        out.append(Problem("produce-dock", "produce", f"you have no unit with production in "
                           f"{system}"))
    elif sum(build.values()) > capacity:
        out.append(Problem("produce-count", "produce", f"{sum(build.values())} units, but "
                           f"your production in {system} is {capacity}"))
    if not out and cost_of(build, catalog.specs(player)) > resources:
        out.append(Problem("produce-cost", "produce", f"the units cost "
                           f"{cost_of(build, catalog.specs(player))} resources; you have "
                           f"{resources}"))
    return out


def produce(d: Draft, catalog: Catalog, player: str, system: str, build: Mapping[str, int],
            events: list[Event]) -> int:
    """Build what may be built of ``build``; returns the resources spent (what was built)."""
    if not build:
        return 0
    _, where = docks(d, catalog, system, player)
    enemy = [p for p in ship_owners(d, catalog, system) if p != player]
    built: Counts = {}
    for uid, n in sorted(build.items()):
        spec = catalog.unit(uid, player)
        why = ""
        if spec.ship and enemy:
            why = f"{', '.join(enemy)} has ships in {system}"
            n_ok = 0
        else:
            n_ok = n
            if not spec.two_for_one:
                n_ok = min(n_ok, max(0, spec.limit - d.total(player, uid)))
                why = why or (f"the plastic limit of {spec.limit}" if n_ok < n else "")
            if spec.in_fleet:
                room = max(0, d.pool(player, "fleet") - fleet_size(d, catalog, system, player))
                if room < n_ok:
                    n_ok, why = room, "the fleet pool"
        if n_ok:
            d.add(space(system) if spec.ship else planet(where[0]), player, uid, n_ok)
            built[uid] = n_ok
        if n_ok < n:
            events.append(event("not-built", f"{player} does not build {n - n_ok} {uid} in "
                                f"{system}: {why}.", player=player, unit=uid, count=n - n_ok))
    spent = cost_of(built, catalog.specs(player))
    if built:
        events.append(event("production", f"{player} builds {say(built)} in {system}.",
                            player=player, system=system, units=built))
    events.append(event("spent", f"You spent {spent} resources on production.", to=[player],
                        spent=spent))
    remove_excess(d, catalog, system, player, events, "after production")
    return spent
