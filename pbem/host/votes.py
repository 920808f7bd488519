"""Players' votes: a signed vote block found in a player's mail is judged, recorded, told to every
player and the game master, and acted on when it carries (docs/operations.md, "Votes").

raw block → ``verify_vote`` (signature first, domain ``pbem-vote-v1``) → the game it names →
under the game's lock: the game not over, the seq higher than any vote file of that power → a
``gm`` entry ``op: vote`` (the signed block as verified, signed again by the referee) → a notice
to every player and the GM → the tally of that kind. When it carries (unanimous among the powers
still in the game unless config ``votes:`` says ``majority``; ``concede`` needs its sender
alone) the act is the game master's own operation (pbem.host.gmops: ``end`` for a draw,
``cancel``, ``pause``, ``resume``, ``concede``) logged with ``votes``: the log seqs of the votes
that made it, which the audit checks (pbem.audit._votes).

A vote stands until the act of its kind is taken (then every vote of that kind is spent) or its
power withdraws it with a later file (``withdraw: true``).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem import atomic
from pbem.errors import Problem, Rejected
from pbem.game import registry
from pbem.host import gmops, notify, opening, rootindex
from pbem.host.accept import GameBusy, Keyring, Outcome, Verdict
from pbem.mail.outbox import Outbox
from pbem.protocol import orderdoc
from pbem.protocol.votedoc import BEGIN, END, VerifiedVote, verify_vote
from pbem.render.environment import RenderedMail
from pbem.store import prefs, replay
from pbem.store.gameconfig import CONFIG_NAME, GameConfig
from pbem.store.gamedir import GameDir
from pbem.store.lock import Busy
from pbem.store.log import Entry
from pbem.store.prefs import Prefs
from pbem.store.referee import referee_key

if TYPE_CHECKING:
    from pbem.game.shapes import GameState
    from pbem.store.records import LogBody

VOTE_OP = "vote"
PREFS_OP = "prefs"
SIGNED_OPS = (VOTE_OP, PREFS_OP)  # one seq per power across both
#: The game master's operation each vote kind makes.
ACTS = {"draw": "end", "cancel": "cancel", "pause": "pause", "resume": "resume",
        "concede": "concede"}
WORDS = {"draw": "a draw (the game ends now, with a shared result)",
         "cancel": "cancelling the game (it ends now, with no winner)", "pause": "a pause",
         "resume": "resuming the game", "concede": "conceding"}


class _Duplicate(Exception):
    """The same vote file is logged already (at log seq ``seq``)."""

    def __init__(self, seq: int) -> None:
        super().__init__(seq)
        self.seq = seq


@dataclass(frozen=True, slots=True)
class Tally:
    """Where a vote of one kind stands: who may vote, who is for it (with their entries)."""

    kind: str
    rule: str
    voters: tuple[str, ...]
    yes: Mapping[str, int]  # power -> log seq of its standing vote

    @property
    def carried(self) -> bool:
        if not self.voters:
            return False
        count = sum(1 for p in self.voters if p in self.yes)
        if self.rule == "majority":
            return count * 2 > len(self.voters)
        return count == len(self.voters)

    def line(self) -> str:
        need = "a majority" if self.rule == "majority" else "every player still in the game"
        waiting = [p for p in self.voters if p not in self.yes]
        text = (f"{len(self.yes)} of {len(self.voters)} for it"
                + (f" ({', '.join(sorted(self.yes))})" if self.yes else "") + f"; it needs {need}")
        if self.carried:
            return text + ": carried"
        return text + (f"; not yet voted for it: {', '.join(waiting)}" if waiting else "")


def vote_entries(entries: Sequence[Entry], ops: tuple[str, ...] = (VOTE_OP,)) -> list[Entry]:
    """The ``gm`` entries of players' signed files: votes (or, with ``ops``, prefs too)."""
    return [e for e in entries if e.kind == replay.GM and e.body.get("op") in ops]


def in_game(entries: Sequence[Entry], powers: Sequence[str]) -> list[str]:
    """The powers that may vote: every power but those that conceded."""
    gone = {str(e.body.get("power")) for e in entries
            if e.kind == replay.GM and e.body.get("op") == "concede"}
    return [p for p in powers if p not in gone]


