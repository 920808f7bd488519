"""The stand-in component pack and its check (games/ti4/pack.py; RULES.md P1-P6)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.ti4 import galaxy, pack

Pack = dict[str, Any]


def paths(data: object) -> dict[str, str]:
    return {p.path: p.code for p in pack.check_components(data)}


def test_the_standin_pack_passes_its_check() -> None:
    assert pack.check_components(pack.standin()) == []


def test_the_standin_pack_says_it_is_not_ti4() -> None:
    text = pack.STANDIN.read_text(encoding="utf-8")
    assert "NOT TI4" in text.splitlines()[0].upper()
    data = pack.standin()
    assert data["standin"] is True and "not ti4" in data["note"].lower()


def test_rules_constants_are_the_seeds() -> None:
    """Play to 10 VP; 3/3/2 tokens of 16; hand limit 7; custodians 6 influence; 3-4 players
    pick 2 strategy cards, 5 and more pick 1."""
    rules = pack.standin()["rules"]
    assert rules["victory_points"] == 10
    assert rules["tokens"] == {"tactic": 3, "fleet": 3, "strategy": 2, "total": 16}
    assert rules["hand_limit"] == 7 and rules["custodians_cost"] == 6
    assert rules["picks"] == {3: 2, 4: 2, 5: 1, 6: 1}


def test_the_standin_pack_has_the_briefed_counts() -> None:
    data = pack.standin()
    assert len(data["factions"]) == 6 and len(data["strategy_cards"]) == 8
    assert len(data["technologies"]) == 16 and len(data["agendas"]) == 12
    assert sorted(c["initiative"] for c in data["strategy_cards"].values()) == list(range(1, 9))
    stages = [o["stage"] for o in data["objectives"].values()]
    assert stages.count(1) == 10 and stages.count(2) == 10 and stages.count("secret") == 12


@pytest.mark.parametrize("lid, players, size", [("small-3", 3, 19), ("small-4", 4, 19),
                                                ("large-5", 5, 37), ("large-6", 6, 37)])
def test_every_layout_builds_a_galaxy_of_19_or_37_systems(lid: str, players: int,
                                                          size: int) -> None:
    data = pack.standin()
    assert data["layouts"][lid]["players"] == players
    g = galaxy.from_layout(data, lid)
    assert len(g.tiles) == size and g.tiles["C0"].at == (0, 0)
    homes = [sid for sid in g.tiles if data["systems"][sid]["home"]]
    assert len(homes) == players


def test_two_for_one_units_cost_a_half() -> None:
    """Fighters and infantry cost 1 for 2 (their stand-ins: wing, trooper)."""
    units = pack.standin()["units"]
    assert units["wing"]["cost"] == 0.5 and units["trooper"]["cost"] == 0.5
    assert all(set(u) == set(pack.UNIT_FIELDS) for u in units.values())


def broken(change: Callable[[Pack], object]) -> Pack:
    data = pack.standin()
    change(data)
    return data


def put(*keys: object) -> Callable[[Pack], object]:
    """Set the value at a path (the last of ``keys``); a list index is an int."""
    *where, last, value = keys

    def change(data: Pack) -> None:
        node: Any = data
        for k in where:
            node = node[k]
        node[last] = value
    return change


def drop(*keys: object) -> Callable[[Pack], object]:
    """Remove the entry at a path (a list: its last entry)."""
    *where, last = keys

    def change(data: Pack) -> None:
        node: Any = data
        for k in where:
            node = node[k]
        node.pop(last) if last is not None else node.pop()
    return change


def add(*keys: object) -> Callable[[Pack], object]:
    """Append a value to the list at a path."""
    *where, value = keys

    def change(data: Pack) -> None:
        node: Any = data
        for k in where:
            node = node[k]
        node.append(value)
    return change


def drop_stage_2(data: Pack) -> None:
    for k in [k for k in data["objectives"] if k.startswith("o2-")][:7]:
        data["objectives"].pop(k)


BROKEN: list[tuple[str, Callable[[Pack], object], str, str]] = [
    ("missing unit field", drop("units", "picket", "move"), "units.picket.move",
     "missing-field"),
    ("missing planet field", drop("planets", "concord", "influence"),
     "planets.concord.influence", "missing-field"),
    ("layout names a missing system", put("layouts", "small-3", "systems", 2, "S99"),
     "layouts.small-3.systems[2]", "unknown-ref"),
    ("layout centre missing", put("layouts", "large-6", "centre", "X0"),
     "layouts.large-6.centre", "unknown-ref"),
    ("layout places a home system", put("layouts", "small-4", "systems", 0, "H1"),
     "layouts.small-4.systems[0]", "layout-system"),
    ("layout system twice", put("layouts", "small-4", "systems", 1, "S01"),
     "layouts.small-4.systems[1]", "layout-system"),
    ("layout too few systems", drop("layouts", "large-5", "systems", None),
     "layouts.large-5.systems", "layout-count"),
    ("home position outside the rings", put("layouts", "small-3", "homes", 0, "0,-3"),
     "layouts.small-3.homes[0]", "layout-position"),
    ("home position count", put("layouts", "small-3", "players", 4),
     "layouts.small-3.homes", "layout-count"),
    ("no layout for 6 players", drop("layouts", "large-6"), "layouts", "layout-missing"),
    ("tech prerequisite missing", add("technologies", "tred2", "requires", "tpurple9"),
     "technologies.tred2.requires[1]", "unknown-ref"),
    ("tech prerequisite cycle", add("technologies", "tred1", "requires", "tred3"),
     "technologies.tred1.requires", "tech-cycle"),
    ("faction home not a home", put("factions", "aurel", "home", "S01"),
     "factions.aurel.home", "faction-home"),
    ("faction starting unit unknown", put("factions", "aurel", "units", "ram", 1),
     "factions.aurel.units.ram", "unknown-ref"),
    ("unknown effect primitive", put("strategy_cards", "command", "primary", 0, "do", "win"),
     "strategy_cards.command.primary[0].do", "unknown-primitive"),
    ("effect names an unknown unit",
     put("strategy_cards", "industry", "primary", 0, "unit", "fort"),
     "strategy_cards.industry.primary[0].unit", "unknown-ref"),
    ("initiative twice", put("strategy_cards", "counsel", "initiative", 1),
     "strategy_cards.counsel.initiative", "initiative"),
    ("unknown predicate", put("objectives", "o1-spread", "test", "test", "be_nice"),
     "objectives.o1-spread.test.test", "unknown-primitive"),
    ("too few stage II objectives", drop_stage_2, "objectives", "objectives-count"),
    ("too few factions", drop("factions", "fallow"), "factions", "factions-count"),
    ("picks exceed the cards", put("rules", "picks", 4, 3), "rules.picks[4]", "picks"),
    ("starting tokens exceed the total", put("rules", "tokens", "total", 7), "rules.tokens",
     "tokens"),
    ("cost not a half", put("units", "frigate", "cost", 1.25), "units.frigate.cost", "cost"),
    ("space cannon without range", drop("units", "battery", "space_cannon", "range"),
     "units.battery.space_cannon.range", "missing-field"),
    ("combat value off the die", put("units", "bastion", "combat", "value", 11),
     "units.bastion.combat.value", "number"),
    ("unknown anomaly", put("systems", "S05", "anomaly", "black-hole"),
     "systems.S05.anomaly", "choice"),
    ("planet in two systems", add("systems", "S02", "planets", "abren"),
     "systems.S02.planets[2]", "planet-twice"),
    ("agenda effects for the wrong outcome", put("agendas", "a-charter", "outcome",
                                                 "for_against"),
     "agendas.a-charter.effects.elected", "unknown-field"),
    ("unknown section", put("relics", {}), "relics", "pack-unknown"),
    ("missing section", drop("units"), "units", "pack-section"),
]


@pytest.mark.parametrize("what, change, path, code", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_pack_fails_with_a_path(what: str, change: Callable[[Pack], object], path: str,
                                         code: str) -> None:
    found = paths(broken(change))
    assert found.get(path) == code, f"{what}: {found}"


@pytest.mark.parametrize("data", [None, [], "pack", {"pack": 1}])
def test_a_pack_of_the_wrong_shape_is_refused_not_raised(data: object) -> None:
    assert pack.check_components(data)
