"""Invasion in a tactical action: bombardment and planetary shields, landing, space cannon
defense, ground combat and control (RULES.md T18-T23), in the seed's order, each step for every
planet named before the next step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.game.chance import Chance

from .board import Counts, Draft, planet, space
from .combat import MAX_ROUNDS, NO_STANDING, Event, Standing, assign, event, fire, say
from .movement import ship_owners
from .units import Catalog


def _ground(d: Draft, catalog: Catalog, pid: str, player: str) -> int:
    return sum(n for u, n in d.stack(planet(pid), player).items()
               if catalog.unit(u, player).ground)


def defenders(d: Draft, catalog: Catalog, pid: str, active: str) -> list[str]:
    """Players other than ``active`` with ground forces on ``pid``."""
    return [p for p in d.players_at(planet(pid)) if p != active and _ground(d, catalog, pid, p)]


def shielded(d: Draft, catalog: Catalog, pid: str, active: str) -> bool:
    """A unit with planetary shield of another player stands on ``pid``."""
    return any(catalog.unit(u, p).planetary_shield
               for p in d.players_at(planet(pid)) if p != active
               for u, n in d.stack(planet(pid), p).items() if n)


def invade(d: Draft, catalog: Catalog, system: str, active: str,
           bombard: Mapping[str, Counts], land: Mapping[str, Counts],
           standing: Mapping[str, Standing], chance: Chance, events: list[Event]) -> None:
    """Bombardment, landing, space cannon defense, ground combat, control, for the planets of
    ``system`` named in ``bombard`` and ``land``. Skipped while another player's ships remain
    in the system (ruling T18)."""
    if not bombard and not land:
        return
    foes = [p for p in ship_owners(d, catalog, system) if p != active]
    if foes:
        events.append(event("invasion-skipped", f"{active} cannot invade in {system}: "
                            f"{', '.join(foes)} still has ships there.", system=system))
        return
    for pid, units in sorted(bombard.items()):
        _bombard(d, catalog, system, active, pid, units, standing, chance, events)
    landed: dict[str, Counts] = {}
    for pid, units in sorted(land.items()):
        moved = {u: d.move(space(system), planet(pid), active, u, n)
                 for u, n in sorted(units.items())}
        moved = {u: n for u, n in moved.items() if n}
        if moved:
            landed[pid] = moved
            events.append(event("landing", f"{active} lands {say(moved)} on {pid}.",
                                player=active, planet=pid, units=moved))
    for pid in sorted(landed):
        _cannon_defense(d, catalog, active, pid, standing, chance, events)
    for pid in sorted(landed):
        _ground_combat(d, catalog, active, pid, standing, chance, events)
        _control(d, catalog, active, pid, events)


def _bombard(d: Draft, catalog: Catalog, system: str, active: str, pid: str, units: Counts,
             standing: Mapping[str, Standing], chance: Chance, events: list[Event]) -> None:
    here = {u: min(n, d.count(space(system), active, u)) for u, n in units.items()}
    if shielded(d, catalog, pid, active):
        here = {u: n for u, n in here.items()
                if (r := catalog.unit(u, active).bombardment) and r.ignores_shield}
        events.append(event("shield", f"A planetary shield covers {pid}: "
                            + ("only " + say(here) + " may bombard it." if here
                               else "no bombardment."), planet=pid))
    foes = defenders(d, catalog, pid, active)
    if not foes or not any(here.values()):
        return
    hits = fire(d, catalog, chance, events, f"bombard:{pid}", space(system), active,
                lambda s: s.bombardment, "bombardment", only=here)
    assign(d, catalog, planet(pid), foes[0], hits, standing.get(foes[0], NO_STANDING).hits,
           lambda s: s.ground, events, "bombardment")


def _cannon_defense(d: Draft, catalog: Catalog, active: str, pid: str,
                    standing: Mapping[str, Standing], chance: Chance,
                    events: list[Event]) -> None:
    for p in d.players_at(planet(pid)):
        if p == active or not standing.get(p, NO_STANDING).space_cannon:
            continue
        guns = {u: n for u, n in d.stack(planet(pid), p).items()
                if catalog.unit(u, p).space_cannon is not None}
        hits = fire(d, catalog, chance, events, f"cannon-defense:{pid}", planet(pid), p,
                    lambda s: s.space_cannon, "space cannon defense", only=guns)
        assign(d, catalog, planet(pid), active, hits, standing.get(active, NO_STANDING).hits,
               lambda s: s.ground, events, f"space cannon defense of {p}")


def _ground_combat(d: Draft, catalog: Catalog, active: str, pid: str,
                   standing: Mapping[str, Standing], chance: Chance,
                   events: list[Event]) -> None:
    foes = defenders(d, catalog, pid, active)
    if not foes or not _ground(d, catalog, pid, active):
        return
    foe = foes[0]
    events.append(event("ground-combat", f"Ground combat on {pid}: {active} against {foe}.",
                        planet=pid, attacker=active, defender=foe))
    rounds = 0
    while rounds < MAX_ROUNDS and _ground(d, catalog, pid, active) \
            and _ground(d, catalog, pid, foe):
        rounds += 1
        got = {p: fire(d, catalog, chance, events, f"ground:{pid}:r{rounds}", planet(pid), p,
                       lambda s: s.combat if s.ground else None,
                       f"ground combat round {rounds}") for p in (active, foe)}
        for p, other in ((active, foe), (foe, active)):
            assign(d, catalog, planet(pid), other, got[p],
                   standing.get(other, NO_STANDING).hits, lambda s: s.ground, events,
                   f"ground combat round {rounds}")
    left = [p for p in (active, foe) if _ground(d, catalog, pid, p)]
    text = (f"{left[0]} holds {pid}." if len(left) == 1 else
            "no side holds it alone." if left else "both sides are destroyed.")
    events.append(event("ground-combat-end", f"The ground combat on {pid} ends: {text}",
                        planet=pid, rounds=rounds, left=left))


def _control(d: Draft, catalog: Catalog, active: str, pid: str, events: list[Event]) -> None:
    """The active player takes control of a planet his ground forces hold alone: it is
    exhausted, and other players' structures on it are destroyed (ruling T23)."""
    if not _ground(d, catalog, pid, active) or defenders(d, catalog, pid, active):
        return
    if d.owner.get(pid) == active:
        return
    before = d.owner.get(pid)
    lost: dict[str, Any] = {}
    for p in d.players_at(planet(pid)):
        if p == active:
            continue
        for u, n in d.stack(planet(pid), p).items():
            if catalog.unit(u, p).structure and n:
                d.remove(planet(pid), p, u, n)
                lost[f"{p} {u}"] = n
    d.owner[pid] = active
    d.exhausted.add(pid)
    whose = f" from {before}" if before else ""
    gone = "; destroyed: " + ", ".join(f"{n} {k}" for k, n in sorted(lost.items())) \
        if lost else ""
    events.append(event("control", f"{active} takes control of {pid}{whose}, exhausted{gone}.",
                        player=active, planet=pid, previous=before))
