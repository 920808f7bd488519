"""``pbem ingest ROOT``: read order mail from stdin (an MTA pipe), a Maildir, an mbox or IMAP."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pbem.cli import commands
from pbem.cli.commands import existing_root, now_from
from pbem.errors import PbemError
from pbem.host import ingest
from pbem.mail.errors import TransientMailError
from pbem.mail.sources import MaildirSource, MboxSource, Source, StdinSource

EX_TEMPFAIL = 75


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "ingest",
        description="Store every incoming message, find the signed order blocks in it, accept "
        "or reject each (a receipt or the list of problems goes to the power's registered "
        "address), and acknowledge the message. Unhandleable mail is quarantined with its "
        "reason under ROOT/quarantine. For a .forward pipe use --stdin: a transient failure "
        "exits 75 so the mail server retries.",
    )
    p.add_argument("root", type=Path, metavar="ROOT", help="directory holding the games")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--stdin", action="store_true", help="one message on standard input")
    src.add_argument("--maildir", type=Path, help="a Maildir (new/ is moved to cur/ once handled)")
    src.add_argument("--mbox", type=Path, help="an mbox file (read-only; handled ids remembered)")
    src.add_argument("--imap", action="store_true",
                     help="the IMAP mailbox configured in ROOT/mail.yaml")
    p.add_argument("--now", metavar="TIMESTAMP", help="pretend it is this UTC time")
    p.set_defaults(func=run)


def _source(args: argparse.Namespace) -> Source:
    if args.stdin:
        return StdinSource(sys.stdin.buffer)
    if args.maildir:
        return MaildirSource(args.maildir)
    if args.mbox:
        state = args.root / "inbox" / f"mbox-{args.mbox.name}.handled"
        state.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        return MboxSource(args.mbox, state)
    from pbem.mail import config  # (IMAP and the transports: only for --imap)

    return config.imap_source(args.root)


def run(args: argparse.Namespace) -> int:
    existing_root(args.root)
    try:
        source = _source(args)
        try:
            report = ingest.ingest(args.root, source, now_from(args.now))
        finally:
            source.close()
    except TransientMailError as exc:
        print(f"pbem ingest: {exc} (try again later)", file=sys.stderr)
        return EX_TEMPFAIL
    except (OSError, PbemError) as exc:
        if args.stdin:  # the MTA keeps the message and retries
            print(f"pbem ingest: {exc}", file=sys.stderr)
            return EX_TEMPFAIL
        raise
    for line in report.lines():
        print(line)
    return 0
