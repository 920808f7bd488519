"""Every mail pbem sends, built from rendered templates (pbem.render) and composed for the
outbox (pbem.mail.compose). Addresses come only from the game configuration — never from an
incoming message's From — so pbem can never be used to mail a stranger.

Each mail is returned with an idempotency key for the outbox, so queueing it again after a crash
is a no-op.

Size: one function per mail pbem sends, each short, sharing the Context (game, plugin, referee
key, clock) and the idempotency keys; the rendering is apart (pbem.render) and so is composing
(pbem.mail.compose).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from email.message import EmailMessage
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import lazy
from pbem.chance.kinds import Contribution
from pbem.errors import PbemError, Problem
from pbem.game.plugin import GamePlugin
from pbem.host import mailpolicy, seats
from pbem.mail.compose import Attachment, Wire, compose, compose_wire
from pbem.mail.loops import address_of
from pbem.protocol import orderdoc
from pbem.protocol.envelope import STANDING_TURN
from pbem.protocol.keys import PrivateKey
from pbem.record import Mutable
from pbem.schedule import parse_iso, to_iso
from pbem.store import chance, replay
from pbem.store.gameconfig import CONFIG_NAME, GameConfig
from pbem.store.gamedir import GameDir
from pbem.store.kinds import GmOp
from pbem.store.log import Entry
from pbem.store.summary import Noted, Summary, silence_answers, summarize

if TYPE_CHECKING:
    from pbem.game.plugin import Window
    from pbem.game.shapes import (
        ChanceFacts,
        GameState,
        GmNotice,
        MailFacts,
        MissedTurn,
        OrderBody,
        PlayerInfo,
        StandingUse,
        ViewExtra,
    )
    from pbem.game.shapes import (
        Context as MailContext,
    )
    from pbem.mail.outbox import Outbox
    from pbem.render import mails
else:  # templates load on first use: ingest of a mail that needs no reply never imports jinja2
    mails = lazy.module("pbem.render.mails")

DEFAULT_SENDER = "pbem referee <referee@pbem.invalid>"
ESCROW_KEY = "referee.x25519.key"


def domain_of(sender: str) -> str:
    """The mail domain of the referee's From (Message-IDs, List-Id)."""
    return address_of(sender).partition("@")[2] or "pbem.invalid"


