"""The star field: sectors, stars, resources and journey lengths (rulebook: "The Playing Board",
"Calculating the Journey's Length")."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import Any

import yaml

from pbem.errors import PbemError, Problem
from pbem.game import Record, datafile

HERE = Path(__file__).resolve().parent


class BoardError(PbemError):
    """The board file is malformed."""


class UnknownStar(PbemError):
    """A star name that is not on the board; the message suggests the closest names."""

    def __init__(self, name: str, suggestions: list[str]) -> None:
        self.name = name
        self.suggestions = suggestions
        hint = f" — did you mean {' or '.join(suggestions)}?" if suggestions else ""
        super().__init__(f'no star named "{name}"{hint}')


class Sector(Record):
    __slots__ = ("area", "level", "row", "col", "depth")
    area: str
    level: str  # "yellow" (upper) or "red" (lower)
    row: int
    col: int
    depth: int  # 0 upper, 1 lower

    def __init__(self, area: str, level: str, row: int, col: int, depth: int) -> None:
        object.__setattr__(self, "area", area)
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "row", row)
        object.__setattr__(self, "col", col)
        object.__setattr__(self, "depth", depth)

    @property
    def name(self) -> str:
        return f"{self.area}-{self.level}"


class Star(Record):
    __slots__ = ("name", "sector", "circle", "cross")
    name: str
    sector: Sector
    circle: bool
    cross: bool

    def __init__(self, name: str, sector: Sector, circle: bool, cross: bool) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "sector", sector)
        object.__setattr__(self, "circle", circle)
        object.__setattr__(self, "cross", cross)

    @property
    def symbols(self) -> str:
        return ("○" if self.circle else "") + ("+" if self.cross else "")


class Board:
    """An immutable star field with the rulebook's distance rule."""

    def __init__(self, data: dict[str, Any], source: str = "board") -> None:
        try:
            areas = data["areas"]
            levels = data["levels"]
            sectors = data["sectors"]
        except (KeyError, TypeError) as exc:
            raise BoardError(f"{source}: missing {exc}") from None
        if len(levels) != 2:
            raise BoardError(f"{source}: levels must name the upper and lower level")
        self.reconstruction = bool(data.get("reconstruction", False))
        self.areas: list[list[str]] = [list(map(str, row)) for row in areas]
        self.levels: list[str] = list(map(str, levels))
        self.sectors: dict[str, Sector] = {}
        for r, row in enumerate(self.areas):
            for c, area in enumerate(row):
                for d, level in enumerate(self.levels):
                    sec = Sector(area, level, r, c, d)
                    self.sectors[sec.name] = sec
        self.stars: dict[str, Star] = {}
        self.by_sector: dict[str, list[Star]] = {name: [] for name in self.sectors}
        for sec_name in sectors:
            if sec_name not in self.sectors:
                raise BoardError(f"{source}: sectors.{sec_name}: no such sector")
        # Grid order, and each sector's stars as listed: the same Board whatever order the
        # sector keys come in (canonical JSON sorts them; the state keeps stars as lists).
        for sec_name in self.sectors:
            for star_name, resources in _star_pairs(sectors.get(sec_name)):
                res = set(resources or [])
                unknown = res - {"circle", "cross"}
                if unknown:
                    raise BoardError(
                        f"{source}: sectors.{sec_name}.{star_name}: unknown resource "
                        f"{sorted(unknown)[0]!r} (use circle or cross)"
                    )
                if star_name in self.stars:
                    raise BoardError(f"{source}: star {star_name} appears twice")
                star = Star(str(star_name), self.sectors[sec_name], "circle" in res, "cross" in res)
                self.stars[star.name] = star
                self.by_sector[sec_name].append(star)
        self._folded = {name.casefold(): name for name in self.stars}

    # Distances never change: each table is computed once, when first asked for, so replays and
    # views only look them up, and a process that only judges an order file (pbem ingest: star
    # names and journey lengths) computes neither (~4 M instructions, callgrind).
    @cached_property
    def _furthest(self) -> dict[str, int]:
        return {name: max(self.sector_distance(sec, other) for other in self.sectors.values())
                for name, sec in self.sectors.items()}

    @cached_property
    def _at(self) -> dict[tuple[str, int], list[str]]:
        at: dict[tuple[str, int], list[str]] = {}
        for name, origin in self.sectors.items():
            for star in self.stars.values():
                key = (name, self.sector_distance(origin, star.sector))
                at.setdefault(key, []).append(star.name)
        return at

    @cached_property
    def max_distance(self) -> int:
        """The longest journey on the board."""
        return max(self._furthest.values())

    # -- names -------------------------------------------------------------------------------
    def lookup(self, name: str) -> Star:
        """The star called ``name`` (case-insensitive); UnknownStar suggests close names."""
        canonical = self._folded.get(str(name).strip().casefold())
        if canonical is None:
            raise UnknownStar(str(name), self.suggest(str(name)))
        return self.stars[canonical]

    def suggest(self, name: str, n: int = 2) -> list[str]:
        import difflib  # (a suggestion for a mistyped name only: not at import)

        close = difflib.get_close_matches(name.casefold(), list(self._folded), n=n, cutoff=0.6)
        return [self._folded[c] for c in close]

    def sector(self, name: str) -> Sector:
        try:
            return self.sectors[name]
        except KeyError:
            raise BoardError(f"no sector named {name!r}") from None

    # -- distances ---------------------------------------------------------------------------
    @staticmethod
    def sector_distance(a: Sector, b: Sector) -> int:
        """Sectors counted from a to b, both included, never diagonally; same sector = 1."""
        return abs(a.row - b.row) + abs(a.col - b.col) + abs(a.depth - b.depth) + 1

    def distance(self, a: str, b: str) -> int:
        """Journey length in turns between two stars (names case-insensitive)."""
        return self.sector_distance(self.lookup(a).sector, self.lookup(b).sector)

    def furthest(self, sector: str | Sector) -> int:
        """Distance to the furthest sector of the board from ``sector``: a warp that travels
        further than this loses its ships."""
        return self._furthest[sector if isinstance(sector, str) else sector.name]

    def stars_at(self, sector: str, distance: int) -> list[str]:
        """Every star exactly ``distance`` turns from ``sector``, in board order."""
        if sector not in self.sectors:
            raise BoardError(f"no sector named {sector!r}")
        return list(self._at.get((sector, distance), []))

    def other_star(self, star: str) -> str | None:
        """The other star of the same sector (where a tied arrival may come out instead)."""
        s = self.lookup(star)
        others = [o.name for o in self.by_sector[s.sector.name] if o.name != s.name]
        return others[0] if others else None


