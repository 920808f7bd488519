"""``pbem ingest --maildir``: signed order mails per second from a Maildir into a game.

What one mail costs here: list and read it from the Maildir, store it durably in the inbox,
triage it (parse, find the order text, loop checks), verify the signature and the envelope, take
the game's lock, open the game and its log, judge the orders against the power's view, keep the
submission and its verdict, append the ``orders`` log entry (the commit point), write the state
cache, render and queue the receipt (text + HTML, signed by the referee) in the outbox, record
the message as done and mark it seen in the Maildir.

Floor (shared/notes/performance-floor.md, 2-core VM): parsing the order YAML with CSafeLoader,
0.465 ms (measured on a 1.9 KB 20-order file; these files are smaller, so this is generous), plus
the Ed25519 verify, 0.064 ms, plus the five durable writes a mail needs whatever the
implementation — the message stored before acting, the submission kept, the log entry, the
receipt queued, the done record — at 0.411 ms each (temp + fsync + rename + directory fsync):
0.529 + 5 × 0.411 = 2.584 ms per mail, i.e. 387 mails per second.

The implementation makes about 20 fsyncs and 20 file creations per mail (inbox copy and key,
submission .txt and .json, log, state cache, outbox key, state and bytes, done record, Maildir
move, plus the directory fsyncs), so the second line measures one durable write on this machine
now: where it costs more than 0.411 ms, the ratio grows with it. All mails go to one game and one
turn, so costs that grow with the turn's submissions and the log (the game opened and its log
verified per mail, every sidecar of the turn read per accepted file) show with many mails.

Set PBEM_BENCH_MAILS to change the number of mails (default 200; 50 per power).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import yaml

from bench.report import line, median_seconds
from pbem.game import registry
from pbem.host import ingest
from pbem.mail import _files
from pbem.mail.outbox import Outbox
from pbem.mail.sources import MaildirSource
from pbem.protocol.commitment import commit
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import sign_orders
from pbem.store.gameconfig import GameConfig
from pbem.store.gamedir import GameDir
from pbem.store.referee import referee_key

ORDER_PARSE_MS = 0.465
VERIFY_MS = 0.064
WRITE_DURABLE_MS = 0.411
DURABLE_WRITES = 5
FLOOR_RATE = 1e3 / (ORDER_PARSE_MS + VERIFY_MS + DURABLE_WRITES * WRITE_DURABLE_MS)
T0 = datetime(2026, 12, 1, tzinfo=UTC)
POWERS = ("pavo", "antares", "regulus", "algol")
GAME = "bench-ingest"


def build(work: Path, mails: int) -> tuple[Path, Path]:
    """A root with one four-power game at turn 1, and a Maildir of ``mails`` signed order mails
    (each power in turn, seq rising, so every file is accepted and replaces the last)."""
    root, box = work / "root", work / "Maildir"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    plugin = registry.load("4000ad")
    keys = {p: PrivateKey.generate() for p in POWERS}
    config = GameConfig.from_data({
        "game_id": GAME, "game": "4000ad", "variant": "independents-4",
        "gm": "gm@example.org", "from": "Referee <referee@example.org>",
        "powers": {p: {"email": f"{p}@example.org"} for p in POWERS},
        "schedule": {"period": "48h"},
    })
    root.mkdir()
    referee_key(root, create=True)
    GameDir.create(root, config, {p: k.public for p, k in keys.items()}, plugin, T0)
    for i in range(mails):
        power, seq = POWERS[i % 4], i // 4 + 1
        nonce = hashlib.sha256(f"{power}/{seq}".encode()).digest()
        doc = {"pbem": 1, "game": GAME, "power": power, "turn": 1, "seq": seq,
               "orders": {"depart": {"warp": 1, "from": power.capitalize(), "ships": 3,
                                     "commitment": commit(GAME, power, 1, 1, "Hamal", nonce)}}}
        msg = EmailMessage()
        msg["From"] = f"{power}@example.org"
        msg["To"] = "referee@example.org"
        msg["Subject"] = f"orders {seq}"
        msg["Message-ID"] = f"<{power}.{seq}@players.example>"
        msg.set_content("My orders:\n\n" + sign_orders(yaml.safe_dump(doc, sort_keys=False),
                                                       keys[power]))
        (box / "new" / f"{1000000 + i}.bench.host").write_bytes(msg.as_bytes())
    return root, box


def run() -> None:
    mails = int(os.environ.get("PBEM_BENCH_MAILS", "200"))
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-ingest-"))
    try:
        root, box = build(work, mails)
        source = MaildirSource(box)
        start = time.perf_counter()
        report = ingest.ingest(root, source, T0 + timedelta(hours=1))
        elapsed = time.perf_counter() - start
        source.close()
        accepted = [v for v in report.verdicts if v.verdict == "accepted"]
        assert len(accepted) == mails, report.lines()[:3]
        assert len(Outbox(root / GAME / "outbox").pending()) >= mails
        line(f"ingest: signed order mails from a Maildir into a game ({mails} mails)",
             mails / elapsed, "mails/s", FLOOR_RATE, rate=True)
        names = iter(range(10**6))
        data = box.joinpath("cur").iterdir().__next__().read_bytes()
        reference = median_seconds(
            lambda: _files.write_durably(work / f"ref-{next(names)}", data), number=20)
        line("durable write of one order mail without pbem, measured now (reference)",
             reference * 1e3, "ms", WRITE_DURABLE_MS)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    run()
