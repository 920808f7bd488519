"""``pbem run`` over many four-power games, each with four signed orders in: ms per game-turn.

What one game-turn costs here: take the lock, open and verify the log, load the state, check
the four standing orders against each power's view, resolve, append the resolve entry (fsync),
write the state (fsync), render four reports and the game master's summary (text + HTML + the
JSON view and the SVG map), queue the five mails durably, and deliver them to the file outbox.

Floor (shared/notes/performance-floor.md): one 4-power game-turn ≈ 4 × (order parse 0.47 ms +
verify 0.06 ms) + 4 report renders (0.1–0.5 ms) + one durable state/log write (0.8 ms) ≈ 4 ms.
Set PBEM_BENCH_GAMES to change the number of games (default 1000).

The parts, timed by wrapping the functions that do them, each beside a floor from the same notes:

- resolve+commit — everything that is not render, queue or deliver: lock, open and verify the log,
  load the state, gather and check the orders, resolve, append the resolve entry, write the state.
  Floor: one durable state/log write 0.8 ms + 4 signature checks 4 × 0.064 ms ≈ 1.06 ms (the
  orders were parsed when they came in: pbem run reads them as JSON from the log).
- render — the five mails (four reports, the game master's summary): templates, SVG map, view
  JSON, and composing each into wire bytes. Floor: 5 renders × 0.3 ms (the notes give 0.1–0.5 ms
  per report) = 1.5 ms.
- queue — the five mails stored durably in the outbox (one batch). Floor: one durable write of
  50 KB with its directory, 0.411 ms.
- deliver, per message — to the file transport: the transport's durable copy and our durable
  record that it was accepted, two durable writes, 2 × 0.411 = 0.822 ms.

The notes' 4 ms floor does not count delivery, so the total is also shown without it.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

from bench.report import line
from pbem.game import registry
from pbem.host import notify, turnjob
from pbem.mail.outbox import Outbox
from pbem.mail.transports import FileTransport
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import Keyring, sign_orders, verify_orders
from pbem.schedule import to_iso
from pbem.store import replay
from pbem.store.gameconfig import GameConfig
from pbem.store.gamedir import GameDir
from pbem.store.referee import referee_key

FLOOR_MS = 4.0
FLOOR_RESOLVE_MS = 0.8 + 4 * 0.064
FLOOR_RENDER_MS = 5 * 0.3
FLOOR_QUEUE_MS = 0.411
FLOOR_DELIVER_MS = 2 * 0.411  # per message
T0 = datetime(2026, 12, 1, tzinfo=UTC)
POWERS = ("pavo", "antares", "regulus", "algol")


def build(root: Path, n: int) -> None:
    plugin = registry.load("4000ad")
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
        # As after `pbem new` and a first `pbem run`: the welcome mails queued and delivered,
        # so the measured run is one game-turn and nothing else.
        outbox = Outbox(game.path / "outbox")
        ctx = notify.Context(game, plugin, referee_key(root)[0], T0)
        notify.queue_welcome(ctx, game.initial_state(plugin), outbox)
        outbox.deliver(FileTransport(root.parent / "welcome-mail"), T0)
        ring = Keyring()
        for p, k in keys.items():
            ring.add(gid, p, k.public)
        for p in POWERS:
            doc = {"pbem": 1, "game": gid, "power": p, "turn": 1, "seq": 1,
                   "orders": {"depart": {"warp": 1, "from": p.capitalize(), "ships": 1,
                                         "to": {"pavo": "Shaula", "antares": "Sabik",
                                                "regulus": "Markab", "algol": "Caph"}[p]}}}
            v = verify_orders(sign_orders(yaml.safe_dump(doc), keys[p]), ring, fingerprints=ring)
            game.log.append(replay.ORDERS, T0, replay.orders_body(
                turn=1, power=p, seq=1, sha256=v.sha256, text=v.block, orders=v.body,
                received=to_iso(T0), message_id=None, key=v.key_fingerprint))


@contextmanager
def timed(parts: dict[str, float]) -> Iterator[None]:
    """Add the time spent in the functions of each part to ``parts`` while inside."""
    wrapped: list[tuple[object, str, Callable[..., object]]] = []

    def wrap(owner: object, name: str, part: str) -> None:
        original = getattr(owner, name)

        @functools.wraps(original)
        def timing(*args: object, **kwargs: object) -> object:
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                parts[part] += time.perf_counter() - start

        wrapped.append((owner, name, original))
        setattr(owner, name, timing)

    for name in ("turn_report", "gm_summary", "game_end"):
        wrap(render, name, "render")
    wrap(notify.Context, "compose_wire", "render")
    wrap(Outbox, "queue_many", "queue")
    wrap(Outbox, "deliver", "deliver")
    try:
        yield
    finally:
        for owner, name, original in reversed(wrapped):
            setattr(owner, name, original)


def run() -> None:
    n = int(os.environ.get("PBEM_BENCH_GAMES", "1000"))
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-run-"))
    try:
        root = work / "root"
        build(root, n)
        parts = {"render": 0.0, "queue": 0.0, "deliver": 0.0}
        with timed(parts):
            start = time.perf_counter()
            runs = turnjob.run_root(root, T0 + timedelta(hours=1), FileTransport(work / "sent"))
            elapsed = time.perf_counter() - start
        resolved = sum(len(r.resolved) for r in runs)
        assert resolved == n, [r.line() for r in runs if not r.resolved][:3]
        messages = sum(r.sent for r in runs)
        assert messages == 5 * n, messages
        rest = elapsed - sum(parts.values())
        line(f"run: pbem run, {n} four-power games, per game-turn", elapsed / n * 1e3, "ms",
             FLOOR_MS)
        line("run: per game-turn without delivery (what the 4 ms floor counts)",
             (elapsed - parts["deliver"]) / n * 1e3, "ms", FLOOR_MS)
        line("run part: resolve+commit (lock, open, verify, load, resolve, log, state)",
             rest / n * 1e3, "ms", FLOOR_RESOLVE_MS)
        line("run part: render + compose, 5 mails", parts["render"] / n * 1e3, "ms",
             FLOOR_RENDER_MS)
        line("run part: queue, 5 mails in one durable batch", parts["queue"] / n * 1e3, "ms",
             FLOOR_QUEUE_MS)
        line("run part: deliver to the file transport, per message",
             parts["deliver"] / messages * 1e3, "ms", FLOOR_DELIVER_MS)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    run()
