"""Incoming mail → orders: store every message before acting on it, find the signed order
blocks, hand each to :mod:`pbem.accept`, record the outcome, then acknowledge the source.

Nothing vanishes: a message that cannot be handled is quarantined with its reason; a message for
a busy game stays pending in the inbox and is handled by the next run (``pbem run`` handles
pending inbox messages first); the same message delivered twice is handled once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from pbem import accept, notify
from pbem.armor import find_signed_blocks, normalize
from pbem.errors import PbemError
from pbem.gamedir import GameDir, games_under
from pbem.lock import try_lock
from pbem.mail.inbox import Inbox, Stored
from pbem.mail.outbox import Outbox
from pbem.mail.sources import Source
from pbem.mail.triage import triage

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


def own_addresses(root: Path) -> set[str]:
    """The referee's addresses (never answered: mail loops)."""
    out = set()
    for path in games_under(root):
        try:
            out.add(notify.address_of(GameDir.open(path).config.sender or ""))
        except PbemError:
            continue
    out.discard("")
    return out


def registered_addresses(root: Path) -> dict[str, str]:
    """Lower-cased player address → a game directory where it is registered."""
    out: dict[str, str] = {}
    for path in games_under(root):
        try:
            game = GameDir.open(path)
        except PbemError:
            continue
        for entry in game.config.powers.values():
            out.setdefault(entry.email.lower(), str(path))
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
        ring = accept.keyring_for(root)
        ours = own_addresses(root)
        seen: set[str] = set()
        for stored in pending:
            if stored.sha256 in seen:
                continue
            seen.add(stored.sha256)
            if source is None or all(s.sha256 != stored.sha256 for s in stored_now):
                report.messages += 1
            _handle(root, inbox, stored, inbox.read(stored), now, ring, ours, report)
    return report


def _handle(root: Path, inbox: Inbox, stored: Stored, raw: bytes, now: datetime,
            ring: accept.Keyring, ours: Iterable[str], report: IngestReport) -> None:
    t = triage(raw, own_addresses=set(ours))
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
            _html_only_reply(root, t.sender, t.message_id, t.subject, now, report)
            inbox.done(stored, "html-only")
            return
        reason = "no signed order block found"
        if t.no_reply is not None:
            reason += f" ({t.no_reply.message})"
        else:
            notes = [str(n) for n in t.notes]
            _no_orders_reply(root, t.sender, t.message_id, t.subject, now, notes, report)
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
                root, block, received=now, message_id=t.message_id, ring=ring,
                reply_to=t.message_id, subject=t.subject, reply=reply,
            ))
    except accept.GameBusy as exc:
        report.pending += 1
        report.notes.append(str(exc))
        return  # not done: the next run handles it again (accepted blocks are duplicates then)
    report.verdicts.extend(verdicts)
    outcome = ",".join(sorted({v.verdict for v in verdicts}))
    inbox.done(stored, outcome, verdicts=[v.line() for v in verdicts])


def _html_only_reply(root: Path, sender: str | None, message_id: str | None, subject: str,
                     now: datetime, report: IngestReport) -> None:
    """Ask for plain text — only if the sender is a registered player (From proves nothing, but
    answering only registered addresses means we can never be used to mail a stranger)."""
    if not sender:
        return
    game_path = registered_addresses(root).get(sender.lower())
    if game_path is None:
        report.notes.append(f"HTML-only mail from unregistered {sender}: not answered")
        return
    msg = notify.html_only_mail(Path(game_path), sender, message_id, subject, now)
    Outbox(Path(game_path) / "outbox").queue(msg, key=f"html-only:{message_id}:{sender}")
    report.notes.append(f"HTML-only mail from {sender}: asked for plain text")


def _no_orders_reply(root: Path, sender: str | None, message_id: str | None, subject: str,
                     now: datetime, notes: list[str], report: IngestReport) -> None:
    """Tell a registered player that the mail held no signed orders (nobody else is told)."""
    if not sender:
        return
    game_path = registered_addresses(root).get(sender.lower())
    if game_path is None:
        return
    msg = notify.no_orders_mail(Path(game_path), sender, message_id, subject, now, notes)
    Outbox(Path(game_path) / "outbox").queue(msg, key=f"no-orders:{message_id}:{sender}")
    report.notes.append(f"no signed orders from {sender}: told so")
