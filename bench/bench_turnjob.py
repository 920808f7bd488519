"""``pbem run`` over many four-power games, each with four signed orders in: ms per game-turn.

What one game-turn costs here: take the lock, open and verify the log, load the state, check
the four standing orders against each power's view, resolve, append the resolve entry (fsync),
write the state cache, render four reports and the game master's summary (text + HTML + the
JSON view and the SVG map), queue the five mails durably, and deliver them to the file outbox.
Set PBEM_BENCH_GAMES to change the number of games (default 1000).

Every floor is measured in this same run (bench/floors.py, whose docstring defines them):

- the whole game-turn — ``floors.game_turn_ms``: 4 × (order parse + verify) + 4 renders of a
  100-line template + one durable 50 KB write (the notes' 4 ms floor in today's units; it does
  not count delivery, so the total is also shown without it);
- resolve+commit — everything that is not render, queue or deliver: lock, open and verify the
  log, load the state, gather and check the orders, resolve, write the mails' batch file,
  append the resolve entry (the log and the batch file fsynced together), write the state.
  Floor: one durable write + 4 signature checks (the orders were parsed when they came in:
  pbem run reads them as JSON from the log);
- render — the five mails (four reports, the game master's summary): templates, SVG map, view
  JSON, and composing each into wire bytes. Floor: 5 renders of the 100-line template;
- queue — the five mails' batch, written and fsynced with the log entry, put in place in the
  outbox (renamed, the directory fsynced). Floor: one durable write. The games of a group
  queue at once (docs/operations.md, "One barrier per phase"): this is
  the wall time of that phase, per game;
- deliver, per message — to the file transport: the transport's durable copy and our durable
  record that it was accepted. Floor: two durable writes;
- durable syncs (fsync, fdatasync) per game-turn, counted. Floor: the 2 of the floor's one
  durable write (the file and its directory);
- bytes of mail per game-turn (the five mails as delivered). Floor: the bytes of the mails'
  own parts (text, HTML, attachments) before transfer encoding, which the wire can only add to;
- a step of each game (bench/steps.py: 4000 A.D., Babylon 5 CGS, The Ashes of Empire),
  resolved, rendered and composed in process, CPU time, beside the game-turn floor and the
  4000 A.D. step; and each one's bytes of mail.
"""

from __future__ import annotations

import functools
import itertools
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

from bench import floors, steps
from bench.report import line
from pbem import syncs
from pbem.game import registry
from pbem.host import notify, turnjob
from pbem.mail.outbox import Outbox
from pbem.mail.transports import FileTransport
from pbem.protocol.keyring import Keyring
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import sign_orders, verify_orders
from pbem.render import mails
from pbem.schedule import to_iso
from pbem.store import chance, replay
from pbem.store.gameconfig import GameConfig
from pbem.store.gamedir import GameDir
from pbem.store.referee import referee_key

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
                   "instance": chance.instance(game.genesis),
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

    def wrap(owner: object, name: str, part: str, count: bool = False) -> None:
        original = getattr(owner, name)

        @functools.wraps(original)
        def timing(*args: object, **kwargs: object) -> object:
            if count:
                parts[part] += 1
                return original(*args, **kwargs)
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                parts[part] += time.perf_counter() - start

        wrapped.append((owner, name, original))
        setattr(owner, name, timing)

    for name in ("turn_report", "gm_summary", "game_end"):
        wrap(mails, name, "render")
    wrap(os, "fsync", "syncs", count=True)
    wrap(os, "fdatasync", "syncs", count=True)
    wrap(notify.Context, "compose_wire", "render")
    # The queue phase: pbem run's second barrier of each group (run_games calls syncs.each
    # twice per group: the logs, then the queues), timed whole.
    barriers = syncs.each
    calls = itertools.count()

    def each(step: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
        start = time.perf_counter()
        try:
            return barriers(step, items)
        finally:
            if next(calls) % 2 == 1:
                parts["queue"] += time.perf_counter() - start

    wrapped.append((syncs, "each", barriers))
    syncs.each = each
    contents = notify.Context.compose_wire

    def content(self: notify.Context, to: object, mail: mails.RenderedMail,
                **kwargs: object) -> object:
        parts["content"] += len(mail.text.encode()) + len(mail.html.encode()) + sum(
            len(data) for _, _, data in mail.attachments)
        return contents(self, to, mail, **kwargs)  # type: ignore[arg-type]

    wrapped.append((notify.Context, "compose_wire", contents))
    notify.Context.compose_wire = content  # type: ignore[method-assign, assignment]
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
        print(floors.describe(), flush=True)
        p = floors.parts_ms()  # the parts of the game-turn floor
        turn_floor = floors.game_turn_ms()
        root = work / "root"
        build(root, n)
        parts = {"render": 0.0, "queue": 0.0, "deliver": 0.0, "syncs": 0.0, "content": 0.0}
        with timed(parts):
            start = time.perf_counter()
            runs = turnjob.run_root(root, T0 + timedelta(hours=1), FileTransport(work / "sent"))
            elapsed = time.perf_counter() - start
        syncs = parts.pop("syncs")
        resolved = sum(len(r.resolved) for r in runs)
        assert resolved == n, [r.line() for r in runs if not r.resolved][:3]
        messages = sum(r.sent for r in runs)
        assert messages == 5 * n, messages
        rest = elapsed - sum(v for k, v in parts.items() if k != "content")
        line(f"run: pbem run, {n} four-power games, per game-turn", elapsed / n * 1e3, "ms",
             turn_floor)
        line("run: per game-turn without delivery (what the game-turn floor counts)",
             (elapsed - parts["deliver"]) / n * 1e3, "ms", turn_floor)
        line("run part: resolve+commit (lock, open, verify, load, resolve, log, state)",
             rest / n * 1e3, "ms", p["write"] + 4 * p["verify"])
        line("run part: render + compose, 5 mails", parts["render"] / n * 1e3, "ms",
             5 * p["render"])
        line("run part: queue, the 5 mails' batch put in place (the games of a group at once)",
             parts["queue"] / n * 1e3, "ms",
             p["write"])
        line("run part: deliver to the file transport, per message",
             parts["deliver"] / messages * 1e3, "ms", 2 * p["write"])
        line("run: durable syncs (fsync, fdatasync) per game-turn", syncs / n, "syncs", 2)
        sent = sum(f.stat().st_size for f in (work / "sent").iterdir() if f.is_file())
        line("run: bytes of mail per game-turn (5 mails)", sent / n / 1024, "KB",
             parts["content"] / n / 1024)
        other_games(turn_floor)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def other_games(turn_floor: float) -> None:
    """A step of each game beside the 4000 A.D. one (bench/steps.py), CPU ms and bytes."""
    measured = steps.measure()
    ad = measured["4000ad"]
    for game, m in measured.items():
        line(f"step: {game} step {m['step']:.0f} resolved, rendered, composed in process "
             f"(CPU; ratio to 4000ad {m['ms'] / ad['ms']:.2f})", m["ms"], "ms", turn_floor)
    for game, m in measured.items():
        line(f"step: {game} bytes of mail per step (reports + GM summary; ratio to 4000ad "
             f"{m['bytes'] / ad['bytes']:.2f})", m["bytes"] / 1024, "KB", ad["bytes"] / 1024)


if __name__ == "__main__":
    run()
