"""``pbem run ROOT``: the cron job."""

from __future__ import annotations

import argparse
import os
import sys
from datetime import datetime
from pathlib import Path

from pbem.cli import commands
from pbem.cli.commands import existing_root, now_from

#: Seconds ``pbem run`` waits for another process holding the inbox, each time it waits
#: (PBEM_INBOX_WAIT: for the tests, which hold the inbox on purpose).
INBOX_WAIT = float(os.environ.get("PBEM_INBOX_WAIT", "60"))


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "run",
        description="For every game under ROOT: handle mail waiting in the inbox, resolve the "
        "turn if it is due (all orders in, or the deadline passed), mail every player its "
        "report, remind late players, and deliver queued mail. A busy game is skipped. Running "
        "it again does nothing extra. Put it in crontab, e.g. */10 * * * * pbem run ROOT",
    )
    p.add_argument("root", type=Path, metavar="ROOT", help="directory holding the games")
    p.add_argument("--now", metavar="TIMESTAMP",
                   help="pretend it is this UTC time (ISO 8601, e.g. 2026-12-02T18:00:00Z)")
    p.add_argument("--no-send", action="store_true",
                   help="queue mail but do not deliver it (it stays in each game's outbox)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pbem.host import retention, turnjob
    from pbem.mail import config, trouble
    from pbem.mail.outbox import Outbox
    from pbem.store.referee import warn_permissions

    now = now_from(args.now)
    root = existing_root(args.root)
    warn_permissions(root)
    days = config.keep_mail_days(root)  # (a mistake in mail.yaml stops the run before it starts)
    # Wait (up to a minute) for an ingest that holds the inbox: order files stored before this
    # run must be judged before it resolves a turn. A turn whose deadline some message stored
    # before it is still waiting for is not resolved (turnjob: GameRun.held): once the games
    # are visited, this run waits for the inbox once more and visits those games again.
    inbox_ok = inbox_pass(root, now, sweep=True)
    transport = None if args.no_send else config.transport(root)
    try:
        runs = turnjob.run_root(root, now, transport)
        held = {r.game for r in runs if r.held}
        if held and inbox_ok:
            inbox_ok = inbox_pass(root, now)
            again = {r.game: r for r in turnjob.run_root(root, now, transport, only=held)}
            runs = [again.get(r.game, r) for r in runs]
    finally:
        if transport is not None:
            transport.close()
    pruned = retention.prune_root(root, now, days)
    if not runs:
        print(f"no games under {root}")
    for r in runs:
        print(r.line())
        if r.deferred or r.failed:  # the server's reply, not only a count
            for line in trouble.lines(Outbox(root / r.game / "outbox")):
                print(line)
    if pruned is not None and pruned.files:
        print(f"retention: pruned {pruned.files} file(s) of mail older than "
              f"{days} days ({retention.size_text(pruned.bytes)})"
              + (f"; {pruned.busy} busy, next time" if pruned.busy else ""))
    return 1 if not inbox_ok or any(r.status in ("stopped", "error") for r in runs) else 0


def inbox_pass(root: Path, now: datetime, *, sweep: bool = False) -> bool:
    """Handle the inbox (waiting up to a minute for another holder); print what was done.
    A failure (a full disk, a folder that cannot be written) is one line on stderr and False:
    every message stays stored for the next run, and the games are visited all the same (a
    turn still waiting for a stored message is not resolved: turnjob)."""
    from pbem.atomic import DiskFull, StorageError, storage_error
    from pbem.errors import PbemError
    from pbem.host import ingest

    try:
        report = ingest.ingest(root, None, now, wait=INBOX_WAIT, sweep=sweep)
    except (PbemError, OSError) as exc:
        if isinstance(exc, OSError) and not isinstance(exc, StorageError):
            exc = storage_error(exc.filename or root / "inbox", "write", exc)
        full = " (the disk is full)" if isinstance(exc, DiskFull) else ""
        print(f"pbem run: the inbox was not handled{full}: {exc}; no mail is lost: what is "
              "stored waits for the next run", file=sys.stderr)
        return False
    for line in report.lines() if report.messages else report.lines()[-1:] * bool(report.swept):
        print(f"inbox: {line}")
    return True
