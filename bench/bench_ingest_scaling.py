"""Ingest of one mail must not grow with the number of games or with the handled mail (issue 17).

Lines, each beside a floor measured in this same run (bench/floors.py), the ratio to the small
case in the name (the goal: within 1.2×):

- ingest of one signed order mail (``ingest.ingest`` with a one-message source) into a root of
  10 games and of PBEM_BENCH_INGEST_GAMES games (default 5,000: one game is made by
  ``GameDir.create``, the others are copies of it with their own id and genesis entry, written
  directly — a few seconds, where creating each would take minutes). Floor: one order parse +
  one verify + five durable writes, priced now (``floors.mail_ms``).
- the same into the 10-game root with PBEM_BENCH_HANDLED handled messages (default 100,000)
  in the archive (``inbox/handled/DAY/`` with their done records and ``inbox/keys/``, written
  directly, 1,000 a day) beside the same root with none.

The whole-process figures of ``pbem ingest --stdin`` (an order mail, spam) are bench_start's.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
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
from pbem import canonical
from pbem.host import ingest
from pbem.mail.inbox import duplicate_key
from pbem.mail.sources import StdinSource
from pbem.protocol.orderdoc import sign_orders
from pbem.store import chance
from pbem.store.gameconfig import CONFIG_NAME
from pbem.store.gamedir import LOG_NAME, STATE_NAME, GameDir
from pbem.store.log import GENESIS_KIND, GameLog, make_entry

_seq = count(1)


def instance(root: Path, game: str) -> str:
    """The game instance an order file for ``game`` under ``root`` names."""
    return chance.instance(GameLog.load(root / game / LOG_NAME).entries[0].body)


def mail(root: Path, game: str, power: str = "algol") -> bytes:
    seq = next(_seq)
    doc = {"pbem": 1, "game": game, "power": power, "turn": 1, "seq": seq,
           "instance": instance(root, game), "orders": {}}
    msg = EmailMessage()
    msg["From"] = f"{power}@example.org"
    msg["To"] = "referee@example.org"
    msg["Subject"] = f"orders {seq}"
    msg["Message-ID"] = f"<{power}.{seq}.{time.monotonic_ns()}@players.example>"
    msg.set_content("My orders:\n\n" + sign_orders(yaml.safe_dump(doc, sort_keys=False),
                                                   KEYS[power]))
    return msg.as_bytes()


def spam() -> bytes:
    msg = EmailMessage()
    msg["From"] = "stranger@elsewhere.example"
    msg["To"] = "referee@example.org"
    msg["Subject"] = "cheap pills"
    msg["Message-ID"] = f"<spam.{time.monotonic_ns()}@elsewhere.example>"
    msg.set_content("no orders here\n")
    return msg.as_bytes()


def root_of(work: Path, games: int) -> Path:
    """A root of ``games`` games: g00000 made for real, the rest copies of it, each with its
    own game id in config.yaml and in its genesis entry (so each opens as a valid game)."""
    root = work / f"root-{games}"
    create(root, "g00000")
    src = root / "g00000"
    genesis = GameLog.load(src / LOG_NAME).entries[0]
    state = json.loads((src / STATE_NAME).read_bytes())["state"]
    digest = canonical.digest(state)
    config = (src / CONFIG_NAME).read_text(encoding="utf-8")
    assert "game_id: g00000\n" in config
    others = {p.relative_to(src): p.read_bytes() for p in src.rglob("*")
              if p.is_file() and p.name not in (CONFIG_NAME, LOG_NAME, STATE_NAME)
              and not p.name.startswith("trusted")}
    for i in range(1, games):
        gid = f"g{i:05d}"
        dest = root / gid
        (dest / "keys").mkdir(parents=True)
        for rel, data in others.items():
            (dest / rel).write_bytes(data)
        (dest / CONFIG_NAME).write_text(config.replace("game_id: g00000\n",
                                                       f"game_id: {gid}\n"))
        body = {**genesis.body, "game_id": gid, "config": {**genesis.body["config"],
                                                          "game_id": gid}}
        entry = make_entry(None, GENESIS_KIND, genesis.time, body)
        (dest / LOG_NAME).write_bytes(entry.line())
        (dest / STATE_NAME).write_text(json.dumps({"log_length": 1, "head": entry.hash,
                                                   "digest": digest, "state": state}))
    if games > 1:
        GameDir.open(root / f"g{games - 1:05d}")  # a copy is a valid game
    return root


def per_mail_ms(*roots: Path, repeat: int = 7) -> list[float]:
    """Median ms of ingesting one new order mail into each root, the roots taken in turn
    (interleaved, so a busy machine slows them alike: the ratios are what count)."""
    now = T0 + timedelta(hours=1)
    times: list[list[float]] = [[] for _ in roots]
    for round_ in range(repeat + 1):  # the first builds each root's index
        for i, root in enumerate(roots):
            raw = mail(root, "g00000")
            start = time.perf_counter()
            report = ingest.ingest(root, StdinSource(io.BytesIO(raw)), now)
            if round_:
                times[i].append(time.perf_counter() - start)
            assert [v.verdict for v in report.verdicts] == ["accepted"], report.lines()
    return [sorted(t)[len(t) // 2] * 1e3 for t in times]


def handled(root: Path, n: int, per_day: int = 1000) -> None:
    """``n`` handled messages in the archive layout (pbem.mail.inbox), ``per_day`` a day:
    message, arrival time and done record under inbox/handled/DAY/, the key in inbox/keys/."""
    inbox = root / "inbox"
    keys = inbox / "keys"
    keys.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        day = f"2025-{1 + (i // per_day) // 28 % 12:02d}-{1 + (i // per_day) % 28:02d}"
        if i % per_day == 0:
            (inbox / "handled" / day).mkdir(parents=True, exist_ok=True)
        raw = f"Subject: old\nMessage-ID: <old.{i}@players.example>\n\nhandled\n".encode()
        sha = hashlib.sha256(raw).hexdigest()
        folder = inbox / "handled" / day
        (folder / f"{sha}.eml").write_bytes(raw)
        (folder / f"{sha}.arrived").write_bytes(f"{day}T00:00:00Z".encode())
        (folder / f"{sha}.json").write_bytes(b'{"outcome":"ignored"}')
        os.symlink(f"{day}/{sha}", keys / duplicate_key(raw)[0])


def run() -> None:
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-ingest-scaling-"))
    try:
        floor = floors.mail_ms()
        many = int(os.environ.get("PBEM_BENCH_INGEST_GAMES", "5000"))
        old = int(os.environ.get("PBEM_BENCH_HANDLED", "100000"))
        small = root_of(work, 10)
        large = root_of(work, many)
        small_ms, large_ms = per_mail_ms(small, large)
        line("ingest of one mail, root of 10 games", small_ms, "ms", floor)
        line(f"ingest of one mail, root of {many} games (ratio to 10 games "
             f"{large_ms / small_ms:.2f})", large_ms, "ms", floor)
        shutil.rmtree(large)
        handled(small, old)
        old_ms, none_ms = per_mail_ms(small, root_of(work / "none", 10))
        line("ingest of one mail, root of 10 games with no handled messages", none_ms, "ms",
             floor)
        line(f"ingest of one mail, root of 10 games with {old} handled messages (ratio to "
             f"none {old_ms / none_ms:.2f})", old_ms, "ms", floor)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    start = time.perf_counter()
    run()
    print(f"({time.perf_counter() - start:.0f} s)")
