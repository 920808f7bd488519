"""``pbem gm …``: game-master operations, each logged and signed by the referee key."""

from __future__ import annotations

import argparse
from pathlib import Path

from pbem import atomic
from pbem.cli import commands
from pbem.cli.commands import existing_root, now_from
from pbem.errors import UsageError
from pbem.host import gmops
from pbem.mail.inbox import Inbox
from pbem.store.gameconfig import CONFIG_NAME, DIGESTS, GameConfig
from pbem.store.gamedir import GameDir, read_public_key
from pbem.store.lock import locked


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "gm",
        description="Game-master operations. Every change is a log entry signed by the referee "
        "key, so players and auditors see it.",
    )
    ops = p.add_subparsers(dest="op", metavar="OPERATION", required=True)

    def op(name: str, text: str) -> argparse.ArgumentParser:
        q = ops.add_parser(name, help=text, description=text)
        q.add_argument("gamedir", type=Path, metavar="GAMEDIR")
        q.add_argument("--now", metavar="TIMESTAMP", help="pretend it is this UTC time")
        return q

    op("status", "what the game waits for: deadline, orders in, missed turns, mail trouble")
    q = op("pause", "stop resolving turns until resume")
    q.add_argument("--reason", default="", help="shown in the log")
    op("resume", "resume a paused game with a fresh deadline counted from now")
    q = op("extend", "move the current deadline later")
    q.add_argument("--to", metavar="TIMESTAMP", help="the new deadline (UTC, ISO 8601)")
    q.add_argument("--by", metavar="DURATION", help="how much later, e.g. 24h")
    q = op("replace", "a new player (address and key) takes over a power")
    q.add_argument("power")
    q.add_argument("--email", required=True)
    q.add_argument("--key", required=True, help="the new player's .pub file or key text")
    q = op("autopilot", "an abandoned seat plays by its standing orders (or the game's default "
                        "answer) and no step waits for it, until its player sends orders again")
    q.add_argument("power")
    q = op("concede", "a power concedes (on its player's request)")
    q.add_argument("power")
    q = op("end", "end the game now by agreement: the game's own rule for an agreed end "
                  "decides the result (its RULES.md or docs/rules.md)")
    q.add_argument("--reason", default="ended by agreement")
    q = op("cancel", "end the game now with no winner: the result says cancelled")
    q.add_argument("--reason", default="cancelled")
    q = op("digest", "how often a power's player hears of steps not mailed to him (a step "
                     "whose window mails only some players): every-step, daily or when-due")
    q.add_argument("power")
    q.add_argument("pace", choices=DIGESTS,
                   help="every-step: a report after every step (the default); daily: one "
                   "digest a day at most; when-due: one digest when the power is due")
    q = ops.add_parser(
        "quarantine", help="list the messages in ROOT/quarantine and why each is there",
        description="List every quarantined message of the root (its id and the reason).")
    q.add_argument("gamedir", type=Path, metavar="ROOT", help="the directory holding the games")
    q = ops.add_parser(
        "release", help="move a quarantined message back to the inbox to be handled again",
        description="Move a quarantined message (by its id or a unique prefix, as `pbem gm "
        "quarantine` shows it) back into ROOT/inbox with a fresh attempt count; the next "
        "`pbem run` or `pbem ingest` handles it. Release only what you have read and fixed "
        "the cause of: a message that fails again is quarantined again.")
    q.add_argument("gamedir", type=Path, metavar="ROOT", help="the directory holding the games")
    q.add_argument("message", metavar="ID", help="the message id (sha256, or a unique prefix)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.op in ("quarantine", "release"):
        return _quarantine_op(args)
    now = now_from(args.now)
    path: Path = args.gamedir
    if args.op == "status":
        for line in gmops.status(path, now):
            print(line)
        return 0
    if args.op == "digest":
        print(f"digest: {set_digest(path, args.power, args.pace)}")
        return 0
    if args.op == "pause":
        done = gmops.pause(path, now, args.reason)
    elif args.op == "resume":
        done = gmops.resume(path, now)
    elif args.op == "extend":
        done = gmops.extend(path, now, to=args.to, by=args.by)
    elif args.op == "replace":
        done = gmops.replace(path, now, args.power, args.email, read_public_key(args.key))
    elif args.op == "concede":
        done = gmops.concede(path, now, args.power)
    elif args.op == "autopilot":
        done = gmops.autopilot(path, now, args.power)
    elif args.op == "cancel":
        done = gmops.cancel(path, now, args.reason)
    else:
        done = gmops.end(path, now, args.reason)
    print(f"{args.op}: {done.summary}")
    return 0


def _quarantine_op(args: argparse.Namespace) -> int:
    inbox = Inbox(existing_root(args.gamedir))
    if args.op == "quarantine":
        found = inbox.quarantined()
        for sha, reason in found:
            print(f"{sha[:16]}  {reason}")
        print(f"{len(found)} quarantined message(s) under {inbox.quarantine_dir}")
        return 0
    try:
        target = inbox.release(args.message)
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    print(f"release: {target.name} is back in the inbox; the next pbem run handles it")
    return 0


def set_digest(path: Path, power: str, pace: str) -> str:
    """``power``'s digest pace in config.yaml, written under the game's lock once the new
    config reads back (pbem.host.mailpolicy reads it at the next resolution)."""
    with locked(path):
        config = GameDir.open(path).config
        entry = config.powers.get(power)
        if entry is None:
            raise UsageError(f"no power {power!r} in this game "
                             f"(powers: {', '.join(config.powers)})")
        powers = {**config.powers, power: entry.replace(digest=pace)}
        text = config.replace(powers=powers).to_yaml()
        GameConfig.from_yaml(text, str(path / CONFIG_NAME))  # raises: nothing written
        atomic.write_text(path / CONFIG_NAME, text)
    return f"{power} now hears of steps not mailed to him: {pace}"
