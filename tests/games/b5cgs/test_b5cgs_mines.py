"""Mines (modular: D4.4, H5): a unit entering a mine's hex detonates it (D4.42), a jump does
not double it (D4.44, E1.12), and minesweeping (H5) rolls the sweeper's Defense Grid die and
takes (Damage Indicator - DG) Babylon 5 dice without entering the hex."""

from __future__ import annotations

from tests.support.b5cgs_driver import ScriptedChance, blank, check, hexes, put, run_moves

EA = "earth-alliance"
ORIGIN = "2,1"


def table():
    return blank("modular-4")


def ahead(h, d=2, k=1):
    p = hexes.parse(h)
    for _ in range(k):
        p = hexes.neighbour(p, d)
    return hexes.key(p)


def test_D4_42_entering_a_mine_detonates_and_removes_it():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    mine = put(st, "mine-3", "korath", ahead(ORIGIN), None)
    chance = ScriptedChance(rolls={f"move0:{t}:mine": [[2, 2, 1]]})
    events = run_moves(st, EA, [{"unit": t, "to": ahead(ORIGIN), "facing": 2}], chance)
    hit = next(e for e in events if e["type"] == "activated")
    assert (hit["element"], hit["indicator"], hit["damage"]) == ("mine", 3, 5)
    assert mine not in st["tokens"]
    assert not st["tokens"][t]["crippled"]  # 5 < DR 6


def test_D4_44_a_mine_is_not_doubled_by_a_jump():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    put(st, "mine-3", "korath", "4,-1", None)
    chance = ScriptedChance(rolls={f"move0:{t}:mine": [[2, 2, 1]]})
    events = run_moves(st, EA, [{"unit": t, "jump": "4,-1"}], chance)
    hit = next(e for e in events if e["type"] == "activated")
    assert (hit["damage"], hit["doubled"]) == (5, False)
    assert not st["tokens"][t]["crippled"]


def test_C6_3_the_mine_first_then_the_hex():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    put(st, "mine-2", "korath", ahead(ORIGIN), None)
    st["hexes"][ahead(ORIGIN)]["damage"] = 1
    chance = ScriptedChance(rolls={f"move0:{t}:mine": [[0, 1]], f"move0:{t}:hex": [[2]]})
    events = run_moves(st, EA, [{"unit": t, "to": ahead(ORIGIN), "facing": 2}], chance)
    assert [e["element"] for e in events if e["type"] == "activated"] == ["mine", "damage"]


def test_H5_minesweeping_example():
    """"Your ship is attempting to sweep a mine with a Damage Indicator of 3. You roll a 1 on
    the Defense Grid Die and then take the result of 2 Babylon 5 dice as damage to your
    ship ... even though you did not enter the mine hex.\""""
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    mine = put(st, "mine-3", "korath", ahead(ORIGIN), None)
    chance = ScriptedChance(rolls={f"move0:{t}:sweep-dg": [[1]],
                                   f"move0:{t}:sweep-b5": [[3, 4]]})
    events = run_moves(st, EA, [{"sweep": t}], chance)
    rolls = [e for e in events if e["type"] == "roll"]
    assert [(r["die"], r["count"]) for r in rolls] == [("dg:earth-alliance", 1), ("b5", 2)]
    swept = next(e for e in events if e["type"] == "swept")
    assert (swept["indicator"], swept["dg"], swept["dice"], swept["damage"]) == (3, 1, 2, 7)
    assert mine not in st["tokens"]
    assert st["tokens"][t]["hex"] == ORIGIN and st["tokens"][t]["crippled"]  # 7 >= DR 6


def test_H5_a_defense_grid_roll_at_the_indicator_means_no_damage_dice():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    put(st, "mine-2", "korath", ahead(ORIGIN), None)
    chance = ScriptedChance(rolls={f"move0:{t}:sweep-dg": [[3]]})
    events = run_moves(st, EA, [{"sweep": t}], chance)
    assert [e["die"] for e in events if e["type"] == "roll"] == ["dg:earth-alliance"]
    assert next(e for e in events if e["type"] == "swept")["damage"] == 0


def test_D4_43_sweeping_is_in_addition_to_the_movement_then_the_way_is_clear():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    put(st, "mine-2", "korath", ahead(ORIGIN), None)
    body = [{"sweep": t}, {"unit": t, "to": ahead(ORIGIN), "facing": 2}]
    _, problems = check(st, EA, {"move": body})
    assert problems == []
    chance = ScriptedChance(rolls={f"move0:{t}:sweep-dg": [[3]]})
    events = run_moves(st, EA, body, chance)
    assert [e["type"] for e in events if e["type"] in ("swept", "moved")] == ["swept", "moved"]
    assert st["tokens"][t]["hex"] == ahead(ORIGIN)


def test_H5_only_a_mine_directly_in_front():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    put(st, "mine-2", "korath", ahead(ORIGIN, 3), None)
    _, problems = check(st, EA, {"move": [{"sweep": t}]})
    assert problems and "no mine directly in front" in problems[0].message


def test_mines_are_modular():
    st = blank("basic-4")
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    put(st, "mine-2", "korath", ahead(ORIGIN), None)
    _, problems = check(st, EA, {"move": [{"sweep": t}]})
    assert problems and "modular" in problems[0].message


def test_a_unit_crippled_by_its_sweep_is_skipped_afterwards_under_rules_version_1():
    """Ruling R17 as rules version 1 played it (version 2 lets the ship move: D4.43,
    test_b5cgs_rulings.py::test_R17_sweeping_is_in_addition_to_its_movement)."""
    st = table()
    st["options"].pop("rules_version")
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    put(st, "mine-3", "korath", ahead(ORIGIN), None)
    chance = ScriptedChance(rolls={f"move0:{t}:sweep-dg": [[0]],
                                   f"move0:{t}:sweep-b5": [[3, 3, 2]]})
    events = run_moves(st, EA, [{"sweep": t}, {"unit": t, "to": ahead(ORIGIN), "facing": 2}],
                       chance)
    assert events[-1]["type"] == "move_skipped" and st["tokens"][t]["hex"] == ORIGIN
