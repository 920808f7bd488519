"""The Allocate phase (D3) and the starting fleet (C4.3), rule by rule and example by example,
each from its own starting position (games/b5cgs/allocate.py)."""

from __future__ import annotations

import copy

from tests.support.b5cgs_driver import PLUGIN, ScriptedChance, dealt, new_game, put, turn
from tests.support.b5cgs_positions import (
    BOB,
    SALLY,
    allocate,
    bob_at_home,
    economy,
    expose_piece,
    game,
    of_type,
)


def test_C4_3_starting_purchases_hyperion_13_transport_4_with_the_empire_discount():
    """"Bob is playing Earth Alliance and has a starting Economy Reserve of 45. ... Bob chooses
    to purchase a Hyperion Cr. for 13 (16-3 ...) and a Transport for 4 (6-2), costing a total of
    18. This leaves 27 in his Reserve." The discount applies at set-up whatever the options
    (setup.starting_fleet: Bob's starting-fleet step, ruling R7). The example's sum is a slip:
    13 + 4 is 17, which leaves 28 (ruling E2 in RULES.md); the prices are the rule. Record
    Keeping of Bob's first turn adds the Net Economy of 5 (D1.2, the book's 27 -> 32); under
    rules version 2 the fleet was bought in that same turn."""
    for version in (3, 2):
        st = dealt("basic-3", first=BOB, version=version)
        if version == 2:
            st = new_game("basic-3", first=BOB, version=2)
        assert st["options"]["discounts"] is False and st["powers"][BOB]["reserve"] == 45
        start = [{"token": "ea-hyperion", "hex": "1,3", "facing": 4},
                 {"token": "ea-transport", "hex": "0,4", "facing": 3}]
        body, problems = PLUGIN.normalize_orders({"start": start}, PLUGIN.view(st, BOB))
        assert problems == []
        new, events = turn.resolve(st, {BOB: body}, ScriptedChance())
        placed = of_type(events, "placed")
        assert [(e["token_type"], e["cost"]) for e in placed] == [("ea-hyperion", 13),
                                                                  ("ea-transport", 4)]
        reserves = [e["reserve"] for e in of_type(events, "economy")]
        while new["phase"] == "fleet":  # the others place nothing; then Bob's first turn
            new, more = turn.resolve(new, {}, ScriptedChance())
        if version == 3:
            new, more = turn.resolve(new, {}, ScriptedChance())
            reserves += [e["reserve"] for e in of_type(more, "economy") if e["power"] == BOB]
        assert reserves == [32, 28, 33]                  # 45-13, -4, then + Net 5 (D1.2)
        assert economy.banks(new, BOB) == {"gross": 10, "upkeep": 5, "net": 5, "reserve": 33}


def build_position(reserve: int = 37):
    """D3.11's position: Bob's Earth bases (Gross 10), his Hyperion docked in position to the
    Asteroid Belt's Economy Indicator 4 and a Transport (Upkeep 5, Net 5), Reserve 37 (after
    D2.4's vote)."""
    st = game()
    bases = bob_at_home(st, reserve)
    slot = expose_piece(st, "asteroid-belt")
    centre = st["map"]["slots"][slot]["centre"]                   # Economy Indicator 4
    assert st["hexes"][centre]["economy"] == 4
    hyperion = put(st, "ea-hyperion", BOB, "2,2", facing=1)       # north of it is 2,1
    assert centre == "2,1"
    put(st, "ea-transport", BOB, "1,3", facing=4)
    return st, bases, hyperion, centre


