"""``pbem ingest --maildir``: signed order mails per second from a Maildir into a game.

What one mail costs here: list and read it from the Maildir, store it durably in the inbox,
triage it (parse, find the order text, loop checks), verify the signature and the envelope, take
the game's lock, open the game and its log, judge the orders against the power's view, keep the
submission and its verdict, append the ``orders`` log entry (the commit point), write the state
cache, render and queue the receipt (text + HTML, signed by the referee) in the outbox, record
the message as done and mark it seen in the Maildir.

Floor: the mail floor measured in this run (bench/floors.py ``mail_ms``, as mails/s): one order
parse + one Ed25519 verify + the five durable writes a mail needs whatever the implementation
(the message stored before acting, the submission kept, the log entry, the receipt queued, the
done record), each a temp file + fsync + rename + directory fsync. bench/README.md ("One
machine's floor") gives one machine's price of it; here it is measured again beside each batch,
since a durable write's cost on a shared machine swings several-fold within minutes.

A batch is group-committed (docs/operations.md, "Group commit in ingest"): per mail about 8
fsyncs (2 for the inbox copy, 2 for the submission, 1 for the done record, the submission
directories; the log and the outbox once per game), most of them issued together per phase
(pbem.syncs), and about 5 new files (inbox copy and key link, the submission's two files, a
power's first submission directory of the turn; the .arrived and the done record are names of
files the batch shares). The floor's five durable writes are five new files and ten fsyncs
one after the other.

Set PBEM_BENCH_MAILS to change the number of mails (default 200; 50 per power).

The two ``batch ingest`` lines come first: one ``ingest`` of a Maildir holding one order mail
per power of PBEM_BENCH_BATCH_GAMES (25) games, then as many mails into one game, each beside
the mail floor (``floors.mail_ms`` as mails/s: one order parse + one verify + five durable
writes); ratio ≤ 1 means at least the floor's rate.

They measure the steady state of a running host, not its first seconds: before anything is
timed, one mail is ingested into a separate warm-up root in the same process (jinja2 and the
other lazy imports, the compiled templates, the game plugin), and each bench root gets its
inbox and its root index (pbem.host.rootindex) before its timed batch — a fresh root would
otherwise rebuild the index inside the batch (``pbem new`` and the first ``inbox/`` change the
root's mtime), a one-off cost of the first ingest after a game is added that
bench_ingest_scaling's one-mail lines already show. The durable-write cost on a shared machine
swings several-fold within seconds (other processes' fsyncs), so each line is the median of
PBEM_BENCH_BATCH_TRIALS (3) batches on fresh roots, each batch timed right after the floor is
measured again: the printed trial is the one with the median ratio, rate and floor together.
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

from bench import floors
from bench.report import line, median_seconds
from pbem.game import registry
from pbem.host import ingest
from pbem.mail import _files
from pbem.mail.inbox import Inbox
from pbem.mail.outbox import Outbox
from pbem.mail.sources import MaildirSource
from pbem.protocol.commitment import commit
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import sign_orders
from pbem.store import chance
from pbem.store.gameconfig import GameConfig
from pbem.store.gamedir import GameDir
from pbem.store.referee import referee_key

WRITE_DURABLE_MS = 0.411  # the note's durable write, beside the reference line
T0 = datetime(2026, 12, 1, tzinfo=UTC)
POWERS = ("pavo", "antares", "regulus", "algol")
GAME = "bench-ingest"


def build(work: Path, mails: int, games: int = 1) -> tuple[Path, Path]:
    """A root with ``games`` four-power games at turn 1, and a Maildir of ``mails`` signed order
    mails: each power of each game in turn, seq rising, so every file is accepted (and, with
    more mails than powers, replaces the last)."""
    root, box = work / "root", work / "Maildir"
    for sub in ("new", "cur", "tmp"):
        (box / sub).mkdir(parents=True)
    plugin = registry.load("4000ad")
    root.mkdir(mode=0o700)
    referee_key(root, create=True)
    names = [GAME] if games == 1 else [f"{GAME}-{g}" for g in range(games)]
    keys: dict[str, dict[str, PrivateKey]] = {}
    instances: dict[str, str] = {}
    for name in names:
        keys[name] = {p: PrivateKey.generate() for p in POWERS}
        config = GameConfig.from_data({
            "game_id": name, "game": "4000ad", "variant": "independents-4",
            "gm": "gm@example.org", "from": "Referee <referee@example.org>",
            "powers": {p: {"email": f"{p}.{name}@example.org"} for p in POWERS},
            "schedule": {"period": "48h"},
        })
        made = GameDir.create(root, config, {p: k.public for p, k in keys[name].items()},
                              plugin, T0)
        instances[name] = chance.instance(made.genesis)
        Outbox(root / name / "outbox")  # as the welcome run leaves it: its folders exist
    for i in range(mails):
        name = names[(i // 4) % games]
        power, seq = POWERS[i % 4], i // (4 * games) + 1
        nonce = hashlib.sha256(f"{name}/{power}/{seq}".encode()).digest()
        doc = {"pbem": 1, "game": name, "power": power, "turn": 1, "seq": seq,
               "instance": instances[name],
               "orders": {"depart": {"warp": 1, "from": power.capitalize(), "ships": 3,
                                     "commitment": commit(name, power, 1, 1, "Hamal", nonce)}}}
        msg = EmailMessage()
        msg["From"] = f"{power}.{name}@example.org"
        msg["To"] = "referee@example.org"
        msg["Subject"] = f"orders {seq}"
        msg["Message-ID"] = f"<{name}.{power}.{seq}@players.example>"
        msg.set_content("My orders:\n\n" + sign_orders(yaml.safe_dump(doc, sort_keys=False),
                                                       keys[name][power]))
        (box / "new" / f"{1000000 + i}.bench.host").write_bytes(msg.as_bytes())
    return root, box


def batch_rate(work: Path, mails: int, games: int) -> float:
    """Mails per second of one ``ingest`` of a Maildir holding ``mails`` order mails for
    ``games`` games (set-up not timed: the root, its inbox and its index are made first); every
    mail must be accepted."""
    root, box = build(work, mails, games)
    return mails / timed_ingest(root, box, mails)


def timed_ingest(root: Path, box: Path, mails: int) -> float:
    """Seconds of one ``ingest`` of the Maildir ``box`` into ``root``, whose inbox/ and
    quarantine/ (they change the root's mtime) and index are made first; every one of the
    ``mails`` must be accepted."""
    Inbox(root)
    ingest.Directory.indexed(root)
    source = MaildirSource(box)
    start = time.perf_counter()
    report = ingest.ingest(root, source, T0 + timedelta(hours=1))
    elapsed = time.perf_counter() - start
    source.close()
    accepted = [v for v in report.verdicts if v.verdict == "accepted"]
    assert len(accepted) == mails, report.lines()[:3]
    return elapsed


def warm_up(work: Path) -> None:
    """One mail ingested into a root of its own: imports, templates and plugin loaded, as in a
    host that has handled mail before (not timed)."""
    timed_ingest(*build(work, 1), 1)


def batch_trials(work: Path, mails: int, games: int, trials: int) -> tuple[float, float]:
    """(rate, floor rate) of the trial with the median ratio: each trial measures the mail
    floor again just before its batch, so both see the same machine."""
    results = []
    for trial in range(trials):
        floors.measure_again()  # beside this batch
        floor = 1e3 / floors.mail_ms()
        rate = batch_rate(work / f"trial-{trial}", mails, games)
        results.append((floor / rate, rate, floor))
    results.sort()
    _ratio, rate, floor = results[len(results) // 2]
    return rate, floor


def run() -> None:
    mails = int(os.environ.get("PBEM_BENCH_MAILS", "200"))
    spread = int(os.environ.get("PBEM_BENCH_BATCH_GAMES", "25"))
    trials = int(os.environ.get("PBEM_BENCH_BATCH_TRIALS", "3"))
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-ingest-"))
    try:
        # Batch ingest beside the mail floor measured in this run (bench/floors.py): one
        # mail per power in each of ``spread`` games (the realistic pattern), then the same
        # number of mails into one game (a long batch for one game and turn).
        warm_up(work / "warm-up")
        rate, floor = batch_trials(work / "spread", 4 * spread, spread, trials)
        line(f"batch ingest: {4 * spread} order mails from a Maildir, one per power in "
             f"{spread} games", rate, "mails/s", floor, rate=True)
        rate, floor = batch_trials(work / "one", 4 * spread, 1, trials)
        line(f"batch ingest: {4 * spread} order mails from a Maildir into one game", rate,
             "mails/s", floor, rate=True)
        root, box = build(work, mails)
        floors.measure_again()  # beside this batch, as the trials above
        floor = 1e3 / floors.mail_ms()
        elapsed = timed_ingest(root, box, mails)
        assert len(Outbox(root / GAME / "outbox").pending()) >= mails
        line(f"ingest: signed order mails from a Maildir into a game ({mails} mails, "
             f"{mails // 4} per power)", mails / elapsed, "mails/s", floor, rate=True)
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