def _star_pairs(stars: Any) -> list[tuple[str, Any]]:
    """A sector's stars as (name, resources) pairs: from a board file's mapping or from the
    state's list of [name, resources] (which keeps their order through canonical JSON)."""
    if not stars:
        return []
    if isinstance(stars, Mapping):
        return list(stars.items())
    return [(str(pair[0]), pair[1]) for pair in stars]


def normal_form(data: Mapping[str, Any]) -> dict[str, Any]:
    """A checked board file as the state records it: sectors in grid order, each a list of
    [star, resources] so the star order survives canonical JSON (which sorts mapping keys)."""
    board = Board(dict(data))
    return {
        "reconstruction": board.reconstruction,
        "areas": board.areas,
        "levels": board.levels,
        "sectors": {
            name: [[s.name, [r for r in ("circle", "cross") if getattr(s, r)]] for s in stars]
            for name, stars in board.by_sector.items()
        },
    }


def load_board(path: Path) -> Board:
    return Board(load_board_data(path), source=str(path))


def load_board_data(path: Path) -> dict[str, Any]:
    """A board file as JSON data (the component pack 4000 A.D. records in each game)."""
    try:
        data = datafile.load(path)
    except (OSError, yaml.YAMLError) as exc:
        raise BoardError(f"{path}: {exc}") from None
    if not isinstance(data, dict):
        raise BoardError(f"{path}: a board file is a mapping (areas, levels, sectors)")
    out: dict[str, Any] = json.loads(json.dumps(data))
    return out


@cache
def default_board_data() -> dict[str, Any]:
    """The project's stand-in board (board.yaml beside this module): the default pack of new
    games. A running game never reads it: it plays on the board recorded in its state."""
    return load_board_data(HERE / "board.yaml")


@cache
def default_board() -> Board:
    return Board(default_board_data(), source=str(HERE / "board.yaml"))


@lru_cache(maxsize=16)
def _board_of(encoded: str) -> Board:
    return Board(json.loads(encoded), source="the game's board")


_LAST: list[tuple[Mapping[str, Any], Board]] = []


