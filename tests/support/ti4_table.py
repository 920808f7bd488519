"""TI4 tactical-action helpers shared by tests/games/ti4/: scripted d10s by label, a small
strip galaxy with the stand-in pack's units, and boards written as a few lines of data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.ti4 import pack
from games.ti4.board import Board
from games.ti4.galaxy import Galaxy, Tile
from games.ti4.units import Catalog, Planet, UnitSpec


class _Stream:
    def __init__(self, dice: Dice, label: str) -> None:
        self.dice, self.label = dice, label

    def below(self, n: int) -> int:
        return self.roll(range(n), 1)[0]

    def roll(self, faces: Sequence[int], count: int = 1) -> list[int]:
        self.dice.used.append(self.label)
        queue = self.dice.script.get(self.label)
        if queue is None:
            return [self.dice.default] * count
        if len(queue) < count:
            raise AssertionError(f"the script for {self.label} has {len(queue)} dice, "
                                 f"{count} drawn")
        out, self.dice.script[self.label] = queue[:count], queue[count:]
        return out

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        return list(items)


class Dice:
    """Scripted chance: ``script`` maps a draw's label to the d10 results it shows, in order;
    any other label shows ``default`` on every die. ``used`` lists the labels drawn."""

    def __init__(self, script: Mapping[str, list[int]] | None = None, default: int = 1) -> None:
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.default = default
        self.used: list[str] = []

    def public(self, label: str) -> _Stream:
        return _Stream(self, label)

    def secret(self, label: str) -> _Stream:
        return _Stream(self, label)


#: A strip of systems A-B-C-D-E on one row; F sits below B and C (adjacent to both).
STRIP = {"A": (0, 0), "B": (1, 0), "C": (2, 0), "D": (3, 0), "E": (4, 0), "F": (1, 1)}
#: planet -> (system, resources, influence)
PLANETS = {"pa": ("A", 2, 1), "pc": ("C", 1, 1), "pd": ("D", 3, 0), "pd2": ("D", 0, 2),
           "pf": ("F", 1, 1)}


def strip_catalog(anomalies: Mapping[str, str] | None = None,
                  overrides: Mapping[str, Mapping[str, UnitSpec]] | None = None) -> Catalog:
    """The strip galaxy with the stand-in pack's units (wing, picket, frigate, tender, bastion,
    citadel, trooper, battery, yard)."""
    anomalies = anomalies or {}
    galaxy = Galaxy({s: Tile(h, frozenset(), anomalies.get(s)) for s, h in STRIP.items()})
    units = {u: UnitSpec.of(u, d) for u, d in pack.standin()["units"].items()}
    planets = {p: Planet(p, s, r, i) for p, (s, r, i) in PLANETS.items()}
    return Catalog(galaxy, units, planets, overrides or {})


def board(space: Mapping[str, Mapping[str, Mapping[str, int]]] | None = None,
          planets: Mapping[str, Mapping[str, Mapping[str, int]]] | None = None,
          owner: Mapping[str, str] | None = None, tokens: Mapping[str, list[str]] | None = None,
          pools: Mapping[str, Mapping[str, int]] | None = None,
          damaged: Mapping[str, Any] | None = None) -> Board:
    """A board from its canonical parts; every player named gets pools 3/3/2 unless given."""
    named = {p for by in (*(space or {}).values(), *(planets or {}).values()) for p in by}
    named |= set((owner or {}).values())
    full = {p: {"tactic": 3, "fleet": 3, "strategy": 2} for p in sorted(named)}
    full.update({p: dict(v) for p, v in (pools or {}).items()})
    return Board.from_data({"space": space or {}, "planets": planets or {},
                            "owner": owner or {}, "tokens": tokens or {}, "pools": full,
                            "damaged": damaged or {}})


#: The table side (games/ti4/table.py and the phases): seats and factions by player count.
SEATS = ("red", "blue", "green", "yellow", "white", "black")
FACTION_OF = {"red": "aurel", "blue": "brannock", "green": "cassiel", "yellow": "drummond",
              "white": "esker", "black": "fallow"}
LAYOUT_OF = {3: "small-3", 4: "small-4", 5: "large-5", 6: "large-6"}


def table_game(players: int = 4, chance: Any = None) -> tuple[dict[str, Any], Catalog, Board,
                                                                Any]:
    """A real stand-in game at set-up: (pack, catalog, board, table); the red player speaks.
    The catalog counts each faction's traits and starting technologies (RULES.md T73).
    The decks are in pack order unless ``chance`` shuffles them."""
    from games.ti4 import traits
    from games.ti4.board import start
    from games.ti4.table import set_up

    data = pack.standin()
    seats = SEATS[:players]
    factions = {p: FACTION_OF[p] for p in seats}
    homes = [data["factions"][factions[p]]["home"] for p in seats]
    fields = {p: traits.unit_fields(data, factions[p], data["factions"][factions[p]]["techs"])
              for p in seats}
    cat = Catalog.from_pack(data, LAYOUT_OF[players], homes, fields)
    return data, cat, start(data, cat, factions), set_up(data, seats, factions, "red",
                                                         chance or Dice())
