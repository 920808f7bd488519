"""The press relay: a signed press block found in a player's mail is judged, logged and relayed
to its recipients at once (during ingest, not at the turn), each relay signed by the referee.

raw block → ``verify_press`` (signature first, domain ``pbem-press-v1``) → the game it names →
under the game's lock: the game's press setting (none, white, grey), the turn, every recipient a
power of the game, the per-turn cap → the ``press`` log entry (the commit point: the game's
history is complete) → one relay mail per recipient power (its registered address only) and a
receipt to the sender listing who got what. Press never touches the power's orders and never
counts as orders received (it is not an ``orders`` entry).

Secrecy: a relay goes only to the powers a message names (``all``: every other power); a grey
(anonymous) relay names no sender, not in its text, headers, attachments or outbox key. The log
keeps the sender (history is complete); the public export withholds every press entry but white
press to all (pbem.audit.export), and no report or view reads press entries.

Crash safety: every mail is queued under an idempotency key derived from the press file's digest,
and a file already logged is answered again (missing mails queued, nothing logged twice).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import canonical, failpoints, lazy
from pbem.errors import PbemError, Problem
from pbem.game import registry
from pbem.host import leftovers, notify, opening
from pbem.host.accept import GameBusy, Keyring, Outcome, Verdict
from pbem.mail.outbox import Outbox
from pbem.numbers import digits
from pbem.protocol.keys import BadSignature, PrivateKey, PublicKey
from pbem.protocol.pressdoc import (
    ALL,
    BEGIN,
    END,
    Message,
    VerifiedPress,
    messages_from_data,
    verify_press,
)
from pbem.schedule import to_iso
from pbem.store import replay
from pbem.store.gamedir import GameDir
from pbem.store.log import Entry
from pbem.store.referee import referee_key

if TYPE_CHECKING:
    from pbem.game.shapes import GameState, MailFacts, PlayerInfo
    from pbem.render import press as render_press
else:  # templates load on first use (pbem.lazy)
    render_press = lazy.module("pbem.render.press")

#: Press messages one power may send in one turn (each message counts once, however many
#: powers it goes to). Past the cap a further press file is rejected whole.
PRESS_PER_TURN = 30

RELAY_DOMAIN = "pbem-press-relay-v1"
RELAY_TYPE = "application/vnd.pbem.press-relay+json"
RECEIPT_DOMAIN = "pbem-press-receipt-v1"
RECEIPT_TYPE = "application/vnd.pbem.press-receipt+json"
ANONYMOUS = "anonymous"


@dataclass(frozen=True, slots=True)
class Relay:
    """One message as one recipient power gets it."""

    index: int
    recipient: str
    message: Message
    sender: str  # the power, or "anonymous" for grey press


def press_body(v: VerifiedPress, received: datetime, message_id: str | None) -> dict[str, Any]:
    """The ``press`` log entry: the signed block as verified, its messages, when it came."""
    return replay.padded({
        "turn": v.turn, "power": v.power, "sha256": v.sha256, "text": v.block,
        "messages": [m.to_data() for m in v.messages], "received": to_iso(received),
        "message_id": message_id, "key": v.key_fingerprint,
    })


def recipients(message: Message, sender: str, powers: Sequence[str]) -> list[str]:
    """The powers a message goes to: those named, or every power but the sender for ``all``."""
    if message.to_all:
        return [p for p in powers if p != sender]
    return [p for p in powers if p in message.to]


def relays(sender: str, messages: Sequence[Message], powers: Sequence[str]) -> list[Relay]:
    return [Relay(i, to, m, ANONYMOUS if m.anonymous else sender)
            for i, m in enumerate(messages) for to in recipients(m, sender, powers)]


def relay_fields(game: str, turn: int, log_seq: int, relay: Relay) -> dict[str, Any]:
    """What the referee signs for one relayed message (never the sender of grey press)."""
    return {"game": game, "turn": turn, "log": log_seq, "index": relay.index,
            "from": relay.sender, "to": ",".join(relay.message.to),
            "text_sha256": hashlib.sha256(relay.message.text.encode("utf-8")).hexdigest()}


def sign_fields(key: PrivateKey, domain: str, payload_type: str, fields: Mapping[str, Any]) -> str:
    return key.sign(domain, payload_type, canonical.encode(dict(fields))).hex()


def signed_text(tag: str, fields: Mapping[str, Any], signature: str) -> str:
    """The referee's signed statement as text a player can keep (as receipts are)."""
    return (f"{tag} " + " ".join(f"{k}={fields[k]}" for k in sorted(fields))
            + f"\n sig={signature}")


