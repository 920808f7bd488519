"""Variants and options (rulebook: "Ways to Play", "Number of Players"; ADC2: the version list)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.game import Record, datafile

HERE = Path(__file__).resolve().parent

VERSIONS = ("alliances", "independents", "wild")


class VariantError(PbemError):
    """An unknown variant or a bad option value."""


class Variant(Record):
    __slots__ = ("name", "title", "version", "players", "powers", "alliances", "homes", "colours")
    name: str
    title: str
    version: str  # alliances | independents | wild
    players: int
    powers: tuple[str, ...]  # in turn order
    alliances: tuple[tuple[str, ...], ...]
    homes: Mapping[str, str]
    colours: Mapping[str, str]

    def __init__(self, name: str, title: str, version: str, players: int, powers: tuple[str, ...],
                 alliances: tuple[tuple[str, ...], ...], homes: Mapping[str, str],
                 colours: Mapping[str, str]) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "version", version)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "powers", powers)
        object.__setattr__(self, "alliances", alliances)
        object.__setattr__(self, "homes", homes)
        object.__setattr__(self, "colours", colours)

    @property
    def slots(self) -> list[list[str]]:
        """Turn order as slots: in Alliances an alliance moves as one slot (production for both
        allies first, then each ally in order); otherwise one power per slot."""
        if self.version == "alliances":
            slots: list[list[str]] = []
            for power in self.powers:
                team = next(a for a in self.alliances if power in a)
                if not any(power in s for s in slots):
                    slots.append([p for p in self.powers if p in team])
            return slots
        return [[p] for p in self.powers]


@cache
def _data() -> dict[str, Any]:
    loaded: dict[str, Any] = datafile.load(HERE / "variants.yaml")
    return loaded


def variant_names() -> list[str]:
    return list(_data()["variants"])


def load_variant(name: str) -> Variant:
    data = _data()
    spec = data["variants"].get(name)
    if spec is None:
        known = ", ".join(data["variants"])
        raise VariantError(f"no variant named {name!r} (variants: {known})")
    powers = tuple(spec["powers"])
    return Variant(
        name=name,
        title=spec["title"],
        version=spec["version"],
        players=int(spec["players"]),
        powers=powers,
        alliances=tuple(tuple(a) for a in spec.get("alliances", [])),
        homes={p: data["powers"][p]["home"] for p in powers},
        colours={p: data["powers"][p]["colour"] for p in powers},
    )


OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "production_turns": ("even", "odd"),
    "destinations": ("committed", "free"),
    "mode": ("simultaneous", "sequential"),
    "hold_own_homes": (True, False),
}


def resolve_options(given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults from variants.yaml overlaid with ``given`` (unknown keys and bad values raise)."""
    defaults = dict(_data()["options"])
    out = dict(defaults)
    for key, value in given.items():
        if key == "game_id":
            continue
        if key not in defaults:
            raise VariantError(f"unknown option {key!r} (options: {', '.join(defaults)})")
        if key in OPTION_CHOICES and value not in OPTION_CHOICES[key]:
            choices = ", ".join(map(str, OPTION_CHOICES[key]))
            raise VariantError(f"option {key}: {value!r} is not one of {choices}")
        if key in ("ships_at_start", "warps") and (
            not isinstance(value, int) or isinstance(value, bool) or value < 1
        ):
            raise VariantError(f"option {key}: must be a positive whole number, not {value!r}")
        out[key] = value
    return out
