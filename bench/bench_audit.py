"""``pbem audit`` of a generated 2,000-turn four-power 4000 A.D. game: turns per second and peak
memory at two log lengths.

The game is written straight into a log with ``pbem.store.log.make_entry`` (no mail): each turn
every power sends random legal orders (departures with real commitments, arrivals revealed from
the vault, as tests/games/4000ad/test_4000ad_properties.py plays them), signed with a real Ed25519
key, and a ``resolve`` entry is made from the real rules core exactly as the cron job makes it. The
audit then does everything it does on a real game: chain, signatures, parses, order checks, replay.
The log is written to a file and audited from it (``audit_path``: streamed, with worker
processes where the machine has the cores).

Lines:
- ``audit``: turns per second over the whole game, against the floor of one audited turn
  measured in the same run (bench/floors.py ``audit_turn_ms``: an Ed25519 verify and a
  CSafeLoader parse per order file, and the replay of the turn's resolve entry by the rules
  core), averaged over five turns spread over the game (the state, and the rules core's cost,
  grow as the game goes on), in turns per second: 1000 / floor ms. The floor is the work of one
  process: with worker processes (more than one core) the audit can beat it (ratio < 1).
  The label names the worker processes the audit chose (pbem.audit._parallel.workers_for:
  one per core free beside the walk's) and the load average before and after.
- ``audit CPU, one process`` and ``audit CPU with one worker``: the process time of the same
  audit per turn in one process, and with one worker (the walk's and, in the label, the
  worker's), beside the same floor: figures a busy machine does not change much, where the
  wall-clock line above is only evidence on a quiet one. Each is taken in a fresh process
  (``cpu_ms``), where the workers' time comes back as its children's; the label of the second
  also names the share of the walk's process time that is the pool's threads (its process time
  less its main thread's).
- ``audit's ceiling``: the same log replayed by the rules core alone (``bare_replay_seconds``),
  beside the same floor. The audit replays turn after turn, each from the state the one before
  gave, in one process whatever the cores; the workers take the rest (signatures, parses,
  hashes) off that path. So the audit cannot beat this line: it says how near the audit is to
  what the rules core allows on the machine, and what a faster audit would need.
- ``audit peak memory``: the RSS high-water mark of a fresh process auditing the first 500 and
  all 2,000 turns of the same log, against the same process auditing only its first turn:
  flat memory shows as the same figure (ratio near 1) at both lengths.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from bench import floors
from bench.report import line
from pbem import canonical
from pbem.game import registry, versions
from pbem.protocol.armor import dearmor
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import sign_orders
from pbem.store import log as glog
from pbem.store import replay
from pbem.store.gamedir import GENESIS_FORMAT
from tests.support.ad_driver import AD, Table, random_body

TURNS = 2000  # PBEM_BENCH_AUDIT_TURNS: another length (read when the benchmark runs)
SHORT = 500
MIB = 1024 * 1024
INSTANCE = "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"  # the instance every order file names


def _time(turn: int, step: int) -> str:
    minutes = turn * 10 + step
    return f"2026-12-{1 + minutes // 1440:02d}T{minutes // 60 % 24:02d}:{minutes % 60:02d}:00Z"


def generate(turns: int = TURNS, seed: int = 3
             ) -> tuple[bytes, list[int], list[dict[str, Any]]]:
    """The log bytes of a ``turns``-turn game, the byte length of the log after each turn
    (index 0: genesis only), and five turns spread over the game as the floor needs them."""
    rng = random.Random(seed)
    table = Table("independents-4")
    game_id = table.state["game_id"]
    recorded = versions.genesis_fields(AD, None)  # the rules version, as GameDir.create records
    table.state = AD.setup("independents-4", versions.setup_options(
        {**recorded, "options": {"game_id": game_id}}))
    keys = {p: PrivateKey.generate() for p in AD.powers_due(table.state)}
    referee = PrivateKey.generate()
    genesis = {
        "format": GENESIS_FORMAT, "game_id": game_id, "config": {"generated": "bench"},
        "keys": {p: k.public.text() for p, k in keys.items()},
        "referee": referee.public.text(), "plugin": AD.id, "variant": "independents-4",
        "options": {"game_id": game_id}, "initial_state": canonical.digest(table.state),
        "deadline": _time(0, 0), **recorded,
    }
    entries = [glog.make_entry(None, glog.GENESIS_KIND, _time(0, 0), genesis)]
    lines = [entries[0].line()]
    ends = [len(lines[0])]
    picked = {max(1, turns * k // 10) for k in (1, 3, 5, 7, 9)}
    samples: dict[int, dict[str, Any]] = {t: {} for t in picked}
    for turn in range(1, turns + 1):
        state = table.state
        if AD.is_over(state):
            raise RuntimeError(f"the generated game ended on turn {turn}; pick another seed")
        standing: dict[str, Any] = {}
        for step, power in enumerate(AD.powers_due(state), 1):
            body = _peaceful(table, power, random_body(table, power, rng))
            doc = {"pbem": 1, "game": game_id, "power": power, "turn": state["turn"],
                   "seq": turn, "instance": INSTANCE, "orders": body}
            text = sign_orders(yaml.safe_dump(doc, sort_keys=False), keys[power], check=False)
            if turn in samples:
                armored = dearmor(text)
                samples[turn].setdefault("signed", []).append(
                    (keys[power].public, armored.body.encode("utf-8"), armored.signature))
            sub = replay.orders_body(
                turn=state["turn"], power=power, seq=turn,
                sha256=_sha(text), text=text, orders=body, received=_time(turn, step),
                message_id=None, key=keys[power].public.fingerprint)
            entries.append(glog.make_entry(entries[-1], replay.ORDERS, _time(turn, step), sub))
            lines.append(entries[-1].line())
            standing[power] = sub
        orders, used, opened, stale = replay.gather_orders(AD, state, standing, None)
        result = AD.resolve(state, orders)
        resolve = {"turn": AD.orders_turn(state), "due": AD.powers_due(state), "used": used,
                   "escrow": opened, "stale": {p: [str(x) for x in v] for p, v in stale.items()},
                   "state": canonical.digest(result.state), "events": result.events,
                   "deadline": _time(turn + 1, 0)}
        entries.append(glog.make_entry(entries[-1], replay.RESOLVE, _time(turn, 9), resolve))
        lines.append(entries[-1].line())
        ends.append(ends[-1] + sum(len(x) for x in lines[-len(standing) - 1:]))
        if turn in samples:
            samples[turn].update(state=state, standing=standing, entry=entries[-1],
                                 game_id=game_id)
        entries = entries[-1:]  # only the last is needed to go on
        table.state = result.state
    return b"".join(lines), ends, [samples[t] for t in sorted(samples)]


def _peaceful(table: Table, power: str, body: dict[str, Any]) -> dict[str, Any]:
    """Random orders that keep every power in the game for 200 turns: no departure for a home
    star, never more than half the ships at home leave it (the commitment does not cover the
    ship count), no votes to end, no withdrawals, no concessions."""
    body.pop("vote_end", None)
    body.pop("withdraw", None)
    body.pop("concede", None)
    depart = body.get("depart")
    homes = {info["home"] for info in table.state["powers"].values()}
    if depart:
        star = depart.get("to") or table.vault.get((power, str(depart["warp"]),
                                                    table.state["turn"]), ("",))[0]
        if star in homes:  # nobody attacks a home star, so nobody is eliminated
            del body["depart"]
            return body
    if depart and depart["from"] == table.state["powers"][power]["home"]:
        have = table.state["stars"][depart["from"]]["ships"].get(power, 0)
        if have < 2:
            del body["depart"]
        else:
            depart["ships"] = have // 2
    return body


def _sha(text: str) -> str:
    import hashlib

    return hashlib.sha256(dearmor(text).body.encode("utf-8")).hexdigest()


def bare_replay_seconds(data: bytes) -> float:
    """Seconds the rules core takes to replay the whole log (``pbem.store.replay.replay``:
    each resolution's order checks, the rules, and the digests it records), in one process,
    from entries already parsed. The audit does this and more, in order: turn after turn,
    each from the state the last one gave, so no number of cores makes it faster than this."""
    entries = glog.parse_log(data)
    genesis = entries[0].body
    plugin = registry.load(genesis["plugin"])
    initial = plugin.setup(genesis["variant"], versions.setup_options(genesis, None))
    start = time.perf_counter()
    replay.replay(plugin, entries, initial)
    return time.perf_counter() - start


_AUDIT = """
import json, os, resource, sys, time
from pbem.audit import audit_path
from pbem.audit._parallel import workers_for
path, asked = sys.argv[1], sys.argv[2]
workers = workers_for(os.path.getsize(path), None) if asked == "auto" else int(asked)
before = resource.getrusage(resource.RUSAGE_CHILDREN)
start, cpu, main = time.perf_counter(), time.process_time(), time.thread_time()
report = audit_path(path, workers=workers)
seconds, walk = time.perf_counter() - start, time.process_time() - cpu
main = time.thread_time() - main  # the walk's own thread (the rest: the pool's threads)
after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the pool's workers, once joined
t = report.tally
print(json.dumps({"seconds": seconds, "walk": walk, "main": main, "workers": workers,
                  "lines": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
                  "resolutions": t.resolutions, "orders": t.orders, "counts": t.counts_text()}))
"""


def audited(path: Path, workers: int | None) -> dict[str, Any]:
    """``audit_path`` of ``path`` in a fresh process, as ``pbem audit`` runs it: its wall-clock
    seconds, the CPU seconds of the walk's process (``walk``) and of its workers (``lines``),
    the workers it used (None: as audit_path decides) and the tally's counts.

    A fresh process, because in the bench's own process other benchmarks leave threads
    running (mail servers): there the pool starts its workers from a forkserver
    (pbem.audit._parallel.ahead), which a ``pbem audit`` never does, and getrusage counts
    none of their CPU time (they are the forkserver's children: the old "its worker's:
    0.00 ms"). With no thread running the pool forks them, and their time comes back as
    this process's children's."""
    out = subprocess.run([sys.executable, "-c", _AUDIT, str(path),
                          "auto" if workers is None else str(workers)], check=True,
                         capture_output=True, text=True, cwd=Path(__file__).parent.parent)
    found: dict[str, Any] = json.loads(out.stdout)
    return found


def cpu_ms(path: Path, workers: int) -> tuple[float, float, float]:
    """CPU milliseconds (the walk's process, its workers', the walk's own thread: the rest of
    its process's is the pool's threads) of auditing ``path`` with ``workers`` worker processes:
    process time, which the machine's load does not count."""
    found = audited(path, workers)
    return found["walk"] * 1000, found["lines"] * 1000, found["main"] * 1000


_PEAK = """
import resource, sys
from pbem.audit import audit_path
report = audit_path(sys.argv[1])
assert report.tally.resolutions == int(sys.argv[2]), report.lines()
try:  # ru_maxrss would count the bench process this one was forked from
    with open("/proc/self/status") as status:
        peak = next(int(x.split()[1]) for x in status if x.startswith("VmHWM"))
except OSError:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def peak_kib(path: Path, turns: int) -> tuple[int, int]:
    """(peak RSS of the auditing process, of its largest worker) in KiB: a fresh process (its
    VmHWM: getrusage's maxrss keeps the high-water mark of the process it was forked from)."""
    out = subprocess.run([sys.executable, "-c", _PEAK, str(path), str(turns)], check=True,
                         capture_output=True, text=True, cwd=Path(__file__).parent.parent)
    main, worker = out.stdout.split()
    return int(main), int(worker)


def _replay_step(sample: dict[str, Any]) -> Callable[[], object]:
    return lambda: replay.replay_resolution(AD, sample["state"], sample["standing"],
                                            sample["entry"], game_id=sample["game_id"])


def run() -> None:
    turns = int(os.environ.get("PBEM_BENCH_AUDIT_TURNS", str(TURNS)))
    data, ends, samples = generate(turns)
    floor_ms = statistics.mean(floors.audit_turn_ms(s["signed"], _replay_step(s))
                               for s in samples)
    replayed = bare_replay_seconds(data)
    with tempfile.TemporaryDirectory(prefix="pbem-bench-audit-") as tmp:
        full = Path(tmp) / "game.jsonl"
        full.write_bytes(data)
        del data
        load = os.getloadavg()[0]
        found = audited(full, None)  # the workers as audit_path decides them
        assert found["resolutions"] == turns and found["orders"] == 4 * turns
        line(f"audit: a {turns}-turn four-power game ({found['counts']}, "
             f"{full.stat().st_size / MIB:.1f} MiB log; {found['workers']} worker processes, "
             f"load {load:.2f} -> {os.getloadavg()[0]:.2f})", turns / found["seconds"],
             "turns/s", 1000 / floor_ms, rate=True)
        walk, lines, _ = cpu_ms(full, 0)
        line("audit CPU, one process: ms per turn (process time: the same on a busy machine, "
             "where the wall-clock line is not)", walk / turns, "ms", floor_ms)
        walk, lines, main = cpu_ms(full, 1)
        line(f"audit CPU with one worker: ms per turn, the walk's (of it the pool's threads: "
             f"{(walk - main) / turns:.2f} ms; its worker's: {lines / turns:.2f} ms)",
             walk / turns, "ms", floor_ms)
        line("audit's ceiling: the rules core's replay of the same log alone (order checks "
             "against the views, resolutions, state digests; no signature, parse or chain "
             "check)", turns / replayed, "turns/s", 1000 / floor_ms, rate=True)
        peaks = {}
        for length in (1, min(SHORT, turns), turns):
            part = Path(tmp) / f"first-{length}.jsonl"
            with open(full, "rb") as src, open(part, "wb") as dst:
                dst.write(src.read(ends[length]))
            peaks[length] = peak_kib(part, length)
        floor_mib = peaks[1][0] / 1024
        for length in (min(SHORT, turns), turns):
            main, worker = peaks[length]
            line(f"audit peak memory: {length} turns ({ends[length] / MIB:.1f} MiB log; "
                 f"largest worker {worker / 1024:.0f} MiB)", main / 1024, "MiB", floor_mib)


if __name__ == "__main__":
    run()
