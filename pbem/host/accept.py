"""Accepting or rejecting one signed order block: the referee's side of the order protocol.

raw block → ``verify_orders`` (signature first, then the envelope of exactly the signed text)
→ the game it names (never the sender address) → under the game's lock: the turn, replay
refusal by seq, the game's own check against the power's view → the submission stored with its
verdict → for an accepted one, the ``orders`` log entry (the commit point) → a receipt or a
rejection queued for the power's *registered* address.

A rejected file changes nothing: the previously accepted orders stand.

Size: judging one submission is one sequence of checks (envelope, instance, chance, seq, game
order check, quota, late) with its receipt; split, the order of the checks would be spread over
modules.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import canonical, failpoints
from pbem.chance.errors import ChanceError, ChanceMismatch
from pbem.errors import PbemError, Problem, Rejected
from pbem.game import registry
from pbem.game.plugin import Window
from pbem.game.views import order_view
from pbem.host import leftovers, notify, rootindex
from pbem.host.opengames import Busy, OpenGame, OpenGames
from pbem.mail.outbox import Outbox
from pbem.protocol.armor import BEGIN, SIGNATURE, dearmor, lines_lf
from pbem.protocol.envelope import other_instance
from pbem.protocol.keyring import Keyring
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import (
    SignedRejected,
    VerifiedOrders,
    replaces,
    verify_orders,
)
from pbem.protocol.safeyaml import scan
from pbem.protocol.standing import standing_problems
from pbem.record import Mutable
from pbem.schedule import to_iso
from pbem.store import chance, replay
from pbem.store.gamedir import GameDir, games_under
from pbem.store.referee import referee_key
from pbem.store.summary import order_file_row

if TYPE_CHECKING:
    from pbem.game.plugin import GamePlugin
    from pbem.game.shapes import OrderBody
    from pbem.store.log import Entry

#: Accepted order bytes per power per turn (the sum of the signed blocks logged for it). Past
#: the cap a further file is rejected ("quota"): one player cannot grow the log without limit.
#: 256 KiB is four files of the largest size the order parser reads (64 KiB).
ORDER_BYTES_PER_TURN = 256 * 1024

RECEIPT_DOMAIN = "pbem-receipt-v1"
RECEIPT_TYPE = "application/vnd.pbem.receipt+json"
TOP_LEVEL = re.compile(r"^(game|power):[ \t]*([A-Za-z0-9_.-]+)[ \t]*$", re.MULTILINE)


class GameBusy(PbemError):
    """The game is locked by another pbem process: try again later (transient)."""


class Outcome(StrEnum):
    """What became of one submission (a member is its word: the string logged and printed)."""

    ACCEPTED = "accepted"
    REJECTED = "rejected"
    SUPERSEDED = "superseded"
    DUPLICATE = "duplicate"
    UNKNOWN = "unknown"  # signed by a registered key, for a game or power not found here
    PRESS = "press"
    PRESS_REJECTED = "press-rejected"
    PRESS_DUPLICATE = "press-duplicate"
    VOTE = "vote"
    VOTE_DUPLICATE = "vote-duplicate"


class Verdict(Mutable):
    _fields = ("verdict", "game", "power", "turn", "problems", "queued", "verified", "sha256",
               "standing")
    verdict: Outcome
    game: str | None
    power: str | None
    turn: int | None
    problems: list[Problem]
    queued: list[str]  # outbox ids of the reply
    #: False when the signature failed, or the envelope of a file not signed with the key of
    #: the power it names: game and power are only claimed, and the problems may quote a
    #: stranger's text (never mailed to a player as they are). The envelope problems of the
    #: power's own signed file (orderdoc.SignedRejected) are his: told as they are.
    verified: bool
    #: The sha256 of a verified file (the reply limits count its rejection apart).
    sha256: str | None
    #: A standing file (``turn: standing``): its line names it so, not by a turn.
    standing: bool

    def __init__(self, verdict: Outcome, game: str | None = None, power: str | None = None,
                 turn: int | None = None, problems: list[Problem] | None = None,
                 queued: list[str] | None = None, verified: bool = True,
                 sha256: str | None = None, standing: bool = False) -> None:
        self.verdict = verdict
        self.standing = standing
        self.game = game
        self.power = power
        self.turn = turn
        self.problems = [] if problems is None else problems
        self.queued = [] if queued is None else queued
        self.verified = verified
        self.sha256 = sha256

    def line(self) -> str:
        who = f"{self.game}/{self.power}" if self.game else "unknown game"
        if self.game and self.standing:
            who += " standing file"
        elif self.game and self.turn is not None:
            who += f" turn {self.turn}"
        if self.game and not self.verified:
            who += " (claimed)"
        words = {Outcome.DUPLICATE: "already logged",
                 Outcome.PRESS_DUPLICATE: "press already relayed"}
        text = f"{words.get(self.verdict, self.verdict)}: {who}"
        if self.problems:
            text += " — " + "; ".join(str(p) for p in self.problems)
        return text


def receipt_signature(key: PrivateKey, fields: Mapping[str, Any]) -> str:
    """The referee's signature over (game, power, turn, seq, sha256 of the file, received)."""
    return key.sign(RECEIPT_DOMAIN, RECEIPT_TYPE, canonical.encode(dict(fields))).hex()


def handle_block(
    root: Path,
    block: str,
    *,
    received: datetime,
    message_id: str | None = None,
    ring: Keyring | None = None,
    reply_to: str | None = None,
    subject: str = "",
    reply: bool = True,
    mail_rejection: bool = True,
    now: datetime | None = None,
    games: OpenGames | None = None,
) -> Verdict:
    """Handle one armored block found in a message (or given directly). With ``reply`` false
    (an auto-submitted message, a bounce, list mail) nothing is mailed back. With
    ``mail_rejection`` false a rejection is recorded but not mailed: ingest sends one rejection
    per message for all its blocks (:func:`queue_rejection`). ``received`` is when the
    message arrived (stored); ``now`` (default: ``received``) when it is handled — the time of
    the log entry, so the log's times never go backwards.

    ``games``: the batch's open games (pbem.host.opengames): the game is opened once per batch
    and what this block changes is made durable by ``games.commit()`` (ingest's group commit).
    Without it the block is committed before this returns."""
    ring = ring or rootindex.keyring(root)
    try:
        verified = verify_orders(block, ring, fingerprints=ring)
    except SignedRejected as exc:  # the power's own file: its problems are told as they are
        if not (reply and mail_rejection):
            return Verdict(Outcome.REJECTED, exc.game, exc.power, None, exc.problems,
                           sha256=exc.sha256)
        return _rejected_unverified(root, block, exc.problems, received, message_id, reply_to,
                                    subject)
    except Rejected as exc:
        if not (reply and mail_rejection):
            game, power = claimed(block)
            return Verdict(Outcome.REJECTED, game, power, None, exc.problems, verified=False)
        return _rejected_unverified(root, block, exc.problems, received, message_id, reply_to,
                                    subject)
    path = root / verified.game
    if not (path / "config.yaml").exists():
        return Verdict(Outcome.UNKNOWN, verified.game, verified.power, verified.turn,
                       [Problem("unknown-game", "game", f"no game {verified.game!r} here")])
    if games is not None:
        return _judge(_held(games, path), verified, received, message_id, reply_to, subject,
                      reply, mail_rejection, now or received)
    with OpenGames() as alone:
        return _judge(_held(alone, path), verified, received, message_id, reply_to, subject,
                      reply, mail_rejection, now or received)


def _held(games: OpenGames, path: Path) -> OpenGame:
    try:
        return games.get(path)
    except Busy:
        raise GameBusy(f"game {path.name} is busy; the message will be handled later") from None