class Context(Mutable):
    _fields = ("game", "plugin", "referee", "now", "shared_renderer")
    game: GameDir
    plugin: GamePlugin
    referee: PrivateKey
    now: datetime
    #: A renderer the caller keeps across contexts (one game held for an ingest round): its
    #: views are computed once per state and power whatever the mail's date.
    shared_renderer: mails.Renderer | None

    def __init__(self, game: GameDir, plugin: GamePlugin, referee: PrivateKey, now: datetime,
                 shared_renderer: mails.Renderer | None = None) -> None:
        self.game = game
        self.plugin = plugin
        self.referee = referee
        self.now = now
        self.shared_renderer = shared_renderer

    @property
    def sender(self) -> str:
        return self.game.config.sender or DEFAULT_SENDER

    @property
    def domain(self) -> str:
        return domain_of(self.sender)

    @cached_property
    def renderer(self) -> mails.Renderer:
        if self.shared_renderer is not None:
            return self.shared_renderer
        return mails.Renderer(self.game.config.game, self.game.path)

    def players(self) -> dict[str, PlayerInfo]:
        """Each player (by address) and the powers it commands, in turn order."""
        out: dict[str, PlayerInfo] = {}
        for name, entry in self.game.config.powers.items():
            player = out.setdefault(entry.email.lower(), {
                "email": entry.email, "powers": [], "tz": entry.tz,
            })
            player["powers"].append(name)
        return out

    def game_info(self, state: GameState) -> MailFacts:
        summary = self.game.log.summary  # the log's facts at its head, without a scan
        head = self.game.log.head
        missed = summary.missed_turns()
        last = dict(summary.last_seq)
        return {
            "game_id": self.game.game_id,
            "title": self.game.game_id,
            # Every pre-filled order form names it (docs/protocol.md, "The envelope").
            "instance": chance.instance(self.game.genesis),
            "deadline": summary.deadline,
            "paused": summary.paused,
            "checkpoint": self.game.checkpoint(self.referee).text(),
            # One seq rule (the report's form, `pbem orders new`): the next seq after the last
            # accepted one of the power, in any turn; view.json carries the last one.
            "seq": {p: last[p] + 1 if p in last else 0 for p in self.game.config.powers},
            "last_seq": last,
            "log_length": head.length,
            "missed": {p: m["total"] for p, m in missed.items()},
            "missed_in_a_row": {p: m["in_a_row"] for p, m in missed.items()},
            "schedule": self.game.config.schedule.describe(),
            "sender": self.sender,
            "view_extra": self.view_extra(state),
        }

    def view_extra(self, state: GameState) -> dict[str, ViewExtra]:
        """What view.json carries besides the game's view: the game ``instance`` (order files
        are bound to it) and, for a game asking for fair chance (a ``setup`` step, or a power
        that committed a tip), the step number and the power's committed tip, from which
        `pbem orders sign` fills in ``entropy`` (docs/protocol.md)."""
        genesis = self.game.genesis
        inst = chance.instance(genesis)
        ledger = self.game.log.summary.chance_ledger()
        window = self.plugin.window(state)
        setup = window is not None and window.kind == "setup"
        listened = set(window.listens) - set(window.due) if window is not None else set()
        out: dict[str, ViewExtra] = {}
        for power in self.game.config.powers:
            extra: ViewExtra = {"instance": inst}
            tip = ledger.tips.get(power)
            if setup or tip is not None:
                # ``contribute``: what this power's file for the step must carry ("tip",
                # "value") or may ("offer": a listened power's value enters the step's seed
                # if he sends a file, one with no orders at all is fine), or null.
                need = None if window is None else chance.expected(
                    ledger, window.kind, window.due, window.draws, power)
                if need is None and power in listened and window is not None \
                        and window.draws and ledger.committed_before(power):
                    need = Contribution.OFFER
                extra["chance"] = {"step": ledger.step + 1,
                                   "tip": tip.hex() if tip is not None else None,
                                   "contribute": need}
            out[power] = extra
        return out

    def compose(self, to: str | Sequence[str], mail: mails.RenderedMail, *, kind: str,
                reply_to: str | None = None) -> EmailMessage:
        return compose(**self._compose_args(to, mail, kind=kind, reply_to=reply_to))

    def compose_wire(self, to: str | Sequence[str], mail: mails.RenderedMail, *,
                     kind: str, reply_to: str | None = None) -> Wire:
        """The same message as :meth:`compose`, as wire bytes with its envelope (for the turn
        job's mails and ingest's replies: no ``EmailMessage`` is built and flattened)."""
        return compose_wire(**self._compose_args(to, mail, kind=kind, reply_to=reply_to))

    def _compose_args(self, to: str | Sequence[str], mail: mails.RenderedMail, *, kind: str,
                      reply_to: str | None) -> dict[str, Any]:
        return dict(
            sender=self.sender,
            to=to if isinstance(to, str) else list(to),
            subject=mail.subject,
            text=mail.text,
            html=mail.html or None,
            date=self.now,
            domain=self.domain,
            auto_submitted="auto-replied" if kind == "reply" else "auto-generated",
            attachments=[Attachment(name, data, *mime.split("/", 1))
                         for name, mime, data in mail.attachments],
            in_reply_to=reply_to,
            game=self.game.game_id,
        )


def escrow_opener(game: GameDir) -> replay.EscrowOpener | None:
    """Opens values players sealed to the referee (pbem.protocol.escrow) with its X25519 key
    (ROOT/referee.x25519.key); the game decides when to ask (``nmr_orders``)."""
    path = game.root / ESCROW_KEY
    if not path.exists():
        return None
    from pbem.protocol.escrow import load_private, open_escrow  # (X25519, AEAD: only here)

    key = load_private(path)

    def opener(power: str, slot: str, blob: str, turn: int) -> tuple[str, str] | None:
        try:
            return open_escrow(key, blob, game.game_id, power, int(slot), turn)
        except PbemError:
            return None

    return opener


