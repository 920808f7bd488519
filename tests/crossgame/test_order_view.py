"""Orders are checked against the same verdict whichever view the engine builds: for every game,
``normalize_orders(body, order_view(state, power))`` equals ``normalize_orders(body,
view(state, power))`` (pbem.game.views) — the normalised orders and every problem, its code, path
and sentence — over every state of the session's played game, every power, and the game's own
logged order bodies with many variations of them (keys dropped, values swapped for other
values of the game or for nonsense, unknown keys added).

A game without ``order_view`` passes trivially (the engine checks against its view); a game
with one is held to this, so acceptance, the replay and the audit may check against it."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from pbem import canonical
from pbem.game import registry, views
from pbem.store import replay
from pbem.store.gamedir import GameDir

GAMES = registry.available()
VARIATIONS = 40  # per logged order body
JUNK: list[Any] = [None, True, 0, -1, 1, 2, 7, 10**6, "", "all", "nowhere", "continue",
                   "stay", [], {}, [None], {"x": 1}, "0" * 64, 1.5]


def _states(game: GameDir, plugin: Any) -> Iterator[dict[str, Any]]:
    """Every state of the game's log: the initial one and the one after each resolution."""
    state = game.initial_state(plugin)
    yield state
    standing: dict[str, Any] = {}
    step = 0
    game_id = game.game_id
    k = replay.chance_key(game)
    for entry in game.log.entries[1:]:
        if entry.kind == replay.ORDERS:
            standing[entry.body["power"]] = entry.body
        elif entry.kind == replay.RESOLVE:
            step += 1
            state = replay.replay_resolution(plugin, state, standing, entry, game_id=game_id,
                                             step=step, k=k).state
            standing = {}
            yield state
        elif entry.kind == replay.GM:
            state = replay.apply_gm(plugin, state, entry)
            yield state


def _leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


def _vary(body: Any, pool: list[Any], rng: random.Random) -> Any:
    """``body`` with one to three random changes: a value replaced (by another value of the
    game's order files or by nonsense), a key dropped, or an unknown key added."""
    out = copy.deepcopy(body)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _paths(out) if p]
        choice = rng.random()
        if not paths or choice < 0.15:
            if isinstance(out, dict):
                out[rng.choice(["unknown", "warps", "depart", *map(str, pool[:5])])] = (
                    rng.choice(pool + JUNK))
            continue
        path = rng.choice(paths)
        parent = out
        for step in path[:-1]:
            parent = parent[step]
        if choice < 0.35 and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = copy.deepcopy(rng.choice(pool + JUNK))
    return out


def _verdict(plugin: Any, body: Any, view: Any) -> tuple[str, bool]:
    """The check's verdict in canonical form (an exception as its type: both views must raise
    alike), and whether it refused the body."""
    try:
        orders, problems = plugin.normalize_orders(body, view)
    except Exception as exc:  # noqa: BLE001 - compared, not hidden
        return f"raised {type(exc).__name__}", True
    return canonical.dumps([orders, [[p.code, p.path, p.message] for p in problems]]), bool(
        problems)


@pytest.mark.parametrize("game", GAMES)
def test_order_view_gives_the_views_verdict_on_every_state_and_body(played, game) -> None:
    table = played(game)
    plugin = table.plugin
    directory = GameDir.open(table.path)
    logged = [e.body["orders"] for e in directory.log.entries[1:] if e.kind == replay.ORDERS]
    assert logged, f"{game}: the played game logged no order file"
    pool = [v for body in logged for v in _leaves(body)][:200]
    rng = random.Random(f"order-view-{game}")
    bodies = [None, {}, *logged]
    bodies += [_vary(b, pool, rng) for b in logged for _ in range(VARIATIONS)]
    powers = plugin.variants()[directory.genesis["variant"]].powers
    states = list(_states(directory, plugin))
    assert len(states) >= 3, f"{game}: too short a game to prove anything"
    checked = refused = 0
    for state in states:
        for power in powers:
            cheap = views.order_view(plugin, state, power)
            full = plugin.view(state, power)
            for body in bodies:
                want, no = _verdict(plugin, body, full)
                got, _ = _verdict(plugin, body, cheap)
                assert got == want, (f"{game}: normalize_orders differs with the order view "
                                     f"(turn {state.get('turn')}, {power}, body {body!r})")
                checked += 1
                refused += no
    assert refused, f"{game}: no variation was refused: the bodies prove nothing"
    assert checked >= len(states) * len(powers) * len(bodies)
