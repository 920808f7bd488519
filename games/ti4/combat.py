"""Dice, hits and space combat of a tactical action (RULES.md T10-T17).

Every die is a d10 drawn from the ``chance`` passed in (pbem.game.chance.Chance), from a public
stream whose label names the system or planet, the round, the player and the unit
(``combat:S24:r2:blue:frigate``); each roll is an event listing its label and results, so every
player can recheck it. A result at or above the unit's value is a hit. The player whose units
are hit assigns the hits by his standing order (``Standing.hits``); other mid-action choices
(retreat, space cannon) come from standing answers too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.errors import Problem
from pbem.game.chance import Chance

from .board import Counts, Draft, Place, planet, space
from .galaxy import IMPASSABLE
from .movement import capacity_excess, fleet_size, ship_owners
from .units import Catalog, Roll, UnitSpec

D10 = tuple(range(1, 11))
#: A combat ends after this many rounds even if both sides still stand (ruling T17).
MAX_ROUNDS = 40
Event = dict[str, Any]


def event(kind: str, text: str, to: Sequence[str] | None = None, **data: Any) -> Event:
    """One event: a type, a sentence for reports, data; ``to`` only on a private one."""
    out: Event = {"type": kind, "text": text, **data}
    if to is not None:
        out["to"] = sorted(to)
    return out


def say(units: Mapping[str, int]) -> str:
    """``{"frigate": 2, "wing": 1}`` -> ``"2 frigate, 1 wing"``."""
    return ", ".join(f"{n} {u}" for u, n in sorted(units.items()) if n) or "nothing"


@dataclass(frozen=True)
class Standing:
    """A player's standing answers for choices made while another acts (or mid-action).

    ``hits``: the order in which his units take hits (unit ids, and ``sustain`` for "use sustain
    damage here"); ``retreat_at_most``: announce a retreat when he has at most this many ships
    in the combat (None: never); ``retreat_to``: preferred destinations; ``space_cannon``: fire
    his space cannon when he may."""

    hits: tuple[str, ...] = ()
    retreat_at_most: int | None = None
    retreat_to: tuple[str, ...] = ()
    space_cannon: bool = True


NO_STANDING = Standing()


def parse_standing(value: object, path: str, out: list[Problem]) -> Standing:
    """``{hits: [...], retreat: {at_most: N, to: [...]}, space_cannon: bool}``."""
    if value is None:
        return NO_STANDING
    if not isinstance(value, Mapping):
        out.append(Problem("standing", path, "standing answers are a mapping"))
        return NO_STANDING
    for k in sorted(set(map(str, value)) - {"hits", "retreat", "space_cannon"}):
        out.append(Problem("unknown-field", f"{path}.{k}", f"no standing answer {k}"))
    hits = value.get("hits") or []
    if not isinstance(hits, list) or not all(isinstance(h, str) for h in hits):
        out.append(Problem("standing-hits", f"{path}.hits", "hits: is a list of unit ids and "
                           "'sustain'"))
        hits = []
    retreat = value.get("retreat") or {}
    at_most: object = None
    to: object = []
    if isinstance(retreat, Mapping):
        at_most, to = retreat.get("at_most"), retreat.get("to") or []
    if at_most is not None and (not isinstance(at_most, int) or isinstance(at_most, bool)
                                or at_most < 0):
        out.append(Problem("standing-retreat", f"{path}.retreat.at_most", "a whole number"))
        at_most = None
    if not isinstance(to, list) or not all(isinstance(s, str) for s in to):
        out.append(Problem("standing-retreat", f"{path}.retreat.to", "a list of systems"))
        to = []
    cannon = value.get("space_cannon", True)
    if not isinstance(cannon, bool):
        out.append(Problem("standing-cannon", f"{path}.space_cannon", "true or false"))
        cannon = True
    return Standing(tuple(hits), at_most, tuple(to), cannon)


def standing_problems(st: Standing, catalog: Catalog, path: str) -> list[Problem]:
    """Names in standing answers that the catalog does not know."""
    out = [Problem("standing-hits", f"{path}.hits[{i}]", f"no unit {h!r} (a unit id or "
                   "'sustain')") for i, h in enumerate(st.hits)
           if h != "sustain" and h not in catalog.units]
    out += [Problem("standing-retreat", f"{path}.retreat.to[{i}]", f"no system {s!r}")
            for i, s in enumerate(st.retreat_to) if s not in catalog.galaxy.tiles]
    return out


def roll(chance: Chance, label: str, count: int, why: str, events: list[Event]) -> list[int]:
    """``count`` d10 from the public stream ``label``, listed in an event."""
    result = [int(x) for x in chance.public(label).roll(D10, count)]
    events.append(event("roll", f"Dice {label} ({why}): {', '.join(map(str, result))}.",
                        label=label, die="d10", count=count, result=result, why=why))
    return result


def fire(d: Draft, catalog: Catalog, chance: Chance, events: list[Event], label: str,
         place: Place, player: str, which: Callable[[UnitSpec], Roll | None], why: str,
         bonus: int = 0, only: Mapping[str, int] | None = None) -> int:
    """Roll for ``player``'s units at ``place`` (or the ``only`` counts) with the roll
    ``which`` gives; a result >= value - bonus hits. Returns the hits."""
    hits = 0
    units = only if only is not None else d.stack(place, player)
    for uid, n in sorted(units.items()):
        r = which(catalog.unit(uid, player))
        if r is None or n <= 0:
            continue
        results = roll(chance, f"{label}:{player}:{uid}", n * r.dice, why, events)
        hits += sum(1 for x in results if x >= r.value - bonus)
    return hits


def assign(d: Draft, catalog: Catalog, place: Place, player: str, hits: int,
           order: Sequence[str], target: Callable[[UnitSpec], bool], events: list[Event],
           why: str) -> None:
    """``player`` takes ``hits`` at ``place`` on units ``target`` accepts, in his standing
    order; after the list: sustain damage, then the cheapest first (ruling T12). A hit with
    nothing left to take it is lost."""
    if hits <= 0:
        return
    present = {u for u, n in d.stack(place, player).items()
               if n and target(catalog.unit(u, player))}
    listed = [u for u in order if u != "sustain"]
    tail = sorted(present - set(listed), key=lambda u: (catalog.unit(u, player).cost or 0, u))
    sequence = [*order, "sustain", *tail]
    sustain_order = [*listed, *tail]
    lost: Counts = {}
    hurt: Counts = {}
    for _ in range(hits):
        for entry in sequence:
            if entry == "sustain":
                can = [u for u in sustain_order if u in present
                       and catalog.unit(u, player).sustain
                       and d.count(place, player, u) > d.damaged_count(place, player, u)]
                if can:
                    d.damage(place, player, can[0])
                    hurt[can[0]] = hurt.get(can[0], 0) + 1
                    break
            elif entry in present and d.count(place, player, entry) > 0:
                d.destroy(place, player, entry)
                lost[entry] = lost.get(entry, 0) + 1
                break
    where = place[1]
    events.append(event("hits", f"{player} takes {hits} hit(s) at {where} ({why}): "
                        f"destroyed {say(lost)}; damaged {say(hurt)}.", player=player,
                        place=where, hits=hits, destroyed=lost, damaged=hurt))


def cannon_offense(d: Draft, catalog: Catalog, system: str, active: str,
                   standing: Mapping[str, Standing], chance: Chance,
                   events: list[Event]) -> None:
    """Space cannon offense: every unit with space cannon within its range of ``system`` may
    fire at the other side's ships there; the non-active players fire at the active player's
    ships, the active player at theirs (ruling T11)."""
    for place in d.places():
        where = place[1] if place[0] == "space" else catalog.system_of(place[1])
        for player in d.players_at(place):
            if not standing.get(player, NO_STANDING).space_cannon:
                continue
            guns = {u: n for u, n in d.stack(place, player).items()
                    if (r := catalog.unit(u, player).space_cannon) is not None
                    and system in catalog.within(where, r.range)}
            targets = [p for p in ship_owners(d, catalog, system) if p != player
                       and (player == active or p == active)]
            for target in targets:
                hits = fire(d, catalog, chance, events, f"cannon:{system}:{place[1]}", place,
                            player, lambda s: s.space_cannon, "space cannon offense",
                            only=guns)
                assign(d, catalog, space(system), target, hits,
                       standing.get(target, NO_STANDING).hits, lambda s: s.ship, events,
                       f"space cannon of {player}")


def retreat_problem(d: Draft, catalog: Catalog, system: str, player: str, to: str) -> str | None:
    """Why ``player`` may not retreat from ``system`` to ``to`` (None: he may)."""
    if to not in catalog.galaxy.adjacent(system):
        return f"{to} is not adjacent to {system}"
    if catalog.galaxy.anomaly(to) in IMPASSABLE:
        return f"{to} is a {catalog.galaxy.anomaly(to)}"
    if any(p != player for p in ship_owners(d, catalog, to)):
        return f"{to} holds enemy ships"
    mine = d.stack(space(to), player) or any(
        d.owner.get(pid) == player or d.stack(planet(pid), player)
        for pid in catalog.planets_in(to))
    return None if mine else f"{to} has neither your units nor your planets"


def _retreat(d: Draft, catalog: Catalog, system: str, player: str, st: Standing,
             events: list[Event]) -> None:
    options = [*st.retreat_to, *sorted(catalog.galaxy.adjacent(system))]
    dest = next((s for s in options if retreat_problem(d, catalog, system, player, s) is None),
                None)
    if dest is None:
        events.append(event("retreat-skipped", f"{player} cannot retreat from {system}: no "
                            "adjacent system has his units or planets and no enemy ships; his "
                            "ships fight on.", player=player, system=system))
        return
    moved = d.stack(space(system), player)
    for uid, n in sorted(moved.items()):
        d.move(space(system), space(dest), player, uid, n)
    events.append(event("retreat", f"{player} retreats {say(moved)} from {system} to {dest}.",
                        player=player, system=system, dest=dest, units=moved))
    over = fleet_size(d, catalog, dest, player) - d.pool(player, "fleet")
    lost: Counts = {}
    for uid in sorted(moved, key=lambda u: (catalog.unit(u, player).cost or 0, u)):
        while over > 0 and catalog.unit(uid, player).in_fleet \
                and d.count(space(dest), player, uid):
            d.destroy(space(dest), player, uid)
            lost[uid] = lost.get(uid, 0) + 1
            over -= 1
    if lost:
        events.append(event("fleet-excess", f"{player} loses {say(lost)} in {dest}, beyond "
                            "his fleet pool after the retreat.", player=player, system=dest,
                            units=lost))
    remove_excess(d, catalog, dest, player, events, "after the retreat")


def remove_excess(d: Draft, catalog: Catalog, system: str, player: str, events: list[Event],
                  when: str) -> None:
    """Fighters and ground forces beyond capacity in ``system`` are removed (the seed)."""
    ground, fighters = capacity_excess(d, catalog, system, player)
    gone = {**ground, **fighters}
    for uid, n in gone.items():
        for _ in range(n):
            d.destroy(space(system), player, uid)
    if gone:
        events.append(event("excess", f"{player} loses {say(gone)} in {system}, beyond "
                            f"capacity {when}.", player=player, system=system, units=gone))


def _ship_count(d: Draft, catalog: Catalog, system: str, player: str) -> int:
    return sum(n for u, n in d.stack(space(system), player).items()
               if catalog.unit(u, player).ship)


def space_combat(d: Draft, catalog: Catalog, system: str, attacker: str, defender: str,
                 standing: Mapping[str, Standing], chance: Chance,
                 events: list[Event]) -> None:
    """Anti-fighter barrage, then rounds until one side has no ships left in ``system``: each
    round retreats are announced (defender first; the attacker only if the defender does
    not), both sides roll, hits are assigned, and an announced retreat is made (T13-T17)."""
    sides = (attacker, defender)
    here = space(system)
    events.append(event("space-combat", f"Space combat in {system}: {attacker} against "
                        f"{defender}.", system=system, attacker=attacker, defender=defender))
    afb = {p: fire(d, catalog, chance, events, f"afb:{system}", here, p, lambda s: s.afb,
                   "anti-fighter barrage") for p in sides}
    for p, foe in ((attacker, defender), (defender, attacker)):
        assign(d, catalog, here, foe, afb[p], standing.get(foe, NO_STANDING).hits,
               lambda s: s.fighter, events, "anti-fighter barrage")
    bonus = {attacker: 0, defender: 1 if catalog.galaxy.anomaly(system) == "nebula" else 0}
    for r in range(1, MAX_ROUNDS + 1):
        if not all(_ship_count(d, catalog, system, p) for p in sides):
            break
        leaving = None
        for p in (defender, attacker):
            st = standing.get(p, NO_STANDING)
            if st.retreat_at_most is not None \
                    and _ship_count(d, catalog, system, p) <= st.retreat_at_most:
                leaving = p
                events.append(event("retreat-announced", f"{p} announces a retreat from "
                                    f"{system} (round {r}).", player=p, system=system, round=r))
                break
        got = {p: fire(d, catalog, chance, events, f"combat:{system}:r{r}", here, p,
                       lambda s: s.combat if s.ship else None, f"space combat round {r}",
                       bonus=bonus[p]) for p in sides}
        for p, foe in ((attacker, defender), (defender, attacker)):
            assign(d, catalog, here, foe, got[p], standing.get(foe, NO_STANDING).hits,
                   lambda s: s.ship, events, f"space combat round {r}")
        if leaving is not None and _ship_count(d, catalog, system, leaving):
            _retreat(d, catalog, system, leaving, standing.get(leaving, NO_STANDING), events)
    if all(_ship_count(d, catalog, system, p) for p in sides):
        events.append(event("stalemate", f"The space combat in {system} stops after "
                            f"{MAX_ROUNDS} rounds with both sides in place.", system=system))
    for p in sides:
        remove_excess(d, catalog, system, p, events, "after the combat")
    left = [p for p in sides if _ship_count(d, catalog, system, p)]
    won = left[0] if len(left) == 1 else None
    events.append(event("space-combat-end", f"The space combat in {system} ends: "
                        + (f"{won} holds the system." if won else "no winner."),
                        system=system, winner=won))
