"""Game-master operations. Each one is a ``gm`` (or ``key``) log entry signed by the referee key,
appended under the game's lock, so players and auditors see every intervention.

status      what the game is waiting for (read-only)
pause       no turn is resolved while paused
resume      resume with a fresh deadline from now
extend      move the current deadline
replace     a new player (address and key) takes over a power
autopilot   an abandoned seat plays by its standing orders until its player sends orders again
            (pbem.host.seats)
concede     a power concedes, at its player's request
end         end the game now by agreement (scored by the game's own rule for an agreed end)
cancel      end the game now with no winner: the result says ``cancelled``
prefs       a player's signed preferences, recorded and written to config.yaml
vote        a player's signed vote, recorded (pbem.host.votes); when the vote carries, the act
            (end, cancel, pause, resume, concede) is logged with ``votes``: the log seqs of
            its votes

Every operation but ``status`` changes what the players must do, so each is mailed to every
player at once (queued in the outbox under ``gm-notice:GAME:SEQ``, delivered by the next
``pbem run``, which also queues any a crash left out) and shown in the next turn report.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import atomic, canonical
from pbem.chance import contributions
from pbem.errors import PbemError
from pbem.game import registry
from pbem.game.results import GameResult
from pbem.host import leftovers, notify, retention, rootindex, seats
from pbem.host.turnjob import MAILED, STOPPED, chance_waiting
from pbem.mail import config as mail_config
from pbem.mail import trouble
from pbem.mail.inbox import Inbox
from pbem.mail.outbox import Outbox
from pbem.protocol import orderdoc
from pbem.protocol.keys import PublicKey
from pbem.schedule import format_duration, parse_iso, to_iso
from pbem.store import replay
from pbem.store.gameconfig import CONFIG_NAME, GameConfig, check_email
from pbem.store.gamedir import GameDir, deadline_class
from pbem.store.kinds import GmOp
from pbem.store.lock import locked
from pbem.store.referee import referee_key

if TYPE_CHECKING:
    from pbem.game.plugin import GamePlugin
    from pbem.game.shapes import GameState
    from pbem.protocol.keys import PrivateKey
    from pbem.store.records import LogBody


class GMError(PbemError):
    pass


@dataclass
class Done:
    entry_seq: int
    summary: str


def _open(path: Path) -> tuple[GameDir, GamePlugin, GameState]:
    game = GameDir.open(path, repair_torn_tail=True)
    plugin = registry.load(game.config.game)
    state = replay.load_state(plugin, game).state
    return game, plugin, state


def status(path: Path, now: datetime) -> list[str]:
    """What the game waits for, in sentences: the step now open and who is due, each due
    power's orders (ready or not: early resolution waits for every ready file), the deadline,
    missed turns, mail trouble; for a finished game, its result in words."""
    game, plugin, state = _open(path)
    clock = game.log.summary.clock()
    standing = game.log.summary.standing_orders()
    due = plugin.powers_due(state)
    info = plugin.variants().get(game.config.variant)
    title = info.title if info is not None else game.config.variant
    lines = [f"game {game.game_id}: {title} (variant {game.config.variant})"]
    if (path / STOPPED).exists():
        lines.append("STOPPED: " + (path / STOPPED).read_text(encoding="utf-8").strip())
    if plugin.is_over(state):
        lines.append(result_line(state.get("result")))
    else:
        window = plugin.window(state)
        step = f"{window.label} (turn {plugin.orders_turn(state)})" if window else \
            f"turn {plugin.orders_turn(state)}"
        lines.append(f"now open: {step}; orders due from "
                     + (", ".join(due) if due else "nobody"))
        chance_wait = chance_waiting(game, plugin, state, standing)
        line = _deadline_line(clock.deadline, clock.paused, now)
        if chance_wait and " PASSED " in line:  # the set-up or first drawing step waits
            line = line.split(": the next pbem run", 1)[0] + ": " + notify.chance_wait_line(
                path, window, chance_wait)
        lines.append(line)
        waiting: list[str] = []
        for p in due:
            have = standing.get(p)
            if have is None:
                got = "no orders yet"
                waiting.append(p)
            elif orderdoc.ready_of(have["text"]):
                got = f"orders in (seq {have['seq']}, {have['received']}), ready"
            else:
                got = (f"orders in (seq {have['seq']}, {have['received']}), NOT ready: the "
                       "turn waits for a ready file from this power or the deadline")
                waiting.append(p)
            lines.append(f"  {p:<8} {game.config.powers[p].email:<32} {got}")
        if due and not waiting and game.config.schedule.early:
            lines.append("every due power's orders are in and ready: the next pbem run "
                         "resolves the turn")
        elif waiting:
            lines.append("the turn waits for " + ", ".join(waiting)
                         + (" (or the deadline)" if game.config.schedule.early
                            else " until the deadline (early resolution is off)"))
    lines += [f"settings: {p} {v.line()}" for p, v in game.config.prefs.items() if v.to_data()]
    lines += [f"autopilot: {p} (since log entry {seq}: its standing orders are used until its "
              "player sends orders again)" for p, seq in game.log.summary.on_autopilot().items()]
    missed = game.log.summary.missed_turns()
    if any(m["total"] for m in missed.values()):
        lines.append("missed turns: " + ", ".join(
            f"{p} {m['total']} ({m['in_a_row']} in a row)" for p, m in missed.items()
            if m["total"]))
    made = game.log.summary.chance_contributions()
    lines += [f"chance: {contributions.audit_line(made, p)}" for p in game.config.powers
              if made.without(p)]
    outbox = Outbox(path / "outbox")
    lines.append(f"outbox: {len(outbox.pending())} pending, {len(outbox.failed())} failed")
    lines += trouble.lines(outbox)
    quarantined = Inbox(game.root).quarantined()
    if quarantined:
        lines.append(f"quarantine: {len(quarantined)} message(s) under "
                     f"{game.root / 'quarantine'}")
    lines += retention.status_lines(game.root, mail_config.keep_mail_days(game.root))
    swept, last = leftovers.removed(game.root)
    if swept:
        lines.append(f"crash leftovers: removed {swept} temp file(s) left by a crash under "
                     f"{game.root} (the last at {last})")
    waiting = Inbox(game.root).unjudged(parse_iso(clock.deadline), game.path.name) \
        if clock.deadline and (game.root / "inbox").is_dir() else []
    if waiting:
        lines.append(f"inbox: {len(waiting)} message(s) stored before the deadline not judged "
                     "yet: the turn is not resolved before they are")
    head = game.log.head
    lines.append(f"log: {head.length} entries, head {head.hash[:16]}")
    return lines


def result_line(result: GameResult | str | None) -> str:
    """A finished game's result in words: ``over: won by red (cluster complete)``."""
    if not isinstance(result, dict):
        return f"over: {result}" if result is not None else "over"
    winners = [str(w) for w in result.get("winners") or []]
    reason = str(result.get("reason") or "").replace("_", " ")
    who = ("won by " + " and ".join(winners)) if winners else "nobody won"
    return f"over: {who}" + (f" ({reason})" if reason else "")


