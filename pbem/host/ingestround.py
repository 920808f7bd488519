"""One round of ingest: the pending messages handled together, with one durable step per phase
instead of one per message (docs/operations.md, "Group commit in ingest").

A round of several messages is *grouped*: one record ``inbox/attempts/batch.json`` names them
(one durable write), each is handled with its games' writes staged in :class:`OpenGames`, then
:meth:`Round.finish` commits the games (submission names, log, replies: pbem.host.opengames),
writes every done record (each file fsynced, their directory once) and drops the batch record.

A message is handled *alone*, as before group commit — its start counted in
``inbox/attempts/<sha256>``, its games committed and its done record written before the next
message starts — when it is the round's only message, or when the batch record of an earlier
round still names it: that round was killed before it finished (out of memory, a time limit, a
power cut), possibly by this very message, so each of its messages now counts its own attempts
and one that kills the process again is quarantined after :data:`~pbem.mail.inbox.MAX_ATTEMPTS`
tries without costing the others theirs.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from pbem import failpoints
from pbem.host.opengames import OpenGames
from pbem.mail import _files
from pbem.mail.inbox import Inbox, Stored

BATCH_NAME = "batch.json"


class Round:
    """The messages of one round (by sha256) and what they leave to :meth:`finish`."""

    def __init__(self, inbox: Inbox, shas: list[str]) -> None:
        self.inbox = inbox
        self.games = OpenGames()
        self._done: list[tuple[Stored, str, dict[str, Any]]] = []
        self._record = inbox.inbox_dir / "attempts" / BATCH_NAME
        unfinished = set(_read_names(self._record))
        grouped = [s for s in shas if s not in unfinished]
        self.alone = set(shas) if len(grouped) < 2 else unfinished
        self.grouped = len(grouped) >= 2
        self._recorded = self.grouped or bool(unfinished)
        if self.grouped:
            self._record.parent.mkdir(mode=0o700, exist_ok=True)
            _files.write_durably(self._record, json.dumps(grouped).encode("ascii"))
            failpoints.reached("ingest-batch-begun")

    def is_alone(self, sha: str) -> bool:
        return sha in self.alone

    def done(self, stored: Stored, outcome: str, **details: Any) -> None:
        """Record ``stored`` as handled: at once for a message handled alone (after its games
        are committed), at :meth:`finish` for a grouped one."""
        if self.is_alone(stored.sha256):
            self.games.commit()
            self.inbox.done(stored, outcome, **details)
        else:
            self._done.append((stored, outcome, details))

    def finish(self) -> None:
        """Commit the games, then the done records (one fsync of each archive day folder they
        went to; then their messages leave the live inbox: Inbox.flush_done), then drop
        the batch record (unsynced: if a crash loses the removal, the next round handles alone
        only those of its messages still pending)."""
        self.games.commit()
        if self._done:
            for stored, outcome, details in self._done:
                self.inbox.done(stored, outcome, sync_dir=False, **details)
            self.inbox.flush_done()
            self._done.clear()
            failpoints.reached("ingest-done-recorded")
        if self._recorded:  # this round's record, or the unfinished one it has now handled
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self._record)


def _read_names(path: Path) -> list[str]:
    """The messages an unfinished round named ([] if none, or if the record is unreadable: a
    torn record was never durable, so its round never started handling)."""
    try:
        names = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return []
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []
