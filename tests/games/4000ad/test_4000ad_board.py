"""The star field and the journey rule (rulebook: "Calculating the Journey's Length")."""

from __future__ import annotations

import pytest

from tests.support.ad_driver import ad_module

board_mod = ad_module("board")
BOARD = board_mod.default_board()

# Every worked journey of both rulebooks (and the seeds README's summary of them).
WORKED_EXAMPLES = [
    ("Algol", "Hamal", 2, "rulebook example 1: A-yellow to D-yellow"),
    ("Regulus", "Adhara", 2, "rulebook example 2: C-yellow down to C-red"),
    ("Vega", "Mira", 5, "rulebook example 3: K, H, E, D, then down"),
    ("Pavo", "Alkaid", 5, "ADC2 example: J-red, K-red, L-red, I-red, I-yellow"),
    ("Regulus", "Antares", 5, "Independents 3 players: home stars 5 apart"),
    ("Regulus", "Mira", 5, "Independents 3 players: home stars 5 apart"),
    ("Antares", "Mira", 5, "Independents 3 players: home stars 5 apart"),
    ("Regulus", "Markab", 1, "same sector: one turn"),
]


@pytest.mark.parametrize("a,b,turns,why", WORKED_EXAMPLES)
def test_worked_journeys(a, b, turns, why):
    assert BOARD.distance(a, b) == turns, why
    assert BOARD.distance(b, a) == turns, "journeys are symmetric"


def test_field_has_48_stars_two_per_sector():
    assert len(BOARD.stars) == 48
    assert len(BOARD.sectors) == 24
    assert all(len(stars) == 2 for stars in BOARD.by_sector.values())


def test_named_placements_kept():
    placed = {
        "Algol": "A-yellow", "Regulus": "C-yellow", "Markab": "C-yellow", "Adhara": "C-red",
        "Hamal": "D-yellow", "Mira": "D-red", "Rigel": "B-red", "Alkaid": "I-yellow",
        "Pavo": "J-red", "Vega": "K-yellow", "Antares": "L-red",
    }
    for star, sector in placed.items():
        assert BOARD.stars[star].sector.name == sector
    assert BOARD.stars["Markab"].circle and BOARD.stars["Markab"].cross
    assert BOARD.reconstruction


def _images(sector):
    """The sector's images under the board's symmetry group."""
    r, c, d = sector.row, sector.col, sector.depth
    return {(r, c, d), (r, 2 - c, d), (3 - r, c, 1 - d), (3 - r, 2 - c, 1 - d)}


def test_board_is_balanced_under_its_symmetries():
    by_coord = {(s.row, s.col, s.depth): name for name, s in BOARD.sectors.items()}

    def resources(sector_name):
        return sorted((s.circle, s.cross) for s in BOARD.by_sector[sector_name])

    for name, sector in BOARD.sectors.items():
        for image in _images(sector):
            assert resources(by_coord[image]) == resources(name), (name, by_coord[image])
    homes = {(BOARD.stars[h].sector.row, BOARD.stars[h].sector.col, BOARD.stars[h].sector.depth)
             for h in ("Algol", "Regulus", "Pavo", "Antares")}
    assert _images(BOARD.stars["Algol"].sector) == homes


def test_distance_rule_matches_brute_force_path_count():
    """Fewest sectors on a non-diagonal path, both ends counted (breadth-first search)."""
    from collections import deque

    coords = {(s.row, s.col, s.depth) for s in BOARD.sectors.values()}
    for start in coords:
        seen = {start: 1}
        queue = deque([start])
        while queue:
            cur = queue.popleft()
            for delta in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
                nxt = (cur[0] + delta[0], cur[1] + delta[1], cur[2] + delta[2])
                if nxt in coords and nxt not in seen:
                    seen[nxt] = seen[cur] + 1
                    queue.append(nxt)
        for sec in BOARD.sectors.values():
            a = next(s for s in BOARD.sectors.values() if (s.row, s.col, s.depth) == start)
            assert BOARD.sector_distance(a, sec) == seen[(sec.row, sec.col, sec.depth)]


def test_paths_have_seven_spaces_and_furthest_reach():
    assert BOARD.max_distance == 7
    assert BOARD.furthest("A-yellow") == 7
    assert BOARD.furthest("B-yellow") == 6
    assert BOARD.furthest("E-yellow") == 5


def test_unknown_star_suggests_closest():
    with pytest.raises(board_mod.UnknownStar) as err:
        BOARD.lookup("Vgea")
    assert "Vega" in str(err.value)
    assert BOARD.lookup("vEgA").name == "Vega"


def test_other_star_of_sector():
    assert BOARD.other_star("Regulus") == "Markab"
    assert BOARD.other_star("Markab") == "Regulus"