def _deadline_line(deadline: str | None, paused: bool, now: datetime) -> str:
    """``deadline 2026-12-03T18:00:00Z``, in whole seconds, flagged when paused or passed."""
    if deadline is None:
        return "deadline none" + (" (paused)" if paused else "")
    when = parse_iso(deadline)
    text = f"deadline {to_iso(when.replace(microsecond=0))}"
    if paused:
        return text + " (paused)"
    if when <= now:
        late = format_duration(now - when)
        return (f"{text} PASSED {late} ago: the next pbem run resolves the turn (after the "
                "grace period, if any)")
    return text


def _append(path: Path, now: datetime, body: LogBody, *, kind: str = replay.GM,
            then: Callable[[GameDir], None] | None = None, notice: bool = True,
            check: Callable[[GameDir, GamePlugin, GameState], None] | None = None) -> Done:
    """Log the operation under the game's lock; ``check(game, plugin, state)`` runs first under
    the lock (it raises to log nothing); ``then(game)`` runs after the append, still under the
    lock (files that follow from the entry); then the players' notice is queued."""
    with locked(path) as lock:
        leftovers.after_lock(lock, now)
        game, plugin, state = _open(path)
        if check is not None:
            check(game, plugin, state)
        if plugin.is_over(state) and body["op"] not in ("status",):
            raise GMError(f"game {game.game_id} is over")
        key, _ = referee_key(game.root)
        result = replay.gm_resolution(plugin, state, body)
        if result is not None:
            body = {**body, "state": canonical.digest(result.state), "events": result.events}
        signed = replay.sign_gm(key, {**body, "time": to_iso(now)})
        entry = game.log.append(kind, now, signed)
        if result is None:
            # The state is unchanged: move the cache to the new head, so the next run does not
            # take it for stale and replay the whole log.
            game.save_state(state)
        else:
            game.save_state(result.state)
            ctx = notify.Context(game, plugin, key, now)
            outbox = Outbox(path / "outbox")
            for mail_key, msg in notify.gm_mails(ctx, state, result.state, entry):
                outbox.queue(msg, key=mail_key)
            atomic.write_json(path / MAILED, {"seq": entry.seq})
        if then is not None:
            then(game)
            game, plugin, _ = _open(path)  # what then() wrote (a new address) is read back
        done = Done(entry.seq, f"logged as entry {entry.seq}, signed by the referee")
        if notice:
            done.summary += _queue_notice(game, plugin, key, now)
        return done


