"""The games one ingest batch touches, each opened once and committed once (group commit).

Judging a mail's orders needs the game locked, its config read, its log verified, its state,
the referee key and a renderer. Done per mail, a batch of mails for one game repeats all of it
and grows with the log as the batch appends to it; each accepted file also cost four durable
steps of its own (submission names, log entry, reply queued, each with its fsyncs).

:class:`OpenGames` keeps, per game a batch touches, the lock and everything read, and what the
batch has yet to make durable: the submission files written but not in place yet, the
log entries staged in memory (:meth:`pbem.store.log.GameLog.stage`: every later judgement of the
batch sees them), and the replies (receipts, rejections, late notices) to queue. :meth:`commit`
makes them durable per game in the order that keeps every guarantee (docs/operations.md, "Group
commit in ingest"):

1. the submission files the batch wrote: fsynced (all at once), linked into place, then each
   directory that got new names fsynced (pbem.store.submissions.sync_all);
2. the log: every staged entry in one write and one fsync — the commit point of the batch's
   accepted orders for that game;
3. the replies in one outbox batch (``queue_many``, three fsyncs), each findable by its own key;

and then the lock is released. The caller records the mails as done only after :meth:`commit`.
"""

from __future__ import annotations

import contextlib
import secrets
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import failpoints, syncs
from pbem.host import leftovers
from pbem.store import submissions
from pbem.store.lock import GameLock

if TYPE_CHECKING:
    from pbem.game.shapes import GameState
    from pbem.host import notify
    from pbem.mail.compose import Wire
    from pbem.mail.outbox import Outbox
    from pbem.protocol.keys import PrivateKey
    from pbem.render.mails import Renderer
    from pbem.store.gamedir import GameDir

#: What a verdict's ``queued`` holds for a reply until the batch is committed.
PENDING = "pending:"


class Busy(Exception):
    """The game is locked by another process (accept turns it into GameBusy)."""


class OpenGame:
    """One game held for a batch: locked, opened and read once."""

    def __init__(self, path: Path, lock: GameLock, game: GameDir, plugin: Any, state: GameState,
                 referee: PrivateKey, outbox: Outbox) -> None:
        self.path = path
        self.lock = lock
        self.game = game
        self.plugin = plugin
        self.state = state
        self.referee = referee
        self.outbox = outbox
        #: replies to queue at commit: (key, message, the lists their id goes into)
        self.replies: list[tuple[str, Wire, tuple[list[str], ...]]] = []
        self._contexts: dict[datetime, notify.Context] = {}

    @cached_property
    def renderer(self) -> Renderer:
        """One renderer while the game is held, shared by its mails of every date (imported
        here: a round that only quarantines spam never loads the template engine), its
        templates compiled once per root, not once per process (pbem.host.templatecache),
        when it first renders from templates (a receipt needs none: pbem.render.plain)."""
        from pbem.render.mails import Renderer

        root = self.game.root
        renderer = Renderer(self.game.config.game, self.game.path)
        renderer.on_env = lambda env: _cache_templates(env, root)
        return renderer

    def view(self, power: str) -> Any:
        """``plugin.view(state, power)``, once per power while the game is held (the renderer's
        view): judging a file and its receipt both need it, and ingest never changes the state
        (orders entries leave it as it is)."""
        return self.renderer.view(self.plugin, self.state, power)

    def context(self, now: datetime) -> notify.Context:
        """The notify context for mails dated ``now`` (one renderer per game and time)."""
        ctx = self._contexts.get(now)
        if ctx is None:
            from pbem.host import notify

            ctx = self._contexts[now] = notify.Context(self.game, self.plugin, self.referee, now,
                                                       shared_renderer=self.renderer)
        return ctx

    def queue(self, msg: Wire, key: str, *into: list[str]) -> None:
        """Queue ``msg`` under ``key`` at commit. Each list of ``into`` gets a placeholder now
        (``PENDING`` + key: a verdict shows at once that a reply is on its way), replaced by
        the id at commit; the id itself if something is queued under ``key`` already (by an
        earlier run). A key queued earlier in this batch is not queued twice."""
        existing = self.outbox.queued_under(key)
        if existing:
            for ids in into:
                ids.append(existing[0])
            return
        for ids in into:
            ids.append(PENDING + key)
        if not any(k == key for k, _, _ in self.replies):
            self.replies.append((key, msg, into))

    def has(self, key: str) -> bool:
        """Whether a reply is queued under ``key``, durably or at this batch's commit."""
        return (any(k == key for k, _, _ in self.replies)
                or self.outbox.queued_under(key) is not None)

    def commit_log(self) -> None:
        """Step 2: the staged log entries in one write and one fsync (step 1 done before)."""
        if self.game.log.staged:
            self.game.log.commit()
            failpoints.reached("after-orders-append")

    def queue_replies(self) -> list[str]:
        """Step 3: the replies queued as one outbox batch (steps 1 and 2 done before); their
        ids. Touches nothing but this game's outbox: it may run beside other games' in
        threads."""
        if not self.replies:
            return []
        ids = self.outbox.queue_many(
            [(key, msg) for key, msg, _ in self.replies],
            key=f"ingest-batch:{self.game.game_id}:{secrets.token_hex(8)}",
            index_items=True)
        failpoints.reached("ingest-replies-queued")
        return ids

    def tell_replies(self, ids: list[str]) -> None:
        """Step 3's end: each verdict's placeholder replaced by its reply's id (``ids``:
        what :meth:`queue_replies` gave)."""
        if self.replies:
            replies, self.replies = self.replies, []
            if len(ids) != len(replies):  # an item key queued meanwhile: look each one up
                ids = [(self.outbox.queued_under(key) or [""])[0] for key, _, _ in replies]
            for (key, _, into), ident in zip(replies, ids, strict=True):
                for lst in into:
                    lst[:] = [ident if i == PENDING + key else i for i in lst]


