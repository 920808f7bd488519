"""``pbem vote KIND --game G --power P --key KEY``: a player's signed vote (docs/protocol.md,
"Votes"; docs/operations.md, "Votes")."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from pbem.cli import commands
from pbem.errors import PbemError, Rejected
from pbem.numbers import whole_arg
from pbem.protocol import orderfile
from pbem.protocol.keys import PrivateKey
from pbem.protocol.votedoc import KINDS, prefs_text, sign_vote, vote_text
from pbem.store import prefs


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "vote",
        description="Vote, as the player of a power, for an act of the whole game: draw (end "
        "the game now with a shared result), cancel (end it now with no winner), pause, "
        "resume, or concede (your power alone). "
        "Prints a signed vote block: paste it into a mail to the referee. A vote acts when "
        "every player still in the game has voted for it (or a majority, if the game's config "
        "says so); concede acts at once. Withdraw a vote with --withdraw. `pbem vote prefs "
        "--set KEY=VALUE ...` signs your own settings instead (reminder lead, quiet hours, "
        "time zone, digest pace): the referee replies with them as they now stand.")
    p.add_argument("kind", choices=(*KINDS, "prefs"),
                   help="what you vote for; prefs: sign your own settings instead (--set)")
    p.add_argument("--game", required=True, metavar="GAME", help="the game id")
    p.add_argument("--power", required=True, metavar="POWER", help="your power")
    p.add_argument("--key", required=True, type=Path, metavar="KEY", help="your private key")
    p.add_argument("--seq", type=whole_arg, metavar="N",
                   help="the file's sequence number, higher than any vote you sent before "
                   "(default: the current Unix time in seconds)")
    p.add_argument("--withdraw", action="store_true",
                   help="take back your vote of this kind")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="prefs",
                   help="with prefs: one of your settings (reminder=12h, quiet=22:00-07:00, "
                   "tz=Europe/Paris, digest=every-step|daily|when-due, tell_when_due=true); "
                   "repeat for more")
    p.add_argument("-o", "--output", type=Path, metavar="OUT",
                   help="write the block here instead of printing it")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    seq = args.seq if args.seq is not None else int(time.time())
    if seq < 1:
        raise PbemError("--seq must be 1 or more")
    if args.kind == "prefs":
        if not args.prefs or args.withdraw:
            raise PbemError("prefs takes --set KEY=VALUE (one or more) and no --withdraw")
        text = prefs_text(args.game, args.power, seq, _settings(args.prefs))
    elif args.prefs:
        raise PbemError("--set goes with prefs, not with a vote")
    else:
        text = vote_text(args.game, args.power, seq, args.kind, args.withdraw)
    armored = sign_vote(text, PrivateKey.load(args.key))
    orderfile.hand_out(args.output, armored, "pasted into your mail")
    return 0


def _settings(pairs: list[str]) -> dict[str, str | bool]:
    """``KEY=VALUE`` pairs as a prefs mapping (``true``/``false`` as booleans); the referee
    checks them again (pbem.store.prefs), as this does before signing."""
    out: dict[str, str | bool] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise PbemError(f"--set {pair!r}: give KEY=VALUE, like reminder=12h")
        text = value.strip()
        out[key.strip()] = {"true": True, "false": False}.get(text, text)
    _, problems = prefs.parse(out, "prefs")
    if problems:
        raise Rejected(problems)
    return out
