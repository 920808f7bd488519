"""Retention: sent and handled mail pruned after a period, so a root stops growing.

Every mail pbem sends stays in its game's ``outbox/sent/`` (and, with the embedded file
transport, in ``ROOT/sent-mail/``), and every mail it handles in ``inbox/handled/DAY/``: half a
megabyte per 4000 A.D. game-turn. The log and the exports are the record (a report can be
rendered again from the log); the copies of mail are not. ``pbem run`` prunes them once a day
(:func:`prune_root`), those older than ``keep_mail_days`` (ROOT/mail.yaml; default 30:
pbem.mail.config; ``never`` keeps everything):

* ``GAME/outbox/sent/B.batch`` (every queued message is in a batch, pbem.mail.outbox) is
  compacted: its messages' bytes dropped, its header and sent records kept,
  under its name and each of its key names (they are hard links of one file). Exactly-once
  rests on those: a key names an id whose record says "sent" (pbem.mail.outbox_spool
  ``queued_under``), so a rerun still finds every reply queued and queues none again. Under the
  game's lock (a busy game waits for the next day); nothing pending or failed is touched. Age
  is the record's ``sent_at`` (the run's clock, as every other time pbem keeps).
* ``ROOT/sent-mail/NAME.eml`` — the file transport's copy of each message pruned above (named
  by its bytes); a copy no outbox holds any more is left alone.
* ``inbox/handled/DAY/SHA.eml`` and ``.arrived`` — removed for the days (of arrival) before the
  period's first; the
  done record ``SHA.json`` and the duplicate key ``inbox/keys/KEY`` stay, so a redelivered old
  message is still recognised as handled (pbem.mail.inbox ``store``). Under the inbox lock.

What was pruned is kept in ``ROOT/.pbem-run/retention.json`` (when, how many files, how many
bytes) and ``pbem gm status`` shows it with the root's size on disk (:func:`status_lines`).
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.mail import _files
from pbem.mail.inbox import Inbox
from pbem.mail.outbox import Outbox
from pbem.mail.outbox_prune import prune_sent
from pbem.schedule import parse_iso, to_iso
from pbem.store.layout import RUN_DIR, games_under, run_dir
from pbem.store.lock import try_lock

#: Where the last prune is recorded (the run's own folder: pbem.host.duelist's).
RECORD = Path(RUN_DIR) / "retention.json"
#: Pruning runs at most this often (a run every ten minutes need not list every outbox).
EVERY = timedelta(days=1)


@dataclass
class Pruned:
    files: int = 0
    bytes: int = 0
    busy: int = 0  # games skipped because another process held them

    def add(self, other: tuple[int, int]) -> None:
        self.files += other[0]
        self.bytes += other[1]


def prune_root(root: Path, now: datetime, days: int | None, *, force: bool = False
               ) -> Pruned | None:
    """Prune what is older than ``days`` (None: never) under ``root``; None when nothing was
    due (pruned less than :data:`EVERY` ago, or retention is off)."""
    if days is None:
        return None
    last = last_prune(root)
    if not force and last is not None and now - parse_iso(last["time"]) < EVERY:
        return None
    before = now - timedelta(days=days)
    done = Pruned()
    # Best effort, game by game: a game that cannot be pruned now (busy, a planted link the
    # turn job refuses and reports, a full disk) keeps its mail for the next day's run and
    # never stops the others or the run.
    for game in games_under(root):
        try:
            lock = try_lock(game)
            if lock is None:
                done.busy += 1
                continue
            with lock:
                done.add(prune_sent(Outbox(game / "outbox"), before, root / "sent-mail"))
        except (PbemError, OSError):
            done.busy += 1
    inbox = Inbox(root)
    try:
        lock = try_lock(inbox.inbox_dir)
        if lock is None:
            done.busy += 1
        else:
            with lock:
                done.add(inbox.prune_handled(before))
    except (PbemError, OSError):
        done.busy += 1
    record = {"time": to_iso(now), "days": days, "before": to_iso(before),
              "files": done.files, "bytes": done.bytes, "busy": done.busy,
              "total_files": (last or {}).get("total_files", 0) + done.files,
              "total_bytes": (last or {}).get("total_bytes", 0) + done.bytes}
    with contextlib.suppress(OSError):  # a note for gm status: a full disk skips it
        run_dir(root)
        _files.write_json(root / RECORD, record, sync_dir=False)
    return done


def last_prune(root: Path) -> dict[str, Any] | None:
    with contextlib.suppress(OSError, ValueError):
        data = json.loads((root / RECORD).read_bytes())
        if isinstance(data, dict) and isinstance(data.get("time"), str):
            return data
    return None


def disk_usage(path: Path) -> int:
    """Bytes on disk under ``path`` (allocated blocks; a hard link counted once)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for folder, dirs, files in os.walk(path):
        for name in [*dirs, *files]:
            with contextlib.suppress(OSError):
                st = os.lstat(os.path.join(folder, name))
                if (st.st_dev, st.st_ino) in seen:
                    continue
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
    return total


def size_text(n: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TB"  # pragma: no cover


def status_lines(root: Path, days: int | None) -> list[str]:
    """For ``pbem gm status``: the root's size on disk, and of what retention prunes (the sent
    mail of every game's outbox/sent, the handled mail of inbox/handled), the retention period
    and what the last prune removed."""
    total = disk_usage(root)
    sent = sum(disk_usage(g / "outbox" / "sent") for g in games_under(root))
    handled = disk_usage(root / "inbox" / "handled")
    lines = [f"disk: the root {root} holds {size_text(total)}; of it sent mail "
             f"{size_text(sent)} (every game's outbox/sent), handled mail {size_text(handled)} "
             f"(inbox/handled)"]
    if days is None:
        lines.append("retention: off (keep_mail_days: never in mail.yaml): mail is never pruned")
        return lines
    last = last_prune(root)
    when = (f"last pruned at {last['time']}: {last['files']} file(s), "
            f"{size_text(last['bytes'])}; {last['total_files']} file(s), "
            f"{size_text(last['total_bytes'])} in all" if last else "not pruned yet")
    lines.append(f"retention: sent and handled mail kept {days} days (keep_mail_days in "
                 f"mail.yaml); {when}")
    return lines