class OpenGames:
    """The games of one batch by path; :meth:`commit` commits and releases every one."""

    def __init__(self) -> None:
        self._open: dict[Path, OpenGame] = {}
        self._referee: dict[Path, PrivateKey] = {}  # by root: read once per batch

    def get(self, path: Path) -> OpenGame:
        """The game at ``path``, locked and opened (once per batch). Raises :class:`Busy`."""
        found = self._open.get(path)
        if found is not None:
            return found
        # (imported here: ingest loads what judging needs only when a mail holds orders)
        from pbem.game import registry
        from pbem.mail.outbox import Outbox
        from pbem.store import replay
        from pbem.store.gamedir import GameDir
        from pbem.store.referee import referee_key

        lock = leftovers.take(path)
        if lock is None:
            raise Busy(path.name)
        try:
            game = GameDir.open(path, repair_torn_tail=True)
            plugin = registry.load(game.config.game)
            state = replay.load_state(plugin, game).state
            key = self._referee.get(game.root)
            if key is None:
                key = self._referee[game.root] = referee_key(game.root)[0]
        except BaseException:
            lock.release()
            raise
        opened = OpenGame(path, lock, game, plugin, state, key, Outbox(path / "outbox"))
        self._open[path] = opened
        return opened

    def commit(self) -> None:
        """Commit every open game, then release them all (a failure releases them too: what
        was not committed is judged again by the next run).

        Step by step across the games — every game's submission files and directories, then every
        game's log, then every game's replies — each step taken for every game at once
        (pbem.syncs: the files of step 1 fsynced together, the logs of step 2 and the outbox
        batches of step 3 written by a thread each), so that the step's fsyncs share the file
        system's journal commits; each game still takes its steps in the module's order, and
        no step of one game depends on another game's, nor shares anything with it."""
        try:
            games = list(self._open.values())
            submissions.sync_all([opened.game.submissions for opened in games])
            syncs.each(OpenGame.commit_log, games)
            for opened, ids in zip(games, syncs.each(OpenGame.queue_replies, games),
                                   strict=True):
                opened.tell_replies(ids)
        finally:
            for opened in self._open.values():
                with contextlib.suppress(Exception):
                    opened.lock.release()
            self._open.clear()

    def __enter__(self) -> OpenGames:
        return self

    def __exit__(self, *exc: object) -> None:
        self.commit()


def _cache_templates(env: Any, root: Path) -> None:
    from pbem.host.templatecache import cache_templates  # (with jinja2: only where it is used)

    cache_templates(env, root)
