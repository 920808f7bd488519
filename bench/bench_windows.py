"""Mails and durable syncs per window of a six-player round of many short windows.

The round is the relay toy's ``round-48-six`` (tests/games/relay: 48 legs, six runners; a baton
leg is one runner's window with ``silence: default``, ``notify: due`` and
``closes_when_answered``; legs 16, 32 and 48 are sprints, every runner's, on the contract's
defaults). It is played three times on fresh roots, each through the real path: every file
signed with the power's key and judged by ``pbem.host.accept.handle_block`` (what ``pbem
ingest`` calls), the turn job ``turnjob.run_root`` delivering to the file transport, every
mail counted as delivered (reports, digests, receipts, the game master's summaries):

- **one mail a step**: every player's digest pace ``every-step`` (each player gets every
  step's report, as before the window policies), each runner mails a file of each step;
- **window policies**: ``when-due`` digests, the same files;
- **standing answers**: ``when-due`` digests; each runner mails one standing file (``turn:
  standing``) at the start and files of the step only for the sprints: a baton leg every due
  power pre-answered closes at once (docs/plugins.md, "Window policies"), so one run of the
  turn job resolves every leg up to the next sprint.

Per window: mails delivered, durable syncs (``os.fsync`` and ``os.fdatasync`` counted, ingest
and turn job together) and CPU (``time.process_time``, the three plays in one process); per
round: the windows that waited for a player's mail and the steps resolved by a run that
resolved more than one. The first play's figures are the floor of the others (ratio: the
policy's share of the one-mail-a-step figure). The play runs in a child process whose
``PBEM_GAMES_DIR`` also holds tests/games (where the relay toy lives).
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
T0 = datetime(2026, 12, 1, tzinfo=UTC)
VARIANT = "round-48-six"
PLAYS = ("one mail a step", "window policies", "standing answers")


@dataclass
class Play:
    name: str
    windows: int = 0
    mails: int = 0
    syncs: int = 0
    cpu: float = 0.0
    waited: int = 0  # windows that waited for a player's mail of the step
    reports: float = 0.0  # reports and digests per player per round (receipts not counted)
    runs: list[int] = field(default_factory=list)  # steps resolved by each run


def _counting(counter: itertools.count[int]) -> Callable[[], None]:
    """Count every ``os.fsync`` and ``os.fdatasync`` into ``counter``; the undo."""
    originals = {name: getattr(os, name) for name in ("fsync", "fdatasync")}

    def wrap(original: Callable[[int], None]) -> Callable[[int], None]:
        def counted(fd: int) -> None:
            next(counter)
            original(fd)
        return counted

    for name, original in originals.items():
        setattr(os, name, wrap(original))

    def undo() -> None:
        for name, original in originals.items():
            setattr(os, name, original)
    return undo


def play(work: Path, name: str) -> Play:
    from pbem.game import registry
    from pbem.host import accept, turnjob
    from pbem.mail.transports import FileTransport
    from pbem.protocol.keys import PrivateKey
    from pbem.protocol.orderdoc import sign_orders
    from pbem.store import chance
    from pbem.store.gameconfig import GameConfig
    from pbem.store.gamedir import GameDir

    plugin = registry.load("relay")
    powers = plugin.variants()[VARIANT].powers
    keys = {p: PrivateKey.generate() for p in powers}
    root = work / name.replace(" ", "-")
    pace = "every-step" if name == PLAYS[0] else "when-due"
    config = GameConfig.from_data({
        "game_id": "relay-b", "game": "relay", "variant": VARIANT, "gm": "gm@example.org",
        "from": "referee@example.org", "schedule": {"period": "2h"},
        "powers": {p: {"email": f"{p}@example.org", "digest": pace} for p in powers}})
    game = GameDir.create(root, config, {p: k.public for p, k in keys.items()}, plugin, T0)
    instance = chance.instance(game.genesis)
    transport = FileTransport(work / f"sent-{root.name}")
    turnjob.run_root(root, T0, transport)  # the welcome mails: not counted
    seqs = dict.fromkeys(powers, 0)

    def mail(power: str, turn: int | str, when: datetime) -> None:
        doc = {"pbem": 1, "game": "relay-b", "power": power, "turn": turn,
               "seq": seqs[power], "instance": instance, "orders": {"pace": 2}}
        seqs[power] += 1
        verdict = accept.handle_block(root, sign_orders(yaml.safe_dump(doc), keys[power]),
                                      received=when, message_id=f"<{power}.{turn}.{when}>")
        assert verdict.verdict == "accepted", verdict

    out = Play(name)
    syncs = itertools.count()
    undo = _counting(syncs)
    cpu = time.process_time()
    try:
        now = T0
        if name == PLAYS[2]:
            for power in powers:
                mail(power, "standing", now + timedelta(minutes=1))
        while True:
            state = json.loads((game.path / "state.json").read_text())["state"]
            if plugin.is_over(state):
                break
            due = plugin.powers_due(state)
            if name != PLAYS[2] or len(due) > 1:
                out.waited += 1
                for power in due:
                    mail(power, int(state["turn"]), now + timedelta(minutes=5))
            now += timedelta(minutes=10)
            runs = turnjob.run_root(root, now, transport)
            out.runs.append(sum(len(r.resolved) for r in runs))
            out.mails += sum(r.sent for r in runs)
    finally:
        out.cpu = time.process_time() - cpu
        undo()
    out.syncs = next(syncs)
    out.windows = sum(out.runs)
    out.reports = _reports(work / f"sent-{root.name}") / len(powers)
    assert out.windows == int(state["legs"]), (name, out.runs)
    return out


def _reports(sent: Path) -> int:
    """Reports and digests delivered to the players (not the welcome, receipts or the game
    master's summaries), by their headers."""
    from email.parser import BytesHeaderParser

    count = 0
    for path in sent.iterdir():
        if not path.is_file():
            continue
        with path.open("rb") as f:
            head = BytesHeaderParser().parse(f)
        subject, to = str(head["Subject"]).lower(), str(head["To"])
        if to.startswith("gm@") or "report" not in subject and "game is over" not in subject:
            continue
        count += 1
    return count


def measure() -> None:
    from bench.report import line

    work = Path(tempfile.mkdtemp(prefix="pbem-bench-windows-"))
    try:
        plays = {name: play(work, name) for name in PLAYS}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    base = plays[PLAYS[0]]
    n_powers = 6
    what = f"windows: six-player {base.windows}-window relay round"
    line(f"{what}, one mail a step (every-step digests): mails per window (floor: one report "
         f"to each player and the GM's summary)", base.mails / base.windows, "mails",
         n_powers + 1)
    for name in PLAYS[1:]:
        p = plays[name]
        line(f"{what}, {name}: mails per window (floor: one mail a step's)",
             p.mails / p.windows, "mails", base.mails / base.windows)
    line(f"{what}, one mail a step: durable syncs per window, ingest and pbem run (floor: one "
         "durable write's 2)", base.syncs / base.windows, "syncs", 2)
    for name in PLAYS[1:]:
        p = plays[name]
        line(f"{what}, {name}: durable syncs per window (floor: one mail a step's)",
             p.syncs / p.windows, "syncs", base.syncs / base.windows)
    for name in PLAYS[1:]:
        p = plays[name]
        line(f"{what}, {name}: CPU per window, same process (floor: one mail a step's)",
             p.cpu / p.windows * 1e3, "ms", base.cpu / base.windows * 1e3)
    line(f"{what}, one mail a step: reports and digests per player per round (floor: one "
         "a window)", base.reports, "mails", base.windows)
    for name in PLAYS[1:]:
        p = plays[name]
        line(f"{what}, {name}: reports and digests per player per round (floor: one mail a "
             "step's)", p.reports, "mails", base.reports)
    stand = plays[PLAYS[2]]
    line(f"{what}, standing answers: windows that waited for a player's mail, the rest closed "
         f"at once by standing answers (up to {max(stand.runs)} steps in one run of pbem run; "
         f"floor: one mail a step's, every window)", stand.waited, "windows", base.waited)


def run() -> None:
    """Play in a child process that can load the relay toy (tests/games)."""
    from pbem.game import registry

    env = dict(os.environ)
    roots = [str(r) for r in registry.roots()]
    env["PBEM_GAMES_DIR"] = os.pathsep.join([*roots, str(REPO / "tests" / "games")])
    done = subprocess.run([sys.executable, "-m", "bench.bench_windows"], cwd=REPO, env=env,
                          check=False)
    if done.returncode:
        raise RuntimeError(f"bench.bench_windows exited {done.returncode}")


if __name__ == "__main__":
    measure()
