"""Objectives' predicates evaluated on (board, table) for one player (RULES.md T39-T40), and
the home-planets condition for public objectives. Pure reads.

``meets`` returns "" when the predicate holds, else a sentence saying why not. A ``spend``
objective is met when the player could pay it from his readied planets and trade goods; he
pays it when he scores it (the caller does).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import _Reads
from .movement import ship_owners
from .table import Table
from .units import Catalog

#: Predicates scored outside the status phase (v1 does not score them yet, T40).
LATER = ("win_space_combat", "win_ground_combat", "cast_votes")


def home_planets(pack: Mapping[str, Any], faction: str) -> list[str]:
    return list(pack["systems"][pack["factions"][faction]["home"]]["planets"])


def holds_home(board: _Reads, pack: Mapping[str, Any], faction: str, player: str) -> bool:
    """"You can only score public objectives if you control every planet in your home
    system.\""""
    return all(board.owner.get(pid) == player for pid in home_planets(pack, faction))


def _mine(board: _Reads, player: str) -> list[str]:
    return sorted(p for p, o in board.owner.items() if o == player)


def can_pay(board: _Reads, catalog: Catalog, table: Table, player: str, what: str) -> int:
    """What ``player`` could pay now: readied planets' ``what`` plus his trade goods."""
    ready = [p for p in _mine(board, player) if p not in board.exhausted]
    return sum(getattr(catalog.planets[p], what) for p in ready) \
        + table.players[player].trade_goods


def meets(test: Mapping[str, Any], board: _Reads, pack: Mapping[str, Any], catalog: Catalog,
          table: Table, player: str) -> str:
    name, n = test["test"], int(test.get("count") or 0)
    if name == "control_planets":
        found = [p for p in _mine(board, player)
                 if (not test.get("trait") or pack["planets"][p]["trait"] == test["trait"])
                 and (not test.get("specialty") or (pack["planets"][p]["specialty"]
                      is not None and test["specialty"] in ("any",
                                                            pack["planets"][p]["specialty"])))
                 and (not test.get("planet") or p == test["planet"])]
        return "" if len(found) >= n else f"you control {len(found)} such planets, not {n}"
    if name == "spend":
        for what in ("resources", "influence"):
            need = int(test.get(what) or 0)
            have = can_pay(board, catalog, table, player, what)
            if have < need:
                return f"you could pay {have} {what}, not {need}"
        need = int(test.get("trade_goods") or 0)
        have = table.players[player].trade_goods
        return "" if have >= need else f"you have {have} trade goods, not {need}"
    if name == "techs_of_colour":
        colours = [pack["technologies"][t]["colour"] for t in table.players[player].techs]
        if test.get("colours"):
            full = [c for c in set(colours) if c != "unit" and colours.count(c) >= n]
            need = int(test["colours"])
            return "" if len(full) >= need else f"{n} technologies in {need} colours needed"
        got = sum(1 for c in colours if test.get("colour") in ("any", c) and c != "unit")
        return "" if got >= n else f"you have {got} such technologies, not {n}"
    if name == "ships_in_systems":
        found = [s for s in sorted(catalog.galaxy.tiles)
                 if player in ship_owners(board, catalog, s) and _where(test, s, pack, catalog,
                                                                        table, player)]
        return "" if len(found) >= n else f"your ships are in {len(found)} such systems, not {n}"
    if name == "own_structures":
        got = sum(k for place, by in board.units.items() if place[0] == "planet"
                  for u, k in by.get(player, {}).items()
                  if catalog.unit(u, player).structure and test.get("unit") in (None, u))
        return "" if got >= n else f"you have {got} such structures, not {n}"
    return f"{name} is scored when it happens, not in the status phase (not in v1)"


def _where(test: Mapping[str, Any], system: str, pack: Mapping[str, Any], catalog: Catalog,
           table: Table, player: str) -> bool:
    tile = catalog.galaxy.tiles[system]
    if test.get("system") and system != test["system"]:
        return False
    if test.get("wormhole") and not (tile.wormholes and test["wormhole"] in
                                     ("any", *tile.wormholes)):
        return False
    if test.get("anomaly") and tile.anomaly != test["anomaly"]:
        return False
    near = test.get("adjacent_to")
    if near == "home-of-other":
        homes = {pack["factions"][f]["home"] for p, f in table.factions.items() if p != player}
        return any(h in catalog.galaxy.tiles and system in catalog.galaxy.adjacent(h)
                   for h in homes)
    if near:
        return near in catalog.galaxy.tiles and system in catalog.galaxy.adjacent(near)
    return True