def _queue_notice(game: GameDir, plugin: GamePlugin, key: PrivateKey, now: datetime) -> str:
    """Queue the players' notice of the operation just logged (under the game's lock)."""
    state = replay.load_state(plugin, game).state
    ctx = notify.Context(game, plugin, key, now)
    count = notify.queue_gm_notices(ctx, state, Outbox(game.path / "outbox"))
    return f"; {count} notice(s) queued for the players (sent by the next pbem run)"


def _power(game: GameDir, power: str) -> str:
    if power not in game.config.powers:
        raise GMError(f"no power {power!r} in {game.game_id} "
                      f"(powers: {', '.join(game.config.powers)})")
    return power


def _by_vote(kind: str, votes: Sequence[int], rule: str = "unanimous") -> dict[str, Any]:
    """The fields an act carries when a players' vote made it (the audit checks them)."""
    return {"vote": kind, "votes": list(votes), "rule": rule} if votes else {}


def pause(path: Path, now: datetime, reason: str, *, votes: Sequence[int] = (),
          rule: str = "unanimous") -> Done:
    return _append(path, now, {"op": GmOp.PAUSE, "reason": reason,
                               **_by_vote("pause", votes, rule)})


def resume(path: Path, now: datetime, *, votes: Sequence[int] = (),
           rule: str = "unanimous") -> Done:
    game, plugin, state = _open(path)
    deadline = to_iso(game.config.schedule.next_deadline(
        now, deadline_class=deadline_class(plugin, state)))
    done = _append(path, now, {"op": GmOp.RESUME, "deadline": deadline,
                               **_by_vote("resume", votes, rule)})
    done.summary += f"; new deadline {deadline}"
    return done


def extend(path: Path, now: datetime, *, to: str | None, by: str | None) -> Done:
    from pbem.schedule import parse_duration

    game = GameDir.open(path)
    current = game.log.summary.deadline
    if to:
        deadline = parse_iso(to, "--to")
    elif by and current:
        deadline = parse_iso(current) + parse_duration(by, "--by")
    else:
        raise GMError("give --to TIMESTAMP or --by DURATION")
    if current and deadline <= parse_iso(current):
        raise GMError(f"the new deadline {to_iso(deadline)} is not later than {current}")
    return _append(path, now, {"op": GmOp.EXTEND, "deadline": to_iso(deadline)})