def test_D3_11_base_4_and_transport_builds_37_to_28_to_22():
    """"Bob builds a Base-4 (build cost 9, Economy Indicator 4) lowering his Economy Reserve by
    9 (from 37 to 28). This causes his Gross Economy to be increased by 4 (from 10 to 14) and his
    Net Economy to be increased by 4 (from 5 to 9). Bob builds an E.A. Transport (build cost 6,
    upkeep 2), lowering his Reserve by 6 (from 28 to 22). The Transport increases his Total
    Upkeep by 2 (from 5 to 7) and lowers his Net Economy by 2 (from 9 to 7)." (the Transport
    pays its full 6: no empire discount in play without option D3.22, ruling E1)"""
    st, bases, hyperion, centre = build_position()
    assert economy.banks(st, BOB) == {"gross": 10, "upkeep": 5, "net": 5, "reserve": 37}
    allocate.allocate(st, BOB, {"build": [{"token": "base-4", "hex": centre, "by": hyperion}]},
                      None)
    assert economy.banks(st, BOB) == {"gross": 14, "upkeep": 5, "net": 9, "reserve": 28}
    events = allocate.allocate(st, BOB, {"build": [
        {"token": "ea-transport", "hex": "0,4", "by": bases["base8"]}]}, None)
    assert economy.banks(st, BOB) == {"gross": 14, "upkeep": 7, "net": 7, "reserve": 22}
    built = of_type(events, "built")[0]
    assert built["cost"] == 6 and built["facing"] == 3           # facing Earth: docked


def test_D3_11_the_same_builds_in_one_order_file_and_its_check():
    st, bases, hyperion, centre = build_position()
    section = {"build": [{"token": "base-4", "hex": centre, "by": hyperion},
                         {"token": "ea-transport", "hex": "0,4", "by": bases["base8"]}]}
    checked, problems = allocate.check_allocate(section, PLUGIN.view(st, BOB))
    assert problems == [] and [b["token"] for b in checked["build"]] == ["base-4",
                                                                          "ea-transport"]
    allocate.allocate(st, BOB, checked, None)
    assert st["powers"][BOB]["reserve"] == 22


def test_D3_12_repair_22_to_17():
    """"Bob repairs a crippled Earth Alliance Hyperion Cr. (repair cost 5) reducing his Economy
    Reserve by 5 (from 22 to 17)." (docked to one of his bases, D3.32)"""
    st = game()
    bob_at_home(st, 22)
    h = put(st, "ea-hyperion", BOB, "1,3", facing=4, crippled=True)   # docked to Earth
    events = allocate.allocate(st, BOB, {"repair": [{"token": h}]}, None)
    assert st["powers"][BOB]["reserve"] == 17 and st["tokens"][h]["crippled"] is False
    assert of_type(events, "repaired") == [{"type": "repaired", "power": BOB, "token": h,
                                            "cost": 5}]


def test_D3_32_repair_only_docked_to_own_base_or_babylon_5():
    st = game()
    bob_at_home(st, 22)
    away = put(st, "ea-hyperion", BOB, "1,3", facing=1, crippled=True)   # not docked
    at_b5 = put(st, "ea-olympus", BOB, "0,1", facing=1, crippled=True)   # docked to B5
    base = put(st, "base-2", BOB, "3,3", crippled=True)                  # repairs itself
    events = allocate.allocate(st, BOB, {"repair": [{"token": away}, {"token": at_b5},
                                                     {"token": base}]}, None)
    assert [e["entry"] for e in of_type(events, "allocate_void")] == ["repair[0]"]
    assert st["tokens"][at_b5]["crippled"] is False and st["tokens"][base]["crippled"] is False
    assert st["powers"][BOB]["reserve"] == 22 - 3 - 2


def test_D3_22_discounted_minbari_cruiser_11():
    """"A Minbari base building a Minbari Cruiser (build cost 14, upkeep 3) pays only 11 (14
    minus 3)" with the modular rule on; 14 without it; a generic base never gets it."""
    for variant, by_own, cost in (("modular-3", True, 11), ("basic-3", True, 14),
                                  ("modular-3", False, 14)):
        st = game(variant)
        st["powers"][SALLY]["reserve"] = 20
        base = put(st, "mf-base-8" if by_own else "base-4", SALLY, "-5,1")
        events = allocate.allocate(st, SALLY, {"build": [
            {"token": "mf-cruiser", "hex": "-5,2", "by": base}]}, None)
        assert of_type(events, "built")[0]["cost"] == cost, variant
        assert st["powers"][SALLY]["reserve"] == 20 - cost