def _turn_files(game: GameDir, turn: object) -> list[list[Any]]:
    """``[seq, power, sha256, bytes]`` of every ``orders`` entry of ``turn``: from the log's
    running summary for the latest turn with orders (the current one: no scan of the history,
    which a game at turn 300 would pay on every mail), else from a scan (a file for an older
    turn: a replay)."""
    files = game.log.summary.turn_files(turn)
    if files is None:
        files = [order_file_row(e.seq, e.body) for e in game.log.entries
                 if e.kind == replay.ORDERS and e.body.get("turn") == turn]
    return files


def _logged(game: GameDir, v: VerifiedOrders) -> Entry | None:
    """The ``orders`` log entry that holds exactly this file (same power, same bytes), if any.
    Only entries of the file's own turn can: the turn is part of the bytes."""
    for seq, power, sha256, _size in reversed(_turn_files(game, v.turn)):
        if sha256 == v.sha256 and power == v.power:
            return game.log.entries[seq]
    return None


def _turn_bytes(game: GameDir, power: str, turn: int) -> int:
    """Bytes of the order files already accepted (logged) for ``power`` in ``turn``."""
    return sum(size for _seq, who, _sha, size in _turn_files(game, turn) if who == power)


def _judge(held: OpenGame, v: VerifiedOrders, received: datetime, message_id: str | None,
           reply_to: str | None, subject: str, reply: bool,
           mail_rejection: bool = True, now: datetime | None = None) -> Verdict:
    path, game, plugin, state = held.path, held.game, held.plugin, held.state
    verdict = Verdict(Outcome.REJECTED, v.game, v.power, v.turn, sha256=v.sha256,
                      standing=v.standing)
    problems = verdict.problems
    summary = game.log.summary
    # A standing file is held to the power's latest standing file (seq, duplicates), a step's
    # file to the files of its step.
    standing = summary.standing_file(v.power) if v.standing else summary.standing.get(v.power)
    normalized: OrderBody = {}
    logged = _logged(game, v)
    if logged is not None and (
            (standing is not None and standing["sha256"] == v.sha256)
            or not held.has(f"receipt:{v.sha256}")
            or (logged.body.get("message_id") == message_id
                and logged.body.get("received") == to_iso(received))):
        # This very file was accepted and logged: the same mail again, or a retry after a crash
        # between the log entry and the receipt — even if its turn has been resolved since (it
        # was used), so the answer is its receipt, never a rejection. The same message handled
        # again (a batch killed after its commit, before its done records: a later file of
        # the batch may stand now) is that retry too. A file whose receipt went out and that
        # no longer stands, in another message, is a replay, judged below.
        return _receipt_again(held, v, logged.body, reply_to, subject, reply,
                              entry_seq=logged.seq)
    # A file of another instance of this game (one deleted and made again under the same id
    # and keys) is judged by that alone: its seq and turn mean nothing here, and a replay of it
    # never stands in the way of the player's files of this instance.
    wrong = _instance_problem(game, v)
    newer = _newer_seq(game, v, standing) if wrong is None else None
    if newer is not None:
        return _superseded(held, v, newer, received, message_id, reply_to, reply)
    used = _turn_bytes(game, v.power, v.turn)
    size = len(v.block.encode("utf-8"))
    # Lateness is decided by the arrival time given as ``received`` (see ingest).
    late = notify.late_facts(game, received)
    if wrong is not None:
        problems.append(wrong)
    elif plugin.is_over(state):
        problems.append(Problem("game-over", "game", f"game {v.game} is over: no more orders"))
    elif (path / "STOPPED").exists():
        problems.append(Problem("stopped", "game", f"game {v.game} is stopped by the referee"))
    elif v.standing and (refused := _standing_problems(plugin, v)):
        problems.extend(refused)
    elif not v.standing and v.turn != plugin.orders_turn(state):
        problems.append(Problem("turn", "turn", f"these orders are for turn {v.turn}, but "
                                f"game {v.game} takes orders for turn {plugin.orders_turn(state)}"))
    elif (late is not None and not v.standing and game.config.late_orders == "refuse"
          and not _awaited(held, v)):
        grace = "" if late["grace_end"] == late["deadline"] else \
            f", grace period to {late['grace_end']}"
        problems.append(Problem(
            "late", "turn", f"these orders arrived {to_iso(received)}, after the deadline for "
            f"turn {v.turn} ({late['deadline']}{grace}): they are refused (orders accepted "
            "before it, if any, stand)"))
    elif used + size > ORDER_BYTES_PER_TURN:
        problems.append(Problem(
            "quota", "", f"this file ({size:,} bytes) would bring the orders accepted for "
            f"{v.power} in turn {v.turn} to {used + size:,} bytes; the cap is "
            f"{ORDER_BYTES_PER_TURN:,} bytes per power per turn (your accepted orders stand)"))
    else:
        # Every problem of a file for this turn at once: its chance value, its seq and each of
        # its orders are judged apart, so one rejection lists them all.
        if not v.standing and (unfair := _chance_problem(game, v, plugin.window(state))
                               ) is not None:
            problems.append(unfair)
        if standing is not None and not replaces(v.seq, standing["seq"]):
            what = "your standing file" if v.standing else f"turn {v.turn}"
            problems.append(Problem(
                "replay", "seq",
                f"seq {v.seq} is not higher than seq {standing['seq']}, already accepted for "
                f"{what}: an older or equal submission cannot replace it (raise seq)"))
        # The order view (pbem.game.views), the one the replay and the audit check against.
        normalized, found = plugin.normalize_orders(v.body, order_view(plugin, state, v.power))
        problems.extend(Problem(p.code, f"orders.{p.path}" if p.path else "orders", p.message)
                        for p in found)
    data = v.block.encode("utf-8")
    if not _recorded(game, v, data, received):
        game.submissions.record(
            turn=v.turn, power=v.power, data=data, received=received,
            verdict=Outcome.REJECTED if problems else Outcome.ACCEPTED, message_id=message_id,
            problems=problems, seq=v.seq, sync_dir=False,
        )
    ctx = held.context(received)
    if problems:
        codes = {p.code for p in problems}
        too_late = codes == {"late"} or (codes == {"turn"} and v.turn < plugin.orders_turn(state)
                                         and _missed(game, v.power, v.turn))
        # ingest mails one rejection per message itself (mail_rejection false), never a late
        # notice: that one is always queued here.
        if not (reply and (mail_rejection or too_late)):
            return verdict
        if too_late:
            # Too late (after deadline + grace, or after a turn the power missed was
            # resolved): the late notice says so and what was done instead. An old file for
            # a turn whose orders were used is a replay: the rejection says that.
            msg = notify.late_mail(ctx, v.power, v.turn, received,
                                   late if codes == {"late"} else None, reply_to)
            held.queue(msg, f"late:{v.sha256}:{message_id}", verdict.queued)
            return verdict
        if not mail_rejection:
            return verdict  # the caller sends one rejection for the whole message
        msg = notify.rejection_mail(ctx, v.power, v.turn, problems, reply_to, subject,
                                    seq=v.seq)
        held.queue(msg, f"rejection:{v.sha256}:{message_id}", verdict.queued)
        return verdict
    failpoints.reached("before-orders-append")
    autopilot = game.log.summary.on_autopilot().get(v.power)  # taken back by this file
    # Staged: written with the batch's other entries for this game by games.commit() (at once
    # without a batch), before any reply of the batch is queued.
    game.log.stage(replay.ORDERS, max(now or received, received), replay.orders_body(
        turn=v.turn, power=v.power, seq=v.seq, sha256=v.sha256, text=v.block, orders=v.body,
        received=to_iso(received), message_id=message_id, key=v.key_fingerprint,
        entropy=v.entropy))
    # The state is unchanged: the cache stays valid (orders entries never change the state).
    fields = {"game": v.game, "power": v.power, "turn": v.turn, "seq": v.seq,
              "sha256": v.sha256, "received": to_iso(received)}
    signature = receipt_signature(ctx.referee, fields)
    verdict.verdict = Outcome.ACCEPTED
    if not reply:
        return verdict
    msg = notify.receipt_mail(ctx, state, v.power, normalized, fields, signature, reply_to,
                              subject, ready=v.ready, late=None if v.standing else late,
                              autopilot=autopilot)
    held.queue(msg, f"receipt:{v.sha256}", verdict.queued)
    return verdict