def resolution_mails(ctx: Context, before: GameState, after: GameState,
                     entry: Entry) -> list[tuple[str, Wire]]:
    """The mail one resolution causes: a report to every player, the game master's summary,
    the end-of-game mail when it is over, and an alert for powers missing too many turns."""
    gid = ctx.game.game_id
    events = entry.body["events"]
    info = ctx.game_info(after)  # once: the checkpoint is signed once per resolution
    at = summary_at(ctx.game, entry)
    info.update(turn_facts(at, entry, ctx.game.config.nmr_alert))
    info["press"] = at.press_counts(before.get("turn"))  # counts, no text
    info["chance"] = chance_facts(ctx, entry)
    info["digest"] = digest_lines(ctx, entry)
    out = []
    block = chance_attachment(ctx, entry)
    for address, player in ctx.players().items():
        if mailpolicy.gets(entry.body, player["powers"]) == mailpolicy.LATER:
            continue  # Window.notify: this player hears of the step in a later digest
        mail = mails.turn_report(ctx.renderer, ctx.plugin, before, after, events,
                                  player["powers"], player, info)
        if block is not None:
            mail = replace(mail, attachments=[*mail.attachments, block])
        out.append((f"report:{gid}:{entry.seq}:{address}",
                    ctx.compose_wire(player["email"], mail, kind="report")))
    gm = ctx.game.config.gm
    if gm:
        mail = mails.gm_summary(ctx.renderer, ctx.plugin, before, after, events, info)
        out.append((f"gm-summary:{gid}:{entry.seq}", ctx.compose_wire(gm, mail, kind="report")))
        alert_after = ctx.game.config.nmr_alert
        on_autopilot = at.on_autopilot()  # the game master chose already: no alert
        for power, in_a_row in info["missed_in_a_row"].items():
            if (in_a_row >= alert_after and entry.body["used"].get(power, "") is None
                    and not silence_answers(entry.body) and power not in on_autopilot):
                out.append((f"nmr:{gid}:{entry.seq}:{power}",
                            _nmr_alert(ctx, gm, power, in_a_row)))
    if ctx.plugin.is_over(after):
        reveals = revealed(ctx)
        for address, player in ctx.players().items():
            mail = mails.game_end(ctx.renderer, ctx.plugin, after, events, player["powers"],
                                   player, info, reveals)
            out.append((f"game-end:{gid}:{address}",
                        ctx.compose_wire(player["email"], mail, kind="report")))
    return out


def digest_lines(ctx: Context, entry: Entry) -> dict[str, list[str]]:
    """Per power whose player gets a digest for the resolution ``entry``
    (pbem.host.mailpolicy): the events of every step since his last mail, each seen through
    ``view_events`` for that power and said in a sentence, one line per event."""
    said = entry.body.get(mailpolicy.MAILED)
    if not isinstance(said, dict):
        return {}
    out: dict[str, list[str]] = {}
    for power, what in said.items():
        if what != mailpolicy.DIGEST:
            continue
        since, _last = mailpolicy.pending(ctx.game.log, power, entry.seq - 1)
        out[power] = mails.digest_lines(ctx.plugin, [ctx.game.log[s].body for s in since], power)
    return out


def summary_at(game: GameDir, entry: Entry) -> Summary:
    """The log's facts as of ``entry``: the running summary when it is the head (a resolution
    mailed as it is made), else the summary folded up to it (its mail caught up after a crash,
    with entries after it)."""
    log = game.log
    if entry.seq == len(log) - 1:
        return log.summary
    return summarize(log.entries[:entry.seq + 1])


def chance_attachment(ctx: Context, entry: Entry) -> tuple[str, str, bytes] | None:
    """``chance-step-T.json`` for a resolution that drew in public: its inputs, public seed,
    tips and draws, so `pbem dice verify report.eml` re-checks every public draw."""
    events = entry.body.get("events") or []
    drawn = next((e for e in events if isinstance(e, dict) and e.get("type") == chance.EVENT),
                 None)
    if drawn is None or not isinstance(entry.body.get(chance.RANDOM), dict):
        return None
    ledger = summary_at(ctx.game, entry).chance_ledger()  # (a resolve entry changes no tip)
    step, tips = ledger.step, ledger.tips
    made = chance.recorded(entry.body, ctx.game.game_id, step, None)
    assert made is not None
    block = {**chance.block(made, ctx.game.genesis, tips), "draws": drawn["draws"]}
    return (f"chance-step-{step}.json", "application/json",
            json.dumps(block, sort_keys=True, indent=1).encode("utf-8") + b"\n")


