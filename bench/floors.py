"""Floors measured in the same ``make bench`` run, so a ratio means the same on any machine.

Each floor is the unavoidable work of an operation, priced by timing that work's basic steps
here and now (bench/README.md, "One machine's floor", gives the figures one machine measured,
which are not used):

- ``small_file_us`` — what a visit must do to know a game has nothing to do: open and read one
  small file (2 KB), ``stat`` three files and list one empty directory. The floor of an idle
  visit.
- ``game_turn_ms`` — the note's floor of one four-power game-turn: 4 × (parse a 1.9 KB, 20-order
  YAML with CSafeLoader + one Ed25519 verify of 2 KB) + 4 report renders (a compiled 100-line
  Jinja2 template with a 50-item loop) + one durable write of 50 KB (temp, fsync, rename,
  directory fsync).
- ``mail_ms`` — the floor of one ingested order mail: one order parse + one verify + five
  durable writes (inbox copy, submission, log entry, receipt, done record).
- ``process_ms`` — ``python -c pass`` as a whole process: the floor of any command run per mail.
  Whole processes run with their bytecode cached (``process_env``), as an installed pbem.
- ``audit_turn_ms`` — the floor of auditing one turn of a given game: for each order file of the
  turn one Ed25519 verify of its signed payload and one parse of its YAML (CSafeLoader), plus
  one replay step: ``pbem.store.replay.replay_resolution`` of the turn's resolve entry (the
  rules core's check of each order file against its power's view, its resolution, and the
  digests of the state and events it gives). Everything else the audit does (reading and
  hashing each line, the safe YAML and envelope checks, the acceptance rules, the used-orders
  rule, escrow and chance checks) is counted in the ratio.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.report import median_seconds


def _orders_yaml() -> str:
    lines = ["pbem: 1", "game: bench", "power: algol", "turn: 3", "seq: 1",
             "instance: 5f0c2b7e91d4a3c86e1f0b9a7d2c4e61", "orders:",
             "  depart:"]
    for i in range(20):
        lines += [f"    - warp: {i + 1}", "      from: Algol", f"      ships: {i + 2}",
                  "      to: Hamal", f"      note: order number {i} padded to size xxxxxxxxxx"]
    return "\n".join(lines) + "\n"


@functools.cache
def small_file_us() -> float:
    with tempfile.TemporaryDirectory(prefix="pbem-floor-") as tmp:
        work = Path(tmp)
        (work / "hint.json").write_bytes(b"x" * 2048)
        for name in ("a", "b"):
            (work / name).write_bytes(b"y")
        (work / "empty").mkdir()

        def visit() -> None:
            fd = os.open(work / "hint.json", os.O_RDONLY)
            os.read(fd, 1 << 16)
            os.close(fd)
            os.stat(work / "a")
            os.stat(work / "b")
            os.stat(work / "c") if (work / "c").exists() else None
            os.listdir(work / "empty")

        return median_seconds(visit, repeat=7, number=2000) * 1e6


@functools.cache
def parts_ms() -> dict[str, float]:
    """The basic steps the game-turn and mail floors are priced from, in ms: order parse, verify,
    render, durable 50 KB write."""
    import jinja2
    import yaml

    from pbem.protocol.keys import PrivateKey

    text = _orders_yaml()
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    parse = median_seconds(lambda: yaml.load(text, Loader=loader), repeat=7, number=50)
    key = PrivateKey.generate()
    body = os.urandom(2048)
    sig = key.sign("bench", "text/plain", body)
    verify = median_seconds(lambda: key.public.verify("bench", "text/plain", body, sig),
                            repeat=7, number=200)
    template = jinja2.Environment(autoescape=True).from_string(
        "\n".join([f"<p>{{{{ title }}}} line {i}</p>" for i in range(50)]
                  + ["{% for item in items %}<li>{{ item.name }}: {{ item.ships }}</li>"
                     "{% endfor %}"] + [f"<p>tail {i}</p>" for i in range(49)]))
    items = [{"name": f"star {i}", "ships": i} for i in range(50)]
    render = median_seconds(lambda: template.render(title="t", items=items), repeat=7,
                            number=100)
    with tempfile.TemporaryDirectory(prefix="pbem-floor-") as tmp:
        work = Path(tmp)
        data = os.urandom(50_000)

        def durable() -> None:
            fd = os.open(work / ".t", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.write(fd, data)
            os.fsync(fd)
            os.close(fd)
            os.replace(work / ".t", work / "f")
            dfd = os.open(work, os.O_RDONLY)
            os.fsync(dfd)
            os.close(dfd)

        write = median_seconds(durable, repeat=7, number=20)
    return {"parse": parse * 1e3, "verify": verify * 1e3, "render": render * 1e3,
            "write": write * 1e3}


def measure_again() -> None:
    """Forget the floors measured so far in this process: the next call measures them again
    (beside a figure taken now, on a machine whose load changes)."""
    parts_ms.cache_clear()
    small_file_us.cache_clear()
    process_ms.cache_clear()


def game_turn_ms() -> float:
    p = parts_ms()
    return 4 * (p["parse"] + p["verify"]) + 4 * p["render"] + p["write"]


def mail_ms() -> float:
    p = parts_ms()
    return p["parse"] + p["verify"] + 5 * p["write"]


@functools.cache
def process_env() -> dict[str, str]:
    """The environment of the whole-process figures: Python's bytecode cache on, kept in a
    directory of its own (``PYTHONPYCACHEPREFIX``), so a measured process loads compiled
    modules as an installed pbem does (pip compiles them at install). Without it, where
    ``PYTHONDONTWRITEBYTECODE`` is set (as on these machines), every process compiled every
    module it imports from source: 0.7 s instead of 0.4 s for ``pbem ingest --stdin`` of spam.
    The first process run writes the cache; callers run one before timing."""
    prefix = tempfile.mkdtemp(prefix="pbem-bench-pycache-")
    atexit.register(shutil.rmtree, prefix, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": prefix}


@functools.cache
def process_ms() -> float:
    def start() -> None:
        subprocess.run([sys.executable, "-c", "pass"], check=True, env=process_env())

    return median_seconds(start, repeat=7, number=3) * 1e3


def audit_turn_ms(signed: Sequence[tuple[Any, bytes, bytes]],
                  replay_step: Callable[[], object]) -> float:
    """``signed``: (public key, payload, signature) of each order file of one turn;
    ``replay_step``: replays the turn's resolve entry from the state before it."""
    import yaml

    from pbem.protocol.orderdoc import DOMAIN, PAYLOAD_TYPE

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    def files() -> None:
        for key, payload, sig in signed:
            key.verify(DOMAIN, PAYLOAD_TYPE, payload, sig)
            yaml.load(payload, Loader=loader)

    return (median_seconds(files, repeat=5, number=10)
            + median_seconds(replay_step, repeat=5, number=4)) * 1e3


def describe() -> str:
    p = parts_ms()
    return (f"floors measured now: order parse {p['parse']:.3f} ms, verify {p['verify']:.3f} ms,"
            f" render {p['render']:.3f} ms, durable 50 KB write {p['write']:.3f} ms, small-file "
            f"visit {small_file_us():.1f} µs")


if __name__ == "__main__":
    start = time.perf_counter()
    print(describe())
    print(f"game-turn {game_turn_ms():.2f} ms, mail {mail_ms():.2f} ms, process "
          f"{process_ms():.1f} ms ({time.perf_counter() - start:.1f} s)")
