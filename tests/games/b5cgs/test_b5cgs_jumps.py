"""Hyperspace jumps (D4.6) and jump damage (E1.12), each on a table laid out by hand: jump
engines and jumpgates up to 3 hexes into the forward 60-degree arc (D4.61-D4.64, Example E),
gate to gate up to 2 map pieces away, fleet jumps of up to 7 units keeping their relative
positions (D4.68), a jump instead of the movement (D4.67), nothing between entered (D4.63)."""

from __future__ import annotations

from tests.support.b5cgs_driver import (
    ScriptedChance,
    blank,
    check,
    hexes,
    movement,
    put,
    run_moves,
    where,
)

EA = "earth-alliance"
ORIGIN = "2,1"        # slot 1's centre on the 19-piece map; facing 2 (north-east) all arc is map
ARC = ["3,0", "3,-1", "4,-1", "4,0", "4,-2", "5,-2", "5,-1"]


def table():
    return blank("basic-4")


def test_D4_62_a_jump_engine_reaches_the_7_hexes_of_example_E():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    for h in ARC:
        p, why = movement.plan(st, EA, {"unit": t, "jump": h}, set())
        assert p is not None and p.how == "engine", (h, why)
    assert sorted(hexes.key(h) for h in hexes.forward_arc(hexes.parse(ORIGIN), 2, 3)) == sorted(ARC)


def test_D4_64_a_jump_goes_into_the_forward_arc_only():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    behind = hexes.key(hexes.neighbour(hexes.parse(ORIGIN), 5))
    _, why = movement.plan(st, EA, {"unit": t, "jump": behind}, set())
    assert why is not None and "forward 60-degree arc" in why
    side = "4,1"  # two hexes away, 60 degrees off the facing
    assert hexes.distance(hexes.parse(ORIGIN), hexes.parse(side)) == 2
    assert movement.plan(st, EA, {"unit": t, "jump": side}, set())[0] is None


def test_D4_62_at_most_3_hexes():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    four = hexes.key(hexes.add(hexes.parse(ORIGIN), hexes.scale(hexes.DIRS[2], 4)))
    _, why = movement.plan(st, EA, {"unit": t, "jump": four}, set())
    assert why is not None and "at most 3" in why


def test_D4_63_a_jump_keeps_the_facing_and_enters_nothing_between():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    st["hexes"]["3,0"]["damage"] = 3  # between ORIGIN and 4,-1: never rolled for
    events = run_moves(st, EA, [{"unit": t, "jump": "4,-1"}])
    assert [e["type"] for e in events] == ["jumped"]
    assert (st["tokens"][t]["hex"], st["tokens"][t]["facing"]) == ("4,-1", 2)


def test_B4_22_without_a_jump_engine_only_from_a_jumpgate_hex():
    st = table()
    transport = put(st, "ea-transport", EA, ORIGIN, 2)
    _, why = movement.plan(st, EA, {"unit": transport, "jump": "4,-1"}, set())
    assert why is not None and "no jump engine" in why
    st["hexes"][ORIGIN]["jumpgate"] = True
    p, _ = movement.plan(st, EA, {"unit": transport, "jump": "4,-1"}, set())
    assert p is not None and p.how == "gate"


def test_B4_22_a_crippled_hyperion_has_no_jump_engine():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2, crippled=True)
    assert not where.has_jump_engine(st, t)
    assert movement.plan(st, EA, {"unit": t, "jump": "4,-1"}, set())[0] is None


def test_D4_61_gate_to_gate_up_to_2_map_pieces_away():
    st = table()
    st["hexes"][ORIGIN]["jumpgate"] = True
    src_slot = where.slot_of(st, ORIGIN)
    centre = hexes.parse(st["map"]["slots"][src_slot]["centre"])
    for facing in range(1, 7):
        near = far = None
        for s in st["map"]["slots"]:
            c = hexes.parse(s["centre"])
            for h in s["hexes"]:
                hh = hexes.parse(h)
                if (hexes.distance(hexes.parse(ORIGIN), hh) > 3
                        and hexes.in_arc(hexes.parse(ORIGIN), facing, hh) and h != "0,0"):
                    d = hexes.piece_distance(centre, c)
                    near = near or (h if d == 2 else None)
                    far = far or (h if d >= 3 else None)
        if near and far:
            break
    assert near and far
    t = put(st, "ea-transport", EA, ORIGIN, facing)
    st["hexes"][near]["jumpgate"] = True
    st["hexes"][far]["jumpgate"] = True
    p, why = movement.plan(st, EA, {"unit": t, "jump": near}, set())
    assert p is not None and p.how == "gate", why
    assert movement.plan(st, EA, {"unit": t, "jump": far}, set())[0] is None
    # a far hex without a jumpgate is out of reach too
    st["hexes"][near]["jumpgate"] = False
    assert movement.plan(st, EA, {"unit": t, "jump": near}, set())[0] is None


def test_D4_65_no_jump_into_the_babylon_5_hex():
    st = table()
    t = put(st, "ea-hyperion", EA, "0,2", 1)
    _, why = movement.plan(st, EA, {"unit": t, "jump": "0,0"}, set())
    assert why is not None and "Babylon 5 hex" in why


def test_D4_61_into_an_unoccupied_hex_only():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    put(st, "mf-cruiser", "minbari", "4,-1", 1)
    assert "occupied" in movement.plan(st, EA, {"unit": t, "jump": "4,-1"}, set())[1]


def test_D4_67_a_jump_is_instead_of_the_movement():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    body = [{"unit": t, "jump": "4,-1"}, {"unit": t, "to": "4,-1", "facing": 3}]
    _, problems = check(st, EA, {"move": body})
    assert [p.path for p in problems] == ["move[1]"]
    events = run_moves(st, EA, body)
    assert [e["type"] for e in events] == ["jumped", "move_void"]


def fleet_table():
    st = table()
    primary = put(st, "ea-hyperion", EA, ORIGIN, 2)
    members = [put(st, "ea-transport", EA, hexes.key(hexes.neighbour(hexes.parse(ORIGIN), d)), 2)
               for d in (4, 5, 6)]
    return st, primary, members


def test_D4_68_a_fleet_jump_keeps_the_relative_positions():
    st, primary, members = fleet_table()
    before = {t: hexes.parse(st["tokens"][t]["hex"]) for t in [primary, *members]}
    events = run_moves(st, EA, [{"unit": primary, "jump": "4,-1", "fleet": members}])
    offset = hexes.sub(hexes.parse("4,-1"), before[primary])
    for t in [primary, *members]:
        assert st["tokens"][t]["hex"] == hexes.key(hexes.add(before[t], offset))
        assert st["tokens"][t]["facing"] == 2
    jumped = [e for e in events if e["type"] == "jumped"]
    assert [e["fleet_of"] for e in jumped] == [None, *([primary] * 3)]
    assert all(e["via"] == "engine" for e in jumped)  # the transports ride the primary's jump
    # each consumed its movement for the turn (D4.67)
    again = run_moves(st, EA, [{"unit": members[0], "to": ORIGIN, "facing": 2}])
    assert again[0]["type"] == "move_void"


def test_D4_68_a_fleet_jump_of_8_is_rejected():
    st, primary, members = fleet_table()
    eight = [*members, "t20", "t21", "t22", "t23"]
    _, problems = check(st, EA, {"move": [{"unit": primary, "jump": "4,-1", "fleet": eight}]})
    assert [p.path for p in problems] == ["move[0].fleet"]
    assert "8 units" in problems[0].message and "D4.68" in problems[0].message
    p, why = movement.plan(st, EA, {"unit": primary, "jump": "4,-1", "fleet": eight}, set())
    assert p is None and "at most 7" in why
    # seven is the most that can be adjacent, and may jump
    for d in (1, 2, 3):
        members.append(put(st, "ea-transport", EA,
                           hexes.key(hexes.neighbour(hexes.parse(ORIGIN), d)), 2))
    p, why = movement.plan(st, EA, {"unit": primary, "jump": "5,-2", "fleet": members}, set())
    assert why is None or "occupied" not in why


def test_D4_68_fleet_members_are_adjacent_same_facing_and_unmoved():
    st, primary, members = fleet_table()
    far = put(st, "ea-transport", EA, "0,3", 2)
    turned = members[0]
    st["tokens"][turned]["facing"] = 3
    for bad, reason in ((far, "not adjacent"), (turned, "does not face")):
        _, why = movement.plan(st, EA, {"unit": primary, "jump": "4,-1", "fleet": [bad]}, set())
        assert why is not None and reason in why
    _, why = movement.plan(st, EA, {"unit": primary, "jump": "4,-1", "fleet": [members[1]]},
                           {members[1]})
    assert why is not None and "already moved" in why


def test_E1_11_entering_a_damage_indicator_rolls_that_many_babylon_5_dice():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    to = hexes.key(hexes.neighbour(hexes.parse(ORIGIN), 2))
    st["hexes"][to]["damage"] = 3
    chance = ScriptedChance(rolls={f"move0:{t}:hex": [[1, 2, 4]]})
    events = run_moves(st, EA, [{"unit": t, "to": to, "facing": 2}], chance)
    rolled = next(e for e in events if e["type"] == "roll")
    assert (rolled["die"], rolled["count"], rolled["result"]) == ("b5", 3, [1, 2, 4])
    hit = next(e for e in events if e["type"] == "activated")
    assert (hit["damage"], hit["doubled"]) == (7, False)
    assert st["tokens"][t]["crippled"]  # 7 >= DR 6 (E2.2), < 12


def test_E1_12_jumping_into_a_damage_indicator_doubles_the_result():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    st["hexes"]["4,-1"]["damage"] = 3
    chance = ScriptedChance(rolls={f"move0:{t}:hex": [[1, 1, 1]]})
    events = run_moves(st, EA, [{"unit": t, "jump": "4,-1"}], chance)
    hit = next(e for e in events if e["type"] == "activated")
    assert (hit["damage"], hit["doubled"]) == (6, True)
    assert st["tokens"][t]["crippled"]  # 3 alone would not have crippled DR 6


def test_D4_66_a_minefield_hex_is_not_doubled_on_a_jump():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    st["hexes"]["4,-1"]["minefield"] = 3
    chance = ScriptedChance(rolls={f"move0:{t}:hex": [[1, 1, 1]]})
    events = run_moves(st, EA, [{"unit": t, "jump": "4,-1"}], chance)
    hit = next(e for e in events if e["type"] == "activated")
    assert (hit["element"], hit["damage"], hit["doubled"]) == ("minefield", 3, False)
    assert not st["tokens"][t]["crippled"]


def test_D4_61_a_jumpgate_hex_is_not_activated_on_entry():
    st = table()
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    st["hexes"]["4,-1"]["jumpgate"] = True
    assert [e["type"] for e in run_moves(st, EA, [{"unit": t, "jump": "4,-1"}])] == ["jumped"]
