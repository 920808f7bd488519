"""Properties of movement on random galaxies (games/ti4/galaxy.py): reach grows with the move
value, and every path reach reports is one the path checker accepts."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.ti4.galaxy import (
    ANOMALIES,
    WORMHOLES,
    Galaxy,
    Situation,
    Tile,
    path_problems,
    reach,
    spiral,
)

POSITIONS = spiral(2)
#: The strategies each draw uses, made once (hypothesis validates a strategy each time one is
#: made, which was most of these tests' cost): the same strategies, so the same draws.
HOLES = st.sets(st.sampled_from(WORMHOLES), max_size=1)
ANOMALY = st.none() | st.sampled_from(ANOMALIES)


@functools.cache
def _names(names: tuple[str, ...]) -> tuple[st.SearchStrategy[set[str]],
                                            st.SearchStrategy[set[str]],
                                            st.SearchStrategy[str]]:
    """The enemy, token and start strategies over the systems ``names``."""
    return (st.sets(st.sampled_from(names)), st.sets(st.sampled_from(names), max_size=3),
            st.sampled_from(names))


@functools.cache
def _one_of(near: Sequence[str]) -> st.SearchStrategy[str]:
    return st.sampled_from(near)


@st.composite
def boards(draw: st.DrawFn) -> tuple[Galaxy, Situation, str]:
    n = draw(st.integers(2, len(POSITIONS)))
    tiles = {}
    for i, at in enumerate(POSITIONS[:n]):
        holes = draw(HOLES)
        anomaly = draw(ANOMALY)
        tiles[f"S{i}"] = Tile(at, frozenset(holes), anomaly)
    enemies, tokens_of, start_of = _names(tuple(sorted(tiles)))
    enemy = draw(enemies)
    tokens = draw(tokens_of)
    start = draw(start_of)
    return Galaxy(tiles), Situation.of(enemy, tokens), start


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.integers(0, 4))
def test_reach_is_monotone_in_move_and_its_paths_are_legal(board: tuple[Galaxy, Situation, str],
                                                           move: int) -> None:
    g, here, start = board
    now, more = reach(g, start, move, here), reach(g, start, move + 1, here)
    assert now.keys() <= more.keys()
    for dest, path in now.items():
        assert path[0] == start and path[-1] == dest
        assert path_problems(g, path, move, here) == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.integers(1, 3), st.data())
def test_every_legal_path_ends_in_a_reached_system(board: tuple[Galaxy, Situation, str],
                                                   move: int, data: st.DataObject) -> None:
    """The other way round: a random walk the checker accepts ends where reach says it can."""
    g, here, start = board
    path = [start]
    for _ in range(data.draw(st.integers(1, 4))):
        near = tuple(sorted(g.adjacent(path[-1])))
        if not near:
            break
        path.append(data.draw(_one_of(near)))
    if len(path) > 1 and path_problems(g, path, move, here) == []:
        assert path[-1] in reach(g, start, move, here)
