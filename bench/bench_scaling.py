"""Costs that must not grow with a game's history or with the number of games (issue 17).

Lines, each beside a floor measured in this same run (bench/floors.py says how):

- opening the game from its trusted point (``GameDir.open``: the log after the point verified,
  the rest not read) at turn 5 and 300, beside the small-file floor
  (``floors.small_file_us``); what a visit costs
  when the hint does not hold (new orders came in).
- one game-turn (four orders in, the deadline passed: open, resolve, append, state, render,
  queue, deliver to the file transport) at turn 5 and at turn 300. Each runs on a fresh copy
  of the game, synced to disk first (as a game's files are long before its run), after an
  ``os.sync`` of what the benchmarks before it wrote. Floor: the note's game-turn
  floor priced now (``floors.game_turn_ms``).

Idle ``pbem run`` over many games, and visits without a hint, are bench_idle's (it builds its
many games as copies of one).

The long game is built cheaply (``play``): its turns are resolved by the plugin on standing
orders and appended to the log directly (what ``pbem run`` appends, without rendering mail),
then one real run catches up and leaves the trusted point. Set PBEM_BENCH_LONG_TURNS for the
long game (default 300).
"""

from __future__ import annotations

import functools
import os
import shutil
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench import floors
from bench.report import interleaved_medians, line, runs
from pbem import canonical
from pbem.chance.step import StepChance
from pbem.game import registry
from pbem.host import turnjob
from pbem.mail.transports import FileTransport
from pbem.protocol.keys import PrivateKey
from pbem.schedule import to_iso
from pbem.store import chance, replay
from pbem.store.gameconfig import GameConfig
from pbem.store.gamedir import GameDir

T0 = datetime(2026, 12, 1, tzinfo=UTC)
POWERS = ("pavo", "antares", "regulus", "algol")
PERIOD = timedelta(hours=48)
KEYS = {p: PrivateKey.generate() for p in POWERS}


def create(root: Path, gid: str) -> GameDir:
    config = GameConfig.from_data({
        "game_id": gid, "game": "4000ad", "variant": "independents-4",
        "gm": "gm@example.org", "from": "referee@example.org",
        "powers": {p: {"email": f"{p}@example.org"} for p in POWERS},
        "schedule": {"period": "48h"},
    })
    return GameDir.create(root, config, {p: k.public for p, k in KEYS.items()},
                          registry.load("4000ad"), T0)


def _no_draws() -> StepChance:
    raise AssertionError("a bench turn drew a die")


NO_DRAWS = chance.LazyChance(_no_draws)


def play(game: GameDir, turns: int, start: datetime = T0, orders_text: str | None = None
         ) -> datetime:
    """Resolve ``turns`` turns after ``start`` on standing orders straight into the log (what
    ``pbem run`` appends, without its mail); with ``orders_text``, each turn after four orders
    entries carrying that much text, as signed orders would (the log then grows as a played
    game's does: 5 entries, ~5 KB a turn). Returns the time of the last resolution (the next
    deadline is 48 h after it)."""
    plugin = registry.load("4000ad")
    state = replay.load_state(plugin, game).state
    when = start
    entry = None
    for _ in range(turns):
        if orders_text is not None:
            orders_in(game, when + timedelta(hours=1), POWERS, orders_text, state)
        when += PERIOD + timedelta(minutes=1 if orders_text is None else 5)
        orders, used, opened, _stale = replay.gather_orders(plugin, state, {}, None)
        result = plugin.resolve(state, orders, NO_DRAWS)
        body = {"turn": plugin.orders_turn(state), "due": plugin.powers_due(state),
                "used": used, "escrow": opened, "stale": {},
                "state": canonical.digest(result.state), "events": result.events,
                "deadline": to_iso(when + PERIOD)}
        entry = game.log.append(replay.RESOLVE, when, body)
        state = result.state
    assert entry is not None
    game.save_state(state)
    (game.path / turnjob.MAILED).write_text(canonical.dumps({"seq": entry.seq}) + "\n")
    return when


def orders_in(game: GameDir, when: datetime, powers: tuple[str, ...] = POWERS,
              text: str = "-", state: dict[str, Any] | None = None) -> None:
    """``powers``' orders (empty, ``text`` long) for the coming turn, as ingest logs them."""
    plugin = registry.load("4000ad")
    if state is None:
        state = replay.load_state(plugin, game).state
    for p in powers:
        game.log.append(replay.ORDERS, when, replay.orders_body(
            turn=plugin.orders_turn(state), power=p, seq=1, sha256=f"{p:0<64}"[:64],
            text=text, orders={}, received=to_iso(when), message_id=None, key="bench"))


def long_game(work: Path, turns: int) -> tuple[Path, datetime]:
    root = work / f"root-{turns}"
    game = create(root, "long")
    last = play(game, turns)
    transport = FileTransport(work / "sent")
    run = turnjob.run_game(game.path, last + timedelta(minutes=1), transport)
    assert run.status == "waiting", run.line()
    return game.path, last


def prepare_game(work: Path, turns: int) -> tuple[Path, datetime]:
    """The game at ``turns``, orders in for the coming turn, kept as a snapshot to copy (each
    timed game-turn runs on a fresh copy); returns the snapshot's root and the time of its
    last resolution."""
    path, last = long_game(work, turns)
    transport = FileTransport(work / "sent")
    assert turnjob.run_game(path, last + timedelta(minutes=2), transport).status == "waiting"
    orders_in(GameDir.open(path), last + timedelta(minutes=3))
    snapshot = work / f"snapshot-{turns}"
    shutil.copytree(path.parent, snapshot, symlinks=True)
    return snapshot, last


def measure_games(work: Path, games: dict[str, tuple[Path, datetime]],
                  repeat: int = 7) -> dict[str, dict[str, float]]:
    """Opening each game and one game-turn of each, the games taken in turn (a, b, a, b, ...)
    so that their ratio sees the same machine: per game the median open and game-turn in ms
    and its log's length."""
    transport = FileTransport(work / "sent")
    opened = interleaved_medians(
        {name: functools.partial(GameDir.open, snap / "long") for name, (snap, _) in
         games.items()}, number=20)
    times: dict[str, list[float]] = {name: [] for name in games}
    for i in range(runs(repeat)):
        for name, (snapshot, last) in games.items():
            target = work / f"turn-{name}-{i}"
            shutil.copytree(snapshot, target, symlinks=True)
            os.sync()  # the copy on disk, as a game's files are long before its run: the
            # game-turn's fsyncs would write the copied log and state back otherwise
            start = time.perf_counter()
            run = turnjob.run_game(target / "long", last + PERIOD + timedelta(minutes=5),
                                   transport)
            times[name].append(time.perf_counter() - start)
            assert run.status == "resolved", run.line()
            shutil.rmtree(target)
    return {name: {"open": opened[name] * 1e3, "turn": statistics.median(times[name]) * 1e3,
                   "entries": len(GameDir.open(snapshot / "long").log)}
            for name, (snapshot, _) in games.items()}


def run() -> None:
    # The benchmarks before this one in `make bench` leave tens of MB of written files for the
    # kernel to write back; a game-turn's fsyncs would wait on them too (an ext4 journal commit
    # writes the data of every file in it), which is their cost, not a game-turn's.
    os.sync()
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-scaling-"))
    try:
        small_ms = floors.small_file_us() / 1e3
        turn_floor = floors.game_turn_ms()
        print(floors.describe(), flush=True)
        turns = int(os.environ.get("PBEM_BENCH_LONG_TURNS", "300"))
        measured = measure_games(work, {"short": prepare_game(work, 5),
                                        "long": prepare_game(work, turns)})
        short, long = measured["short"], measured["long"]
        line("open from the trusted point at turn 5", short["open"], "ms", small_ms)
        line(f"open from the trusted point at turn {turns} (ratio to turn 5 "
             f"{long['open'] / short['open']:.2f})", long["open"], "ms", small_ms)
        line("game-turn at turn 5", short["turn"], "ms", turn_floor)
        line(f"game-turn at turn {turns} (ratio to turn 5 {long['turn'] / short['turn']:.2f})",
             long["turn"], "ms", turn_floor)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    start = time.perf_counter()
    run()
    print(f"({time.perf_counter() - start:.0f} s)")