def verify_relay(text: str, message_text: str, referee: PublicKey) -> dict[str, str]:
    """Check a relayed message's ``pbem-press`` statement (and that ``message_text`` is the
    text it covers) against the referee's public key; the fields, or PbemError."""
    tokens = text.replace(">", " ").split()
    try:
        start = tokens.index("pbem-press")
    except ValueError:
        raise PbemError("no pbem-press statement found") from None
    fields: dict[str, Any] = {}
    signature = ""
    for token in tokens[start + 1:]:
        name, eq, value = token.partition("=")
        if not eq:
            break
        if name == "sig":
            signature = value
            break
        number = digits(value) if name in ("turn", "log", "index") else None
        fields[name] = value if number is None else number
    want = {"game", "turn", "log", "index", "from", "to", "text_sha256"}
    if set(fields) != want or not signature:
        raise PbemError(f"the pbem-press statement must have {', '.join(sorted(want))} and sig")
    digest = hashlib.sha256(message_text.encode("utf-8")).hexdigest()
    if fields["text_sha256"] != digest:
        raise PbemError("the message text is not the one the referee signed")
    try:
        referee.verify(RELAY_DOMAIN, RELAY_TYPE, canonical.encode(fields),
                       bytes.fromhex(signature))
    except (BadSignature, ValueError):
        raise PbemError("the signature is not the referee's") from None
    return {k: str(v) for k, v in fields.items()}


# -- judging one block -----------------------------------------------------------------------------
def handle_press_block(root: Path, block: str, *, received: datetime, ring: Keyring,
                       message_id: str | None, reply: bool, now: datetime) -> Verdict:
    """Judge one press block from a message; relay it if it is accepted.

    A block whose signature or form fails is returned as a ``rejected`` verdict that is not
    verified (ingest tells the claimed power by code only, as for orders); a verified block with
    problems gets its own press rejection mail (verdict ``press-rejected``)."""
    opened = opening.open_block(root, block, lambda b: verify_press(b, ring, fingerprints=ring),
                                BEGIN, END, top_level=True, turn=lambda v: v.turn)
    if isinstance(opened, Verdict):
        return opened
    v, path = opened
    lock = leftovers.take(path, now)
    if lock is None:
        raise GameBusy(f"game {v.game} is busy; the message will be handled later")
    with lock:
        return _judge(path, v, received, message_id, reply, now)


def _judge(path: Path, v: VerifiedPress, received: datetime, message_id: str | None,
           reply: bool, now: datetime) -> Verdict:
    game = GameDir.open(path, repair_torn_tail=True)
    plugin = registry.load(game.config.game)
    state = replay.load_state(plugin, game).state
    powers = list(game.config.powers)
    ctx = notify.Context(game, plugin, referee_key(game.root)[0], received)
    outbox = Outbox(path / "outbox")
    for entry in reversed(game.log.entries):
        if entry.kind == replay.PRESS and entry.body.get("sha256") == v.sha256:
            # The same file again (a resent mail, or a retry after a crash): nothing is logged
            # or relayed twice; mails missing after a crash are queued (idempotent keys).
            _queue(ctx, outbox, entry, powers, message_id if reply else None, reply)
            return Verdict(Outcome.PRESS_DUPLICATE, v.game, v.power, v.turn)
    problems = _problems(game, plugin, state, v, powers)
    if problems:
        verdict = Verdict(Outcome.PRESS_REJECTED, v.game, v.power, v.turn, problems)
        if reply:
            mail = render_press.rejection(ctx.renderer, _player(game, v.power),
                                          {"game_id": game.game_id}, v.power, v.turn, problems)
            verdict.queued.append(outbox.queue(
                ctx.compose(game.config.powers[v.power].email, mail, kind="reply",
                            reply_to=message_id),
                key=f"press-rejection:{v.sha256}:{message_id}"))
        return verdict
    entry = game.log.append(replay.PRESS, max(now, received), press_body(v, received, message_id))
    failpoints.reached("after-press-append")
    verdict = Verdict(Outcome.PRESS, v.game, v.power, v.turn)
    verdict.queued.extend(_queue(ctx, outbox, entry, powers, message_id, reply))
    return verdict