def _standing_problems(plugin: GamePlugin, v: VerifiedOrders) -> list[Problem]:
    """What keeps a standing file (``turn: standing``) from being judged at all
    (pbem.protocol.standing, the rule the player's tool says too). Never late: a standing
    file is for whichever step is open when it is used."""
    return standing_problems(v.game, getattr(plugin, "standing_sections", ()), v.body,
                             v.entropy)


def _newer_seq(game: GameDir, v: VerifiedOrders, standing: Mapping[str, Any] | None
               ) -> int | None:
    """The highest seq accepted for the file's power and turn when it is above the file's:
    the file was superseded (mail overtook mail, or a crash let the newer one be judged
    first); None otherwise. An equal seq with other bytes is not superseded: that is the
    player's replay, refused as before."""
    if standing is not None and standing.get("turn") == v.turn:
        return int(standing["seq"]) if standing["seq"] > v.seq else None
    seqs = [game.log.entries[log_seq].body["seq"]
            for log_seq, power, _sha, _size in _turn_files(game, v.turn) if power == v.power]
    best = max(seqs, default=None)
    return best if best is not None and best > v.seq else None


def _superseded(held: OpenGame, v: VerifiedOrders, newer: int, received: datetime,
                message_id: str | None, reply_to: str | None, reply: bool) -> Verdict:
    """A file whose power had a higher seq accepted for its turn: stored with its verdict, it
    changes nothing, and the player is told so once per file (the key is the file's hash:
    a replay of it in any number of mails adds no mail) — never as a rejection: the player
    did nothing wrong, and nothing waits for it."""
    game, plugin, state = held.game, held.plugin, held.state
    used = v.turn != plugin.orders_turn(state)
    since = f" (turn {v.turn} has been resolved since)" if used else ""
    what = "your standing file" if v.standing else f"turn {v.turn}"
    if v.standing:
        used, since = False, ""  # a standing file is for no one step
    problem = Problem("superseded", "seq", f"seq {v.seq} arrived after seq {newer} for "
                      f"{what}, which replaced it{since}: it changes nothing")
    data = v.block.encode("utf-8")
    if not _recorded(game, v, data, received):
        game.submissions.record(turn=v.turn, power=v.power, data=data, received=received,
                                verdict=Outcome.REJECTED, message_id=message_id, problems=[problem],
                                seq=v.seq, sync_dir=False)
    verdict = Verdict(Outcome.SUPERSEDED, v.game, v.power, v.turn, [problem],
                      standing=v.standing)
    if reply:
        msg = notify.superseded_mail(held.context(received), v.power, v.turn, v.seq, newer,
                                     used, received, reply_to)
        held.queue(msg, f"superseded:{v.sha256}", verdict.queued)
    return verdict