def chance_facts(ctx: Context, entry: Entry) -> ChanceFacts | None:
    """What a report says of a step that drew (pbem.render.notes.chance_notes): its number,
    its public draws, the genesis referee_tip, and for each power drawn without its value the
    steps drawn without it so far (from the resolve entries' ``random``, as the audit says it).
    None for a step that drew nothing."""
    rnd = entry.body.get(chance.RANDOM)
    if not isinstance(rnd, dict):
        return None
    at = summary_at(ctx.game, entry)
    step, made = at.chance_ledger().step, at.chance_contributions()
    events = entry.body.get("events") or []
    drawn = next((e for e in events if isinstance(e, dict) and e.get("type") == chance.EVENT),
                 {})
    players = rnd.get("players") or {}
    return {"step": step, "draws": drawn.get("draws") or [],
            "referee_tip": (ctx.game.genesis.get(chance.RANDOM) or {}).get("referee_tip"),
            "missing": {p: made.without(p) for p, v in players.items()
                        if v is None and made.without(p)}}


def _nmr_alert(ctx: Context, gm: str, power: str, in_a_row: int) -> Wire:
    text = (f"{mails.power_name(power)} has sent no orders for {in_a_row} turns in a row in game "
            f"{ctx.game.game_id}. Its standing orders were used.\n\n"
            "Two ways on for an abandoned seat:\n"
            f"- autopilot: pbem gm autopilot {ctx.game.path} {power}\n"
            "  (its standing orders, or the game's default answer, are used and no step waits "
            "for it, until its player sends orders again)\n"
            f"- a new player: pbem gm replace {ctx.game.path} {power} "
            "--email ADDRESS --key FILE.pub\n"
            + ("" if ctx.game.config.abandoned is None else
               f"(config abandoned: the referee puts the seat on autopilot by itself after "
               f"{ctx.game.config.abandoned[0]} missed due steps in a row)\n"))
    mail = mails.RenderedMail(f"[{ctx.game.game_id}] {mails.power_name(power)} missed "
                               f"{in_a_row} turns", text, "", [])
    return ctx.compose_wire(gm, mail, kind="report")


def chance_wait_line(path: Path, window: Window | None, waiting: Sequence[str]) -> str:
    """The sentence `pbem gm status`, the turn job and the game master's alert give while the
    set-up step or the first drawing step waits for a contribution (pbem.store.chance)."""
    what = "set-up" if window is not None and window.kind == "setup" else (
        f"{window.kind}" if window is not None else "next")
    files = " and ".join(f"{p}'s {what} file" for p in waiting)
    powers = waiting[0] if len(waiting) == 1 else "POWER"
    return (f"the game waits for {files}: it does not start without every player's "
            f"contribution; `pbem gm replace {path} {powers} --email ADDRESS --key FILE.pub` "
            f"or `pbem gm end {path}`")


def chance_wait_mail(ctx: Context, gm: str, window: Window | None, waiting: Sequence[str]
                     ) -> Wire:
    """The game master's alert (once per step) that the game waits for a contribution."""
    text = (f"In game {ctx.game.game_id}, {chance_wait_line(ctx.game.path, window, waiting)}."
            "\n\nThe deadline has passed. The step's draws use every player's chance value, "
            "so the game does not resolve without it: nobody is dealt out silently. The "
            "players without a file have been reminded; the game moves as soon as their "
            "file is accepted.\n")
    mail = mails.RenderedMail(f"[{ctx.game.game_id}] Waiting for "
                              f"{', '.join(waiting)}", text, "", [])
    return ctx.compose_wire(gm, mail, kind="report")


def gm_mails(ctx: Context, before: GameState, after: GameState,
             entry: Entry) -> list[tuple[str, EmailMessage]]:
    """Mail after a state-changing game-master operation (a concession, an ending): the
    end-of-game mail when the game is over; the next turn report shows the rest."""
    if not ctx.plugin.is_over(after):
        return []
    gid = ctx.game.game_id
    info = ctx.game_info(after)
    reveals = revealed(ctx)
    out = []
    for address, player in ctx.players().items():
        mail = mails.game_end(ctx.renderer, ctx.plugin, after, entry.body.get("events", []),
                               player["powers"], player, info, reveals)
        out.append((f"game-end:{gid}:{address}",
                    ctx.compose(player["email"], mail, kind="report")))
    return out


def revealed(ctx: Context) -> list[MailContext]:
    """The end-of-game reveal: what the game's presenter makes of the whole log (4000 A.D.:
    every destination opened, with the departure it belongs to)."""
    log = [{"kind": e.kind, "body": e.body} for e in ctx.game.log.entries]
    return mails.presenter(ctx.plugin).reveal(log)


