"""The star field: sectors, stars, resources and journey lengths (rulebook: "The Playing Board",
"Calculating the Journey's Length")."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from pbem.errors import PbemError

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


@dataclass(frozen=True, slots=True)
class Sector:
    area: str
    level: str  # "yellow" (upper) or "red" (lower)
    row: int
    col: int
    depth: int  # 0 upper, 1 lower

    @property
    def name(self) -> str:
        return f"{self.area}-{self.level}"


@dataclass(frozen=True, slots=True)
class Star:
    name: str
    sector: Sector
    circle: bool
    cross: bool

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
        for sec_name, stars in sectors.items():
            if sec_name not in self.sectors:
                raise BoardError(f"{source}: sectors.{sec_name}: no such sector")
            for star_name, resources in (stars or {}).items():
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
        # Distances never change: computed once, so replays and views only look them up.
        self._furthest = {
            name: max(self.sector_distance(sec, other) for other in self.sectors.values())
            for name, sec in self.sectors.items()
        }
        self._at: dict[tuple[str, int], list[str]] = {}
        for name, origin in self.sectors.items():
            for star in self.stars.values():
                key = (name, self.sector_distance(origin, star.sector))
                self._at.setdefault(key, []).append(star.name)
        self.max_distance = max(self._furthest.values())

    # -- names -------------------------------------------------------------------------------
    def lookup(self, name: str) -> Star:
        """The star called ``name`` (case-insensitive); UnknownStar suggests close names."""
        canonical = self._folded.get(str(name).strip().casefold())
        if canonical is None:
            raise UnknownStar(str(name), self.suggest(str(name)))
        return self.stars[canonical]

    def suggest(self, name: str, n: int = 2) -> list[str]:
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


def load_board(path: Path) -> Board:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise BoardError(f"{path}: {exc}") from None
    return Board(data, source=str(path))


@cache
def default_board() -> Board:
    return load_board(HERE / "board.yaml")
