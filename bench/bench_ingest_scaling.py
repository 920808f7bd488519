"""Ingest of one mail must not grow with the number of games or with the handled mail (issue 17).

Lines, each beside a floor measured in this same run (bench/floors.py):

- ingest of one signed order mail (``ingest.ingest`` with a one-message source) into a root of
  10 games and of PBEM_BENCH_INGEST_GAMES games (default 300: 5000 takes many times as long to
  set up on a 2-core machine); the large figure should be within 1.2× of the small one.
  Floor: one order parse + one verify + five durable writes, priced now (``floors.mail_ms``).
- the same into the 10-game root after PBEM_BENCH_HANDLED handled messages (default 20,000,
  made cheaply: a small .eml and its done record each) sit in the inbox.
- ``pbem ingest ROOT --stdin`` of one mail as a whole process, beside ``python -c pass``.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from email.message import EmailMessage
from itertools import count
from pathlib import Path

import yaml

from bench import floors
from bench.bench_scaling import KEYS, T0, create
from bench.report import line
from pbem.host import ingest
from pbem.mail.sources import StdinSource
from pbem.protocol.orderdoc import sign_orders
from pbem.schedule import to_iso

_seq = count(1)


def mail(game: str, power: str = "algol") -> bytes:
    seq = next(_seq)
    doc = {"pbem": 1, "game": game, "power": power, "turn": 1, "seq": seq, "orders": {}}
    msg = EmailMessage()
    msg["From"] = f"{power}@example.org"
    msg["To"] = "referee@example.org"
    msg["Subject"] = f"orders {seq}"
    msg["Message-ID"] = f"<{power}.{seq}.{time.monotonic_ns()}@players.example>"
    msg.set_content("My orders:\n\n" + sign_orders(yaml.safe_dump(doc, sort_keys=False),
                                                   KEYS[power]))
    return msg.as_bytes()


def root_of(work: Path, games: int) -> Path:
    root = work / f"root-{games}"
    for i in range(games):
        create(root, f"g{i:05d}")
    return root


def per_mail_ms(root: Path, repeat: int = 7) -> float:
    now = T0 + timedelta(hours=1)
    times = []
    for _ in range(repeat + 1):  # the first builds the root index
        raw = mail("g00000")
        start = time.perf_counter()
        report = ingest.ingest(root, StdinSource(io.BytesIO(raw)), now)
        times.append(time.perf_counter() - start)
        assert [v.verdict for v in report.verdicts] == ["accepted"], report.lines()
    times = sorted(times[1:])
    return times[len(times) // 2] * 1e3


def handled(root: Path, n: int) -> None:
    inbox = root / "inbox"
    done = inbox / "done"
    done.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        sha = hashlib.sha256(str(i).encode()).hexdigest()
        (inbox / f"{sha}.eml").write_bytes(b"Subject: old\n\nhandled long ago\n")
        (done / f"{sha}.json").write_bytes(b'{"outcome":"ignored"}')


def run() -> None:
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-ingest-scaling-"))
    try:
        floor = floors.mail_ms()
        many = int(os.environ.get("PBEM_BENCH_INGEST_GAMES", "300"))
        old = int(os.environ.get("PBEM_BENCH_HANDLED", "20000"))
        small = root_of(work, 10)
        small_ms = per_mail_ms(small)
        line("ingest of one mail, root of 10 games", small_ms, "ms", floor)
        large_ms = per_mail_ms(root_of(work, many))
        line(f"ingest of one mail, root of {many} games (ratio to 10 games "
             f"{large_ms / small_ms:.2f})", large_ms, "ms", floor)
        handled(small, old)
        old_ms = per_mail_ms(small)
        line(f"ingest of one mail, root of 10 games with {old} handled messages (ratio to "
             f"none {old_ms / small_ms:.2f})", old_ms, "ms", floor)
        shutil.rmtree(small / "inbox")
        raw = mail("g00000")

        def process() -> float:
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "pbem", "ingest", str(small), "--stdin", "--now",
                 to_iso(T0 + timedelta(hours=1))], input=raw, capture_output=True, check=False)
            assert done.returncode == 0, done.stderr
            return time.perf_counter() - start

        times = sorted(process() for _ in range(5))
        line("pbem ingest --stdin of one mail, whole process (floor: python -c pass)",
             times[2] * 1e3, "ms", floors.process_ms())
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    start = time.perf_counter()
    run()
    print(f"({time.perf_counter() - start:.0f} s)")
