"""Idle costs that must not grow with a game's history or with the number of games (issue 17).

Lines, each beside a floor measured in this same run (bench/floors.py says how):

- idle visit (``turnjob.run_game`` of a game with nothing due: its idle hint holds) at turn 5
  and at turn 300 of the same game. Floor: ``floors.small_file_us`` (one small file read, three
  ``stat`` calls, one empty directory listed). Turn 300 should be within 1.2× of turn 5.
- visit without a hint (new orders came in, nothing is due: the game is opened from its trusted
  point, its state loaded, reminders checked) at turn 5 and 300 of the same game; same floor.
  What every visit costs when something changed: it must not scan the history either.
- idle ``pbem run`` over ``PBEM_BENCH_IDLE_RUN_GAMES`` (default 5000) games, in-process
  (``turnjob.run_root``, the root's due list holding for every game) as ms per game; floor the
  small-file visit. Beside it the same run without the due list (each game read through its own
  hint: the fallback), same floor.
- the same idle run as a whole process (``pbem run ROOT --no-send``), ms; floor
  ``floors.process_ms`` (``python -c pass``) plus one small-file visit per game.

Building 5000 games with ``GameDir.create`` would take minutes (each derives fair-chance
commitments and reads the board), so one game is made and played one turn, and the others are
copies of its directory under new ids: config.yaml, the genesis entry's ids and the state's
game id rewritten, every entry re-hashed, the digests of the states recomputed. A copy passes
every check a run makes; its fair-chance commitments are the first game's (no turn here draws).
Set PBEM_BENCH_IDLE_TURNS for the long game (default 300).
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bench import floors
from bench.bench_scaling import PERIOD, POWERS, T0, create, orders_in, play
from bench.report import interleaved_medians, line, median_seconds
from pbem import canonical
from pbem.game import registry
from pbem.host import duelist, turnjob
from pbem.mail.transports import FileTransport
from pbem.schedule import to_iso
from pbem.store import log as glog
from pbem.store import trusted
from pbem.store.gamedir import GameDir

HOUR_AGO = 3600.0


def age(path: Path) -> None:
    """Date a file an hour back, as a config.yaml written before this run would be (a config
    changed within a second gets no idle hint: pbem.host.duelist.RACY_SECONDS)."""
    old = time.time() - HOUR_AGO
    os.utime(path, (old, old))


def _unhinted_visit(game: GameDir, when: Any, transport: FileTransport) -> None:
    trusted.save(game.path, game.log, None)
    run = turnjob.run_game(game.path, when, transport)
    assert run.status == "waiting" and run.hint is not None, run.line()


def _visits(games: dict[str, tuple[Path, Any]], transport: FileTransport) -> dict[str, float]:
    """For each game (name: (path, when)): the idle visit through the hint and the visit
    without a hint, in ms, at ``when``, the games measured in turn (bench/report.py's
    interleaved_medians: the ratio of two games sees the same machine). The visit without a
    hint drops the hint first (keeping the trusted point): one small write more than such a
    visit does."""
    idle: dict[str, Callable[[], object]] = {}
    full: dict[str, Callable[[], object]] = {}
    for name, (path, when) in games.items():
        run = turnjob.run_game(path, when, transport)
        assert run.status == "waiting" and run.hint is not None, run.line()
        idle[name] = functools.partial(turnjob.run_game, path, when, transport)
        full[name] = functools.partial(_unhinted_visit, GameDir.open(path), when, transport)
    out = {f"idle {k}": v * 1e3 for k, v in interleaved_medians(idle, number=200).items()}
    out |= {f"full {k}": v * 1e3 for k, v in interleaved_medians(full, number=20).items()}
    return out


def same_game(work: Path, short: int, long: int) -> dict[str, float]:
    """Idle and unhinted visits at turn ``short`` and at turn ``long`` of one game: the game
    at turn ``short`` is kept as a copy (its root copied whole) while the original plays on,
    and both are measured in turn."""
    root = work / "long"
    game = create(root, "long")
    transport = FileTransport(work / "sent")
    out: dict[str, float] = {}
    games: dict[str, tuple[Path, Any]] = {}
    played = 0
    last = T0
    for turns in (short, long):
        last = play(game, turns - played, last, orders_text="-" * 900)
        played = turns
        age(game.path / "config.yaml")
        when = last + timedelta(minutes=1)
        orders_in(GameDir.open(game.path), when, POWERS[:3])  # the visit has orders to read
        at = when + timedelta(minutes=1)
        path = game.path
        if turns == short:
            shutil.copytree(root, work / f"at-{short}", symlinks=True)
            path = work / f"at-{short}" / game.path.name
            age(path / "config.yaml")
        games[str(turns)] = (path, at)
        out[f"entries {turns}"] = len(GameDir.open(path).log)
        game = GameDir.open(game.path)
    return out | _visits(games, transport)


def _clone(template: Path, initial: dict[str, Any], hint: dict[str, Any],
           target: Path) -> None:
    """A copy of the game at ``template`` under the id ``target.name`` (see the docstring)."""
    old, new = template.name, target.name
    os.mkdir(target, 0o700)
    for sub in ("keys", "outbox", "outbox/pending", "outbox/sent", "outbox/failed",
                "outbox/keys"):
        os.mkdir(target / sub, 0o700)
    for key in os.listdir(template / "keys"):
        shutil.copyfile(template / "keys" / key, target / "keys" / key)
    for name in ("components.json", "mailed.json"):
        shutil.copyfile(template / name, target / name)
    (target / "config.yaml").write_text((template / "config.yaml").read_text()
                                        .replace(f"game_id: {old}\n", f"game_id: {new}\n"))
    cached = json.loads((template / "state.json").read_bytes())
    state = json.loads(json.dumps(cached["state"]).replace(f'"{old}"', f'"{new}"'))
    first = json.loads(json.dumps(initial).replace(f'"{old}"', f'"{new}"'))
    prev = None
    lines = []
    for entry in glog.GameLog.load(template / "log.jsonl").entries:
        body = entry.body
        if entry.kind == glog.GENESIS_KIND:
            body = {**body, "game_id": new, "config": {**body["config"], "game_id": new},
                    "options": {**body["options"], "game_id": new},
                    "initial_state": canonical.digest(first)}
        elif entry.kind == "resolve" and entry.seq == cached["log_length"] - 1:
            body = {**body, "state": canonical.digest(state)}
        prev = glog.make_entry(prev, entry.kind, entry.time, body)
        lines.append(prev.line())
    (target / "log.jsonl").write_bytes(b"".join(lines))
    assert prev is not None and cached["log_length"] == len(lines)
    (target / "state.json").write_bytes(canonical.encode(
        {"log_length": len(lines), "head": prev.hash, "digest": canonical.digest(state),
         "state": state}))
    age(target / "config.yaml")
    # The idle hint the copy's first visit would write: the template's status and due time
    # (the same game), the copy's own marks. Saves a full visit per copy when building.
    hint = {**hint, "log": duelist.mark(str(target / "log.jsonl")),
            "config": duelist.mark(str(target / "config.yaml")), "pending": []}
    trusted.save(target, glog.GameLog.load(target / "log.jsonl"), hint)


def many_games(work: Path, n: int, now: datetime) -> Path:
    root = work / "many"
    template = create(root, "g00000")
    play(template, 1, orders_text="-" * 900)
    initial = template.initial_state(registry.load("4000ad"))
    age(template.path / "config.yaml")
    run = turnjob.run_game(template.path, now, None)
    hint = trusted.read(template.path)[1]
    assert run.status == "waiting" and hint is not None, run.line()
    for i in range(1, n):
        _clone(template.path, initial, hint, root / f"g{i:05d}")
    return root


def idle_run(work: Path, n: int) -> dict[str, float]:
    now = T0 + PERIOD + timedelta(minutes=2)
    root = many_games(work, n, now)
    runs = turnjob.run_root(root, now, None)  # each through its hint; the due list written
    assert all(r.status == "waiting" and r.hint is not None for r in runs), [
        r.line() for r in runs if r.hint is None][:3]
    assert len(duelist.load(root)) == n
    listed = median_seconds(lambda: turnjob.run_root(root, now, None), repeat=5)

    def without_list() -> None:
        os.unlink(duelist.path(root))
        turnjob.run_root(root, now, None)  # each game through its own hint; list rebuilt

    fallback = median_seconds(without_list, repeat=3)
    cmd = [sys.executable, "-m", "pbem", "run", str(root), "--no-send", "--now", to_iso(now)]

    def process() -> None:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False,
                              env=floors.process_env())
        assert done.returncode == 0 and done.stdout.count(": waiting") == n, done.stderr[-500:]

    process()  # writes the bytecode cache (floors.process_env), as the first run after install
    whole = median_seconds(process, repeat=3)
    return {"listed": listed * 1e3 / n, "fallback": fallback * 1e3 / n, "process": whole * 1e3}


def run() -> None:
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-idle-"))
    try:
        small_ms = floors.small_file_us() / 1e3
        print(f"floors measured now: small-file visit {small_ms * 1e3:.1f} µs, process "
              f"{floors.process_ms():.1f} ms", flush=True)
        turns = int(os.environ.get("PBEM_BENCH_IDLE_TURNS", "300"))
        g = same_game(work, 5, turns)
        line(f"idle visit at turn 5 ({g['entries 5']:.0f} entries)", g["idle 5"], "ms", small_ms)
        line(f"idle visit at turn {turns} of the same game ({g[f'entries {turns}']:.0f} entries;"
             f" ratio to turn 5 {g[f'idle {turns}'] / g['idle 5']:.2f})", g[f"idle {turns}"],
             "ms", small_ms)
        line("visit without a hint at turn 5 (orders in, nothing due)", g["full 5"], "ms",
             small_ms)
        line(f"visit without a hint at turn {turns} of the same game (ratio to turn 5 "
             f"{g[f'full {turns}'] / g['full 5']:.2f})", g[f"full {turns}"], "ms", small_ms)
        n = int(os.environ.get("PBEM_BENCH_IDLE_RUN_GAMES", "5000"))
        r = idle_run(work, n)
        line(f"idle pbem run over {n} games, per game (due list)", r["listed"], "ms", small_ms)
        line(f"idle pbem run over {n} games, per game, without the due list (each game's hint)",
             r["fallback"], "ms", small_ms)
        line(f"idle pbem run over {n} games as a whole process (pbem run --no-send)",
             r["process"], "ms", floors.process_ms() + n * small_ms)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    start = time.perf_counter()
    run()
    print(f"({time.perf_counter() - start:.0f} s)")
