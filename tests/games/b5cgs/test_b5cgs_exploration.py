"""Exploring face-down map pieces (D4.21, D4.65, C1.4): nobody knows a face-down piece until a
unit enters it; the entering player chooses the flip axis before seeing it; the piece turns
face up in the rotation that flip shows and its hex is activated at once."""

from __future__ import annotations

import copy

from pbem import canonical
from tests.support.b5cgs_driver import (
    PLUGIN,
    ScriptedChance,
    blank,
    hexes,
    put,
    run_moves,
    setupmod,
    where,
)

EA = "earth-alliance"
# slot 1 (centre 2,1) is face down; 1,0 is a hex of Babylon 5's piece next to it
FROM, INTO = "1,0", "2,0"


def face_down():
    st = blank("basic-3", expose=False)
    assert not st["map"]["slots"][1]["exposed"] and where.slot_of(st, INTO) == 1
    return st


def test_C1_4_nobody_sees_a_face_down_piece():
    st = face_down()
    piece = st["referee"]["pieces"]["1"]
    assert piece in PLUGIN.hidden(st)
    assert setupmod.piece_name(piece) not in canonical.dumps(PLUGIN.view(st, None))
    for power in [*st["seats"], None]:
        shown = canonical.dumps(PLUGIN.view(st, power))
        assert piece not in shown
        assert st["pack"]["pieces"][st["referee"]["pieces"]["1"]]["title"] not in shown


def test_D4_21_exploration_with_the_chosen_flip():
    for flip in (1, 2, 3):
        st = face_down()
        st["referee"]["backs"]["1"] = 4
        name = st["referee"]["pieces"]["1"]
        t = put(st, "ea-hyperion", EA, FROM, 3)
        events = run_moves(st, EA, [{"unit": t, "to": INTO, "facing": 3, "flip": flip}],
                           ScriptedChance(lenient=True))
        explored = next(e for e in events if e["type"] == "explored")
        rotation = hexes.exposed_rotation(4, flip)
        assert explored == {"type": "explored", "power": EA, "token": t, "slot": 1,
                            "piece": f"piece:{name}", "rotation": rotation, "flip": flip,
                            "title": st["pack"]["pieces"][name]["title"]}
        slot = st["map"]["slots"][1]
        assert (slot["exposed"], slot["piece"], slot["rotation"], slot["flip"]) == (
            True, name, rotation, flip)
        # the printed hexes lie where the rotation puts them
        for printed, elements in st["pack"]["pieces"][name]["hexes"].items():
            h = hexes.key(hexes.printed_to_board((2, 1), printed, rotation))
            assert {k: v for k, v in st["hexes"][h].items()
                    if k not in ("slot", "printed")} == elements
        assert "1" not in st["referee"]["pieces"]
        # now everybody sees it
        assert name in canonical.dumps(PLUGIN.view(st, "minbari"))
        assert name not in PLUGIN.hidden(st)


def test_D4_21_the_flip_defaults_to_axis_1():
    st = face_down()
    t = put(st, "ea-hyperion", EA, FROM, 3)
    events = run_moves(st, EA, [{"unit": t, "to": INTO, "facing": 3}],
                       ScriptedChance(lenient=True))
    assert next(e for e in events if e["type"] == "explored")["flip"] == 1


def test_D4_32_the_hex_entered_is_activated_after_exposing():
    st = face_down()
    name = st["referee"]["pieces"]["1"]
    # give the face-down piece a Damage Indicator where the ship will enter
    st["pack"]["pieces"][name] = copy.deepcopy(st["pack"]["pieces"][name])
    st["referee"]["backs"]["1"] = 0
    printed = next(p for p in hexes.PRINTED
                   if hexes.printed_to_board((2, 1), p, hexes.exposed_rotation(0, 1))
                   == hexes.parse(INTO))
    st["pack"]["pieces"][name]["hexes"] = {printed: {"damage": 2}}
    t = put(st, "ea-hyperion", EA, FROM, 3)
    chance = ScriptedChance(rolls={f"move0:{t}:hex": [[3, 0]]})
    events = run_moves(st, EA, [{"unit": t, "to": INTO, "facing": 3}], chance)
    assert [e["type"] for e in events][:4] == ["moved", "explored", "roll", "activated"]


def test_D4_65_a_jump_into_a_face_down_piece_exposes_it():
    st = face_down()
    t = put(st, "ea-hyperion", EA, "0,-1", 3)
    target = "2,-1"  # slot 6 (centre 3,-2) is face down
    assert where.slot_of(st, target) == 6 and not st["map"]["slots"][6]["exposed"]
    events = run_moves(st, EA, [{"unit": t, "jump": target, "flip": 3}],
                       ScriptedChance(lenient=True))
    assert [e["type"] for e in events][:2] == ["jumped", "explored"]
    assert st["map"]["slots"][6]["exposed"] and st["map"]["slots"][6]["flip"] == 3


def test_the_order_check_cannot_tell_what_a_face_down_piece_holds():
    st = face_down()
    t = put(st, "ea-hyperion", EA, FROM, 3)
    view = PLUGIN.view(st, EA)
    assert INTO not in view["hexes"] and view["map"]["slots"][1]["piece"] is None
    st2 = copy.deepcopy(st)
    st2["current"], st2["powers"][EA]["turns"] = EA, 1
    orders, problems = PLUGIN.normalize_orders(
        {"move": [{"unit": t, "to": INTO, "facing": 3, "flip": 2}]}, PLUGIN.view(st2, EA))
    assert problems == [] and orders["move"][0]["flip"] == 2


def test_the_game_end_reveals_every_piece():
    st = face_down()
    hidden = PLUGIN.hidden(st)
    assert hidden
    ended = PLUGIN.end_game(st, "agreed").state
    shown = canonical.dumps(PLUGIN.view(ended, EA))
    for name in st["referee"]["pieces"].values():
        assert setupmod.piece_name(name) in shown
    assert PLUGIN.hidden(ended) == []