def _instance_problem(game: GameDir, v: VerifiedOrders) -> Problem | None:
    """A file for another instance of this game (deleted and made again under the same id and
    keys) is refused (a file without ``instance`` never gets here: the envelope requires it)."""
    mine = chance.instance(game.genesis)
    return None if v.instance == mine else other_instance(v.game, v.instance, mine)


def _awaited(held: OpenGame, v: VerifiedOrders) -> bool:
    """Whether the game waits past its deadline for this power's contribution (the set-up step
    or the first drawing step, pbem.store.chance.waiting_for): then his file is never late."""
    game, plugin = held.game, held.plugin
    step = plugin.window(held.state)
    if step is None:
        return False
    return v.power in chance.waiting_for(game.log.summary.chance_ledger(), step.kind, step.due,
                                         step.draws, game.log.summary.standing_orders())


def _chance_problem(game: GameDir, v: VerifiedOrders, window: Window | None) -> Problem | None:
    """The file's fair-chance value must hash to the power's last known one (its tip is step
    0); a wrong value rejects the file with the check's own sentence. In a game with chance, a
    file without the contribution its step needs (the set-up tip, a due power's value at a
    step that may draw) is refused with one sentence naming it and the command that fills it
    in (pbem.store.chance.expected)."""
    ledger = game.log.summary.chance_ledger()  # the running ledger
    if window is not None:
        lacking = chance.missing(ledger, window.kind, window.due, window.draws, v.power,
                                 v.entropy)
        if lacking is not None:
            return Problem("entropy", "entropy", lacking)
    if v.entropy is None:
        return None
    try:
        ledger.check(v.power, v.entropy)
    except (ChanceError, ChanceMismatch) as exc:
        return Problem("entropy", "entropy", str(exc))
    return None


