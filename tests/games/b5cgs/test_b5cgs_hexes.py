"""Hex geometry (games/b5cgs/hexes.py): directions numbered as the Babylon 5 piece's random
direction numbers, distance, facing and rotation, the forward 60-degree arc (the rulebook's
Example E: 7 possible jumps), firing arcs by hex side with spines included (D5.43), map pieces
of 7 hexes under rotation and flips (D4.21), and the 13/19-piece layouts (C2.1)."""

from __future__ import annotations

import pytest

from tests.support.b5cgs_driver import hexes as hx


def test_H4_six_directions_numbered_clockwise_from_north():
    assert [hx.DIRS[d] for d in range(1, 7)] == [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1),
                                                 (-1, 0)]
    for d in range(1, 7):
        assert hx.rotate_vec(hx.DIRS[d], 1) == hx.DIRS[hx.turn(d, 1)]
        assert hx.direction_to((4, -2), hx.neighbour((4, -2), d)) == d
        assert hx.turn(d, 6) == d and hx.turn(d, -1) == (d - 2) % 6 + 1


def test_neighbours_and_distance():
    assert len(set(hx.neighbours((0, 0)))) == 6
    assert all(hx.distance((0, 0), h) == 1 for h in hx.neighbours((0, 0)))
    assert hx.distance((0, 0), (2, -3)) == 3 and hx.distance((1, 1), (-2, 2)) == 3
    assert hx.direction_to((0, 0), (2, 0)) is None


def test_hex_names_parse_and_print():
    assert hx.key((3, -2)) == "3,-2" and hx.parse("3,-2") == (3, -2)
    assert hx.parse(" 3, -2") == (3, -2) and hx.parse([3, -2]) == (3, -2)
    for bad in ("3", "a,b", "1,2,3", None, 7, [1, True], "99999,1"):
        assert hx.parse(bad) is None


@pytest.mark.parametrize("facing", range(1, 7))
def test_D4_64_forward_arc_holds_the_seven_jumps_of_example_E(facing):
    arc = hx.forward_arc((3, -1), facing, 3)
    assert len(arc) == 7
    by_distance = [sum(1 for h in arc if hx.distance((3, -1), h) == k) for k in (1, 2, 3)]
    assert by_distance == [1, 3, 3]
    ahead = (3, -1)
    for _ in range(3):
        ahead = hx.neighbour(ahead, facing)
        assert ahead in arc


def test_D5_43_a_hex_on_a_spine_is_in_both_arcs():
    # (1,-2) lies on the spine between the F and FR arcs of a token facing north (1)
    assert hx.in_arc((0, 0), 1, (1, -2)) and hx.in_arc((0, 0), 2, (1, -2))
    # (0,-2) is straight ahead: in F only
    assert hx.in_arc((0, 0), 1, (0, -2)) and not hx.in_arc((0, 0), 2, (0, -2))
    # every adjacent hex is in exactly one 60-degree arc
    for h in hx.neighbours((0, 0)):
        assert sum(hx.in_arc((0, 0), d, h) for d in range(1, 7)) == 1


def test_D5_4_firing_arcs_by_side_follow_the_facing():
    # facing SE (3): the F side points SE, the A side NW
    assert hx.side_direction(3, "F") == 3 and hx.side_direction(3, "A") == 6
    assert hx.in_firing_arc((0, 0), 3, ["F"], (1, 0))
    assert not hx.in_firing_arc((0, 0), 3, ["F"], (-1, 0))
    assert hx.in_firing_arc((0, 0), 3, ["A"], (-1, 0))
    assert hx.in_firing_arc((0, 0), 3, ["F", "FL", "FR"], (1, -1))
    assert not hx.in_firing_arc((0, 0), 3, [], (1, 0))
    assert not hx.in_firing_arc((0, 0), 3, list(hx.SIDES), (0, 0))


def test_front_is_the_hex_in_the_facing():
    assert hx.front((2, 2), 4) == (2, 3)


def test_B1_a_piece_is_seven_hexes_placed_under_rotation():
    placed = hx.piece_hexes((2, 1), 0)
    assert placed["c"] == (2, 1) and placed["1"] == (2, 0)
    turned = hx.piece_hexes((2, 1), 2)
    assert turned["1"] == hx.neighbour((2, 1), 3)  # printed 1 turned 120 degrees clockwise
    assert set(turned.values()) == set(hx.flower((2, 1)))


def test_D4_21_three_flip_axes_give_three_rotations_of_the_printed_face():
    for back in range(6):
        shown = {hx.exposed_rotation(back, axis) for axis in (1, 2, 3)}
        assert len(shown) == 3
        assert all(r in range(6) for r in shown)
    # which three depends on the face-down rotation nobody knows
    assert {hx.exposed_rotation(0, a) for a in (1, 2, 3)} != {
        hx.exposed_rotation(1, a) for a in (1, 2, 3)}


@pytest.mark.parametrize("pieces", [13, 19])
def test_C2_1_layouts_tile_without_overlap_around_babylon_5(pieces):
    centres = hx.layout(pieces)
    assert len(centres) == pieces and centres[0] == (0, 0)
    cells = [h for c in centres for h in hx.flower(c)]
    assert len(cells) == len(set(cells)) == 7 * pieces
    # every piece touches another (the map is one connected area)
    for c in centres[1:]:
        assert any(hx.piece_distance(c, o) == 1 for o in centres if o != c)
    assert [hx.piece_distance((0, 0), c) for c in centres[1:7]] == [1] * 6
    assert all(hx.piece_distance((0, 0), c) == 2 for c in centres[7:])


def test_C2_32_homeworld_positions():
    for n, slots in hx.HOMEWORLD_SLOTS.items():
        assert len(slots) == n and all(7 <= s < hx.MAP_PIECES[n] for s in slots)
    # 19-piece homeworlds are ring-2 corners ("for 6 players, use the 6 corners")
    corners = {hx.scale(hx.piece_centre(k), 2) for k in range(6)}
    assert {hx.layout(19)[s] for s in hx.HOMEWORLD_SLOTS[4]} <= corners


def test_D4_61_piece_distance():
    a, b = hx.piece_centre(0), hx.piece_centre(3)
    assert hx.piece_distance(a, b) == 2 and hx.piece_distance(a, a) == 0
    with pytest.raises(ValueError):
        hx.piece_distance((0, 0), (1, 0))
