"""How many automatic replies pbem may send, so that no incoming mail is ever amplified.

Receipts for accepted orders are not limited (each answers a real signed file, and the per-power
order quota bounds them). Every other automatic reply — "Orders rejected", "No signed orders
found", "please send plain text" — counts against two limits over a sliding window:

- per sender (the From address as written, forged or not): :data:`PER_SENDER` replies;
- per power (the registered address the reply goes to): :data:`PER_POWER` replies.

A rejection of a file whose signature verified with the power's own key is counted apart: only
against :data:`PER_SIGNED` replies to that power, spent by nothing else, and at most one reply
per signed file (by its sha256) per window. Only the key's holder can make a new signed file,
so strangers — a forged From, a bad signature, the player's own file sent again — can spend
the ordinary budgets but never this one, and the player's rejected file is always answered.

A message whose sender already sent :data:`SAME_SUBJECT` messages with the same subject within
the window is taken for an autoresponder that sets no RFC 3834 header and gets no reply at all.

The record is ``ROOT/inbox/replies.json``, read and written only under the inbox lock (ingest
holds it while handling). It keeps only the window's events, so it stays small.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pbem.mail import _files

#: The window over which replies are counted.
WINDOW = timedelta(hours=24)
#: Automatic replies (not receipts) caused by one From address per window.
PER_SENDER = 5
#: Automatic replies (not receipts) to one power's registered address per window.
PER_POWER = 10
#: The same subject from the same sender this many times per window: an autoresponder.
SAME_SUBJECT = 3
#: Rejections of files signed with the power's own key, per power and window (counted apart
#: from PER_SENDER and PER_POWER: only the key's holder can spend it).
PER_SIGNED = 50
FILE_NAME = "replies.json"


def _fmt(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


class ReplyLimits:
    """The reply counters of one root, loaded for one ingest run (save with :meth:`save`)."""

    def __init__(self, path: Path, now: datetime, events: list[dict[str, Any]] | None = None
                 ) -> None:
        self.path = path
        self.now = now
        self.events: list[dict[str, Any]] = [] if events is None else events

    @classmethod
    def load(cls, inbox_dir: Path, now: datetime) -> ReplyLimits:
        path = inbox_dir / FILE_NAME
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            raw = data.get("events", []) if isinstance(data, dict) else []
        except (OSError, ValueError):
            raw = []  # missing or torn: start afresh (at worst a few more replies)
        since = _fmt(now - WINDOW)
        events = [e for e in raw if isinstance(e, dict) and isinstance(e.get("t"), str)
                  and e["t"] >= since]
        return cls(path, now, events)

    def _count(self, kind: str, key: str) -> int:
        return sum(1 for e in self.events if e.get("kind") == kind and e.get("key") == key)

    def subject_seen(self, sender: str | None, subject: str) -> int:
        """Record one message with ``subject`` from ``sender``; return how many the window
        holds now (this one included). 0 when there is no sender."""
        if not sender:
            return 0
        digest = hashlib.sha256(f"{sender.lower()}\0{subject.strip()}".encode(
            "utf-8", "replace")).hexdigest()[:24]
        self.events.append({"t": _fmt(self.now), "kind": "subject", "key": digest})
        return self._count("subject", digest)

    def _fresh(self, signed: Collection[str]) -> list[str]:
        """The signed files (sha256) not answered yet within the window."""
        return [s for s in signed if not self._count("signed-file", s)]

    def allow(self, sender: str | None, power: str, signed: Collection[str] = ()) -> str | None:
        """None if one more reply caused by ``sender`` to ``power`` ("game/power") is allowed,
        else the sentence saying which limit it is over. ``signed``: the sha256 of each file in
        the reply whose signature verified with the power's key; when one of them has not been
        answered yet, only :data:`PER_SIGNED` applies."""
        if self._fresh(signed):
            if self._count("signed", power) >= PER_SIGNED:
                return (f"reply limit: {PER_SIGNED} rejections of signed files per "
                        f"{_hours(WINDOW)} h to {power}")
            return None
        if sender and self._count("sender", sender.lower()) >= PER_SENDER:
            return (f"reply limit: {PER_SENDER} automatic replies per "
                    f"{_hours(WINDOW)} h for mail from {sender}")
        if self._count("power", power) >= PER_POWER:
            return (f"reply limit: {PER_POWER} automatic replies per {_hours(WINDOW)} h "
                    f"to {power}")
        return None

    def record(self, sender: str | None, power: str, signed: Collection[str] = ()) -> None:
        """One automatic reply was queued (``signed`` as for :meth:`allow`)."""
        stamp = _fmt(self.now)
        fresh = self._fresh(signed)
        if fresh:
            self.events += [{"t": stamp, "kind": "signed-file", "key": s} for s in fresh]
            self.events.append({"t": stamp, "kind": "signed", "key": power})
            return
        if sender:
            self.events.append({"t": stamp, "kind": "sender", "key": sender.lower()})
        self.events.append({"t": stamp, "kind": "power", "key": power})

    def save(self) -> None:
        _files.write_json(self.path, {"events": self.events}, sync_dir=False)


def _hours(delta: timedelta) -> int:
    return int(delta.total_seconds() // 3600)
