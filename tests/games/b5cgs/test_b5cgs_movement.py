"""The Move phase (D4), rule by rule, each on a table laid out by hand: the standard movement
options (D4.11) and empire exceptions (D4.13), no stacking (D4.14), the Babylon 5 hex (B1.16),
once per turn (D4.1, D4.67), and the order check agreeing with the referee."""

from __future__ import annotations

from tests.support.b5cgs_driver import blank, check, hexes, movement, put, run_moves, where

EA, MF = "earth-alliance", "minbari"
HERE = "2,-2"   # a hex of slot 6 (centre 3,-2), two hexes from Babylon 5


def ship(st, ttype="ea-hyperion", owner=EA, at=HERE, facing=1, **kw):
    return put(st, ttype, owner, at, facing, **kw)


def options(st, tid):
    return movement.standard_moves(st, tid)


def n(h, d):
    return hexes.key(hexes.neighbour(hexes.parse(h), d))


def test_D4_11_rotate_60_or_120_in_place():
    st = blank()
    t = ship(st, facing=1)
    for facing in (2, 3, 5, 6):
        assert options(st, t)[(HERE, facing)] == "rotate"
    assert (HERE, 4) not in options(st, t)  # 180 degrees is no standard movement
    events = run_moves(st, EA, [{"unit": t, "to": HERE, "facing": 3}])
    assert st["tokens"][t]["facing"] == 3 and st["tokens"][t]["hex"] == HERE
    assert events[0]["how"] == "rotate"


def test_D4_11_forward_one_hex_without_changing_facing():
    st = blank()
    t = ship(st, facing=2)
    run_moves(st, EA, [{"unit": t, "to": n(HERE, 2), "facing": 2}])
    assert st["tokens"][t]["hex"] == n(HERE, 2) and st["tokens"][t]["facing"] == 2


def test_D4_11_rotate_60_then_forward():
    st = blank()
    t = ship(st, facing=1)
    assert options(st, t)[(n(HERE, 2), 2)] == "turn-forward"
    assert options(st, t)[(n(HERE, 6), 6)] == "turn-forward"
    run_moves(st, EA, [{"unit": t, "to": n(HERE, 6), "facing": 6}])
    assert st["tokens"][t]["hex"] == n(HERE, 6) and st["tokens"][t]["facing"] == 6


def test_D4_11_backward_one_hex_without_changing_facing():
    st = blank()
    t = ship(st, facing=1)
    assert options(st, t)[(n(HERE, 4), 1)] == "back"
    run_moves(st, EA, [{"unit": t, "to": n(HERE, 4), "facing": 1}])
    assert st["tokens"][t]["hex"] == n(HERE, 4) and st["tokens"][t]["facing"] == 1


def test_D4_11_sideslip_forward_left_or_right_keeping_facing():
    st = blank()
    t = ship(st, facing=1)
    assert options(st, t)[(n(HERE, 2), 1)] == "sideslip"
    assert options(st, t)[(n(HERE, 6), 1)] == "sideslip"
    run_moves(st, EA, [{"unit": t, "to": n(HERE, 2), "facing": 1}])
    assert st["tokens"][t]["hex"] == n(HERE, 2) and st["tokens"][t]["facing"] == 1


def test_D4_11_nothing_else_is_a_standard_movement():
    st = blank()
    t = ship(st, facing=1)
    far = n(n(HERE, 1), 1)
    assert (far, 1) not in options(st, t)  # two hexes: not for Earth Alliance
    assert (n(HERE, 3), 3) not in options(st, t)  # turning 120 then moving
    events = run_moves(st, EA, [{"unit": t, "to": far, "facing": 1}])
    assert events[0]["type"] == "move_void" and st["tokens"][t]["hex"] == HERE


def test_D4_13_nova_and_omega_cannot_sideslip():
    st = blank()
    nova = ship(st, "ea-nova", facing=1)
    assert (n(HERE, 2), 1) not in options(st, nova)
    assert (n(HERE, 2), 2) in options(st, nova)  # it may still turn and move
    _, problems = check(st, EA, {"move": [{"unit": nova, "to": n(HERE, 2), "facing": 1}]})
    assert [p.path for p in problems] == ["move[0]"]


def test_D4_13_minbari_ships_move_at_speed_2():
    st = blank()
    cruiser = ship(st, "mf-cruiser", MF, facing=1)
    far = n(n(HERE, 1), 1)
    assert options(st, cruiser)[(far, 1)] == "forward-2"
    run_moves(st, MF, [{"unit": cruiser, "to": far, "facing": 1}])
    assert st["tokens"][cruiser]["hex"] == far


