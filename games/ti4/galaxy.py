"""The galaxy: hex geometry, adjacency and movement legality (pure functions, RULES.md G1-G9).

Systems sit on hexes in axial coordinates ``(q, r)``, named in packs by the string ``"q,r"``.
A layout (pack ``layouts:``) is ``rings`` rings around the centre; its positions are numbered in
spiral order (``spiral``): the centre, then ring 1 clockwise from north, then ring 2, ...

Movement (the seed's tactical action, step 2, and the rulings G3-G9 where the seed stops): a
ship moves along a path of adjacent systems, one move per step; it may not leave a system that
holds its owner's command token, may not pass through a system holding enemy ships, enters an
asteroid field or supernova never, a nebula only as the active system (and starts out of one with
move 1), and gains +1 move for each gravity rift it leaves. ``reach`` finds every system a ship
can reach with a path; ``path_problems`` judges one given path.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pbem.errors import Problem

Hex = tuple[int, int]

#: Axial steps, clockwise from north (flat-topped hexes).
DIRS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
ANOMALIES = ("asteroid-field", "supernova", "nebula", "gravity-rift")
#: Anomalies no ship may enter (G5).
IMPASSABLE = frozenset({"asteroid-field", "supernova"})
WORMHOLES = ("alpha", "beta")


def key(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def parse(text: object) -> Hex | None:
    """``"q,r"`` -> (q, r); None if it is not a hex name."""
    if not isinstance(text, str):
        return None
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2:
        return None
    try:
        q, r = int(parts[0]), int(parts[1])
    except ValueError:
        return None
    return (q, r)


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in DIRS]


def ring(k: int) -> list[Hex]:
    """The hexes at distance ``k`` from the centre, clockwise from north (k >= 1)."""
    out: list[Hex] = []
    q, r = 0, -k
    for dq, dr in DIRS[2:] + DIRS[:2]:  # south-east first: clockwise from the north corner
        for _ in range(k):
            out.append((q, r))
            q, r = q + dq, r + dr
    return out


def spiral(rings: int) -> list[Hex]:
    """Every position of a galaxy of ``rings`` rings: centre, then ring 1, ring 2, ..."""
    out: list[Hex] = [(0, 0)]
    for k in range(1, rings + 1):
        out += ring(k)
    return out


@dataclass(frozen=True)
class Tile:
    """A system on the board: where it is, its wormholes, its anomaly (or None)."""

    at: Hex
    wormholes: frozenset[str] = frozenset()
    anomaly: str | None = None


@dataclass(frozen=True)
class Galaxy:
    """The board: system id -> tile. Adjacency is computed once."""

    tiles: Mapping[str, Tile]
    _adj: dict[str, frozenset[str]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        where = {t.at: sid for sid, t in self.tiles.items()}
        for sid, tile in self.tiles.items():
            near = {where[h] for h in neighbours(tile.at) if h in where}
            near |= {other for other, t in self.tiles.items()
                     if other != sid and tile.wormholes & t.wormholes}
            self._adj[sid] = frozenset(near)

    def adjacent(self, system: str) -> frozenset[str]:
        """Systems adjacent to ``system``: sharing an edge, or a wormhole of the same type (G1,
        G2). A system is never adjacent to itself."""
        return self._adj.get(system, frozenset())

    def anomaly(self, system: str) -> str | None:
        return self.tiles[system].anomaly


def from_layout(pack: Mapping[str, object], layout_id: str,
                homes: Sequence[str] | None = None) -> Galaxy:
    """The galaxy of a checked pack's layout; ``homes`` are the home systems in the order of the
    layout's home positions (default: the pack's home systems in pack order)."""
    layouts = pack["layouts"]
    systems = pack["systems"]
    assert isinstance(layouts, Mapping) and isinstance(systems, Mapping)
    layout = layouts[layout_id]
    home_at = [parse(h) for h in layout["homes"]]
    if homes is None:
        homes = [sid for sid, s in systems.items() if s.get("home")][:len(home_at)]
    placed: dict[Hex, str] = {(0, 0): layout["centre"]}
    placed.update({h: sid for h, sid in zip(home_at, homes, strict=True) if h is not None})
    fill = iter(layout["systems"])
    for h in spiral(layout["rings"]):
        if h not in placed:
            placed[h] = next(fill)
    return Galaxy({sid: Tile(h, frozenset(systems[sid].get("wormholes") or ()),
                             systems[sid].get("anomaly"))
                   for h, sid in placed.items()})


@dataclass(frozen=True)
class Situation:
    """What movement needs to know of the board for one player: systems holding enemy ships and
    systems holding that player's command tokens."""

    enemy: frozenset[str] = frozenset()
    tokens: frozenset[str] = frozenset()

    @staticmethod
    def of(enemy: Iterable[str] = (), tokens: Iterable[str] = ()) -> Situation:
        return Situation(frozenset(enemy), frozenset(tokens))


#: An empty board: no enemy ships, no command tokens.
CLEAR = Situation()


def budget(galaxy: Galaxy, start: str, move: int) -> int:
    """A ship's move value for this movement: 1 out of a nebula (G6), else its own."""
    return min(move, 1) if galaxy.anomaly(start) == "nebula" else move


def _cost(galaxy: Galaxy, left: str) -> int:
    """What a step out of ``left`` costs: 0 out of a gravity rift (its +1, G7), else 1."""
    return 0 if galaxy.anomaly(left) == "gravity-rift" else 1


def _may_pass(galaxy: Galaxy, system: str, here: Situation) -> bool:
    """May a ship move through ``system`` (enter it and leave it again)?"""
    return (galaxy.anomaly(system) not in IMPASSABLE | {"nebula"}
            and system not in here.enemy and system not in here.tokens)


def _may_end(galaxy: Galaxy, system: str, here: Situation) -> bool:
    """May ``system`` be the active system a ship moves into?"""
    return galaxy.anomaly(system) not in IMPASSABLE and system not in here.tokens


def reach(galaxy: Galaxy, start: str, move: int, here: Situation = CLEAR) \
        -> dict[str, list[str]]:
    """Every system a ship of move ``move`` in ``start`` can move into as the active system,
    with one legal path to it (``[start, ..., system]``). Empty if the ship may not move."""
    if move < 1 or start in here.tokens or start not in galaxy.tiles:
        return {}
    limit = budget(galaxy, start, move)
    best: dict[str, int] = {start: 0}
    back: dict[str, str] = {}
    queue: list[tuple[int, str]] = [(0, start)]
    found: dict[str, int] = {}
    found_from: dict[str, str] = {}
    while queue:
        spent, at = heapq.heappop(queue)
        if spent > best.get(at, limit + 1):
            continue
        step = _cost(galaxy, at)
        for nxt in sorted(galaxy.adjacent(at)):
            total = spent + step
            if total > limit or nxt == start:
                continue
            if _may_end(galaxy, nxt, here) and total < found.get(nxt, limit + 1):
                found[nxt], found_from[nxt] = total, at
            if _may_pass(galaxy, nxt, here) and total < best.get(nxt, limit + 1):
                best[nxt], back[nxt] = total, at
                heapq.heappush(queue, (total, nxt))
    out: dict[str, list[str]] = {}
    for dest in sorted(found):
        path = [dest, found_from[dest]]
        while path[-1] != start:
            path.append(back[path[-1]])
        out[dest] = path[::-1]
    return out


def path_problems(galaxy: Galaxy, path: Sequence[str], move: int,
                  here: Situation = CLEAR) -> list[Problem]:
    """Every reason ``path`` (``[start, ..., active system]``) is not a legal movement for a ship
    of move ``move``; each problem's path is ``path[i]``. Empty: legal."""
    out: list[Problem] = []
    if len(path) < 2:
        return [Problem("path-short", "path", "a path names the start and at least one more "
                        "system")]
    for i, sid in enumerate(path):
        if sid not in galaxy.tiles:
            out.append(Problem("path-system", f"path[{i}]", f"no system {sid!r} on the board"))
    if out:
        return out
    start, dest = path[0], path[-1]
    if start in here.tokens:
        out.append(Problem("path-token", "path[0]", f"{start} holds your command token: "
                           "ships may not leave it"))
    if move < 1:
        out.append(Problem("path-move", "path[0]", "a unit with move 0 does not move"))
    for i in range(1, len(path)):
        if path[i] not in galaxy.adjacent(path[i - 1]):
            out.append(Problem("path-adjacent", f"path[{i}]",
                               f"{path[i]} is not adjacent to {path[i - 1]}"))
        if path[i] == start:
            out.append(Problem("path-loop", f"path[{i}]", "a path does not come back to its "
                               "start"))
    for i, sid in enumerate(path[1:-1], start=1):
        anomaly = galaxy.anomaly(sid)
        if anomaly in IMPASSABLE:
            out.append(Problem("path-anomaly", f"path[{i}]", f"{sid} is a {anomaly}: no ship "
                               "enters it"))
        elif anomaly == "nebula":
            out.append(Problem("path-nebula", f"path[{i}]", f"{sid} is a nebula: ships enter "
                               "one only as the active system"))
        if sid in here.enemy:
            out.append(Problem("path-blocked", f"path[{i}]", f"{sid} holds enemy ships: no "
                               "moving through it"))
        if sid in here.tokens:
            out.append(Problem("path-token", f"path[{i}]", f"{sid} holds your command token: "
                               "ships may not leave it"))
    if galaxy.anomaly(dest) in IMPASSABLE:
        out.append(Problem("path-anomaly", f"path[{len(path) - 1}]",
                           f"{dest} is a {galaxy.anomaly(dest)}: no ship enters it"))
    if dest in here.tokens:
        out.append(Problem("path-token", f"path[{len(path) - 1}]", f"{dest} already holds your "
                           "command token: it cannot be the active system"))
    spent = sum(_cost(galaxy, sid) for sid in path[:-1])
    limit = budget(galaxy, start, move)
    if move >= 1 and spent > limit:
        out.append(Problem("path-long", "path", f"the path costs {spent} moves (gravity rifts "
                           f"left count 0), the ship has {limit}"))
    return out