def reminder_mail(ctx: Context, state: GameState, power: str, deadline: datetime, *,
                  late: bool) -> EmailMessage:
    """A reminder before the deadline, or (``late``: the deadline has passed, the grace period
    has not) a last call that names when the grace period ends — never a past deadline as
    the time orders are due."""
    entry = ctx.game.config.powers[power]
    info = ctx.game_info(state)
    player: PlayerInfo = {"email": entry.email, "tz": entry.tz, "name": mails.power_name(power)}
    last_call = None
    if late:
        last_call = {"deadline": to_iso(deadline),
                     "until": to_iso(ctx.game.config.schedule.grace_end(deadline)),
                     "until_run": ctx.game.config.late_orders == "until-run"}
        info = {**info, "deadline": None}
    mail = mails.reminder(ctx.renderer, ctx.plugin, state, [power], player, info,
                          late=last_call)
    return ctx.compose(entry.email, mail, kind="report")


def late_facts(game: GameDir, received: datetime) -> dict[str, str] | None:
    """``{deadline, grace_end}`` (UTC ISO) if orders received at ``received`` come after the
    current turn's deadline plus grace; None if in time (or the game is paused: a paused game
    has no running deadline)."""
    clock = game.log.summary  # deadline and paused as the log has them now
    if clock.paused or game.config.paused or not clock.deadline:
        return None
    deadline = parse_iso(clock.deadline)
    grace_end = game.config.schedule.grace_end(deadline)
    if received < grace_end:
        return None
    return {"deadline": clock.deadline, "grace_end": to_iso(grace_end)}


def receipt_mail(ctx: Context, state: GameState, power: str, normalized: OrderBody,
                 fields: dict[str, Any], signature: str, reply_to: str | None,
                 subject: str, *, ready: bool = True,
                 late: dict[str, str] | None = None, autopilot: int | None = None) -> Wire:
    """The receipt, quoting the current deadline (as the log has it now, after any extension)
    and saying honestly when a correction is still possible: ``ready`` files let the turn
    resolve early; ``late`` (accepted after deadline + grace in a game that takes late orders
    until the run) says so and names the real deadline."""
    info = ctx.game_info(state)
    entry = ctx.game.config.powers[power]
    player: PlayerInfo = {"email": entry.email, "tz": entry.tz, "name": mails.power_name(power)}
    mail = mails.receipt(ctx.renderer, ctx.plugin, state, power, normalized, player, info,
                          seq=int(fields["seq"]), signature=signature_text(fields, signature),
                          ready=ready, early=ctx.game.config.schedule.early, late=late,
                          received=str(fields["received"]),
                          chance=receipt_chance(ctx, info, power, int(fields["seq"])),
                          standing=fields["turn"] == STANDING_TURN,
                          seat=None if autopilot is None else (
                              f"Your seat was on autopilot (since log entry {autopilot}): "
                              f"these orders take it back. From now on {mails.power_name(power)}"
                              " plays your orders again, and the turns wait for you as before."))
    return ctx.compose_wire(ctx.game.config.powers[power].email, mail, kind="reply",
                            reply_to=reply_to)


def receipt_chance(ctx: Context, info: MailFacts, power: str, seq: int) -> str | None:
    """The receipt's sentence for a file accepted without the power's chance value at a step
    that takes one (None: it carries it, or the step takes none)."""
    asked = (info.get("view_extra") or {}).get(power, {}).get("chance")
    if not isinstance(asked, dict) or asked.get("tip") is None:
        return None  # no chance in this game, or the set-up (its tip is refused without)
    accepted = ctx.game.log.summary.standing.get(power) or {}
    if accepted.get("seq") != seq:
        return None
    if accepted.get("entropy") is not None:
        return None  # a value, or a tip committed by this file
    step = asked.get("step")
    return (f"This file carries no chance value: step {step} will be drawn without your value "
            "unless a later file brings it. Sign with `pbem orders sign FILE --key KEY --view "
            "REPORT.eml` (your latest report or welcome mail, saved), which adds it.")