def tally(entries: Sequence[Entry], kind: str, powers: Sequence[str], rule: str,
          sender: str | None = None) -> Tally:
    """The standing votes of ``kind`` after its last act: each power's latest vote file counts
    unless it withdrew. ``concede`` is the sender's alone (``sender``)."""
    start = 0
    for i, e in enumerate(entries):
        if e.kind == replay.GM and e.body.get("vote") == kind and e.body.get("votes"):
            start = i + 1
    latest: dict[str, Entry] = {}
    for e in vote_entries(entries[start:]):
        if e.body.get("kind") == kind:
            latest[str(e.body["power"])] = e
    voters = (sender,) if kind == "concede" and sender else tuple(in_game(entries, powers))
    yes = {p: e.seq for p, e in latest.items() if p in voters and not e.body.get("withdraw")}
    return Tally(kind, "unanimous" if kind == "concede" else rule, voters, yes)


def last_seq(entries: Sequence[Entry], power: str) -> int | None:
    seqs = [int(e.body["seq"]) for e in vote_entries(entries, SIGNED_OPS)
            if e.body.get("power") == power]
    return max(seqs) if seqs else None


def vote_body(v: VerifiedVote, received: datetime) -> dict[str, Any]:
    from pbem.schedule import to_iso

    what = {"kind": v.vote, "withdraw": v.withdraw} if v.vote else {"prefs": dict(v.prefs or {})}
    return {"power": v.power, **what, "seq": v.seq, "sha256": v.sha256,
            "key": v.key_fingerprint, "text": v.block, "received": to_iso(received)}


# -- judging one block -----------------------------------------------------------------------------
def handle_vote_block(root: Path, block: str, *, received: datetime, ring: Keyring,
                      now: datetime) -> Verdict:
    """Judge one vote block from a message; record it, tell everyone, act if it carries.

    A block whose signature or form fails is a ``rejected`` verdict that is not verified (ingest
    tells the claimed power by code only); a verified vote that cannot stand is ``rejected``
    with its problems (ingest mails them to the power)."""
    opened = opening.open_block(root, block, lambda b: verify_vote(b, ring, fingerprints=ring),
                                BEGIN, END)
    if isinstance(opened, Verdict):
        return opened
    v, path = opened
    try:
        if v.vote is None:
            return _prefs(path, v, max(now, received), vote_body(v, received))
        done = gmops.vote(path, max(now, received), vote_body(v, received), _check(v))
    except _Duplicate as dup:
        # The same file again (a resent mail, or a retry after a crash or a busy game between
        # the vote and its act): the notices missing are queued (idempotent keys) and a vote
        # that carried but was not acted on yet is acted on now.
        if v.vote is not None:
            _after(path, v, v.vote, dup.seq, max(now, received))
        return Verdict(Outcome.VOTE_DUPLICATE, v.game, v.power, sha256=v.sha256)
    except Rejected as exc:
        return Verdict(Outcome.REJECTED, v.game, v.power, None, exc.problems, sha256=v.sha256)
    except gmops.GMError as exc:
        return Verdict(Outcome.REJECTED, v.game, v.power, None,
                       [Problem("game-over", "game", str(exc))], sha256=v.sha256)
    except Busy:
        raise GameBusy(f"game {v.game} is busy; the message will be handled later") from None
    verdict = Verdict(Outcome.VOTE, v.game, v.power, sha256=v.sha256)
    verdict.queued.extend(_after(path, v, v.vote, done.entry_seq, max(now, received)))
    return verdict


def _prefs(path: Path, v: VerifiedVote, now: datetime, body: LogBody) -> Verdict:
    """A prefs file: checked, logged, written to config.yaml, confirmed to the player."""
    got, problems = prefs.parse(v.prefs, "prefs")
    if problems:
        raise Rejected(problems)

    def write(game: GameDir) -> None:
        old = game.config.prefs.get(v.power, Prefs())
        merged = old.replace(**{k: getattr(got, k) for k in prefs.KEYS
                                if getattr(got, k) is not None})
        config = game.config.replace(prefs={**game.config.prefs, v.power: merged})
        text = config.to_yaml()
        GameConfig.from_yaml(text, str(game.path / CONFIG_NAME))  # refuses before writing
        atomic.write_text(game.path / CONFIG_NAME, text)
        rootindex.forget(game.path.parent, game.path.name)

    done = gmops.set_prefs(path, now, body, _check(v), write)
    game = GameDir.open(path)
    mine = game.config.prefs.get(v.power, Prefs())
    text = (f"Your settings in game {game.game_id} ({v.power.capitalize()}), from your prefs "
            f"file seq {v.seq} (log entry {done.entry_seq}): {mine.line()}.\n")
    mail = RenderedMail(f"[{game.game_id}] your settings", text,
                        "<pre>" + html.escape(text) + "</pre>")
    ctx = notify.Context(game, registry.load(game.config.game), referee_key(game.root)[0], now)
    verdict = Verdict(Outcome.VOTE, v.game, v.power, sha256=v.sha256)
    verdict.queued.append(Outbox(path / "outbox").queue(
        ctx.compose(game.config.powers[v.power].email, mail, kind="reply"),
        key=f"prefs:{game.game_id}:{done.entry_seq}"))
    return verdict


