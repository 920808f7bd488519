"""``pbem run`` over many four-power games, each with four signed orders in: ms per game-turn.

What one game-turn costs here: take the lock, open and verify the log, load the state, check
the four standing orders against each power's view, resolve, append the resolve entry (fsync),
write the state (fsync), render four reports and the game master's summary (text + HTML + the
JSON view and the SVG map), queue the five mails durably, and deliver them to the file outbox.

Floor (shared/notes/performance-floor.md): one 4-power game-turn ≈ 4 × (order parse 0.47 ms +
verify 0.06 ms) + 4 report renders (0.1–0.5 ms) + one durable state/log write (0.8 ms) ≈ 4 ms.
Set PBEM_BENCH_GAMES to change the number of games (default 1000).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

from bench.report import line
from pbem import engine, games, turnjob
from pbem.gameconfig import GameConfig
from pbem.gamedir import GameDir
from pbem.keys import PrivateKey
from pbem.mail.transports import FileTransport
from pbem.orderdoc import Keyring, sign_orders, verify_orders
from pbem.schedule import to_iso

FLOOR_MS = 4.0
T0 = datetime(2026, 12, 1, tzinfo=UTC)
POWERS = ("pavo", "antares", "regulus", "algol")


def build(root: Path, n: int) -> None:
    plugin = games.load("4000ad")
    keys = {p: PrivateKey.generate() for p in POWERS}
    for i in range(n):
        gid = f"bench-{i:04d}"
        config = GameConfig.from_data({
            "game_id": gid, "game": "4000ad", "variant": "independents-4",
            "gm": "gm@example.org", "from": "referee@example.org",
            "powers": {p: {"email": f"{p}@example.org"} for p in POWERS},
            "schedule": {"period": "48h"},
        })
        game = GameDir.create(root, config, {p: k.public for p, k in keys.items()}, plugin, T0)
        ring = Keyring()
        for p, k in keys.items():
            ring.add(gid, p, k.public)
        for p in POWERS:
            doc = {"pbem": 1, "game": gid, "power": p, "turn": 1, "seq": 1,
                   "orders": {"depart": {"warp": 1, "from": p.capitalize(), "ships": 1,
                                         "to": {"pavo": "Shaula", "antares": "Sabik",
                                                "regulus": "Markab", "algol": "Caph"}[p]}}}
            v = verify_orders(sign_orders(yaml.safe_dump(doc), keys[p]), ring, fingerprints=ring)
            game.log.append(engine.ORDERS, T0, engine.orders_body(
                turn=1, power=p, seq=1, sha256=v.sha256, text=v.block, orders=v.body,
                received=to_iso(T0), message_id=None, key=v.key_fingerprint))


def run() -> None:
    n = int(os.environ.get("PBEM_BENCH_GAMES", "1000"))
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-run-"))
    try:
        root = work / "root"
        build(root, n)
        start = time.perf_counter()
        runs = turnjob.run_root(root, T0 + timedelta(hours=1), FileTransport(work / "sent"))
        elapsed = time.perf_counter() - start
        resolved = sum(len(r.resolved) for r in runs)
        assert resolved == n, [r.line() for r in runs if not r.resolved][:3]
        line(f"run: pbem run, {n} four-power games, per game-turn", elapsed / n * 1e3, "ms",
             FLOOR_MS)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    run()