def late_mail(ctx: Context, power: str, turn: int, received: datetime,
              late: dict[str, str] | None, reply_to: str | None) -> Wire:
    """The late notice: orders for ``turn`` came after its deadline plus grace (``late``) or
    after the turn was resolved (``late`` None); they were not used."""
    entry = ctx.game.config.powers[power]
    player: PlayerInfo = {"email": entry.email, "tz": entry.tz, "name": mails.power_name(power)}
    info: MailFacts = {"game_id": ctx.game.game_id, "title": ctx.game.game_id,
            "deadline": None if late else ctx.game.log.summary.deadline}
    mail = mails.late_notice(ctx.renderer, power, player, info, turn=turn,
                             received=to_iso(received), late=late)
    return ctx.compose_wire(entry.email, mail, kind="reply", reply_to=reply_to)


def superseded_mail(ctx: Context, power: str, turn: int, seq: int, newer: int, used: bool,
                    received: datetime, reply_to: str | None) -> Wire:
    """Orders ``seq`` came after the power's ``newer`` seq for the same turn (``used``: and
    that turn has been resolved since): superseded, not an error of the player."""
    entry = ctx.game.config.powers[power]
    player: PlayerInfo = {"email": entry.email, "tz": entry.tz, "name": power.capitalize()}
    info: MailFacts = {"game_id": ctx.game.game_id, "title": ctx.game.game_id}
    mail = mails.superseded(ctx.renderer, power, player, info, turn=turn, seq=seq, newer=newer,
                            used=used, received=to_iso(received))
    return ctx.compose_wire(entry.email, mail, kind="reply", reply_to=reply_to)


def rejection_mail(ctx: Context, power: str, turn: int | None, problems: list[Problem],
                   reply_to: str | None, subject: str, *, seq: int | None = None) -> Wire:
    entry = ctx.game.config.powers[power]
    player: PlayerInfo = {"email": entry.email, "tz": entry.tz, "name": mails.power_name(power)}
    info: MailFacts = {"game_id": ctx.game.game_id, "title": ctx.game.game_id}
    mail = mails.rejection(ctx.renderer, problems, player, info, power=power, turn=turn,
                           seq=seq)
    return ctx.compose_wire(ctx.game.config.powers[power].email, mail, kind="reply",
                            reply_to=reply_to)


# -- what the players are told besides their orders -------------------------------------------
GM_OPS = (GmOp.PAUSE, GmOp.RESUME, GmOp.EXTEND, GmOp.REPLACE, GmOp.CONCEDE, GmOp.END,
          GmOp.CANCEL, GmOp.AUTOPILOT)


def gm_notice(entry: Entry | Noted) -> GmNotice | None:
    """What a game-master entry changed for the players, or None if it changed nothing they
    must act on."""
    body = entry.body
    op = body.get("op")
    if entry.kind not in (replay.GM, replay.KEY) or op not in GM_OPS:
        return None
    notice: GmNotice = {"op": op, "seq": entry.seq, "time": entry.time,
                        "deadline": body.get("deadline"), "reason": body.get("reason") or "",
                        "power": body.get("power") or ""}
    if op == GmOp.AUTOPILOT:
        notice["missed"], notice["auto"] = body.get("missed"), bool(body.get("auto"))
    return notice


def turn_facts(at: Summary, entry: Entry, nmr_alert: int) -> MailFacts:
    """What a report says beside the events of the resolution ``entry``, from the summary
    ``at`` it (:func:`summary_at`): the game master's notices of the turn it ended, each due
    power's missed turn and what was done for it (standing orders, escrow opened, orders that
    no longer fit), the powers that played on their standing file, and the order the powers
    were resolved in (``due`` as recorded: the game's resolution order)."""
    body = entry.body
    missed = at.missed_turns()
    notices: list[GmNotice] = [{**n, "turn": body["turn"]} for e in at.noted(this_turn=False)
               if (n := gm_notice(e)) is not None]
    nmr: dict[str, MissedTurn] = {}
    on_autopilot = at.on_autopilot()
    silence = silence_answers(body)
    for power, sha in body["used"].items():
        if sha is not None or (silence and power in body["due"]):
            continue  # Window.silence "default": the default answer, no missed turn
        count = missed.get(power, {"total": 1, "in_a_row": 1})
        # an opening the game marks ``used: false`` was opened but not used (4000 A.D.: not
        # due this turn, or not a star of the board)
        opened = body["escrow"].get(power, {})
        used = {s: o.get("used", True) is not False for s, o in opened.items()}
        nmr[power] = {"turn": body["turn"], "escrow": sorted(s for s in used if used[s]),
                      "escrow_unused": sorted(s for s in used if not used[s]),
                      "stale": list(body["stale"].get(power, [])),
                      "total": count["total"], "in_a_row": count["in_a_row"],
                      "alerted": bool(nmr_alert) and count["in_a_row"] >= nmr_alert
                      and power not in on_autopilot,  # (pbem.host.seats: no alert then)
                      "autopilot": power in on_autopilot}
    # Due powers whose standing file (turn: standing) was used: the report names it.
    standing: dict[str, StandingUse] = {
                power: {"turn": body["turn"], "seq": kept["seq"], "orders": kept["orders"]}
                for power, sha in body["used"].items()
                if sha is not None and (kept := at.standing_file(power)) is not None
                and kept["sha256"] == sha}
    return {"notices": notices, "nmr": nmr, "order": list(body["due"]), "standing": standing}


