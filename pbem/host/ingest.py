"""Incoming mail → orders: store every message before acting on it, find the signed order
blocks, hand each to :mod:`pbem.accept`, record the outcome, then acknowledge the source.

Nothing vanishes: a message that cannot be handled is quarantined with its reason; a message for
a busy game stays pending in the inbox and is handled by the next run (``pbem run`` handles
pending inbox messages first); the same message delivered twice is handled once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from pbem.errors import PbemError
from pbem.host import accept, notify
from pbem.mail.inbox import Inbox, Stored
from pbem.mail.outbox import Outbox
from pbem.mail.sources import Source
from pbem.mail.triage import triage
from pbem.protocol.armor import find_signed_blocks, normalize
from pbem.store.gamedir import GameDir, games_under
from pbem.store.lock import try_lock

#: Reasons not to answer that concern only the From line (pbem.mail.loops): a receipt to the
#: registered address is still sent. Robots, bounces, lists and our own mail get nothing.
FROM_ONLY = frozenset({"no-from", "bad-from"})


@dataclass
class IngestReport:
    messages: int = 0
    duplicates: int = 0
    pending: int = 0  # left for the next run (game busy)
    quarantined: int = 0
    verdicts: list[accept.Verdict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        head = (f"{self.messages} message(s): {len(self.verdicts)} order block(s), "
                f"{self.duplicates} duplicate(s), {self.quarantined} quarantined, "
                f"{self.pending} left for the next run")
        return [head, *(v.line() for v in self.verdicts), *self.notes]


@dataclass
class Directory:
    """What handling mail needs to know about every game under a root, read in one pass: the
    registered keys, the referee's own addresses (never answered: mail loops) and each
    registered player address with a game it plays in (the only addresses ever answered)."""

    ring: accept.Keyring = field(default_factory=accept.Keyring)
    ours: set[str] = field(default_factory=set)
    registered: dict[str, Path] = field(default_factory=dict)

    @classmethod
    def scan(cls, root: Path) -> Directory:
        out = cls()
        for path in games_under(root):
            try:
                game = GameDir.open(path)
            except PbemError:
                continue  # a damaged game is stopped by the turn job; it takes no orders
            for power, key in game.registered_keys().items():
                out.ring.add(game.game_id, power, key)
            out.ours.add(notify.address_of(game.config.sender or ""))
            for entry in game.config.powers.values():
                out.registered.setdefault(entry.email.lower(), path)
        out.ours.discard("")
        return out


def ingest(root: Path, source: Source | None, now: datetime) -> IngestReport:
    """Handle every message of ``source`` (and the inbox's pending ones)."""
    report = IngestReport()
    inbox = Inbox(root)
    stored_now: list[Stored] = []
    if source is not None:
        # Storing is safe for concurrent processes (content-addressed, atomic writes); the
        # source is acknowledged only once the message is on disk.
        for incoming in source.messages():
            stored = inbox.store(incoming.raw)
            report.messages += 1
            if stored.handled is not None or stored.duplicate:
                report.duplicates += 1
            source.ack(incoming.id)
            stored_now.append(stored)
    # Handling is serialised per root: a second ingest (a pipe delivery while a cron ingest runs)
    # leaves what it stored for the one holding the lock, or for the next run.
    lock = try_lock(inbox.inbox_dir)
    if lock is None:
        report.pending += len([s for s in stored_now if s.handled is None])
        report.notes.append("another pbem process is handling the inbox: stored for it")
        return report
    with lock:
        # Arrival order: what earlier runs left first (by store time), then this run's messages
        # in the source's order (the store's mtimes tie within one clock tick).
        arrival = {s.sha256: i for i, s in enumerate(stored_now)}
        pending = sorted(inbox.pending(), key=lambda s: arrival.get(s.sha256, -1))
        if not pending:
            return report  # nothing to handle: do not open every game for its keys
        directory = Directory.scan(root)
        seen: set[str] = set()
        for stored in pending:
            if stored.sha256 in seen:
                continue
            seen.add(stored.sha256)
            if source is None or all(s.sha256 != stored.sha256 for s in stored_now):
                report.messages += 1
            _handle(root, inbox, stored, inbox.read(stored), now, directory, report)
    return report


def _handle(root: Path, inbox: Inbox, stored: Stored, raw: bytes, now: datetime,
            directory: Directory, report: IngestReport) -> None:
    t = triage(raw, own_addresses=directory.ours)
    if t.too_big is not None:
        inbox.quarantine(stored, f"{t.too_big.code}: {t.too_big.message}")
        report.quarantined += 1
        return
    blocks: list[str] = []
    seen: set[str] = set()
    for part in t.texts:
        for block in find_signed_blocks(part.text):
            key = normalize(block)
            if key not in seen:
                seen.add(key)
                blocks.append(block)
    if not blocks:
        if t.html_only and t.no_reply is None:
            _reply_to_registered(directory, t.sender, "html-only", t.message_id, report,
                                 lambda game: notify.html_only_mail(
                                     game, str(t.sender), t.message_id, t.subject, now))
            inbox.done(stored, "html-only")
            return
        reason = "no signed order block found"
        if t.no_reply is not None:
            reason += f" ({t.no_reply.message})"
        else:
            notes = [str(n) for n in t.notes]
            _reply_to_registered(directory, t.sender, "no-orders", t.message_id, report,
                                 lambda game: notify.no_orders_mail(
                                     game, str(t.sender), t.message_id, t.subject, now, notes))
        inbox.quarantine(stored, reason)
        report.quarantined += 1
        return
    # Receipts and rejections go to the power's registered address, never to From: a missing
    # or unusable From forbids answering From, not telling the registered player.
    reply = t.no_reply is None or t.no_reply.code in FROM_ONLY
    verdicts = []
    try:
        for block in blocks:
            verdicts.append(accept.handle_block(
                root, block, received=now, message_id=t.message_id, ring=directory.ring,
                reply_to=t.message_id, subject=t.subject, reply=reply,
            ))
    except accept.GameBusy as exc:
        report.pending += 1
        report.notes.append(str(exc))
        return  # not done: the next run handles it again (accepted blocks are duplicates then)
    report.verdicts.extend(verdicts)
    outcome = ",".join(sorted({v.verdict for v in verdicts}))
    inbox.done(stored, outcome, verdicts=[v.line() for v in verdicts])


def _reply_to_registered(directory: Directory, sender: str | None, kind: str,
                         message_id: str | None, report: IngestReport,
                         make: Callable[[Path], EmailMessage]) -> None:
    """Answer a mail that held no orders — only if its sender is a registered player. From
    proves nothing, but answering only registered addresses means pbem can never be used to
    mail a stranger."""
    if not sender:
        return
    game_path = directory.registered.get(sender.lower())
    if game_path is None:
        report.notes.append(f"{kind} mail from unregistered {sender}: not answered")
        return
    Outbox(game_path / "outbox").queue(make(game_path), key=f"{kind}:{message_id}:{sender}")
    report.notes.append(f"{kind} mail from {sender}: answered")