def test_D4_13_speed_2_passes_through_an_unoccupied_hex_only():
    st = blank()
    cruiser = ship(st, "mf-cruiser", MF, facing=1)
    ship(st, "ea-transport", EA, at=n(HERE, 1))
    events = run_moves(st, MF, [{"unit": cruiser, "to": n(n(HERE, 1), 1), "facing": 1}])
    assert events[0]["type"] == "move_void" and "occupied" in events[0]["reason"]


def test_D4_14_one_unit_per_hex():
    st = blank()
    t = ship(st, facing=1)
    other = ship(st, "mf-cruiser", MF, at=n(HERE, 1))
    _, problems = check(st, EA, {"move": [{"unit": t, "to": n(HERE, 1), "facing": 1}]})
    assert problems and "one unit per hex" in problems[0].message
    events = run_moves(st, EA, [{"unit": t, "to": n(HERE, 1), "facing": 1}])
    assert events[0]["type"] == "move_void"
    assert st["tokens"][t]["hex"] == HERE and st["tokens"][other]["hex"] == n(HERE, 1)


def test_B1_16_the_babylon_5_hex_cannot_be_entered():
    st = blank()
    t = ship(st, at="0,-1", facing=4)  # next to Babylon 5, facing it: docked
    assert where.docked_to(st, t) == "0,0"
    _, problems = check(st, EA, {"move": [{"unit": t, "to": "0,0", "facing": 4}]})
    assert problems and "Babylon 5 hex" in problems[0].message
    events = run_moves(st, EA, [{"unit": t, "to": "0,0", "facing": 4}])
    assert events[0]["type"] == "move_void" and st["tokens"][t]["hex"] == "0,-1"


def test_B1_16_not_even_when_the_piece_is_unexposed():
    st = blank()
    st["map"]["slots"][0]["exposed"] = False
    t = ship(st, at="0,-1", facing=4)
    assert run_moves(st, EA, [{"unit": t, "to": "0,0", "facing": 4}])[0]["type"] == "move_void"


def test_D4_1_each_ship_moves_once_and_bases_never():
    st = blank()
    t = ship(st, facing=1)
    base = put(st, "base-4", EA, n(HERE, 4), 1)
    body = {"move": [{"unit": t, "to": n(HERE, 1), "facing": 1},
                     {"unit": t, "to": n(n(HERE, 1), 1), "facing": 1},
                     {"unit": base, "to": n(n(HERE, 4), 4), "facing": 1}]}
    _, problems = check(st, EA, body)
    assert [p.path for p in problems] == ["move[1]", "move[2]"]
    events = run_moves(st, EA, body["move"])
    assert [e["type"] for e in events] == ["moved", "move_void", "move_void"]
    assert st["tokens"][t]["hex"] == n(HERE, 1)


def test_only_your_own_ships_move():
    st = blank()
    theirs = ship(st, "mf-cruiser", MF)
    _, problems = check(st, EA, {"move": [{"unit": theirs, "to": n(HERE, 1), "facing": 1}]})
    assert problems and "not yours" in problems[0].message


def test_moves_run_in_the_listed_order():
    st = blank()
    a = ship(st, facing=1)
    b = ship(st, "ea-transport", at=n(HERE, 4), facing=1)
    # b moves into a's hex after a has left it
    body = [{"unit": a, "to": n(HERE, 1), "facing": 1}, {"unit": b, "to": HERE, "facing": 1}]
    _, problems = check(st, EA, {"move": body})
    assert problems == []
    run_moves(st, EA, body)
    assert (st["tokens"][a]["hex"], st["tokens"][b]["hex"]) == (n(HERE, 1), HERE)
    # the other way round, b's entry finds the hex still occupied
    st2 = blank()
    a = ship(st2, facing=1)
    b = ship(st2, "ea-transport", at=n(HERE, 4), facing=1)
    _, problems = check(st2, EA, {"move": list(reversed(body))})
    assert [p.path for p in problems] == ["move[0]"]


def test_off_the_map_is_refused():
    st = blank()
    at = next(h for s in st["map"]["slots"] for h in s["hexes"]
              if not where.on_map(st, n(h, 2)))
    edge = n(at, 2)
    t = ship(st, at=at, facing=2)
    _, problems = check(st, EA, {"move": [{"unit": t, "to": edge, "facing": 2}]})
    assert problems and "not on the map" in problems[0].message


def test_the_order_check_names_each_bad_field_by_its_path():
    st = blank()
    t = ship(st)
    body = {"move": [{"unit": t, "to": "here", "facing": 9},
                     {"unit": 7, "jump": "1,1", "to": "1,1"},
                     {"sweep": t, "unit": t},
                     "fly"],
            "nonsense": 1}
    _, problems = check(st, EA, body)
    paths = {p.path for p in problems}
    assert {"move[0].to", "move[0].facing", "move[1].unit", "move[1]", "move[2]", "move[3]",
            "nonsense"} <= paths, paths