def _check(v: VerifiedVote) -> Any:
    def check(game: GameDir, plugin: Any, state: GameState) -> None:
        entries = game.log.entries
        for e in vote_entries(entries, SIGNED_OPS):
            if e.body.get("sha256") == v.sha256:
                raise _Duplicate(e.seq)
        problems = []
        last = last_seq(entries, v.power)
        if not orderdoc.replaces(v.seq, last):
            problems.append(Problem("seq", "seq", f"seq {v.seq} is not higher than {last}, the "
                                    f"seq of {v.power}'s last vote file: write seq: {last + 1}"
                                    if last is not None else f"seq {v.seq} was used already"))
        if v.power not in in_game(entries, list(game.config.powers)):
            problems.append(Problem("conceded", "power", f"{v.power} has conceded: it votes "
                                    "no more"))
        if v.vote is None:
            if problems:
                raise Rejected(problems)
            return
        paused = game.log.summary.clock().paused
        if v.vote == "pause" and paused and not v.withdraw:
            problems.append(Problem("paused", "vote", f"game {v.game} is paused already"))
        if v.vote == "resume" and not paused and not v.withdraw:
            problems.append(Problem("not-paused", "vote", f"game {v.game} is not paused"))
        if problems:
            raise Rejected(problems)
    return check


def _after(path: Path, v: VerifiedVote, kind: str, seq: int, now: datetime) -> list[str]:
    """Tell every player and the GM of the vote just logged at ``seq``; act if it carried."""
    game = GameDir.open(path)
    plugin = registry.load(game.config.game)
    entries = game.log.entries
    t = tally(entries, kind, list(game.config.powers), game.config.vote_rule(kind), v.power)
    what = "withdrew its vote for" if v.withdraw else "voted for"
    text = (f"In game {game.game_id}, {v.power.capitalize()} {what} {WORDS[kind]} "
            f"(vote file seq {v.seq}, log entry {seq}).\n\n{t.line()}.\n")
    if t.carried and not v.withdraw:
        text += f"\nThe vote carried: the referee now makes it so ({ACTS[kind]}).\n"
    queued = _tell(game, plugin, seq, f"[{game.game_id}] vote: {v.power} {what} {kind}", text,
                   now)
    if t.carried and not v.withdraw:
        try:
            act(path, kind, v.power, sorted(t.yes.values()), now, t.rule)
        except gmops.GMError:
            pass  # over already (another vote's act came first): nothing left to do
        except Busy:  # the mail is handled again later: its vote is a duplicate, then acted on
            raise GameBusy(f"game {v.game} is busy; the vote is acted on later") from None
    return queued


def act(path: Path, kind: str, sender: str, seqs: Sequence[int], now: datetime,
        rule: str = "unanimous") -> gmops.Done:
    """The game master's operation a carried vote makes, logged with the votes that made it
    and the rule they met."""
    if kind == "draw":
        return gmops.end(path, now, "draw agreed by the players' vote", votes=seqs, rule=rule)
    if kind == "cancel":
        return gmops.cancel(path, now, "cancelled by the players' vote", votes=seqs, rule=rule)
    if kind == "pause":
        return gmops.pause(path, now, "paused by the players' vote", votes=seqs, rule=rule)
    if kind == "resume":
        return gmops.resume(path, now, votes=seqs, rule=rule)
    return gmops.concede(path, now, sender, votes=seqs)


def _tell(game: GameDir, plugin: Any, seq: int, subject: str, text: str,
          now: datetime) -> list[str]:
    ctx = notify.Context(game, plugin, referee_key(game.root)[0], now)
    outbox = Outbox(game.path / "outbox")
    mail = RenderedMail(subject, text, "<pre>" + html.escape(text) + "</pre>")
    to = [p["email"] for p in ctx.players().values()] + ([game.config.gm] if game.config.gm
                                                         else [])
    return [outbox.queue(ctx.compose(address, mail, kind="report"),
                         key=f"vote-notice:{game.game_id}:{seq}:{address.lower()}")
            for address in to]


__all__ = ["ACTS", "Tally", "act", "handle_vote_block", "tally"]