def notice_key(game_id: str, seq: int) -> str:
    """The outbox key of the notice mails of the game-master entry at log ``seq``."""
    return f"gm-notice:{game_id}:{seq}"


def gm_notice_mails(ctx: Context, state: GameState,
                    entry: Entry | Noted) -> list[tuple[str | None, EmailMessage]]:
    """Every player's mail about a game-master operation: what changed, where each of his
    powers stands (orders in or not), and when orders are due now."""
    notice = gm_notice(entry)
    if notice is None:
        return []
    info: MailFacts = {**ctx.game_info(state), "over": ctx.plugin.is_over(state)}
    notice["turn"] = ctx.plugin.orders_turn(state)
    standing = ctx.game.log.summary.standing_orders()
    due = set(ctx.plugin.powers_due(state))
    out: list[tuple[str | None, EmailMessage]] = []
    for address, player in ctx.players().items():
        powers = [{"power": p, "name": p.capitalize(), "due": p in due,
                   "seq": standing[p]["seq"] if p in standing else None,
                   "ready": orderdoc.ready_of(standing[p]["text"]) if p in standing else None}
                  for p in player["powers"]]
        views = None
        if notice["op"] == GmOp.REPLACE and notice["power"] in player["powers"]:
            views = {notice["power"]: ctx.plugin.view(state, notice["power"])}
        mail = mails.gm_notice(ctx.renderer, notice, powers, player, info, views)
        out.append((f"gm-notice:{ctx.game.game_id}:{entry.seq}:{address}",
                    ctx.compose(player["email"], mail, kind="report")))
    gm = ctx.game.config.gm
    if notice["op"] == GmOp.AUTOPILOT and notice.get("auto") and gm:
        # the cron job did it (pbem.host.seats): the game master is told in the same durable
        # step as the players, so a crash between the entry and its mails loses neither
        subject = f"[{ctx.game.game_id}] {notice['power'].capitalize()} is on autopilot"
        mail = mails.RenderedMail(subject, seats.gm_line(entry, ctx.game.game_id), "", [])
        out.append((f"gm-notice:{ctx.game.game_id}:{entry.seq}:gm",
                    ctx.compose(gm, mail, kind="report")))
    return out


def queue_gm_notices(ctx: Context, state: GameState, outbox: Outbox) -> int:
    """Queue the notice mails of every game-master entry since the last resolution that has
    none queued yet (all of one entry's mails in one durable step): the operation queues them
    itself, and the turn job catches up after a crash between its log entry and its mail."""
    count = 0
    for entry in ctx.game.log.summary.noted():  # this turn's gm entries, without a scan
        if gm_notice(entry) is None:
            continue
        key = notice_key(ctx.game.game_id, entry.seq)
        if outbox.queued_under(key) is not None:
            continue
        items = gm_notice_mails(ctx, state, entry)
        if items:
            outbox.queue_many(items, key=key)
            count += len(items)
    return count



def roster(config: GameConfig) -> list[dict[str, str]]:
    """The powers of the game for the welcome mail, with each player's address only where the
    game master allows it (config ``roster: addresses``)."""
    show = config.roster == "addresses"
    return [{"power": name, "name": name.capitalize(), "email": entry.email if show else ""}
            for name, entry in config.powers.items()]


def signature_text(fields: dict[str, Any], signature: str) -> str:
    """The referee's signed receipt as text a player can keep and check."""
    lines = ["pbem-receipt " + " ".join(f"{k}={fields[k]}" for k in sorted(fields)),
             f" sig={signature}"]
    return "\n".join(lines)


