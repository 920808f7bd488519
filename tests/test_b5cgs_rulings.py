"""Babylon 5 CGS: the rulings read again against the rulebook (issue 28), one test per rule,
each quoting the rulebook's lines (games/b5cgs/RULES.md).
Rules version 2 reads them as quoted; a game recorded under version 1 plays on as it began, and
each test shows that too."""

from __future__ import annotations

import importlib

from pbem.game import versions
from tests.b5cgs_driver import PLUGIN, ScriptedChance, blank, check, hexes, put, run_moves
from tests.b5cgs_positions import BOB, allocate, game

where = importlib.import_module("b5cgs.where")
EA = "earth-alliance"
ORIGIN = "2,1"


def test_rules_version_2_is_recorded_and_version_1_games_play_on():
    """A change that replays a recorded game differently bumps the rules version; the plugin
    still plays version 1, whose state is exactly what it was (no ``rules_version`` option)."""
    assert versions.rules_version(PLUGIN) == 2
    assert versions.versions_supported(PLUGIN) == (1, 2)
    assert PLUGIN.setup("basic-2", {"game_id": "g"})["options"]["rules_version"] == 2
    old = PLUGIN.setup("basic-2", {"game_id": "g", "rules_version": 1})
    assert "rules_version" not in old["options"]


def _edge(st):
    """An exposed hex (not Babylon 5's) next to a hex of a face-down piece: (hex, face-down)."""
    for h in sorted(st["hexes"]):
        if h == st["map"]["b5_hex"]:
            continue
        for n in hexes.neighbours(hexes.parse(h)):
            k = hexes.key(n)
            if where.on_map(st, k) and k not in st["hexes"] and k != st["map"]["b5_hex"]:
                return h, k
    raise AssertionError("no exposed hex borders a face-down piece")


def _build_into_face_down(rules_version=None):
    st = game()
    if rules_version == 1:
        st["options"].pop("rules_version")
    st["powers"][BOB]["reserve"] = 40
    at, face_down = _edge(st)
    base = put(st, "ea-base-2", BOB, at)
    slot = where.slot_of(st, face_down)
    return st, base, face_down, slot


def test_E3_a_ship_may_be_built_into_a_face_down_hex_exposing_it():
    """D4.31 "Definition of 'Entering a Hex': ... - A unit is built in the hex. ... [Note:
    Non-unit tokens may not be built into unexposed hexes and therefore may not be used to
    expose a map piece.]"; D4.21 "A unit entering a hex on an unexposed map piece ... causes
    that piece to be exposed ... the player whose unit is entering the map piece determines
    which way the map piece will be flipped before viewing the other side." A ship is a unit:
    built next to Bob's base into a face-down hex, it exposes the piece about the axis the
    build names (``flip``). Version 1 refused every build into a face-down hex."""
    st, base, hex_, slot = _build_into_face_down()
    entry = {"token": "ea-hyperion", "hex": hex_, "by": base, "flip": 2}
    _, problems = check(st, BOB, {"allocate": {"build": [entry]}})
    assert problems == []
    events = allocate.allocate(st, BOB, {"build": [entry]}, ScriptedChance(lenient=True))
    (built,) = [e for e in events if e["type"] == "built"]
    assert built["hex"] == hex_
    (explored,) = [e for e in events if e["type"] == "explored"]
    assert explored["slot"] == slot and explored["flip"] == 2
    assert st["map"]["slots"][slot]["exposed"] and hex_ in st["hexes"]
    old, base, hex_, _ = _build_into_face_down(1)
    entry = {"token": "ea-hyperion", "hex": hex_, "by": base}
    events = allocate.allocate(old, BOB, {"build": [entry]}, ScriptedChance(lenient=True))
    assert [e["reason"] for e in events] == [f"{hex_} is not on an exposed map piece "
                                             "(ruling E3)"]


def test_E3_non_unit_tokens_and_bases_still_need_an_exposed_hex():
    """D4.31 "[Note: Non-unit tokens may not be built into unexposed hexes ...]": a jumpgate
    (a non-unit token) is refused; so is a base, which D3.24 builds only "in an unoccupied hex
    which has an Economy Indicator", and a face-down hex shows none."""
    st, base, hex_, _ = _build_into_face_down()
    gate = allocate.why_not_build(st, BOB, {"token": "jumpgate", "hex": hex_, "by": base})[0]
    assert gate == (f"{hex_} is on a face-down map piece: non-unit tokens may not be built "
                    "into unexposed hexes (D4.31)")
    new_base = allocate.why_not_build(st, BOB, {"token": "base-2", "hex": hex_, "by": base})[0]
    assert new_base is not None and "shows no Economy Indicator" in new_base


def test_R17_sweeping_is_in_addition_to_its_movement():
    """D4.43 "Minesweeping: In addition to its movement, each of your ships may attempt to
    sweep a mine (see H5 Minesweeping Rolls)." A ship crippled by its own sweep still makes its
    movement (a crippled ship moves as any other, D4.1); only a destroyed one is skipped.
    Version 1 skipped a ship crippled earlier in the phase."""
    st = blank("modular-4")
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    to = hexes.key(hexes.neighbour(hexes.parse(ORIGIN), 2))
    put(st, "mine-3", "korath", to, None)
    chance = ScriptedChance(rolls={f"move0:{t}:sweep-dg": [[0]],
                                   f"move0:{t}:sweep-b5": [[3, 3, 2]]})
    events = run_moves(st, EA, [{"sweep": t}, {"unit": t, "to": to, "facing": 2}], chance)
    assert st["tokens"][t]["crippled"]
    assert events[-1]["type"] == "moved" and st["tokens"][t]["hex"] == to
