"""What the tactical action reads of a checked pack: unit specs, planets, the galaxy (RULES.md T1).

``Catalog.from_pack(pack, layout)`` turns a checked pack (games/ti4/pack.py) and one of its
layouts into typed, frozen facts: ``UnitSpec`` per unit (with a per-player override, the way a
unit upgrade replaces fields), ``Planet`` per planet, which system holds which planet, and the
``Galaxy``. Pure: no I/O beyond what the caller loaded.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .galaxy import Galaxy, from_layout


@dataclass(frozen=True)
class Roll:
    """A unit's roll: ``dice`` d10, each a hit at ``value`` or above."""

    value: int
    dice: int
    range: int = 0
    ignores_shield: bool = False


def _roll(data: Any) -> Roll | None:
    if data is None:
        return None
    return Roll(int(data["value"]), int(data["dice"]), int(data.get("range", 0)),
                bool(data.get("ignores_shield", False)))


@dataclass(frozen=True)
class UnitSpec:
    """One unit's fields (pack.UNIT_FIELDS)."""

    id: str
    kind: str
    cost: float | None = None
    combat: Roll | None = None
    move: int = 0
    capacity: int = 0
    production: int | None = None
    plus_resources: bool = False
    sustain: bool = False
    afb: Roll | None = None
    bombardment: Roll | None = None
    space_cannon: Roll | None = None
    planetary_shield: bool = False
    needs_capacity: bool = False
    limit: int = 0

    @property
    def ship(self) -> bool:
        return self.kind == "ship"

    @property
    def fighter(self) -> bool:
        """A ship that rides in capacity (the seed's fighters)."""
        return self.kind == "ship" and self.needs_capacity

    @property
    def ground(self) -> bool:
        return self.kind == "ground"

    @property
    def structure(self) -> bool:
        return self.kind == "structure"

    @property
    def in_fleet(self) -> bool:
        """Counts against the fleet pool: a ship that is not a fighter."""
        return self.kind == "ship" and not self.needs_capacity

    @property
    def two_for_one(self) -> bool:
        """Built two for one (cost 0.5): the seed's fighters and infantry, which use tokens
        beyond the plastic, so no plastic limit holds them (ruling T4)."""
        return self.cost == 0.5

    @staticmethod
    def of(uid: str, data: Mapping[str, Any]) -> UnitSpec:
        prod = data.get("production")
        return UnitSpec(
            id=uid, kind=str(data["kind"]), cost=data.get("cost"),
            combat=_roll(data.get("combat")), move=int(data.get("move") or 0),
            capacity=int(data.get("capacity") or 0),
            production=None if prod is None else int(prod["value"]),
            plus_resources=bool(prod and prod.get("plus_resources")),
            sustain=bool(data.get("sustain")), afb=_roll(data.get("afb")),
            bombardment=_roll(data.get("bombardment")),
            space_cannon=_roll(data.get("space_cannon")),
            planetary_shield=bool(data.get("planetary_shield")),
            needs_capacity=bool(data.get("needs_capacity")), limit=int(data.get("limit") or 0))

    def overridden(self, fields: Mapping[str, Any]) -> UnitSpec:
        """This unit with some pack fields replaced (a unit upgrade's ``unit_override``)."""
        merged = {**self._data(), **fields}
        return UnitSpec.of(self.id, merged)

    def _data(self) -> dict[str, Any]:
        def roll(r: Roll | None) -> dict[str, Any] | None:
            return None if r is None else {"value": r.value, "dice": r.dice, "range": r.range,
                                           "ignores_shield": r.ignores_shield}
        return {"kind": self.kind, "cost": self.cost, "combat": roll(self.combat),
                "move": self.move, "capacity": self.capacity,
                "production": None if self.production is None else
                {"value": self.production, "plus_resources": self.plus_resources},
                "sustain": self.sustain, "afb": roll(self.afb),
                "bombardment": roll(self.bombardment), "space_cannon": roll(self.space_cannon),
                "planetary_shield": self.planetary_shield,
                "needs_capacity": self.needs_capacity, "limit": self.limit}


@dataclass(frozen=True)
class Planet:
    id: str
    system: str
    resources: int
    influence: int


def cost_of(units: Mapping[str, int], specs: Mapping[str, UnitSpec]) -> int:
    """Resources to build ``units``: two-for-one units cost 1 a pair, an odd one 1 too."""
    total = sum(n * (specs[u].cost or 0) for u, n in units.items())
    return math.ceil(total)


@dataclass(frozen=True)
class Catalog:
    """The fixed facts a tactical action reads: galaxy, units, planets."""

    galaxy: Galaxy
    units: Mapping[str, UnitSpec]
    planets: Mapping[str, Planet]
    overrides: Mapping[str, Mapping[str, UnitSpec]] = field(default_factory=dict)

    def unit(self, uid: str, player: str | None = None) -> UnitSpec:
        """The unit as ``player`` fields it (an upgrade of his replaces the pack's)."""
        if player is not None and uid in self.overrides.get(player, {}):
            return self.overrides[player][uid]
        return self.units[uid]

    def specs(self, player: str) -> dict[str, UnitSpec]:
        return {uid: self.unit(uid, player) for uid in self.units}

    def planets_in(self, system: str) -> list[str]:
        return sorted(p for p, planet in self.planets.items() if planet.system == system)

    def system_of(self, planet: str) -> str:
        return self.planets[planet].system

    def within(self, system: str, steps: int) -> set[str]:
        """Systems at most ``steps`` adjacency steps from ``system`` (itself included)."""
        seen, edge = {system}, {system}
        for _ in range(steps):
            edge = {n for s in edge for n in self.galaxy.adjacent(s)} - seen
            seen |= edge
        return seen

    @staticmethod
    def from_pack(pack: Mapping[str, Any], layout: str, homes: Sequence[str] | None = None,
                  upgrades: Mapping[str, Mapping[str, Mapping[str, Any]]] | None = None) \
            -> Catalog:
        """The catalog of a checked pack's layout; ``upgrades`` maps a player to unit field
        overrides (player -> unit -> fields)."""
        galaxy = from_layout(pack, layout, homes)
        units = {uid: UnitSpec.of(uid, data) for uid, data in pack["units"].items()}
        planets = {pid: Planet(pid, sid, int(pack["planets"][pid]["resources"]),
                               int(pack["planets"][pid]["influence"]))
                   for sid in galaxy.tiles for pid in pack["systems"][sid]["planets"]}
        overrides = {player: {uid: units[uid].overridden(fields)
                              for uid, fields in ups.items()}
                     for player, ups in (upgrades or {}).items()}
        return Catalog(galaxy, units, planets, overrides)
