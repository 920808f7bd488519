"""Reach on the map and in the report (issue 13: "the map shows the 12 sectors but nothing of
distance"): each warp's sectors for next turn and the distances from the reader's stars, checked
against the board's star-to-star distance counted by brute force, in 80 columns, and drawn in
map.svg with a text label on every badge and every drawn element inside the drawing."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from pbem.render import mails
from tests.support.ad_driver import AD, Table

PRES = mails.presenter(AD)
BOARD = AD.board
COMMITMENT = "cd" * 32
SVG = "{http://www.w3.org/2000/svg}"


def _sectors_at(sector: str, turns: int) -> set[str]:
    """Sectors whose stars are ``turns`` journey-turns from a star of ``sector``, by the board's
    star distance over all 48 stars (not the sector arithmetic reach.py uses)."""
    origin = BOARD.by_sector[sector][0].name
    return {BOARD.stars[s].sector.name for s in BOARD.stars if BOARD.distance(origin, s) == turns}


def _short(view: dict[str, Any], sector: str) -> str:
    star = BOARD.by_sector[sector][0].name
    level = view["stars"][star]["level"]
    return view["stars"][star]["area"] + ("▲" if level == "yellow" else "▼")


def _warp(t: Table, owner: str, key: str, origin: str, travelled: int, ships: int) -> Table:
    return t.set(f"warps.{owner}.{key}", {
        "from": origin, "sector": BOARD.lookup(origin).sector.name, "departed": 1,
        "travelled": travelled, "ships": {owner: ships}, "commitment": COMMITMENT,
        "escrow": None})


@pytest.mark.parametrize("origin", [stars[0].name for stars in BOARD.by_sector.values()])
def test_each_warps_reach_is_the_sectors_at_its_next_step(origin: str) -> None:
    for travelled in range(1, BOARD.max_distance + 1):
        t = _warp(_warp(Table(), "pavo", "1", origin, travelled, 6),
                  "algol", "2", "Algol", 1, 5)
        view = t.view("algol")
        warps = PRES.reach_of(view, ["algol"])["warps"]
        assert [(w["owner"], w["key"], w["mine"]) for w in warps] == [
            ("algol", "2", True), ("pavo", "1", False)], "the reader's warps first"
        pavo = warps[1]
        expected = _sectors_at(BOARD.lookup(origin).sector.name, travelled + 1)
        assert {c["sector"] for c in pavo["sectors"]} == expected, (origin, travelled)
        assert pavo["step"] == travelled + 1
        if not expected:
            assert "lost in hyperspace next turn" in pavo["text"]
        assert {c["sector"] for c in warps[0]["sectors"]} == _sectors_at("A-yellow", 2)


def test_distances_from_your_stars_match_the_board() -> None:
    t = Table().put("Hamal", "algol", 3).put("Vega", "algol", 2)
    view = t.view("algol")
    rows = PRES.reach_of(view, ["algol"])["distances"]
    held = view["powers"]["algol"]["stars_held"]
    assert sorted(s.rstrip("*") for r in rows for s in r["stars"]) == sorted(held)
    for r in rows:
        for column in r["turns"]:
            expected = {_short(view, s) for s in _sectors_at(r["sector"], column["turns"])}
            assert set(column["sectors"]) == expected, (r["sector"], column["turns"])
    algol = next(r for r in rows if "Algol*" in r["stars"])
    assert algol["short"] == "A▲" and algol["turns"][0]["sectors"] == ["A▼", "B▲", "D▲"]


def test_a_sector_with_a_star_of_yours_is_flagged_for_other_powers_warps_only() -> None:
    # Regulus's warp from C-yellow makes step 2 next turn: B-yellow, C-red or F-yellow.
    t = _warp(Table().put("Schedar", "algol", 5), "regulus", "1", "Regulus", 1, 5)
    t = _warp(t, "algol", "2", "Algol", 1, 4)
    reach = PRES.reach_of(t.view("algol"), ["algol"])
    regulus = next(w for w in reach["warps"] if w["owner"] == "regulus")
    assert regulus["text"] == "B▲! C▼ F▲"
    algol = next(w for w in reach["warps"] if w["owner"] == "algol")
    assert algol["text"] == "A▼ B▲ D▲", "your own warp reaching your star is no alarm"
    assert [(x["tag"], x["yours"]) for x in reach["sector_tags"]["B-yellow"]] == [
        ("ALG 2", False), ("REG 1", True)]


def test_reach_and_distance_text_fit_80_columns() -> None:
    t = Table()
    for stars in BOARD.by_sector.values():  # a star in every sector: the longest table
        t.put(stars[0].name, "algol", 1)
    for i, (owner, origin) in enumerate([("pavo", "Pavo"), ("antares", "Antares"),
                                         ("regulus", "Regulus"), ("algol", "Algol")]):
        t = _warp(t, owner, "1", origin, 1 + i, 100 + i)
    reach = PRES.reach_of(t.view("algol"), ["algol"])
    lines = reach["warps_text"] + reach["distances_text"]
    assert len(reach["distances_text"]) == 1 + 24
    assert max(len(line) for line in lines) <= 79, max(lines, key=len)
    for w in reach["warps"]:
        [row] = [line for line in reach["warps_text"] if line.startswith("  " + w["label"])]
        assert row.endswith(w["text"]) and f" {w['ships']} " in row


def _svg(view: dict[str, Any], readers: list[str]) -> ET.Element:
    ctx = {**PRES.map_context(view, readers, None), "title": "reach", "turn": view["turn"],
           "readers_css": ""}
    return ET.fromstring(mails.Renderer("4000ad").render("map.svg", ctx))


def test_svg_map_labels_every_reach_badge_and_fits_the_distance_table() -> None:
    t = _warp(Table().put("Schedar", "algol", 5).put("Hamal", "algol", 2),
              "regulus", "1", "Regulus", 1, 5)
    view = t.view("algol")
    root = _svg(view, ["algol"])
    texts = [el.text or "" for el in root.iter(SVG + "text")]
    reach = PRES.reach_of(view, ["algol"])
    badges = [x for tags in reach["sector_tags"].values() for x in tags]
    assert sorted(s for s in texts if s.startswith("REG 1")) == sorted(
        x["tag"] + ("!" if x["yours"] else "") for x in badges)
    assert "REG 1!" in texts, "the warp that can reach Schedar says so in text, not colour only"
    assert any("Distances from your stars" in s for s in texts)
    for r in reach["distances"]:
        assert r["stars_text"] in texts and r["turns"][1]["text"] in texts
    height = float(root.get("height") or 0)
    assert max(float(el.get("y") or 0) for el in root.iter(SVG + "text")) < height, \
        "the distance table is inside the drawing"


def test_the_referees_map_has_the_reach_but_no_distance_table() -> None:
    t = _warp(Table(), "regulus", "1", "Regulus", 1, 5)
    root = _svg(t.view(None), [])
    texts = [el.text or "" for el in root.iter(SVG + "text")]
    assert "REG 1" in texts
    assert not any("Distances from your stars" in s for s in texts)
    assert max(float(el.get("y") or 0) for el in root.iter(SVG + "text")) < float(
        root.get("height") or 0)


def test_reach_is_the_same_whatever_another_powers_secrets() -> None:
    """Reach is made from the reader's view alone: every variation of another power's hidden
    data leaves Algol's reach (and so its map and report sections) unchanged."""
    t = _warp(Table().put("Schedar", "algol", 5), "regulus", "1", "Regulus", 1, 5)
    mine = PRES.reach_of(t.view("algol"), ["algol"])
    for other in ("regulus", "pavo"):
        for variation in AD.variations(t.state, other):
            if "algol" in variation.knowers:
                continue
            assert PRES.reach_of(AD.view(variation.state, "algol"), ["algol"]) == mine
