"""The galaxy as an SVG hex map (games/ti4/galaxy_svg.py) and as 80-column text
(games/ti4/galaxy_text.py): every system, every planet's owner, every ship count per owner, the
tokens, wormholes, anomalies and the centre; the drawing made once for every reader."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from typing import Any

import pytest

from games.ti4 import archive, galaxy_svg, galaxy_text
from games.ti4.board import planet, space
from games.ti4.galaxy import from_layout
from games.ti4.galaxy_cells import (
    abbreviations,
    cells,
    colours,
    homes,
    units_text,
    units_words,
)
from tests.support.ti4_views import played, position, state, view

SVG = "{http://www.w3.org/2000/svg}"
VARIANTS = ("small-3", "small-4", "large-5", "large-6")


def _root(v: dict[str, Any]) -> ET.Element:
    return ET.fromstring(galaxy_svg.document(galaxy_svg.build(v), "The galaxy").encode())


def _systems(root: ET.Element) -> dict[str, ET.Element]:
    return {str(g.get("id"))[4:]: g for g in root.iter(f"{SVG}g") if g.get("class") == "system"}


def _text(el: ET.Element) -> str:
    return " ".join(" ".join(t.itertext()) for t in el.iter(f"{SVG}text"))


def _busy() -> dict[str, Any]:
    """A small-4 position with a contested system: red and blue ships (one blue frigate
    damaged) in S01, red ground forces on abren, blue's and red's tokens on S01, bellis red's
    and exhausted, S02 locked by blue."""
    pack, table, board = position("small-4")
    d = board.edit()
    d.add(space("S01"), "red", "frigate", 2)
    d.add(space("S01"), "red", "wing", 3)
    d.add(space("S01"), "blue", "frigate", 1)
    d.damage(space("S01"), "blue", "frigate")
    d.add(planet("abren"), "red", "trooper", 2)
    d.owner["abren"] = "red"
    d.owner["bellis"] = "red"
    d.exhausted.add("bellis")
    d.place_token("S01", "red")
    d.place_token("S01", "blue")
    table = replace(table, locked={"S02": "blue"})
    return view(state("small-4", pack, table, d.freeze()), "red")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_svg_parses_and_shows_every_system_of_the_layout(variant: str) -> None:
    pack, table, board = position(variant)
    v = view(state(variant, pack, table, board), "red")
    systems = _systems(_root(v))
    assert set(systems) == set(from_layout(pack, variant, homes(v)).tiles)
    for sid, g in systems.items():
        assert sid in _text(g)
        assert sid in g.findtext(f"{SVG}title", "")


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_ship_count_is_shown_in_its_system_in_its_owners_colour(variant: str) -> None:
    *_, (_, last, _) = played(variant, steps=45, seed=2)
    v = view(last, "blue")
    systems = _systems(_root(v))
    abbr, colour = abbreviations(v["pack"]), colours(v)
    shown = 0
    for c in cells(v):
        for stack in c.ships:
            spans = [t for t in systems[c.system].iter(f"{SVG}tspan")
                     if f"p-{stack.power}" in str(t.get("class")) and "ships" in str(
                         t.get("class"))]
            assert [t.text for t in spans] == [units_text(stack, abbr)]
            assert spans[0].get("fill") == colour[stack.power]
            shown += sum(n for _, n, _ in stack.units)
    on_board = sum(n for by in v["board"]["space"].values() for units in by.values()
                   for u, n in units.items())
    assert shown == on_board > 0


def test_a_contested_system_shows_both_fleets_damage_ground_forces_tokens_and_a_lock() -> None:
    v = _busy()
    systems = _systems(_root(v))
    s01 = systems["S01"]
    assert "2f 3w" in _text(s01) and "1f(1d)" in _text(s01)
    assert "2tr" in _text(s01)  # red's troopers on abren, under the planet
    tokens = [r for r in s01.iter(f"{SVG}rect") if "token" in str(r.get("class"))]
    assert sorted(str(r.get("class")).split()[1] for r in tokens) == ["p-blue", "p-red"]
    discs = {c.get("stroke"): c.get("fill") for c in systems["S02"].iter(f"{SVG}circle")}
    assert discs[colours(v)["red"]] == "#ffffff"  # bellis: red's, exhausted (a ring)
    polygon = systems["S02"].find(f"{SVG}polygon")
    assert polygon is not None and polygon.get("stroke-dasharray")  # locked by blue
    assert polygon.get("stroke") == colours(v)["blue"]
    title = s01.findtext(f"{SVG}title", "")
    assert "in space, blue (Brannock Reach): 1 frigate (1 damaged)" in title


def test_wormholes_anomalies_the_centre_homes_and_the_legend() -> None:
    pack, table, board = position("large-6")
    v = view(state("large-6", pack, table, board), None)
    root = _root(v)
    systems = _systems(root)
    assert "\u03b1" in _text(systems["S07"]) and "\u03b2" in _text(systems["S15"])
    assert "asteroid field" in _text(systems["S05"]) and "supernova" in _text(systems["S12"])
    assert "nebula" in _text(systems["S09"]) and "gravity rift" in _text(systems["S24"])
    assert "centre" in _text(systems["C0"])
    h1 = systems["H1"].find(f"{SVG}polygon")
    assert h1 is not None and h1.get("stroke") == colours(v)["red"]
    everything = " ".join(root.itertext())
    for name in ("red (Aurel Compact)", "orange (Fallow Assembly)", "te tender", "tr trooper",
                 "wormholes", "command token", "gravity rift"):
        assert name in everything


@pytest.mark.parametrize("variant", ["small-4", "large-6"])
def test_readable_at_600_to_900_pixels(variant: str) -> None:
    pack, table, board = position(variant)
    drawing = galaxy_svg.build(view(state(variant, pack, table, board), "red"))
    assert 600 <= drawing["width"] <= 900
    sizes = [int(x) for x in re.findall(r'font-size="(\d+)"',
                                        galaxy_svg.document(drawing, "t"))]
    assert min(sizes) >= 11


def test_the_map_is_drawn_once_for_every_reader_of_one_board() -> None:
    pack, table, board = position("small-4")
    st = state("small-4", pack, table, board)
    red, blue = galaxy_svg.drawing(view(st, "red")), galaxy_svg.drawing(view(st, "blue"))
    assert red is blue
    d = board.edit()
    d.add(space("S01"), "red", "frigate", 1)
    other = galaxy_svg.drawing(view(state("small-4", pack, table, d.freeze()), "red"))
    assert other is not red and "1f" in str(other["body"])


def test_the_archive_map_is_an_inline_svg_of_the_public_view() -> None:
    *_, (before, after, events) = played("small-3", steps=20, seed=4)
    svg = archive.archive_map(view(before, None), view(after, None), events)
    assert svg is not None and svg.startswith("<svg")
    ET.fromstring(svg.encode())
    first = next(iter(played("small-3", steps=1)))[0]  # the set-up: no table, no board
    setup = archive.archive_map(None, view(first, None), [])
    systems = _systems(ET.fromstring(setup.encode()))
    assert len(systems) == 19 and not [t for g in systems.values()
                                       for t in g.iter(f"{SVG}tspan") if "ships" in
                                       str(t.get("class"))]  # before the deal: no units
    numbers = archive.archive_summary(view(after, None), events)
    assert set(numbers) == {"red", "blue", "green"}
    assert list(numbers["red"])[:2] == ["VP", "planets"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_text_galaxy_fits_80_columns_and_lists_every_system_and_fleet(
        variant: str) -> None:
    *_, (_, last, _) = played(variant, steps=45, seed=2)
    v = view(last, "red")
    lines = galaxy_text.render(v)
    assert max(len(line) for line in lines) <= 80
    text = "\n".join(lines)
    for c in cells(v):
        assert re.search(rf"^  {c.system} \(", text, re.M)
        for stack in c.ships:
            assert f"{stack.power} {units_words(stack)}" in text.replace("\n        ", " ")