def _problems(game: GameDir, plugin: Any, state: GameState, v: VerifiedPress,
              powers: list[str]) -> list[Problem]:
    mode = game.config.press
    if mode == "none":
        return [Problem("no-press", "press", f"game {v.game} has no press (config press: none): "
                        "nothing was relayed")]
    if plugin.is_over(state):
        return [Problem("game-over", "game", f"game {v.game} is over: no more press")]
    if (game.path / "STOPPED").exists():
        return [Problem("stopped", "game", f"game {v.game} is stopped by the referee")]
    problems: list[Problem] = []
    turn = plugin.orders_turn(state)
    if v.turn != turn:
        problems.append(Problem("turn", "turn", f"this press is for turn {v.turn}, but game "
                                f"{v.game} is at turn {turn}: write turn: {turn}"))
    for i, message in enumerate(v.messages):
        if message.anonymous and mode != "grey":
            problems.append(Problem("no-grey", f"press[{i}].anonymous", "this game allows only "
                                    "white press (config press: white): the sender is always "
                                    "named; remove anonymous: true"))
        if message.to_all:
            continue
        for j, name in enumerate(message.to):
            where = f"press[{i}].to" if len(message.to) == 1 else f"press[{i}].to[{j}]"
            if name not in powers:
                from pbem.protocol.envelope import did_you_mean

                problems.append(Problem("unknown-power", where, f"no power {name!r} in game "
                                        f"{v.game}{did_you_mean(name, powers)} (the powers: "
                                        f"{', '.join(powers)}, or all)"))
            elif name == v.power:
                problems.append(Problem("to-self", where, f"{name} is you: press goes to "
                                        "other powers"))
    sent = game.log.summary.press_counts(v.turn).get(v.power, 0)
    if sent + len(v.messages) > PRESS_PER_TURN:
        problems.append(Problem("press-limit", "press", f"{v.power} has sent {sent} press "
                                f"message(s) in turn {v.turn}; these {len(v.messages)} would "
                                f"pass the cap of {PRESS_PER_TURN} per power per turn: nothing "
                                "was relayed (more press next turn)"))
    return problems


def _player(game: GameDir, power: str) -> PlayerInfo:
    entry = game.config.powers[power]
    return {"email": entry.email, "tz": entry.tz, "name": power.capitalize()}


def _queue(ctx: notify.Context, outbox: Outbox, entry: Entry, powers: list[str],
           reply_to: str | None, reply: bool) -> list[str]:
    """Queue every relay of a logged press entry, and the sender's receipt (if answering)."""
    body = entry.body
    game = ctx.game
    sender, turn = str(body["power"]), int(body["turn"])
    messages = messages_from_data(body["messages"])
    out = []
    info: MailFacts = {"game_id": game.game_id}
    for relay in relays(sender, messages, powers):
        fields = relay_fields(game.game_id, turn, entry.seq, relay)
        sig = signed_text("pbem-press", fields,
                          sign_fields(ctx.referee, RELAY_DOMAIN, RELAY_TYPE, fields))
        mail = render_press.relay(ctx.renderer, _player(game, relay.recipient), info,
                                  recipient=relay.recipient, sender=relay.sender, turn=turn,
                                  to=list(relay.message.to), text=relay.message.text,
                                  signature=sig)
        key = f"press:{body['sha256']}:{relay.index}:{relay.recipient}"
        out.append(outbox.queue(ctx.compose(game.config.powers[relay.recipient].email, mail,
                                            kind="report"), key=key))
    if reply:
        fields = {"game": game.game_id, "power": sender, "turn": turn,
                  "sha256": body["sha256"], "received": body["received"]}
        sig = signed_text("pbem-press-receipt", fields,
                          sign_fields(ctx.referee, RECEIPT_DOMAIN, RECEIPT_TYPE, fields))
        sent = [{"to": recipients(m, sender, powers), "all": m.to_all,
                 "anonymous": m.anonymous, "text": m.text} for m in messages]
        mail = render_press.receipt(ctx.renderer, _player(game, sender), info, power=sender,
                                    turn=turn, messages=sent, signature=sig)
        out.append(outbox.queue(ctx.compose(game.config.powers[sender].email, mail,
                                            kind="reply", reply_to=reply_to),
                                key=f"press-receipt:{body['sha256']}"))
    return out


__all__ = ["ALL", "PRESS_PER_TURN", "handle_press_block", "verify_relay"]
