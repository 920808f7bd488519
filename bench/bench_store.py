"""The durable store: log append, atomic state write, log verification (pbem.atomic,
pbem.store.log).

Floors (bench/README.md, "One machine's floor", 2-core VM):
- write 50 KB with temp + fsync + rename + directory fsync: 0.411 ms. Used for the state write,
  and as the floor of one durable log append (one write + one fsync, the same durable step).
- verifying a log has no row of its own; its floor is derived from the table's ``json.loads`` rate
  (227 µs per 50 KB state) applied to the log's size: parsing the bytes once, nothing else.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from bench.report import line, median_seconds
from pbem import atomic
from pbem.store import log as glog

T0 = "2026-11-30T17:00:00Z"
WRITE_50KB_DURABLE_MS = 0.411
JSON_LOADS_50KB_MS = 0.227


def fifty_kb_state() -> dict[str, object]:
    stars = {
        f"star-{i:02d}": {
            "owner": "algol",
            "ships": i,
            "x": i * 3,
            "y": i * 7,
            "warps": [{"ships": 3, "from": "Vega", "departed": 4}] * 3,
        }
        for i in range(48)
    }
    state: dict[str, object] = {"turn": 12, "stars": stars, "log": ["event " * 20] * 300}
    return state


def order_body(turn: int) -> dict[str, object]:
    return {
        "power": "algol",
        "turn": turn,
        "seq": 1,
        "sha256": "a" * 64,
        "signed_text": "orders:\n  depart: []\n" + "# filler\n" * 150,
    }


def run() -> None:
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-store-"))
    try:
        game = glog.GameLog.create(work / "log.jsonl", T0, {"game": "bench"})
        counter = iter(range(10**9))
        append = median_seconds(
            lambda: game.append("orders", T0, order_body(next(counter))), repeat=7, number=50
        )
        line(
            "store: durable log append (one order entry)",
            append * 1000,
            "ms",
            WRITE_50KB_DURABLE_MS,
        )

        state = fifty_kb_state()
        size = len(atomic.canonical.encode(state))
        target = work / "state.json"
        write = median_seconds(lambda: atomic.write_json(target, state), repeat=7, number=20)
        line(
            f"store: atomic state write ({size // 1024} KB)",
            write * 1000,
            "ms",
            WRITE_50KB_DURABLE_MS * size / 50_000,
        )

        # fsync cost on a shared VM drifts (the floor note says +-15 %, often more): the same raw
        # write measured now, beside ours, shows what is our code and what is the disk today.
        raw = atomic.canonical.encode(state)

        def raw_write() -> None:
            tmp = work / ".raw.tmp"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.write(fd, raw)
            os.fsync(fd)
            os.close(fd)
            os.replace(tmp, work / "raw.json")
            atomic.fsync_dir(work)

        now = median_seconds(raw_write, repeat=7, number=20)
        line(
            "store: same write without pbem, measured now (reference)",
            now * 1000,
            "ms",
            WRITE_50KB_DURABLE_MS * size / 50_000,
        )

        path = work / "verify.jsonl"
        entries = [glog.make_entry(None, "genesis", T0, {"game": "bench"})]
        for turn in range(200):
            entries.append(
                glog.make_entry(
                    entries[-1],
                    "resolve",
                    T0,
                    {
                        "turn": turn,
                        "state": "b" * 64,
                        "events": [{"kind": "battle", "star": "Vega", "losses": [3, 4]}] * 8,
                    },
                )
            )
            for _ in range(4):
                entries.append(glog.make_entry(entries[-1], "orders", T0, order_body(turn)))
        entries = entries[:1000]
        path.write_bytes(b"".join(e.line() for e in entries))
        kb = path.stat().st_size / 1000
        verify = median_seconds(lambda: glog.GameLog.load(path), repeat=7, number=3)
        line(
            f"store: verify a 1,000-entry log ({kb:.0f} KB)",
            verify * 1000,
            "ms",
            JSON_LOADS_50KB_MS * kb / 50,
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    run()