def _missed(game: GameDir, power: str, turn: int) -> bool:
    """Whether ``power`` played ``turn`` on standing orders (it was due, no orders used)."""
    used = [e.body["used"][power] for e in game.log.entries
            if e.kind == replay.RESOLVE and e.body["turn"] == turn and power in e.body["used"]]
    return bool(used) and all(sha is None for sha in used)


def _receipt_again(held: OpenGame, v: VerifiedOrders, standing: Mapping[str, Any],
                   reply_to: str | None, subject: str, reply: bool, *,
                   entry_seq: int | None = None) -> Verdict:
    """Nothing is recorded again, but the receipt is queued if it is missing (its outbox key
    makes a second queueing a no-op). The receipt shows the state the file was judged in."""
    verdict = Verdict(Outcome.DUPLICATE, v.game, v.power, v.turn, standing=v.standing)
    if not reply:
        return verdict
    game, plugin, state = held.game, held.plugin, held.state
    if entry_seq is not None and standing.get("turn") != plugin.orders_turn(state):
        entries = game.log.entries
        state = replay.replay(plugin, entries[:entry_seq], game.initial_state(plugin),
                              replay.chance_key(game))
    normalized, _ = plugin.normalize_orders(v.body, held.renderer.view(plugin, state, v.power))
    fields = {"game": v.game, "power": v.power, "turn": v.turn, "seq": v.seq,
              "sha256": v.sha256, "received": standing["received"]}
    first = datetime.fromisoformat(standing["received"].replace("Z", "+00:00"))
    ctx = held.context(first)
    msg = notify.receipt_mail(ctx, state, v.power, normalized, fields,
                              receipt_signature(ctx.referee, fields), reply_to, subject,
                              ready=v.ready, late=notify.late_facts(game, first))
    held.queue(msg, f"receipt:{v.sha256}", verdict.queued)
    return verdict


def _recorded(game: GameDir, v: VerifiedOrders, data: bytes, received: datetime) -> bool:
    """True if these exact bytes were recorded at this very second already. One ingest run
    receives every message at the same time, so the same file in two messages of one batch (a
    resent mail, or an older file sent again after a newer one) is one submission by name; the
    first record stands (records are never overwritten) and the second is judged and answered.
    The name is the store's documented one: receipt time (UTC, seconds) and 12 hex digits of
    the SHA-256 of the bytes (pbem.store.submissions); one stat (or a look at the records this round
    has not put in place yet), not a read of every record."""
    stamp = received.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    name = f"{stamp}-{hashlib.sha256(data).hexdigest()[:12]}.json"
    return game.submissions.recorded(v.turn, v.power, name)


