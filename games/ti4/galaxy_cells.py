"""What each system of the galaxy shows, decided once from the pack and a view's public parts
(``board``, ``table``): the model both drawings read (galaxy_svg, galaxy_text).

A ``Cell`` is one system: where it sits (axial hex, ring), its anomaly and wormholes, whose home
it is, the centre; its planets (resources, influence, owner, exhausted, the units on them); the
ships in its space by owner (counts per unit kind, damaged ones counted); the command tokens on
it; who locked it this round. Nothing here reads a view's ``you`` part: the board is public in
v1 (no fog of war), so every reader's drawing is the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .galaxy import from_layout, spiral

#: Power colours: a seat named for a colour gets it, others the palette in seat order.
NAMED = {"red": "#dc2626", "blue": "#2563eb", "green": "#16a34a", "yellow": "#ca8a04",
         "purple": "#9333ea", "orange": "#ea580c", "black": "#111827", "pink": "#db2777",
         "white": "#64748b", "brown": "#92400e"}
PALETTE = ("#dc2626", "#2563eb", "#16a34a", "#ca8a04", "#9333ea", "#ea580c", "#0891b2",
           "#db2777")
ANOMALY_WORDS = {"asteroid-field": "asteroid field", "supernova": "supernova",
                 "nebula": "nebula", "gravity-rift": "gravity rift"}
WORMHOLE_MARKS = {"alpha": "\u03b1", "beta": "\u03b2"}


@dataclass(frozen=True, slots=True)
class Stack:
    """One owner's units at one place: ``units`` as ``(unit, count, damaged)``."""

    power: str
    units: tuple[tuple[str, int, int], ...]


@dataclass(frozen=True, slots=True)
class PlanetCell:
    id: str
    resources: int
    influence: int
    owner: str | None
    exhausted: bool
    trait: str | None
    specialty: str | None
    ground: tuple[Stack, ...]


@dataclass(frozen=True, slots=True)
class Cell:
    system: str
    at: tuple[int, int]
    ring: int
    anomaly: str | None
    wormholes: tuple[str, ...]
    home_of: str | None
    centre: bool
    planets: tuple[PlanetCell, ...]
    ships: tuple[Stack, ...]
    tokens: tuple[str, ...]
    locked_by: str | None


def seats(view: Mapping[str, Any]) -> list[str]:
    """The powers in seat order (before the deal, when the view has no table yet: the
    ``powers`` in the view's order, which is seat order)."""
    table = view.get("table")
    return list(table["seats"]) if table else list(view.get("powers") or ())


def factions(view: Mapping[str, Any]) -> dict[str, str]:
    """Each power's faction: the table's; before the deal the pack's factions in pack order,
    as set-up assigns them (games/ti4/STATE.md)."""
    table = view.get("table")
    if table:
        return dict(table["factions"])
    order = list(view["pack"]["factions"])
    powers = view.get("powers") or {}
    return {p: str((powers.get(p) or {}).get("faction") or order[i])
            for i, p in enumerate(seats(view))}


def colours(view: Mapping[str, Any]) -> dict[str, str]:
    """Each power's colour (the same in every drawing and the archive)."""
    out = {}
    for i, p in enumerate(seats(view)):
        out[p] = NAMED.get(p.lower(), PALETTE[i % len(PALETTE)])
    return out


def names(view: Mapping[str, Any]) -> dict[str, str]:
    """``red (Aurel Compact)``: each power with its faction's name."""
    fac = view["pack"]["factions"]
    return {p: f"{p} ({fac[f]['name']})" if f in fac and fac[f].get("name") else p
            for p, f in factions(view).items()}


def homes(view: Mapping[str, Any]) -> list[str]:
    """The home systems in the layout's home-position order: each seat's faction's home, in
    seat order (set-up places them so: games/ti4/STATE.md)."""
    fac = factions(view)
    return [view["pack"]["factions"][fac[p]]["home"] for p in seats(view)]


def abbreviations(pack: Mapping[str, Any]) -> dict[str, str]:
    """Each unit's shortest prefix no other unit shares (``frigate`` -> ``f``, ``tender`` ->
    ``te``, ``trooper`` -> ``tr``)."""
    ids = sorted(pack["units"])
    out = {}
    for uid in ids:
        n = 1
        while n < len(uid) and any(o != uid and o.startswith(uid[:n]) for o in ids):
            n += 1
        out[uid] = uid[:n]
    return out


def _stacks(by: Mapping[str, Mapping[str, int]], hurt: Mapping[str, Mapping[str, int]],
            order: Sequence[str]) -> tuple[Stack, ...]:
    out = []
    for p in sorted(by, key=lambda x: (order.index(x) if x in order else len(order), x)):
        units = tuple((u, int(n), int((hurt.get(p) or {}).get(u, 0)))
                      for u, n in sorted(by[p].items()) if n)
        if units:
            out.append(Stack(p, units))
    return tuple(out)


def cells(view: Mapping[str, Any]) -> list[Cell]:
    """Every system of the view's galaxy, in spiral order (centre, ring 1 clockwise from
    north, ring 2, ...)."""
    pack = view["pack"]
    board, table = view.get("board") or {}, view.get("table") or {}
    variant = str(view["variant"])
    layout = pack["layouts"][variant]
    home_list = homes(view)
    galaxy = from_layout(pack, variant, home_list)
    at_hex = {t.at: sid for sid, t in galaxy.tiles.items()}
    order = seats(view)
    home_owner = dict(zip(home_list, order, strict=False))
    space = board.get("space") or {}
    on_planets = board.get("planets") or {}
    damaged = board.get("damaged") or {}
    owner = board.get("owner") or {}
    exhausted = set(board.get("exhausted") or ())
    tokens = board.get("tokens") or {}
    locked = table.get("locked") or {}
    out = []
    for h in spiral(int(layout["rings"])):
        sid = at_hex[h]
        system = pack["systems"][sid]
        planets = []
        for pid in system.get("planets") or ():
            p = pack["planets"][pid]
            planets.append(PlanetCell(
                pid, int(p["resources"]), int(p["influence"]), owner.get(pid),
                pid in exhausted, p.get("trait"), p.get("specialty"),
                _stacks(on_planets.get(pid) or {}, (damaged.get("planets") or {}).get(pid) or {},
                        order)))
        ring = max(abs(h[0]), abs(h[1]), abs(h[0] + h[1]))
        out.append(Cell(sid, h, ring, system.get("anomaly"),
                        tuple(system.get("wormholes") or ()), home_owner.get(sid),
                        h == (0, 0), tuple(planets),
                        _stacks(space.get(sid) or {}, (damaged.get("space") or {}).get(sid) or {},
                                order),
                        tuple(sorted(tokens.get(sid) or (),
                                     key=lambda x: (order.index(x) if x in order else 99, x))),
                        locked.get(sid)))
    return out


def units_text(stack: Stack, abbr: Mapping[str, str]) -> str:
    """``2f 1te 3w`` (a damaged one: ``2f(1d)``)."""
    return " ".join(f"{n}{abbr.get(u, u)}" + (f"({d}d)" if d else "")
                    for u, n, d in stack.units)


def units_words(stack: Stack) -> str:
    """``2 frigate, 1 tender`` (``, 1 damaged`` after a kind with damaged units)."""
    return ", ".join(f"{n} {u}" + (f" ({d} damaged)" if d else "") for u, n, d in stack.units)
