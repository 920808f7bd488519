"""Incoming mail → orders: store every message before acting on it, find the signed order
blocks, hand each to :mod:`pbem.host.accept`, record the outcome, then acknowledge the source.

Nothing vanishes: a message that cannot be handled is quarantined with its reason; a message for
a busy game stays pending in the inbox and is handled by the next run (``pbem run`` handles
pending inbox messages first); the same message delivered twice is handled once.

No message can stop the root: parsing runs under explicit budgets (pbem.mail.message.Limits),
any exception while handling one message quarantines that message with its reason, and a
message whose handling started :data:`~pbem.mail.inbox.MAX_ATTEMPTS` times without finishing
(the process was killed: out of memory or time) is quarantined unread. Replies never amplify:
one rejection mail per message and power, however many blocks it holds; automatic replies are
rate-limited (pbem.mail.replylimits); a stranger's text is never echoed to a player.

Size: the one pipeline from a stored message to its outcome (store, triage, find blocks, accept,
record, acknowledge); its steps share the per-message record and the crash-safety order, which
reads best in one place. Judging a submission is apart (accept), and so are parsing
(pbem.mail.message) and the inbox (pbem.mail.inbox).

Imports: judging orders (pbem.host.accept, press) and composing replies (pbem.host.notify, with
Jinja) are imported by the functions that need them, when a mail holds a block or earns a
reply: with ``.forward`` delivery every mail is a process of its own, and spam (most mail a
public address gets) then loads neither, nor what they use (the signature code, YAML, the game
store, the games, fair chance): tests/engine/cli/test_cli_imports.py holds the list.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import failpoints
from pbem.errors import Problem
from pbem.host import leftovers, rootindex
from pbem.host.ingestround import Round
from pbem.host.opengames import OpenGames
from pbem.mail.inbox import MAX_ATTEMPTS, Inbox, Stored
from pbem.mail.loops import from_addresses, looks_autoreplied
from pbem.mail.replylimits import SAME_SUBJECT, ReplyLimits
from pbem.mail.sources import Source
from pbem.mail.triage import triage
from pbem.protocol.armor import (
    find_press_blocks,
    find_signed_blocks,
    find_vote_blocks,
    normalize,
)
from pbem.protocol.keyring import Keyring
from pbem.store.lock import GameLock, try_lock

if TYPE_CHECKING:
    from types import ModuleType

    from pbem.host.accept import Verdict
    from pbem.mail.compose import Wire

#: Reasons not to answer that concern only the From line (pbem.mail.loops): a receipt to the
#: registered address is still sent. Robots, bounces, lists and our own mail get nothing.
FROM_ONLY = frozenset({"no-from", "bad-from"})


class IngestReport:
    """What one ingest did, counted (its lines are what ``pbem ingest`` prints). A plain class,
    not a dataclass: the spam path imports no ``dataclasses`` (issue 30, "Fast start")."""

    def __init__(self) -> None:
        self.messages = 0
        self.duplicates = 0
        self.pending = 0  # left for the next run (game busy)
        self.quarantined = 0
        self.swept = 0  # temporary files a killed process left, removed (pbem.host.leftovers)
        self.verdicts: list[Verdict] = []
        self.notes: list[str] = []

    def lines(self) -> list[str]:
        press = sum(1 for v in self.verdicts if v.verdict.startswith("press"))
        votes = sum(1 for v in self.verdicts if v.verdict.startswith("vote"))
        head = (f"{self.messages} message(s): {len(self.verdicts) - press - votes} order "
                "block(s), " + (f"{press} press block(s), " if press else "")
                + (f"{votes} vote(s), " if votes else "")
                + f"{self.duplicates} duplicate(s), {self.quarantined} quarantined, "
                f"{self.pending} left for the next run")
        swept = [f"removed {self.swept} temp file(s) left by a crash"] if self.swept else []
        return [head, *(v.line() for v in self.verdicts), *self.notes, *swept]


class Directory:
    """What handling mail needs to know about every game under a root, read in one pass: the
    registered keys, the referee's own addresses (never answered: mail loops) and each
    registered player address with a game it plays in (the only addresses ever answered)."""

    def __init__(self, ring: Keyring, ours: set[str], registered: Mapping[str, Path],
                 spelled: Mapping[str, str], games: Mapping[str, Path]) -> None:
        self.ring = ring
        self.ours = ours
        self.registered = registered
        #: bare address (lowercased) -> the address as registered (replies go to it, not to
        #: From).
        self.spelled = spelled
        #: game id -> its directory (only games directly under the root).
        self.games = games

    @classmethod
    def indexed(cls, root: Path) -> Directory:
        """The same facts read through the root index (pbem.host.rootindex): only the games a
        mail concerns are read, and the index gives way to the game directories whenever they
        disagree."""
        return cls(**rootindex.directory_parts(root))


def ingest(root: Path, source: Source | None, now: datetime, *,
           wait: float = 0.0, sweep: bool = False) -> IngestReport:
    """Handle every message of ``source`` (and the inbox's pending ones).

    ``wait`` (seconds) is how long to wait for another process holding the inbox (``pbem run``
    waits, so that order files stored before the resolution are handled before it); a pipe
    delivery does not wait: the holder handles what it stored (see below). ``sweep`` (``pbem
    run``): remove the temporary files killed processes left in ``inbox/`` (pbem.host.leftovers;
    whoever takes the inbox lock after a holder died sweeps the root's folders anyway)."""
    report = IngestReport()
    inbox = Inbox(root)
    stored_now: list[Stored] = []
    if source is not None:
        # Storing is safe for concurrent processes (content-addressed, atomic writes); the
        # source is acknowledged only once the message is on disk. The arrival time is
        # recorded now: it is when the orders count as received.
        # Group commit: every copy written, then all fsynced at once and put in place, then
        # one fsync of the inbox directory and one of keys/ (Inbox.sync_stored), then the
        # acknowledgements (a Maildir's: one fsync per directory).
        acks: list[str] = []
        try:
            for incoming in source.messages():
                stored = inbox.store(incoming.raw, arrived=now, sync_dir=False)
                report.messages += 1
                if stored.handled is not None or stored.duplicate:
                    report.duplicates += 1
                acks.append(incoming.id)
                stored_now.append(stored)
        except BaseException:
            inbox.drop_staged()  # nothing acknowledged: the source keeps every message
            raise
        if acks:
            inbox.sync_stored()
            failpoints.reached("ingest-stored")
            ack_many = getattr(source, "ack_many", None)
            if ack_many is not None:
                ack_many(acks)
            else:
                for ident in acks:
                    source.ack(ident)
    arrival = {s.sha256: i for i, s in enumerate(stored_now)}
    known = {s.sha256: s for s in stored_now}
    seen: set[str] = set()
    directory: Directory | None = None
    while True:
        # Handling is serialised per root. A process that finds the inbox held leaves what it
        # stored to the holder, which looks for new messages again after releasing the lock:
        # a message stored while the lock was held is never left behind.
        lock = _lock(inbox.inbox_dir, wait)
        if lock is None:
            report.pending += len([s for s in stored_now if s.handled is None])
            report.notes.append("another pbem process is handling the inbox: stored for it")
            return report
        with lock:
            report.swept += leftovers.after_lock(lock, now)
            if sweep:
                report.swept += leftovers.inbox(root, now)
                sweep = False
            while True:
                # Arrival order: what earlier runs left first (by store time), then this run's
                # messages in the source's order (the store's mtimes tie within one tick).
                pending = [s for s in sorted(inbox.pending(archive=True, known=known),
                                             key=lambda s: arrival.get(s.sha256, -1))
                           if s.sha256 not in seen]
                if not pending:
                    break
                if directory is None:  # only when there is mail: do not open every game
                    directory = Directory.indexed(root)
                limits = ReplyLimits.load(inbox.inbox_dir, now)
                # One round: the games opened once, their writes committed together; at most
                # ROUND_MESSAGES (the replies are held in memory until the commit).
                pending = pending[:ROUND_MESSAGES]
                batch = Round(inbox, [s.sha256 for s in pending])
                try:
                    for stored in pending:
                        seen.add(stored.sha256)
                        if source is None or stored.sha256 not in arrival:
                            report.messages += 1
                        _handle_bounded(root, inbox, stored, now, directory, limits, report,
                                        batch)
                    batch.finish()
                finally:
                    batch.games.commit()  # after a failure: commit what was judged, unlock
                limits.save()
        if not any(s.sha256 not in seen for s in inbox.pending()):
            return report


#: Messages handled in one round of group commit (pbem.host.ingestround); more wait for the next.
ROUND_MESSAGES = 500

#: Seconds one message may spend being parsed and searched for blocks (pure work, no I/O).
#: The parse budgets keep it linear; this catches what they miss. Over it: quarantine.
PARSE_SECONDS = 30.0


class BudgetExceeded(Exception):
    """A message took more than its time budget to parse."""


@contextlib.contextmanager
def _time_budget(seconds: float) -> Iterator[None]:
    """Raise :class:`BudgetExceeded` in the block after ``seconds`` (SIGALRM; main thread
    only — elsewhere the attempt count is the only bound)."""
    if threading.current_thread() is not threading.main_thread() or seconds <= 0:
        yield
        return

    def expire(_signum: int, _frame: object) -> None:
        raise BudgetExceeded(f"parsing took more than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _lock(directory: Path, wait: float) -> GameLock | None:
    deadline = time.monotonic() + wait
    while True:
        lock = try_lock(directory)
        if lock is not None or time.monotonic() >= deadline:
            return lock
        time.sleep(0.05)


def _handle_bounded(root: Path, inbox: Inbox, stored: Stored, now: datetime,
                    directory: Directory, limits: ReplyLimits, report: IngestReport,
                    batch: Round) -> None:
    """Handle one message at most :data:`MAX_ATTEMPTS` times, whatever goes wrong: the start
    is recorded durably first (the round's batch record for a grouped message: see
    pbem.host.ingestround), so even a process killed while handling it (out of memory, a
    time limit) counts; any exception quarantines the message with its reason."""
    alone = batch.is_alone(stored.sha256)
    attempt = inbox.begin(stored.sha256) if alone else 1
    failpoints.reached("ingest-handling")
    if attempt > MAX_ATTEMPTS:
        reason = (f"handling it started {attempt - 1} times and never finished (the process "
                  "was killed: out of memory or time?); not read again")
        _quarantine(inbox, stored, reason, report)
        inbox.finish(stored.sha256)
        return
    try:
        raw = inbox.read(stored)
        received = inbox.arrived(stored.sha256) or now
        _handle(root, inbox, stored, raw, received, now, directory, limits, report, batch)
    except Exception as exc:  # MemoryError and RecursionError included: that is the point
        reason = f"internal-error: handling it failed ({type(exc).__name__}: {_short(exc)})"
        batch.games.commit()  # what its blocks changed is durable before it is quarantined
        _quarantine(inbox, stored, reason, report)
    if alone:
        batch.games.commit()
        inbox.finish(stored.sha256)


def _quarantine(inbox: Inbox, stored: Stored, reason: str, report: IngestReport) -> None:
    inbox.quarantine(stored, reason)
    report.quarantined += 1
    report.notes.append(f"quarantined {stored.sha256[:12]}: {reason}")


def _short(exc: BaseException) -> str:
    try:
        text = " ".join(str(exc).split())
    except Exception:  # str() of a hostile exception may fail too
        text = ""
    return text[:160] or "no message"


def _handle(root: Path, inbox: Inbox, stored: Stored, raw: bytes, received: datetime,
            now: datetime, directory: Directory, limits: ReplyLimits,
            report: IngestReport, batch: Round) -> None:
    with _time_budget(PARSE_SECONDS):
        t = triage(raw, own_addresses=directory.ours)
        header_sender = _header_sender(t) if t.too_big is None else None
        blocks: list[str] = []
        press_blocks: list[str] = []
        vote_blocks: list[str] = []
        seen: set[str] = set()
        finders = ((blocks, find_signed_blocks), (press_blocks, find_press_blocks),
                   (vote_blocks, find_vote_blocks))
        for part in t.texts:
            for found, finder in finders:
                for block in finder(part.text):
                    key = normalize(block)
                    if key not in seen:
                        seen.add(key)
                        found.append(block)
    if t.too_big is not None:
        _quarantine(inbox, stored, f"{t.too_big.code}: {t.too_big.message}", report)
        return
    no_reply = t.no_reply
    # Autoresponders that set no RFC 3834 header: their subject, or the same subject again
    # and again from one sender without orders. They only silence the replies that are not
    # receipts (a receipt answers a real signed file and goes to the registered address).
    muted = looks_autoreplied(t.subject)
    signed_any = bool(blocks or press_blocks or vote_blocks)
    if not signed_any and (no_reply is None or no_reply.code in FROM_ONLY):
        repeats = limits.subject_seen(header_sender, t.subject)
        if muted is None and repeats >= SAME_SUBJECT:
            muted = Problem("repeated-subject", "Subject",
                            f"the same subject {repeats} times from {header_sender} within "
                            "a day, without orders: taken for an autoresponder")
    if not signed_any:
        if t.html_only and no_reply is None:
            if muted is not None:
                report.notes.append(f"html-only mail not answered: {muted.message}")
            else:
                _reply_to_registered(directory, limits, t.sender, "html-only", t.message_id,
                                     report, lambda game, to: _notify().html_only_mail(
                                         game, to, t.message_id, "", now))
            batch.done(stored, "html-only")
            return
        reason = "no signed order block found"
        if no_reply is not None:
            reason += f" ({no_reply.message})"
        elif muted is not None:
            reason += f" (not answered: {muted.message})"
        else:
            # Only our own sentences, never the sender's text (names, subject) go back.
            notes = [n.message[:160] for n in t.notes]
            _reply_to_registered(directory, limits, t.sender, "no-orders", t.message_id,
                                 report, lambda game, to: _notify().no_orders_mail(
                                     game, to, t.message_id, "", now, notes))
        inbox.quarantine(stored, reason)
        report.quarantined += 1
        return
    # Receipts and rejections go to the power's registered address, never to From: a missing
    # or unusable From forbids answering From, not telling the registered player.
    reply = no_reply is None or no_reply.code in FROM_ONLY
    from pbem.host import accept  # (module docstring: imported where a mail needs them)

    verdicts = []
    try:
        for block in blocks:
            verdicts.append(accept.handle_block(
                root, block, received=received, message_id=t.message_id, ring=directory.ring,
                reply_to=t.message_id, subject=t.subject, reply=reply, mail_rejection=False,
                now=now, games=batch.games,
            ))
        if press_blocks:  # press locks and writes its game itself: the round lets go first
            batch.games.commit()
            # Press (pbem.host.press) is relayed at once; it never touches the orders.
            from pbem.host import press  # (only for a mail with press: not an order mail's)

            verdicts.extend(press.handle_press_block(
                root, block, received=received, ring=directory.ring, message_id=t.message_id,
                reply=reply and muted is None, now=now) for block in press_blocks)
        if vote_blocks:  # votes lock their game themselves (pbem.host.gmops), as press does
            batch.games.commit()
            from pbem.host import votes  # (only for a mail with a vote)

            verdicts.extend(votes.handle_vote_block(
                root, block, received=received, ring=directory.ring, now=now)
                for block in vote_blocks)
        if reply and muted is None:
            _mail_rejections(stored, verdicts, directory, limits, header_sender, t.message_id,
                             now, report, batch.games)
    except accept.GameBusy as exc:
        report.pending += 1
        report.notes.append(str(exc))
        # The turn job waits for this message only in the games its blocks not judged yet
        # claim (Inbox.unjudged): a game busy for long must not hold every other game's turn.
        inbox.note_waiting(stored.sha256, {g for g, _p in map(accept.claimed,
                                                               blocks[len(verdicts):]) if g})
        return  # not done: the next run handles it again (accepted blocks are duplicates then)
    report.verdicts.extend(verdicts)
    outcome = ",".join(sorted({v.verdict for v in verdicts}))
    batch.done(stored, outcome, verdicts=[v.line() for v in verdicts])


def _notify() -> ModuleType:
    from pbem.host import notify

    return notify


def _header_sender(t: Any) -> str | None:
    """The From address as written (for the reply limits), even when it is not usable."""
    if t.sender:
        return str(t.sender).lower()
    try:
        found = from_addresses(t.message)
    except Exception:
        return None
    return found[0].lower()[:200] if found else None


def _mail_rejections(stored: Stored, verdicts: list[Verdict], directory: Directory,
                     limits: ReplyLimits, sender: str | None, message_id: str | None,
                     now: datetime, report: IngestReport, games: OpenGames) -> None:
    """One "Orders rejected" mail per incoming message and power, listing every problem of
    every rejected block for that power. A block whose signature failed is a stranger's: its
    problems are told by code only (never the stranger's text) and the claimed power is only
    told at all if it is registered in a game under this root."""
    groups: dict[tuple[str, str], list[Problem]] = {}
    forged: dict[tuple[str, str], dict[str, int]] = {}
    turns: dict[tuple[str, str], set[int | None]] = {}
    signed: dict[tuple[str, str], list[str]] = {}  # the group's files signed with its key
    from pbem.host import accept

    for number, v in enumerate(verdicts, start=1):
        # (v.queued: accept queued the late notice, which replaces a rejection)
        if v.verdict != accept.Outcome.REJECTED or v.game is None or v.power is None or v.queued:
            continue
        if v.game not in directory.games:
            continue
        group = (v.game, v.power)
        problems = groups.setdefault(group, [])
        turns.setdefault(group, set()).add(v.turn)
        if not v.verified:
            counts = forged.setdefault(group, {})
            for p in v.problems:
                counts[p.code] = counts.get(p.code, 0) + 1
            continue
        if v.sha256 is not None:
            signed.setdefault(group, []).append(v.sha256)
        where = f"block {number}" if len(verdicts) > 1 else ""
        for p in v.problems:
            path = f"{where}: {p.path}" if where and p.path else (where or p.path)
            problems.append(Problem(p.code, path, p.message))
    for group, counts in forged.items():
        for code, count in sorted(counts.items()):
            where = f"{count} block(s)" if len(verdicts) > 1 else "signature"
            groups[group].append(Problem(code, where, _UNVERIFIED.get(code, _UNVERIFIED_DEFAULT)))

    for (game, power), problems in groups.items():
        # A file signed with the power's key is answered within a budget of its own: mail
        # from others (forged, or that file again) cannot spend it (pbem.mail.replylimits).
        own = signed.get((game, power), [])
        over = limits.allow(sender, f"{game}/{power}", own)
        if over is not None:
            report.notes.append(f"rejection for {game}/{power} not mailed: {over}")
            continue
        turn = next(iter(turns[(game, power)])) if len(turns[(game, power)]) == 1 else None
        told = [v.queued for v in verdicts
                if v.game == game and v.power == power and v.verdict == accept.Outcome.REJECTED]
        if not accept.queue_rejection(directory.games[game], power, turn, _capped(problems),
                                      message_id, f"rejection:{stored.sha256}:{power}", now,
                                      games, tuple(told)):
            continue
        limits.record(sender, f"{game}/{power}", own)


#: What a player is told about a block whose signature or envelope check failed: our words only.
_UNVERIFIED_DEFAULT = ("a signed block claiming to be your orders failed the signature check; "
                       "nothing was changed")
_UNVERIFIED = {
    "bad-signature": "the signature does not match the text: the block was changed after "
                     "signing, or it was not signed with your key; nothing was changed",
    "unknown-signer": "the block was not signed by a key registered for the power it names; "
                      "nothing was changed",
}


#: Problems listed in one rejection mail; the rest are counted in a last line.
MAX_LISTED = 200


def _capped(problems: list[Problem]) -> list[Problem]:
    """At most :data:`MAX_LISTED` problems (a mail listing 10,000 lines helps nobody)."""
    if len(problems) <= MAX_LISTED:
        return problems
    rest = len(problems) - MAX_LISTED
    return [*problems[:MAX_LISTED], Problem("more", "", f"and {rest} more problem(s)")]


def _reply_to_registered(directory: Directory, limits: ReplyLimits, sender: str | None,
                         kind: str, message_id: str | None, report: IngestReport,
                         make: Callable[[Path, str], Wire]) -> None:
    """Answer a mail that held no orders — only if its sender is a registered player, and
    within the reply limits. From proves nothing, but answering only registered addresses
    means pbem can never be used to mail a stranger; the limits keep a forged From from
    flooding the player."""
    if not sender:
        return
    address = sender.lower()
    game_path = directory.registered.get(address)
    if game_path is None:
        report.notes.append(f"{kind} mail from unregistered {sender}: not answered")
        return
    over = limits.allow(address, f"{game_path.name}/{address}")
    if over is not None:
        report.notes.append(f"{kind} mail from {sender}: not answered ({over})")
        return
    to = directory.spelled.get(address, sender)
    from pbem.mail.outbox import Outbox

    Outbox(game_path / "outbox").queue(make(game_path, to), key=f"{kind}:{message_id}:{to}")
    limits.record(address, f"{game_path.name}/{address}")
    report.notes.append(f"{kind} mail from {sender}: answered at {to}")