def welcome_mails(ctx: Context, state: GameState,
                  skip: Callable[[str], bool] = lambda key: False
                  ) -> list[tuple[str, EmailMessage]]:
    """Each player's welcome mail (keys ``welcome:GAME:ADDRESS``); ``skip(key)`` leaves out
    those already queued without rendering them."""
    from pbem.render import settings  # (no jinja2: the settings in words)

    info: MailFacts = {**ctx.game_info(state), "roster": roster(ctx.game.config),
            "fair_chance": fair_chance(ctx, info_extra=ctx.view_extra(state))}
    out = []
    for address, player in ctx.players().items():
        key = f"welcome:{ctx.game.game_id}:{address}"
        if skip(key):
            continue
        player = {**player, "settings": settings.settings(ctx.game.config, ctx.game.game_id,
                                                           player["powers"])}
        mail = mails.welcome(ctx.renderer, ctx.plugin, state, player["powers"], player, info)
        out.append((key, ctx.compose(player["email"], mail, kind="report")))
    return out


def fair_chance(ctx: Context, info_extra: dict[str, ViewExtra]) -> dict[str, str] | None:
    """What the welcome mail of a game with chance gives the players to check every draw
    against: the genesis entry's hash and the referee's committed ``referee_tip`` (None: the
    game draws no dice)."""
    if not any("chance" in extra for extra in info_extra.values()):
        return None
    rnd = ctx.game.genesis.get(chance.RANDOM) or {}
    return {"genesis": ctx.game.log.entries[0].hash, "referee_tip": str(rnd["referee_tip"])}


def queue_welcome(ctx: Context, state: GameState, outbox: Outbox) -> int:
    """Queue the welcome mails not queued yet (``pbem new``; ``pbem run`` again before the
    first resolution, so a crash right after creating the game loses none)."""
    mails = welcome_mails(ctx, state, skip=lambda key: outbox.queued_under(key) is not None)
    for key, msg in mails:
        outbox.queue(msg, key=key)
    return len(mails)


def html_only_mail(game_path: Path, sender: str, message_id: str | None, subject: str,
                   now: datetime) -> Wire:
    """"Please send plain text" to a registered player whose mail was HTML only."""
    return _sender_reply(game_path, sender, message_id, now,
                         lambda r, c: mails.html_only_reply(r, {"email": sender}, c,
                                                             subject=subject))


def no_orders_mail(game_path: Path, sender: str, message_id: str | None, subject: str,
                   now: datetime, notes: Sequence[str]) -> Wire:
    """"No signed orders found" to a registered player (unsigned orders, a zip, nothing)."""
    return _sender_reply(game_path, sender, message_id, now,
                         lambda r, c: mails.no_orders_reply(r, {"email": sender}, c,
                                                             subject=subject, notes=notes))


def _sender_reply(game_path: Path, sender: str, message_id: str | None, now: datetime,
                  make: Callable[[mails.Renderer, MailFacts], mails.RenderedMail]) -> Wire:
    """A reply to a registered player's address (the caller checked it is registered)."""
    config = GameConfig.load(game_path / CONFIG_NAME)
    renderer = mails.Renderer(config.game, game_path)
    mail = make(renderer, {"game_id": config.game_id})
    from_ = config.sender or DEFAULT_SENDER
    return compose_wire(sender=from_, to=sender, subject=mail.subject, text=mail.text,
                        html=mail.html, date=now, domain=domain_of(from_),
                        auto_submitted="auto-replied", in_reply_to=message_id,
                        game=config.game_id)


def stopped_mail(path: Path, now: datetime, message: str) -> EmailMessage | None:
    """Tell the game master a game was stopped (plain text: the game may be unreadable)."""
    config = GameConfig.load(path / CONFIG_NAME)
    if not config.gm:
        return None
    from_ = config.sender or DEFAULT_SENDER
    text = (f"Game {config.game_id} has been stopped by pbem and will not run until you act.\n\n"
            f"{message}\n\nNothing was changed or repaired. Restore log.jsonl from a backup or "
            "investigate, then delete the STOPPED file in the game directory.\n")
    return compose(sender=from_, to=config.gm, subject=f"[{config.game_id}] game stopped",
                   text=text, date=now,
                   domain=domain_of(from_),
                   auto_submitted="auto-generated", game=config.game_id)