def test_D3_24_ship_built_adjacent_to_own_base_facing_it():
    st = game()
    bases = bob_at_home(st, 40)
    h = put(st, "ea-hyperion", BOB, "1,3", facing=4)
    events = allocate.allocate(st, BOB, {"build": [
        {"token": "ea-transport", "hex": "1,5", "by": h},               # a ship cannot
        {"token": "ea-transport", "hex": "3,3", "by": bases["base8"]},  # not adjacent
        {"token": "ea-transport", "hex": "1,3", "by": bases["base8"]},  # occupied
        {"token": "ea-transport", "hex": "1,5", "by": bases["base8"]}]}, None)
    assert [e["entry"] for e in of_type(events, "allocate_void")] == [
        "build[0]", "build[1]", "build[2]"]
    assert of_type(events, "built")[0]["facing"] == 1 and st["powers"][BOB]["reserve"] == 34


def test_D3_24_base_needs_docked_ship_and_equal_economy_indicator():
    st, bases, hyperion, centre = build_position(40)
    events = allocate.allocate(st, BOB, {"build": [
        {"token": "base-3", "hex": centre, "by": hyperion},         # 3 != 4
        {"token": "base-4", "hex": centre, "by": bases["base8"]},   # a base cannot
        {"token": "base-4", "hex": "2,0", "by": hyperion}]}, None)  # not faced / no indicator
    assert len(of_type(events, "allocate_void")) == 3
    assert st["powers"][BOB]["reserve"] == 40


def test_D3_25_a_unit_built_this_phase_may_not_build():
    """"A unit may not be used to build (or repair) a unit on the same phase that it is,
    itself, built." """
    st, bases, hyperion, centre = build_position(40)
    events = allocate.allocate(st, BOB, {"build": [
        {"token": "base-4", "hex": centre, "by": hyperion},
        {"token": "ea-transport", "hex": "3,1", "by": f"t{st['next_token']}"}]}, None)
    void = of_type(events, "allocate_void")
    assert [e["entry"] for e in void] == ["build[1]"] and "built in this phase" in \
        void[0]["reason"]


def test_D3_25_empire_tokens_build_their_empire_or_generic():
    st = game()
    st["powers"][SALLY]["reserve"] = 30
    base = put(st, "mf-base-8", SALLY, "-5,1")
    events = allocate.allocate(st, SALLY, {"build": [
        {"token": "ea-hyperion", "hex": "-5,2", "by": base},        # another empire's
        {"token": "gen-freighter", "hex": "-5,2", "by": base}]}, None)
    assert [e["entry"] for e in of_type(events, "allocate_void")] == ["build[0]"]
    assert of_type(events, "built")[0]["token_type"] == "gen-freighter"


def test_D1_92_no_financing():
    """"You cannot do anything that costs more economy than you currently have" """
    st = game()
    bases = bob_at_home(st, 5)
    events = allocate.allocate(st, BOB, {"build": [
        {"token": "ea-transport", "hex": "1,3", "by": bases["base8"]}]}, None)
    assert "no financing" in of_type(events, "allocate_void")[0]["reason"]
    assert st["powers"][BOB]["reserve"] == 5 and len(st["tokens"]) == 2


def test_D3_24_jumpgate_in_the_empty_hex_in_front_of_own_ship():
    st = game()
    st["powers"][BOB]["reserve"] = 30
    slot = expose_piece(st, "empty-sector")
    hexes = st["map"]["slots"][slot]["hexes"]
    centre = hexes[0]
    ship = put(st, "ea-hyperion", BOB, hexes[4], facing=1)          # south of the centre
    events = allocate.allocate(st, BOB, {"build": [{"token": "jumpgate", "by": ship}]}, None)
    built = of_type(events, "built")[0]
    assert built["hex"] == centre and st["powers"][BOB]["reserve"] == 20
    again = put(st, "ea-olympus", BOB, hexes[1], facing=3)          # faces hexes[2]
    events = allocate.allocate(st, BOB, {"build": [{"token": "jumpgate", "by": again}]}, None)
    assert "already has a jumpgate" in of_type(events, "allocate_void")[0]["reason"]


