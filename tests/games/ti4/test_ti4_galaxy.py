"""Galaxy geometry and movement legality (games/ti4/galaxy.py; the seed's tactical action,
step 2, and RULES.md rulings G1-G9)."""

from __future__ import annotations

import pytest

from games.ti4 import pack
from games.ti4.galaxy import (
    CLEAR,
    Galaxy,
    Situation,
    Tile,
    from_layout,
    path_problems,
    reach,
    ring,
    spiral,
)

# A strip of five systems A-B-C-D-E on the row r = 0, and two far-apart systems X and Y.
ROW = {"A": (0, 0), "B": (1, 0), "C": (2, 0), "D": (3, 0), "E": (4, 0)}


def strip(anomalies: dict[str, str] | None = None,
          wormholes: dict[str, frozenset[str]] | None = None,
          extra: dict[str, tuple[int, int]] | None = None) -> Galaxy:
    anomalies, wormholes = anomalies or {}, wormholes or {}
    at = {**ROW, **(extra or {})}
    return Galaxy({sid: Tile(h, wormholes.get(sid, frozenset()), anomalies.get(sid))
                   for sid, h in at.items()})


def codes(g: Galaxy, path: list[str], move: int, here: Situation = CLEAR) -> set[str]:
    return {p.code for p in path_problems(g, path, move, here)}


def test_rings_have_six_k_systems_and_the_galaxies_19_and_37() -> None:
    assert [len(ring(k)) for k in (1, 2, 3)] == [6, 12, 18]
    assert len(spiral(2)) == 19 and len(spiral(3)) == 37
    assert len(set(spiral(3))) == 37 and ring(1)[0] == (0, -1)


def test_adjacency_is_by_shared_edges() -> None:
    g = from_layout(pack.standin(), "large-6")
    assert len(g.adjacent("C0")) == 6
    for sid in g.tiles:
        for other in g.adjacent(sid):
            assert sid in g.adjacent(other)
        assert sid not in g.adjacent(sid)


def test_same_type_wormholes_are_adjacent() -> None:
    g = strip(wormholes={"A": frozenset({"alpha"}), "E": frozenset({"alpha"}),
                         "B": frozenset({"beta"})}, extra={"X": (9, 9)})
    assert "E" in g.adjacent("A") and "A" in g.adjacent("E")
    assert "B" not in g.adjacent("E")  # a beta wormhole is not adjacent to an alpha one
    assert reach(g, "A", 1).keys() == {"B", "E"}


def test_standin_wormholes_join_far_systems() -> None:
    g = from_layout(pack.standin(), "small-3")
    assert "S21" in g.adjacent("S07") and "S07" in g.adjacent("S21")


@pytest.mark.parametrize("anomaly", ["asteroid-field", "supernova"])
def test_asteroid_fields_and_supernovas_cannot_be_entered(anomaly: str) -> None:
    g = strip({"B": anomaly})
    assert "B" not in reach(g, "A", 3) and "C" not in reach(g, "A", 3)
    assert codes(g, ["A", "B"], 3) == {"path-anomaly"}
    assert codes(g, ["A", "B", "C"], 3) == {"path-anomaly"}


def test_a_nebula_is_entered_only_as_the_active_system() -> None:
    g = strip({"B": "nebula"})
    assert reach(g, "A", 3).keys() == {"B"}
    assert path_problems(g, ["A", "B"], 1) == []
    assert codes(g, ["A", "B", "C"], 3) == {"path-nebula"}


def test_a_ship_moving_out_of_a_nebula_has_move_1() -> None:
    g = strip({"A": "nebula"})
    assert reach(g, "A", 3).keys() == {"B"}
    assert codes(g, ["A", "B", "C"], 3) == {"path-long"}


def test_a_gravity_rift_gives_plus_1_move_when_leaving_or_passing_through() -> None:
    g = strip({"B": "gravity-rift"})
    assert reach(g, "A", 1).keys() == {"B", "C"}  # into the rift, then out of it for free
    assert path_problems(g, ["A", "B", "C"], 1) == []
    assert codes(g, ["A", "B", "C", "D"], 1) == {"path-long"}
    assert reach(g, "B", 1).keys() == {"A", "C", "D"}  # starting in it counts as leaving


def test_no_moving_through_a_system_with_enemy_ships() -> None:
    """Seed, tactical action step 2: "can't move through a system with enemy ships"."""
    g = strip()
    here = Situation.of(enemy={"B"})
    assert reach(g, "A", 3, here).keys() == {"B"}  # it may be the active system: combat
    assert codes(g, ["A", "B", "C"], 3, here) == {"path-blocked"}


def test_cant_leave_a_system_that_holds_your_own_command_token() -> None:
    """Seed, tactical action step 2: "They can't leave a system that holds your own command
    token" (and a system already holding one cannot be activated)."""
    g = strip()
    assert reach(g, "A", 3, Situation.of(tokens={"A"})) == {}
    assert codes(g, ["A", "B"], 1, Situation.of(tokens={"A"})) == {"path-token"}
    through = Situation.of(tokens={"B"})
    assert "C" not in reach(g, "A", 3, through) and "B" not in reach(g, "A", 3, through)
    assert codes(g, ["A", "B", "C"], 2, through) == {"path-token"}


@pytest.mark.parametrize("move, expected", [(1, {"B"}), (2, {"B", "C"}), (3, {"B", "C", "D"})])
def test_reach_for_moves_1_to_3(move: int, expected: set[str]) -> None:
    """The move value counts systems entered."""
    g = strip()
    found = reach(g, "A", move)
    assert found.keys() == expected
    assert all(len(p) - 1 <= move and path_problems(g, p, move) == [] for p in found.values())


def test_reach_on_the_standin_galaxy_counts_hexes() -> None:
    g = from_layout(pack.standin(), "large-6")
    # move 1 from the centre: every neighbour no ship is barred from entering
    assert reach(g, "C0", 1).keys() == {s for s in g.adjacent("C0")
                                        if g.anomaly(s) not in ("asteroid-field", "supernova")}


def test_a_path_must_step_between_adjacent_systems() -> None:
    g = strip(extra={"X": (9, 9)})
    assert codes(g, ["A", "C"], 3) == {"path-adjacent"}
    assert codes(g, ["A", "Q"], 3) == {"path-system"}
    assert codes(g, ["A"], 3) == {"path-short"}
    assert codes(g, ["A", "B", "A"], 3) == {"path-loop"}
    assert reach(g, "A", 0) == {} and "path-move" in codes(g, ["A", "B"], 0)


def test_reach_from_a_system_not_on_the_board_is_empty() -> None:
    assert reach(strip(), "Q", 3) == {}