def replace(path: Path, now: datetime, power: str, email: str, key: PublicKey) -> Done:
    """A new player for ``power``: a signed ``key`` entry (orders are checked against it from
    now on), then the address in config.yaml and the key file are updated.

    The new config is built and validated before anything is written, so a bad address (or
    anything else config.yaml would refuse) changes nothing."""
    game = GameDir.open(path)
    _power(game, power)
    if check_email(email) is None:
        raise GMError(f"--email {email!r} is not an email address (give addr@example.org "
                      "or 'Name <addr@example.org>')")
    entry = game.config.powers[power]
    powers = dict(game.config.powers)
    powers[power] = entry.replace(email=email)
    config = game.config.replace(powers=powers)
    text = config.to_yaml()
    GameConfig.from_yaml(text, str(path / CONFIG_NAME))  # raises ConfigError: nothing written

    def write_files(game: GameDir) -> None:
        atomic.write_text(path / entry.key, key.text(power) + "\n")
        atomic.write_text(path / CONFIG_NAME, text)
        rootindex.forget(path.parent, path.name)  # again: a mail may have re-read it between

    rootindex.forget(path.parent, path.name)  # ingest re-reads this game from now on
    return _append(path, now, {"op": GmOp.REPLACE, "power": power, "email": email,
                               "key": key.text()}, kind=replay.KEY, then=write_files)


def autopilot(path: Path, now: datetime, power: str) -> Done:
    """Put ``power``'s seat on autopilot (pbem.host.seats): its standing orders or the game's
    default answer are used and no step waits for it, until its player sends orders again."""
    try:
        body = seats.body(GameDir.open(path), power)
    except seats.SeatError as exc:
        raise GMError(str(exc)) from None

    def check(game: GameDir, plugin: Any, state: dict[str, Any]) -> None:
        try:
            if seats.body(game, power) != body:
                raise GMError(f"{power}'s seat changed meanwhile: try again")
        except seats.SeatError as exc:
            raise GMError(str(exc)) from None

    return _append(path, now, body, check=check)


def concede(path: Path, now: datetime, power: str, *, votes: Sequence[int] = ()) -> Done:
    _power(GameDir.open(path), power)
    return _append(path, now, {"op": GmOp.CONCEDE, "power": power, **_by_vote("concede", votes)})


def end(path: Path, now: datetime, reason: str, *, votes: Sequence[int] = (),
        rule: str = "unanimous") -> Done:
    return _append(path, now, {"op": GmOp.END, "reason": reason or "ended by agreement",
                               **_by_vote("draw", votes, rule)})


def cancel(path: Path, now: datetime, reason: str, *, votes: Sequence[int] = (),
           rule: str = "unanimous") -> Done:
    """End the game now with no winner (pbem.game.results.cancelled): its result says
    ``cancelled``; every player and the game master are told."""
    return _append(path, now, {"op": "cancel", "reason": reason or "cancelled",
                               **_by_vote("cancel", votes, rule)})


def vote(path: Path, now: datetime, body: LogBody,
         check: Callable[[GameDir, GamePlugin, GameState], None]) -> Done:
    """Record a player's verified vote (pbem.host.votes) as a ``vote`` entry: it changes no
    state; ``check`` refuses it under the lock (a replayed seq, a game over)."""
    return _append(path, now, {"op": GmOp.VOTE, **body}, notice=False, check=check)


def set_prefs(path: Path, now: datetime, body: LogBody,
              check: Callable[[GameDir, GamePlugin, GameState], None],
              write: Callable[[GameDir], None]) -> Done:
    """Record a player's verified prefs file as a ``prefs`` entry; ``write(game)`` then puts the
    settings in config.yaml (``players.<power>.prefs``), under the same lock."""
    rootindex.forget(path.parent, path.name)
    return _append(path, now, {"op": GmOp.PREFS, **body}, notice=False, check=check, then=write)