def contested_position(answer):
    """Bob builds next to Sally's ship; Sally's standing answer is ``answer``. Rules version 2
    (contested space in every variant; version 3: test_b5cgs_rulings, E4)."""
    st = game(version=2)
    bases = bob_at_home(st, 20)
    put(st, "mf-cruiser", SALLY, "1,2", facing=4)                  # adjacent to 1,3
    st["powers"][SALLY]["contested"] = answer
    return st, bases


def test_D3_42_contested_space_default_deny_and_no_economy_paid():
    """"The current player must obtain permission from each player with a ship or base in an
    adjacent hex" — by the standing answer, default deny; "No economy is paid if the build is
    denied." """
    st, bases = contested_position({"default": "deny", "allow": [], "deny": []})
    before = copy.deepcopy(st)
    events = allocate.allocate(st, BOB, {"build": [
        {"token": "ea-transport", "hex": "1,3", "by": bases["base8"]}]}, None)
    void = of_type(events, "allocate_void")
    assert SALLY in void[0]["reason"] and st == before
    # the checker cannot know Sally's private answer: it accepts, the referee decides
    _, problems = allocate.check_allocate({"build": [
        {"token": "ea-transport", "hex": "1,3", "by": bases["base8"]}]}, PLUGIN.view(st, BOB))
    assert problems == []


def test_D3_42_contested_space_allowed_by_the_standing_answer():
    st, bases = contested_position({"default": "deny", "allow": [BOB], "deny": []})
    events = allocate.allocate(st, BOB, {"build": [
        {"token": "ea-transport", "hex": "1,3", "by": bases["base8"]}]}, None)
    assert of_type(events, "built") and st["powers"][BOB]["reserve"] == 14
    st, bases = contested_position({"default": "allow", "allow": [], "deny": [BOB]})
    events = allocate.allocate(st, BOB, {"build": [
        {"token": "ea-transport", "hex": "1,3", "by": bases["base8"]}]}, None)
    assert of_type(events, "allocate_void")


def test_D3_33_no_repair_in_contested_hex():
    """Rules version 2: contested in every variant, default deny (version 3: test_b5cgs_rulings,
    E4)."""
    st = game(version=2)
    bob_at_home(st, 20)
    h = put(st, "ea-hyperion", BOB, "1,3", facing=4, crippled=True)
    put(st, "mf-cruiser", SALLY, "1,2", facing=4)                  # adjacent to the Hyperion
    events = allocate.allocate(st, BOB, {"repair": [{"token": h}]}, None)
    assert "contested" in of_type(events, "allocate_void")[0]["reason"]
    assert st["tokens"][h]["crippled"] is True


def test_D3_24_mines_option_one_per_minelayer_adjacent_empty_hex():
    """Mines (modular): one mine per unit with 'mines', in an empty adjacent hex of an exposed
    piece, at most 3 mines or minefields a piece."""
    st = game("basic-3")
    st["powers"][BOB]["reserve"] = 20
    layer = put(st, "ea-minelayer", BOB, "1,3", facing=1)
    events = allocate.allocate(st, BOB, {"mines": [{"token": "mine-3", "hex": "2,3",
                                                    "by": layer}]}, None)
    assert "optional rule" in of_type(events, "allocate_void")[0]["reason"]
    st = game("modular-3")
    st["powers"][BOB]["reserve"] = 20
    layer = put(st, "ea-minelayer", BOB, "1,3", facing=1)
    events = allocate.allocate(st, BOB, {"mines": [
        {"token": "mine-3", "hex": "2,3", "by": layer},
        {"token": "mine-2", "hex": "0,4", "by": layer}]}, None)        # one per turn
    laid = of_type(events, "mine_laid")
    assert len(laid) == 1 and st["tokens"][laid[0]["token"]]["hex"] == "2,3"
    assert "already laid" in of_type(events, "allocate_void")[0]["reason"]
    assert st["powers"][BOB]["reserve"] == 17


