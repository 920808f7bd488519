"""The cron job (``pbem run ROOT``): for every game under ROOT, resolve the turn when it is due,
mail the reports, remind late powers, deliver the outbox. Running it again does nothing extra.

Per game, under the game's lock (a busy game is skipped, never waited for):

1. open the game and verify its log (a torn last line — an append cut short — is dropped; any
   other damage stops the game with a message to the game master: it is never "fixed");
2. load the state (the cache is checked against the log head and rebuilt by replay if stale);
3. queue the mails of the last resolution if a crash came before they were all queued,
   and the players' notices of game-master operations not queued yet;
4. if the turn is due (all orders in and marked ready — the envelope's ``ready``, default
   true — and early processing on; or the deadline passed with all orders in, ready or not;
   or the deadline plus grace passed): gather the standing orders, resolve, **stage the
   resolve entry**; repeat while turns are due (sequential mode: each earlier step committed
   and mailed before the next is resolved);
5. remind the powers without orders shortly before the deadline, and (between the deadline
   and the end of the grace period) send them a last call naming when the grace ends.

Then, for the games of a group at once (``run_games``; docs/operations.md, "One barrier per
phase"): render each resolution's mail and write it to its outbox batch's temporary file
(``Outbox.prepare_many``); **commit each log (the commit point)** while each batch file is
fsynced alongside, and write its state cache; queue each batch under the key
``resolution:GAME:SEQ`` (``PreparedBatch.place``: all or none, only once its log entry is
durable), note the resolution mailed in ``mailed.json``; deliver each outbox.

A crash anywhere leaves the log either without the resolve entry (the next run resolves the
turn) or with it (the next run only finishes the mail); mail is queued under keys that make a
second queueing a no-op, and the outbox resends only in the window between the server's
acceptance and our record of it — byte-identical, with the same Message-ID.

Whether a resolution's mail is queued is decided by the outbox: its batch key exists and its
batch is durable. ``mailed.json`` (``{"seq": N}``) is only a hint written without fsync after
that, so a run need not look in the outbox: if a crash loses it or leaves it torn, the key
answers (an unreadable hint counts as 0). Game-master endings (pbem.host.gmops) queue their
mails one by one under their own keys and write ``mailed.json`` durably; for them the file is the
mark.

Size: the turn job's durable steps are one crash-safe sequence (docs/operations.md); kept
together so the write order can be read top to bottom.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import atomic, canonical, failpoints, syncs
from pbem.chance.errors import ChanceError
from pbem.chance.step import StepChance
from pbem.errors import PbemError
from pbem.game import registry
from pbem.game.plugin import GamePlugin, Window, powers_listened
from pbem.game.views import order_view
from pbem.host import duelist, leftovers, mailpolicy, mismatch, notify, seats
from pbem.host.duelist import RunStatus
from pbem.mail.compose import Wire
from pbem.mail.inbox import Inbox
from pbem.mail.outbox import Outbox
from pbem.mail.outbox_batch import PreparedBatch
from pbem.mail.transports import Transport
from pbem.protocol import orderdoc
from pbem.protocol.keys import PrivateKey
from pbem.schedule import parse_iso, to_iso
from pbem.store import chance, prefs, replay, trusted
from pbem.store.gameconfig import GameConfig
from pbem.store.gamedir import GameDir, games_under, overwrite_cache
from pbem.store.layout import run_dir
from pbem.store.lock import GameLock
from pbem.store.log import Entry, LogError
from pbem.store.referee import referee_key
from pbem.store.summary import Clock

if TYPE_CHECKING:
    from pbem.game.shapes import GameState
    from pbem.store.records import LogBody

MAILED = "mailed.json"
STOPPED = "STOPPED"
MAX_STEPS = 64  # resolutions per game per run (sequential games can resolve several slots)
GROUP = 32  # games visited together, each phase's durable writes made at once across them


@dataclass
class GameRun:
    game: str
    status: RunStatus = RunStatus.WAITING
    resolved: list[int] = field(default_factory=list)  # log seq of each resolve entry made
    queued: int = 0
    sent: int = 0
    deferred: int = 0
    failed: int = 0
    notes: list[str] = field(default_factory=list)
    hint: list[Any] | None = None  # the game's due-list entry when it has nothing to do now
    #: messages stored before the deadline and not judged yet, which kept the turn unresolved
    held: int = 0

    def line(self) -> str:
        parts = [f"{self.game}: {self.status}"]
        if self.resolved:
            parts.append(f"resolved {len(self.resolved)}")
        if self.queued or self.sent or self.deferred or self.failed:
            parts.append(f"mail queued {self.queued}, sent {self.sent}, deferred "
                         f"{self.deferred}, failed {self.failed}")
        parts += self.notes
        return "; ".join(parts)


def run_root(root: Path, now: datetime, transport: Transport | None,
             only: set[str] | None = None) -> list[GameRun]:
    """Visit every game under ``root`` that is due or changed; report the others as their entry
    in the root's due list says (pbem.host.duelist), and rewrite the list if it changed.
    ``only``: visit these games alone (the others keep their entries)."""
    if not root.is_dir():
        games_under(root)  # raises its one-line error
    with contextlib.suppress(OSError):  # made by the first run only (a full disk: later)
        run_dir(root)
    known = duelist.load(root)
    now_us = duelist.micros(now)
    runs: list[GameRun] = []
    todo: list[tuple[int, Path]] = []  # (place in runs, game) of the games to visit
    fresh: dict[str, duelist.Entry] = {}
    base = str(root) + "/"
    duelist.drop_stale_temps(root)
    for name in sorted(os.listdir(root)):
        if name.startswith("."):
            continue
        entry = known.get(name)
        if only is not None and name not in only:
            if entry is not None:
                fresh[name] = entry
            continue
        if entry is not None and duelist.holds(base + name, entry, now_us):
            runs.append(GameRun(name, status=RunStatus(entry[0])))
            fresh[name] = entry
            continue
        path = root / name
        if not ((path / "config.yaml").is_file() and (path / "log.jsonl").is_file()):
            continue  # not a game (games_under's rule)
        runs.append(GameRun(name))  # a place, filled in by its group's visit below
        todo.append((len(runs) - 1, path))
    for start in range(0, len(todo), GROUP):
        group = todo[start:start + GROUP]
        for (index, _path), run in zip(group, run_games([p for _, p in group], now, transport),
                                       strict=True):
            runs[index] = run
            if run.hint is not None:
                fresh[run.game] = run.hint
    if fresh != known:
        duelist.save(root, fresh)
    return runs


def run_game(path: Path, now: datetime, transport: Transport | None) -> GameRun:
    """Visit one game (``run_games`` of one)."""
    return run_games([path], now, transport)[0]


@dataclass
class _Visit:
    """One game visited with others (``run_games``): its lock held from the first phase to
    the last, and what it has yet to make durable."""

    path: Path
    run: GameRun
    lock: GameLock
    config_mark: list[int] | None
    outbox: Outbox | None = None
    visited: tuple[GameDir, str | None] | None = None
    ctx: notify.Context | None = None
    #: the last resolution of the visit, staged in the log, its mail not queued yet:
    #: (state before, state after, its log entry)
    pending: tuple[GameState, GameState, Entry] | None = None
    mails: list[tuple[str, Wire]] = field(default_factory=list)  # the pending one's, rendered
    #: the pending one's mail batch, written and not queued (None: its key is queued already)
    batch: PreparedBatch | None = None
    #: what went wrong rendering or writing the pending mail: reported after the log commit
    unqueued: Exception | None = None
    failed: bool = False


def run_games(paths: Sequence[Path], now: datetime, transport: Transport | None
              ) -> list[GameRun]:
    """Visit these games together, one durable barrier per phase across them
    (docs/operations.md, "One barrier per phase"): each game is locked, read and its due turn
    resolved with the resolve entry staged in memory, its mail rendered and written to a
    temporary batch file; then every game's log is written and fsynced (the commit point of
    each resolution) and every batch file fsynced, all at once, and each state cache written;
    then every game's batch is queued in its outbox at once; then each game's outbox is
    delivered; then the locks are released. A game whose phase fails is reported with its
    error and takes no later phase (what it made durable stays; the next run goes on)."""
    visits = [_open(path, now) for path in paths]
    live = [v for v in visits if isinstance(v, _Visit)]
    try:
        for v in live:
            _phase(v, lambda v: _visit_locked(v, now))
        _commit_pending([v for v in live if v.pending and not v.failed], _phase)
        if transport is not None:
            for v in live:
                _phase(v, lambda v: _deliver(v, transport, now))
        for v in live:
            _phase(v, lambda v: _noted(v, now))
    finally:
        for v in live:
            if v.batch is not None:  # a game that failed before queueing it: nothing queued
                v.batch.discard()
            v.lock.release()
    return [v.run if isinstance(v, _Visit) else v for v in visits]


def _open(path: Path, now: datetime) -> _Visit | GameRun:
    """The game locked for a visit, or its run when it is not visited (idle, busy, error)."""
    run = GameRun(path.name)
    idle = _idle_status(path, now)
    if idle is not None:
        run.status, run.hint = RunStatus(idle[0]), idle
        return run
    config_mark = duelist.stable_mark(str(path / "config.yaml"))  # before the visit reads it
    try:
        lock = leftovers.take(path, now)
    except (PbemError, OSError) as exc:
        run.status = RunStatus.ERROR
        run.notes.append(str(exc))
        return run
    if lock is None:
        run.status = RunStatus.BUSY
        return run
    if lock.swept:
        run.notes.append(f"removed {lock.swept} temp file(s) left by a crash")
    return _Visit(path, run, lock, config_mark)


def _phase(v: _Visit, step: Callable[[_Visit], object]) -> None:
    """One phase of one game's visit: its failure is that game's alone. One game's trouble (a
    full disk, a read-only directory, a refused SMTP login) must not stop the others; what
    was committed stays, the next run goes on."""
    if v.failed:
        return
    try:
        step(v)
    except (PbemError, OSError) as exc:
        v.failed = True
        v.run.status = RunStatus.ERROR
        v.run.notes.append(str(exc))
    except Exception as exc:  # a bug must not stop the other games either
        v.failed = True
        v.run.status = RunStatus.ERROR
        v.run.notes.append(f"internal error {type(exc).__name__}: {exc} (a bug: please "
                           "report it with the traceback above)")
        traceback.print_exc(file=sys.stderr)


def _visit_locked(v: _Visit, now: datetime) -> None:
    if (v.path / STOPPED).exists():
        v.run.status = RunStatus.STOPPED
        v.run.notes.append((v.path / STOPPED).read_text(encoding="utf-8").strip())
    else:
        v.outbox = Outbox(v.path / "outbox")
        v.visited = _run_locked(v, now)


def _noted(v: _Visit, now: datetime) -> None:
    if v.visited is not None and v.outbox is not None:
        _note_visit(v.visited[0], v.visited[1], v.run, v.outbox, now, v.config_mark)


def _deliver(v: _Visit, transport: Transport, now: datetime) -> None:
    # The outbox's crash points, only when a crash test names one (failpoints.reached reads
    # the environment each time: a dozen calls a delivery that can do nothing otherwise).
    hook = ((lambda stage, _id: failpoints.reached(f"outbox-{stage}"))
            if os.environ.get(failpoints.ENV, "").startswith("outbox-") else None)
    report = (v.outbox or Outbox(v.path / "outbox")).deliver(transport, now, on_stage=hook)
    v.run.sent, v.run.deferred, v.run.failed = (
        len(report.sent), len(report.deferred), len(report.failed))


def _idle_status(path: Path, now: datetime) -> duelist.Entry | None:
    """The due-list entry of a game that has nothing to do now, read from its idle hint (one
    small MAC'd file, pbem.store.trusted) without the lock or the log; None: visit it. The hint
    holds as its entry in the root's due list does (``duelist.holds``): while the log and
    config.yaml have the marks, and the outbox the pending names, they had when it was
    written, there is no STOPPED file, and ``now`` is before the first time anything could
    fall due (a reminder, the deadline, the end of the grace period, a mail's next try)."""
    _point, idle = trusted.read(path)
    entry = duelist.from_hint(idle) if idle is not None else None
    if entry is None or not duelist.holds(str(path), entry, duelist.micros(now)):
        return None
    return entry


def _note_visit(game: GameDir, until: str | None, run: GameRun, outbox: Outbox,
                now: datetime, config_mark: list[int] | None) -> None:
    """After a visit: the trusted point at the log's end, with an idle hint when the game
    waits (or is paused or over) and its outbox holds no mail to send before a later try.

    The marks are those of what the visit read: the log's is taken under the lock (only lock
    holders append), config.yaml's before it was read and compared now (it is edited without
    the lock; a recent change gives no hint, see pbem.host.duelist)."""
    idle = None
    log_mark = duelist.mark(str(game.log_path))
    pending = duelist.pending_names(str(game.path))
    if (run.status in duelist.STATUSES and config_mark is not None
            and config_mark == duelist.mark(str(game.path / "config.yaml"))
            and log_mark is not None and log_mark[0] == game.log.size
            and pending is not None):
        retry = _next_try(outbox, now) if pending else None
        if not pending or retry is not None:
            if retry is not None and (until is None or parse_iso(retry) < parse_iso(until)):
                until = retry
            idle = {"status": run.status, "until": until, "log": log_mark,
                    "config": config_mark, "pending": pending}
    run.hint = duelist.from_hint(idle) if idle is not None else None
    trusted.save(game.path, game.log, idle)


def _next_try(outbox: Outbox, now: datetime) -> str | None:
    """When the outbox's pending mail is next tried, if every message waits for a later try
    (deferred after a temporary failure); None when some message is ready to send now, or
    the outbox cannot say (then no hint: the next run visits)."""
    try:
        entries = outbox.pending()
    except (OSError, ValueError, KeyError, PbemError):
        return None
    tries = [e.next_try for e in entries]
    if not tries or any(t is None or t <= now for t in tries):
        return None
    return to_iso(min(t for t in tries if t is not None))


def _run_locked(v: _Visit, now: datetime) -> tuple[GameDir, str | None] | None:
    """Visit one game; returns it and the first time it could next be due (None: not by the
    clock), or None when it was stopped. A resolution's entry is staged (``v.pending``): the
    next phases commit it and queue its mail; a second resolution in the same visit commits
    and mails the first before it is made, so at most one resolution's mail waits at any
    time (the one a crash leaves to ``_catch_up_mail``)."""
    path, run = v.path, v.run
    outbox = v.outbox
    assert outbox is not None
    try:
        game = GameDir.open(path, repair_torn_tail=True)
    except LogError as exc:
        _stop(path, now, f"the game log is damaged and the game is stopped: {exc}", run)
        return None
    plugin = registry.load(game.config.game)
    ctx = v.ctx = notify.Context(game, plugin, referee_key(game.root)[0], now)
    try:
        loaded = replay.load_state(plugin, game)
    except replay.ReplayMismatch as exc:
        detail = mismatch.explain(plugin, game, exc)
        _stop(path, now, f"replaying the log does not give its recorded states: {exc}"
              + (f"; {detail}" if detail else ""), run)
        return None
    if loaded.rebuilt:
        run.notes.append(f"state rebuilt from the log ({loaded.rebuilt})")
    state = loaded.state
    run.queued += _catch_up_mail(ctx, outbox, state)
    if not plugin.is_over(state):
        _abandoned(ctx, state)
    run.queued += notify.queue_gm_notices(ctx, state, outbox)
    summary = game.log.summary  # kept current through the appends below
    if not summary.last_resolution and _welcome_missing(ctx, outbox):
        run.queued += notify.queue_welcome(ctx, game.initial_state(plugin), outbox)
    for _ in range(MAX_STEPS):
        clock = summary.clock()
        if plugin.is_over(state):
            run.status = RunStatus.OVER
            reveal_chance_secret(game, ctx.referee, now, state)
            return game, None
        if clock.paused or game.config.paused:
            run.status = RunStatus.PAUSED
            return game, None
        due = plugin.powers_due(state)
        standing = summary.standing_orders()
        deadline = parse_iso(clock.deadline) if clock.deadline else None
        # Early resolution waits for every due power's orders marked ready (but a seat on
        # autopilot, pbem.host.seats: unless every due seat is); at the deadline the orders in
        # are used, ready or not.
        on_autopilot = summary.on_autopilot()
        waited = [p for p in due if p not in on_autopilot]
        all_in = bool(waited or not due) and all(p in standing for p in waited) and (
            (deadline is not None and now >= deadline)
            or all(orderdoc.ready_of(standing[p]["text"]) for p in waited))
        schedule = game.config.schedule
        if _closes_when_answered(plugin, state):  # Window.closes_when_answered
            all_in = all_in or _answered(plugin, state, due, standing, summary.standing_files)
            if all_in:
                schedule = schedule.replace(early=True)
        if deadline is None or not schedule.is_due(deadline, now, all_orders_in=all_in):
            if deadline is None:
                return game, None
            run.queued += _reminders(ctx, outbox, state, due, standing, deadline, clock)
            # Reminders wait for half the turn too (see _reminders): every moment counts.
            started = parse_iso(summary.last_resolution_time)
            half_way = started + (deadline - started) / 2
            moments = [schedule.reminder_at(deadline), half_way, deadline,
                       schedule.grace_end(deadline),
                       *(_remind_at(game.config, p, deadline, half_way) for p in game.config.prefs
                         if p in game.config.powers)]
            later = [t for t in moments if t > now]
            return game, (to_iso(min(later)) if later else to_iso(now))
        if (held := _unjudged(game, deadline, now, run)) is not None:
            return game, held
        waiting = chance_waiting(game, plugin, state, standing)
        if waiting:
            # The set-up step and the first drawing step never resolve without every
            # player's contribution (docs/protocol.md): the game waits, the late players are
            # reminded, the game master is told once; a new file or his operation moves it.
            run.queued += _reminders(ctx, outbox, state, due, standing, deadline, clock)
            run.queued += _chance_wait_alert(ctx, outbox, state, waiting, clock)
            run.notes.append(notify.chance_wait_line(ctx.game.path, plugin.window(state),
                                                     waiting))
            return game, None
        if v.pending is not None:  # the visit's previous resolution: committed and mailed first
            _flush_pending(v)
        state = _resolve(v, state, standing)
        run.status = RunStatus.RESOLVED
    return game, to_iso(now)


def _unjudged(game: GameDir, deadline: datetime, now: datetime, run: GameRun) -> str | None:
    """A turn is resolved only once every message stored before its deadline (by its recorded
    arrival) is judged: while the inbox holds one that may carry orders for this game and no
    ingest has judged yet (another process holds the inbox, or its pass failed), the turn
    waits — the next time to look (now) is returned, with a note naming the inbox's holder.
    None: nothing waits (pbem.mail.inbox.Inbox.unjudged)."""
    if not (game.root / "inbox").is_dir():  # (a root that never took mail)
        return None
    inbox = Inbox(game.root)
    waiting = inbox.unjudged(deadline, game.path.name)
    if not waiting:
        return None
    holder = ""
    with contextlib.suppress(OSError, UnicodeDecodeError):
        pid = (inbox.inbox_dir / "lock").read_text(encoding="ascii").strip()
        holder = f" (pid {pid} holds the inbox)" if pid.isdigit() else ""
    run.status, run.held = RunStatus.WAITING, len(waiting)
    run.notes.append(f"not resolved yet: {len(waiting)} message(s) stored before the deadline "
                     f"are not judged yet{holder}; the turn is resolved once they are")
    return to_iso(now)


def _closes_when_answered(plugin: GamePlugin, state: GameState) -> bool:
    """Whether the next step resolves once every due power has answered, whatever the
    schedule's ``early`` says (``Window.closes_when_answered``; the answers: :func:`_answered`)."""
    window = plugin.window(state)
    return window is not None and window.closes_when_answered


def _answered(plugin: GamePlugin, state: dict[str, Any], due: Sequence[str],
              step_files: dict[str, Any], standing_files: dict[str, Any]) -> bool:
    """Whether every due power has answered a ``closes_when_answered`` step: with a file of
    the step marked ready, or, having sent none, with a standing file (``turn: standing``) the
    rules accept now. The resolution then uses that same file (pbem.store.replay.gather_orders
    checks it against the same state), so a step every due power pre-answered closes at the
    first run, in the same visit as the step before it (docs/plugins.md, "Window policies")."""
    def answer(power: str) -> bool:
        if power in step_files:
            return orderdoc.ready_of(step_files[power]["text"])
        kept = standing_files.get(power)
        if kept is None:
            return False
        _, problems = plugin.normalize_orders(kept["orders"], order_view(plugin, state, power))
        return not problems

    return all(answer(p) for p in due)


def _welcome_missing(ctx: notify.Context, outbox: Outbox) -> bool:
    """Whether a welcome mail is not queued yet (keys as pbem.host.notify.welcome_mails
    gives them): only then is the initial state set up again and the game's facts gathered
    for it, which every visit before the first resolution did for nothing."""
    return any(outbox.queued_under(f"welcome:{ctx.game.game_id}:{address}") is None
               for address in ctx.players())


def _resolve(v: _Visit, state: GameState, standing: dict[str, LogBody]) -> GameState:
    """Resolve the due step and stage its entry in the log (``v.pending``; ``_commit_log``
    writes it)."""
    ctx = v.ctx
    assert ctx is not None
    game, plugin = ctx.game, ctx.plugin
    orders, used, opened, stale = replay.gather_orders(
        ctx.renderer.cache.plugin_viewing(plugin), state, standing,
        notify.escrow_opener(game), game.log.summary.standing_files
    )
    drawn = _step_chance(game, plugin.window(state), standing)
    result = replay.resolve_step(plugin, state, orders, drawn)
    after = result.state
    next_deadline = None
    if not plugin.is_over(after):
        step = plugin.window(after)  # its deadline class may have a duration of its own
        next_deadline = to_iso(game.config.schedule.next_deadline(
            ctx.now, deadline_class=step.deadline if step is not None else "main"))
    body = {
        "turn": plugin.orders_turn(state),
        "due": plugin.powers_due(state),
        "used": used,
        "escrow": opened,
        "stale": {p: [str(x) for x in probs] for p, probs in stale.items()},
        # encoded once for the digest, state.json and the GM's attachment (RenderCache)
        "state": hashlib.sha256(ctx.renderer.cache.state_json(after)).hexdigest(),
        "events": result.events,
        "deadline": next_deadline,
    }
    window = plugin.window(state)
    if window is not None and window.silence == "default":  # silence answered: none missed
        body["silence"] = "default"
    over = plugin.is_over(after)
    mailed = mailpolicy.decide(window, result.events, [] if over else plugin.powers_due(after),
                               over, game.config, game.log, ctx.now)
    if mailed is not None:  # Window.notify: who is mailed a report, a digest, or later
        body[mailpolicy.MAILED] = mailed
    listens = powers_listened(plugin, state)
    if listens:  # Window.listens: whose answers the step took beside the due powers' orders
        body["listens"] = listens
    if drawn.built is not None:  # the step drew: its public inputs (docs/protocol.md)
        body[chance.RANDOM] = drawn.built.inputs()
    failpoints.reached("before-resolve-append")
    entry = game.log.stage(replay.RESOLVE, ctx.now, body)
    v.run.resolved.append(entry.seq)
    v.pending = (state, after, entry)
    return after


def _prepare_pending(v: _Visit) -> None:
    """The pending resolution's mail rendered (from the staged state: nothing of it is read
    from disk) and written to its outbox batch's temporary file, not fsynced and not queued.
    A failure is kept in ``v.unqueued``, not raised: the log commit goes on without the batch
    (the next run's catch-up queues the mail), as when the queueing itself fails."""
    assert v.ctx is not None and v.pending is not None and v.outbox is not None
    entry = v.pending[2]
    try:
        v.mails = notify.resolution_mails(v.ctx, *v.pending)
        key = resolution_key(v.ctx.game.game_id, entry.seq)
        if v.outbox.queued_under(key) is None:
            # The key need not be durable on its own: the only caller that queues this key
            # again is _catch_up_mail, which asks find_queued first (docs/operations.md, "One
            # barrier per phase").
            v.batch = v.outbox.prepare_many(v.mails, key=key, durable_key=False)
    except Exception as exc:
        v.mails, v.unqueued = [], exc
        return
    failpoints.reached("resolution-batch-written")


def _unqueued(v: _Visit) -> None:
    """Report the failure ``_prepare_pending`` kept (after the log commit)."""
    assert v.unqueued is not None
    raise v.unqueued


#: How a phase's step runs for one game: ``_phase`` (its failure that game's alone, recorded in
#: its run) or ``_raise`` (its failure raised: a visit's own earlier resolution).
_Run = Callable[[_Visit, Callable[[_Visit], object]], None]


def _raise(v: _Visit, step: Callable[[_Visit], object]) -> None:
    step(v)


def _commit_pending(visits: Sequence[_Visit], run: _Run) -> None:
    """The pending resolution of each of ``visits`` committed and its mail queued, in the
    phases of docs/operations.md, "One barrier per phase": every mail rendered and written to
    its batch's temporary file; the barrier; each failure to render reported; every batch
    queued at once. ``run_games`` does it for a group (``run``: ``_phase``), a visit resolving
    once more for its previous resolution (``_flush_pending``: ``_raise``) — one sequence of
    durable steps for both."""
    for v in visits:
        _prepare_pending(v)
    _barrier(visits, run)
    for v in visits:
        if v.unqueued is not None:
            run(v, _unqueued)
    syncs.each(lambda v: run(v, _queue_pending), [v for v in visits if v.pending])


def _barrier(visits: Sequence[_Visit], run: _Run) -> None:
    """The log barrier of a group: every game's log commit and every game's batch fsync,
    waited for at once. A game whose log or batch failed queues nothing (its batch file is
    removed); its log commit, if it returned, stands (the catch-up mails it)."""
    steps: list[tuple[_Visit, Callable[[_Visit], object]]] = [(v, _commit_log) for v in visits]
    steps += [(v, _sync_batch) for v in visits if v.batch is not None]
    try:
        syncs.each(lambda step: run(*step), steps)
    except BaseException:  # (``_raise``)
        _drop_batches(visits)
        raise
    _drop_batches([v for v in visits if v.failed])


def _drop_batches(visits: Sequence[_Visit]) -> None:
    for v in visits:
        if v.batch is not None:
            v.batch.discard()
            v.batch = None


def _flush_pending(v: _Visit) -> None:
    """The pending resolution committed and its mail queued, within one game's visit (the
    same steps and order as ``run_games``' phases: ``_commit_pending``; an error is raised)."""
    _commit_pending([v], _raise)


def _commit_log(v: _Visit) -> None:
    """The pending resolution's entry written and fsynced (its commit point: from here the
    next run only finishes its mail), then the state cache for it."""
    assert v.ctx is not None and v.pending is not None
    game = v.ctx.game
    game.log.commit()
    failpoints.reached("after-resolve-append")
    after, entry = v.pending[1], v.pending[2]
    # the state's encoding and its digest, both made for the entry (_resolve)
    game.save_state(after, encoded=v.ctx.renderer.cache.state_json(after),
                    digest=entry.body["state"])
    failpoints.reached("after-state-write")


def _sync_batch(v: _Visit) -> None:
    """The pending mail's batch file fsynced (with the log's fsync: neither waits for the
    other; the batch is queued only once both returned)."""
    assert v.batch is not None
    v.batch.sync()


def _queue_pending(v: _Visit) -> None:
    """The pending resolution's mail queued (its batch, durable with the log entry, renamed
    into ``pending/`` and that directory fsynced), then the mailed hint."""
    assert v.ctx is not None and v.pending is not None
    entry = v.pending[2]
    failpoints.reached("resolution-batch-synced")
    if v.batch is not None:
        v.batch.place()
        v.batch = None
    v.run.queued += _queued(v.ctx, entry, v.mails)
    v.pending, v.mails = None, []


def reveal_chance_secret(game: GameDir, key: PrivateKey, now: datetime,
                         state: GameState) -> None:
    """At the game's end, a signed entry revealing K, so the audit replays every hidden draw
    (only for a game that drew; once)."""
    summary = game.log.summary  # whether it drew and revealed, without reading the log
    if not summary.drew or summary.secret:
        return
    rc = chance.referee_for_root(game.root, game.genesis)
    game.log.append(replay.GM, now, replay.sign_gm(key, {"op": chance.SECRET_OP,
                                                         "k": rc.k.hex(), "time": to_iso(now)}))
    game.save_state(state)  # the entry changes no state: the cache moves to the new head


def chance_waiting(game: GameDir, plugin: GamePlugin, state: GameState,
                   standing: dict[str, LogBody]) -> list[str]:
    """The powers whose contribution the next step waits for, whatever its deadline (the
    set-up step and the game's first drawing step: pbem.store.chance.waiting_for); [] for a
    game without fair chance."""
    step = plugin.window(state)
    if step is None:
        return []
    return chance.waiting_for(game.log.summary.chance_ledger(), step.kind, step.due,
                              step.draws, standing)


def _chance_wait_alert(ctx: notify.Context, outbox: Outbox, state: GameState,
                       waiting: list[str], clock: Clock) -> int:
    """Tell the game master once per step that the game waits for a contribution."""
    gm = ctx.game.config.gm
    if not gm:
        return 0
    key = f"chance-wait:{ctx.game.game_id}:{clock.last_resolution}"
    if outbox.queued_under(key) is not None:
        return 0
    ctx.game.log.commit()  # (a resolution staged in this visit is durable before its key)
    outbox.queue(notify.chance_wait_mail(ctx, gm, ctx.plugin.window(state), waiting), key=key)
    return 1


def _step_chance(game: GameDir, step: Window | None,
                 standing: dict[str, LogBody]) -> chance.LazyChance:
    """The next step's fair chance, built at its first draw: the referee's value for the step,
    the value of each due and listened power (None: it sent none) and K for hidden draws.
    Nothing is read before the first draw (a game that draws nothing this step, 4000 A.D.,
    never needs it); the step number comes from the running summary's chance ledger, not a
    log scan. A draw the rules of fair chance do not allow raises ChanceError: a step whose
    window does not declare ``draws``, or the game's first draw without every due power's
    value (pbem.store.chance.draw_values)."""

    def make() -> StepChance:
        ledger = game.log.summary.chance_ledger()
        number = ledger.step + 1
        rc = chance.referee_for_root(game.root, game.genesis)
        if step is None or not step.draws:
            raise ChanceError(f"step {number} ({step.label if step else 'none'}) drew, but its "
                              "window does not declare draws (pbem.game.plugin.Window): a "
                              "step that draws must ask every due power for his value")
        values = chance.draw_values(ledger, step.due, step.listens, standing)
        return StepChance(game.game_id, number, rc.reveal(number), values, rc.k)

    return chance.LazyChance(make)


def resolution_key(game_id: str, seq: int) -> str:
    """The outbox key under which every mail of the resolution at log ``seq`` is queued."""
    return f"resolution:{game_id}:{seq}"


def _mail_resolution(ctx: notify.Context, outbox: Outbox, before: GameState,
                     after: GameState, entry: Entry) -> int:
    return _queue_resolution(ctx, outbox, entry,
                             notify.resolution_mails(ctx, before, after, entry))


def _queue_resolution(ctx: notify.Context, outbox: Outbox, entry: Entry,
                      mails: list[tuple[str, Wire]]) -> int:
    # The key need not be durable on its own: the only caller that queues this key again is
    # _catch_up_mail, which asks find_queued first (docs/operations.md, "One barrier per
    # phase").
    outbox.queue_many(mails, key=resolution_key(ctx.game.game_id, entry.seq),
                      durable_key=False)
    return _queued(ctx, entry, mails)


def _queued(ctx: notify.Context, entry: Entry, mails: list[tuple[str, Wire]]) -> int:
    """After a resolution's batch is queued: the mailed hint."""
    failpoints.reached("after-first-queue")  # the whole batch: it is queued all or none
    _note_mailed(ctx.game.path, entry.seq)
    failpoints.reached("after-mailed-mark")
    return len(mails)


def _mailed(path: Path) -> int:
    """The hint in mailed.json: the last entry whose mail is queued (0 if missing or torn)."""
    try:
        value = json.loads((path / MAILED).read_bytes())["seq"]
    except (OSError, ValueError, TypeError, KeyError):
        return 0
    return value if isinstance(value, int) else 0


def _note_mailed(path: Path, seq: int) -> None:
    """Write the mailed.json hint without fsync: the outbox key is the durable mark (a crash
    may leave the old value, no file or a torn one; each reads as "look at the key").

    Written over the old line in place (pbem.store.gamedir.overwrite_cache: a file truncated
    to nothing or replaced costs ≈ 0.1 ms more on ext4). The line is far shorter than a disk
    sector, so a crash leaves the old line or the new one; a new line shorter than the old
    (seq only grows, but a game-master ending rewrites the file whole) leaves, until the cut,
    the old line's last bytes after it: read as the new value (a newline) or as no JSON (a
    "}"), never as another number."""
    overwrite_cache(path / MAILED, canonical.encode({"seq": seq}) + b"\n")


def _catch_up_mail(ctx: notify.Context, outbox: Outbox, state: GameState) -> int:
    """Queue the mail of the last state-changing entry (a resolution or a game-master ending)
    if a crash came before it was all queued."""
    last_seq = ctx.game.log.summary.last_state_change
    if not last_seq or _mailed(ctx.game.path) >= last_seq:
        return 0
    entries = ctx.game.log.entries
    last = entries[last_seq]
    if last.kind == replay.RESOLVE and outbox.find_queued(
            resolution_key(ctx.game.game_id, last.seq)) is not None:
        _note_mailed(ctx.game.path, last.seq)  # queued; only the hint was lost
        return 0
    initial = ctx.game.initial_state(ctx.plugin)
    before = replay.replay(ctx.plugin, entries[: last.seq], initial,
                           replay.chance_key(ctx.game))
    if last.kind == replay.GM:
        mails = notify.gm_mails(ctx, before, state, last)
        for key, msg in mails:
            outbox.queue(msg, key=key)
        atomic.write_json(ctx.game.path / MAILED, {"seq": last.seq})
        return len(mails)
    return _mail_resolution(ctx, outbox, before, state, last)


def _reminders(ctx: notify.Context, outbox: Outbox, state: GameState, due: list[str],
               standing: dict[str, LogBody], deadline: datetime, clock: Clock) -> int:
    on_autopilot = ctx.game.log.summary.on_autopilot()  # nobody to remind (pbem.host.seats)
    missing = [p for p in due if p not in standing and p not in on_autopilot]
    if not missing:
        return 0
    count = 0
    # The turn started at the last resolution (or the game's creation); never remind in the
    # first half of a turn, however long the reminder window is set.
    started = ctx.game.log.summary.last_resolution_time
    half_way = parse_iso(started) + (deadline - parse_iso(started)) / 2
    late = ctx.now >= deadline
    kind = "late" if late else "reminder"
    for power in missing:
        # Each player's own lead time and quiet hours (players.<power>.prefs, pbem.store.prefs)
        if not late and ctx.now < _remind_at(ctx.game.config, power, deadline, half_way):
            continue
        key = f"{kind}:{ctx.game.game_id}:{clock.last_resolution}:{power}"
        if outbox.queued_under(key) is not None:
            continue  # sent on an earlier run: not rendered again
        msg = notify.reminder_mail(ctx, state, power, deadline, late=kind == "late")
        ctx.game.log.commit()  # (a resolution staged in this visit is durable before its key)
        outbox.queue(msg, key=key)
        count += 1
    return count


def _abandoned(ctx: notify.Context, state: dict[str, Any]) -> None:
    """Seats the config's ``abandoned`` rule puts on autopilot now (pbem.host.seats): each a
    signed gm entry. Its notices, the players' and the game master's, follow as every gm
    entry's do (``notify.queue_gm_notices``, which also catches them up after a crash)."""
    if seats.apply_abandoned(ctx.game, ctx.referee, ctx.now):
        ctx.game.save_state(state)  # unchanged: the cache moves to the new head


def _remind_at(config: GameConfig, power: str, deadline: datetime, half_way: datetime,
               ) -> datetime:
    """When ``power`` is reminded: never in the first half of the turn, at the game's reminder
    time or the player's own, out of the player's quiet hours."""
    return prefs.reminder_time(config.prefs.get(power),
                               max(config.schedule.reminder_at(deadline), half_way), deadline,
                               config.powers[power].tz, half_way)


def _stop(path: Path, now: datetime, message: str, run: GameRun) -> None:
    """Stop a damaged game: a STOPPED file with the reason and one mail to the game master."""
    atomic.write_text(path / STOPPED, f"{to_iso(now)} {message}\n")
    run.status = RunStatus.STOPPED
    run.notes.append(message)
    try:
        msg = notify.stopped_mail(path, now, message)
    except PbemError as exc:  # even the config may be unreadable: the file says it all
        run.notes.append(f"no mail to the game master: {exc}")
        return
    if msg is not None:
        Outbox(path / "outbox").queue(msg, key=f"stopped:{path.name}:{message}")
        run.queued += 1