def board_of(data: Mapping[str, Any] | None) -> Board:
    """The Board for recorded board data (a state's or a view's ``board``); games and views
    made before boards were recorded (no data) use the stand-in board.

    The same board mapping is asked for many times per state (every view, check and
    resolution); states are never mutated, so the last mapping seen is remembered by identity
    (holding it, so its id cannot be reused) and only a new one is encoded for the cache."""
    if data is None:
        return default_board()
    if _LAST and _LAST[0][0] is data:
        return _LAST[0][1]
    board = _board_of(json.dumps(data, sort_keys=True))
    _LAST[:] = [(data, board)]
    return board


# The placements both rulebooks fix (board.yaml's header); a typed-in printed board must keep them.
FIXED_PLACEMENTS = {
    "Algol": "A-yellow", "Regulus": "C-yellow", "Markab": "C-yellow", "Adhara": "C-red",
    "Hamal": "D-yellow", "Mira": "D-red", "Rigel": "B-red", "Alkaid": "I-yellow",
    "Pavo": "J-red", "Vega": "K-yellow", "Antares": "L-red",
}
STARS_PER_SECTOR = 2


def board_problems(data: Any) -> list[Problem]:
    """Every problem of a board (component pack) file, each with its path: unlike Board(),
    which stops at the first, this lists them all for an owner typing in the printed board."""
    out: list[Problem] = []

    def bad(path: str, message: str) -> None:
        out.append(Problem("board", path, message))

    if not isinstance(data, Mapping):
        bad("", "a board is a mapping with areas, levels and sectors")
        return out
    for key in ("areas", "levels", "sectors"):
        if key not in data:
            bad(key, "missing")
    areas, levels, sectors = data.get("areas"), data.get("levels"), data.get("sectors")
    names: set[str] = set()
    if "areas" in data:
        if not isinstance(areas, list) or not all(isinstance(r, list) and r for r in areas):
            bad("areas", "a list of rows, each a non-empty list of area names")
        else:
            for r, row in enumerate(areas):
                for c, area in enumerate(row):
                    if not isinstance(area, str) or not area:
                        bad(f"areas[{r}][{c}]", f"an area name is text, not {area!r}")
                    elif area in names:
                        bad(f"areas[{r}][{c}]", f"area {area} appears twice")
                    names.add(str(area))
    if "levels" in data and (not isinstance(levels, list) or len(levels) != 2
                             or not all(isinstance(x, str) and x for x in levels)):
        bad("levels", "two level names, the upper level first (e.g. [yellow, red])")
    if "reconstruction" in data and not isinstance(data["reconstruction"], bool):
        bad("reconstruction", "true or false")
    if "sectors" in data and not isinstance(sectors, Mapping):
        bad("sectors", "a mapping of sector -> star -> resources")
    if out or not isinstance(sectors, Mapping) or not isinstance(levels, list):
        return out
    valid = {f"{a}-{lv}" for a in names for lv in levels}
    where: dict[str, str] = {}
    for sec, stars in sectors.items():
        path = f"sectors.{sec}"
        if sec not in valid:
            bad(path, f"no such sector (sectors are AREA-LEVEL, e.g. {sorted(valid)[0]})")
            continue
        if not isinstance(stars, Mapping):
            bad(path, "a mapping of star name -> list of resources")
            continue
        if len(stars) != STARS_PER_SECTOR:
            bad(path, f"{len(stars)} stars: the board has {STARS_PER_SECTOR} in every sector")
        for star, res in stars.items():
            spath = f"{path}.{star}"
            if not isinstance(star, str) or not star.strip():
                bad(spath, "a star name is text")
                continue
            if star.casefold() in where:
                bad(spath, f"star {star} is also in {where[star.casefold()]}")
            where[star.casefold()] = str(sec)
            if res is None:
                res = []
            if not isinstance(res, list):
                bad(spath, "a list of resources (circle, cross), e.g. [circle, cross] or []")
                continue
            for i, item in enumerate(res):
                if item not in ("circle", "cross"):
                    bad(f"{spath}[{i}]", f"unknown resource {item!r} (use circle or cross)")
            if len(set(map(str, res))) != len(res):
                bad(spath, "a resource is listed twice")
    for sec in sorted(valid - set(map(str, sectors))):
        bad(f"sectors.{sec}", "missing: every sector of the grid has its stars")
    for star, sec in FIXED_PLACEMENTS.items():
        found = where.get(star.casefold())
        if found is None:
            bad("sectors", f"{star} is missing: the rulebooks place it in {sec}")
        elif found != sec:
            bad(f"sectors.{found}.{star}", f"the rulebooks place {star} in {sec}, not {found}")
    return out