def test_check_allocate_names_each_bad_entry_by_path():
    st, bases, hyperion, centre = build_position(7)       # + Net 5 in Record Keeping: 12
    st["powers"][BOB]["turns"] = 2
    _, problems = allocate.check_allocate({
        "build": [{"token": "base-4", "hex": centre, "by": hyperion},          # 9: ok, 3 left
                  {"token": "ea-transport", "hex": "0,4", "by": bases["base8"]},  # 6 > 3
                  {"token": "nope", "hex": "0,4", "by": bases["base8"]},
                  {"token": "ea-transport", "hex": "0,4", "by": bases["base8"], "x": 1}],
        "repair": "all", "colour": 1}, PLUGIN.view(st, BOB))
    assert sorted(p.path for p in problems) == sorted([  # every problem at once
        "allocate.colour", "allocate.repair", "allocate.build[1]", "allocate.build[2]",
        "allocate.build[3].x"])
    _, problems = allocate.check_allocate({
        "build": [{"token": "base-4", "hex": centre, "by": hyperion},
                  {"token": "ea-transport", "hex": "0,4", "by": bases["base8"]},
                  {"token": "nope", "hex": "0,4", "by": bases["base8"]}]},
        PLUGIN.view(st, BOB))
    assert [p.path for p in problems] == ["allocate.build[1]", "allocate.build[2]"]
    assert "no financing" in problems[0].message


def test_check_allocate_counts_the_economy_record_keeping_generates_first():
    """Allocate follows Record Keeping (D1.2): the checker judges costs against the Reserve
    after the Net Economy is added, as the referee will; in a first turn the starting fleet is
    paid first and only the referee judges the cost (ruling E8)."""
    st, bases, hyperion, centre = build_position(4)       # Net 5: 9 by Allocate
    order = {"build": [{"token": "ea-transport", "hex": "0,4", "by": bases["base8"]}]}
    st["powers"][BOB]["turns"] = 2
    assert allocate.check_allocate(order, PLUGIN.view(st, BOB))[1] == []
    st["powers"][BOB]["reserve"] = 0                      # 5 by Allocate: too little
    _, problems = allocate.check_allocate(order, PLUGIN.view(st, BOB))
    assert "no financing" in problems[0].message
    st["powers"][BOB]["turns"] = 0
    assert allocate.check_allocate(order, PLUGIN.view(st, BOB))[1] == []


def test_D3_24_a_unit_built_activates_its_hex():
    """"Activate Hex: Ships and bases (not squadrons) activate the hex they are built into":
    a Transport built into Earth's Damage Indicator 1 rolls 1B5 (label build<i>:<token>:hex)."""
    st = game()
    bases = bob_at_home(st, 20)
    tid = f"t{st['next_token']}"
    chance = ScriptedChance(rolls={f"build0:{tid}:hex": [[3]]})
    events = allocate.allocate(st, BOB, {"build": [
        {"token": "ea-transport", "hex": "0,5", "by": bases["base8"]}]}, chance)
    (roll,) = [e for e in events if e["type"] == "roll"]
    assert roll["die"] == "b5" and roll["count"] == 1 and roll["result"] == [3]
    assert of_type(events, "damage")[0]["result"] == "crippled"        # DR 3
    assert st["tokens"][tid]["crippled"] is True


def test_allocate_section_checked_in_the_order_file_with_paths():
    st, bases, hyperion, centre = build_position(40)
    st["powers"][BOB]["turns"] = 2
    _, problems = PLUGIN.normalize_orders({"allocate": {"build": [
        {"token": "base-4", "hex": centre, "by": bases["base8"]}]}}, PLUGIN.view(st, BOB))
    assert [p.path for p in problems] == ["allocate.build[0]"]
    body, problems = PLUGIN.normalize_orders({"allocate": {"build": [
        {"token": "base-4", "hex": centre, "by": hyperion}]}}, PLUGIN.view(st, BOB))
    assert problems == [] and body["allocate"]["build"][0]["by"] == hyperion