def claimed(block: str) -> tuple[str | None, str | None]:
    """The game and power a block *claims* (read, never trusted), or None for either."""
    try:
        body = _claimed_body(block)
        data, _ = scan(body)
        if not isinstance(data, dict):  # damaged YAML: the top-level "game:" and "power:" lines
            data = {m.group(1): m.group(2) for m in TOP_LEVEL.finditer(body)}
        game, power = data.get("game"), data.get("power")
    except Exception:  # whatever the text, a claim is only a hint
        return None, None
    return (game if isinstance(game, str) else None, power if isinstance(power, str) else None)


def queue_rejection(path: Path, power: str, turn: int | None, problems: list[Problem],
                    reply_to: str | None, key: str, now: datetime,
                    games: OpenGames | None = None, into: tuple[list[str], ...] = ()) -> bool:
    """Queue one "Orders rejected" mail to ``power``'s registered address in the game at
    ``path`` (all the problems of one incoming message); its id goes into each list of
    ``into`` (at ``games.commit()`` with ``games``, at once without). False if the power is
    not registered there. Raises :class:`GameBusy` when the game is locked."""
    if games is None:
        with OpenGames() as alone:
            return queue_rejection(path, power, turn, problems, reply_to, key, now, alone, into)
    held = _held(games, path)
    if power not in held.game.config.powers:
        return False
    msg = notify.rejection_mail(held.context(now), power, turn, problems, reply_to, "")
    held.queue(msg, key, *into)
    return True


def _rejected_unverified(root: Path, block: str, problems: list[Problem], received: datetime,
                         message_id: str | None, reply_to: str | None, subject: str) -> Verdict:
    """A block whose signature or envelope failed. The claimed game and power are read (never
    acted on) only to tell the power's registered address; nothing is stored in the game."""
    claimed_game = claimed_power = None
    try:
        body = _claimed_body(block)
        data, _ = scan(body)
        if not isinstance(data, dict):  # damaged YAML: the top-level "game:" and "power:" lines
            data = {m.group(1): m.group(2) for m in TOP_LEVEL.finditer(body)}
        claimed_game, claimed_power = data.get("game"), data.get("power")
    except (PbemError, ValueError):
        pass
    verdict = Verdict(Outcome.REJECTED, claimed_game if isinstance(claimed_game, str) else None,
                      claimed_power if isinstance(claimed_power, str) else None, None, problems)
    if verdict.game is None or verdict.power is None:
        return verdict
    # The claim is unverified text: only the name of a game directly under ROOT is looked up
    # ("../other-root/game" or an absolute path would reach outside the root).
    games_here = {p.name: p for p in games_under(root)}
    if verdict.game not in games_here:
        return verdict
    path = games_here[verdict.game]
    lock = leftovers.take(path, received)
    if lock is None:
        raise GameBusy(f"game {verdict.game} is busy; the message will be handled later")
    with lock:
        game = GameDir.open(path, repair_torn_tail=True)
        if verdict.power not in game.config.powers:
            return verdict
        plugin = registry.load(game.config.game)
        ctx = notify.Context(game, plugin, referee_key(game.root)[0], received)
        msg = notify.rejection_mail(ctx, verdict.power, None, problems, reply_to, subject)
        digest = canonical.digest(block)
        verdict.queued.append(
            Outbox(path / "outbox").queue(msg, key=f"rejection:{digest}:{message_id}"))
    return verdict


def _claimed_body(block: str) -> str:
    """The text between the BEGIN and SIGNATURE lines, even when the signature part is damaged
    (a mail client that mangled the base64 must not keep the player from hearing about it)."""
    try:
        return dearmor(block).body
    except Rejected:
        lines = [line.rstrip(" \t") for line in lines_lf(block)]
        if BEGIN not in lines or SIGNATURE not in lines:
            raise
        return "\n".join(lines[lines.index(BEGIN) + 1 : lines.index(SIGNATURE)])
