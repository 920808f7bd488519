"""``pbem audit FILE|GAMEDIR [--checkpoint TEXT_OR_FILE …]``: verify a whole game."""

from __future__ import annotations

import argparse
from pathlib import Path

from pbem import atomic
from pbem.audit import audit_path
from pbem.cli import commands


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "audit",
        description="Verify the hash chain from genesis, every order file's signature against "
        "the key registered for its power at the time, the game's own checks of its orders "
        "(4000 A.D.: every commitment and arrival), each fair-chance value on its chain, that "
        "every resolution used exactly the latest order file accepted from each power due "
        "(or the standing orders where none was), every resolution by replaying it with the "
        "rules core, every game-master signature, the export's checkpoint and each checkpoint "
        "given. Exit 0 with a summary, 1 naming the first entry that disagrees, or 3 when "
        "nothing disagrees but the game is over and its referee never revealed the secret K of "
        "its fair chance, so its hidden draws (shuffles, face-down deals) remain unproven; a "
        "game still running passes with its hidden draws 'not yet provable' (see "
        "docs/audit.md). To prove with your receipt mail that your own order file was used "
        "or dropped: pbem verify-receipt RECEIPT --log FILE|GAMEDIR.",
    )
    p.add_argument("source", type=Path, metavar="FILE|GAMEDIR",
                   help="a file written by pbem export, a game directory or a log.jsonl")
    p.add_argument("--checkpoint", action="append", default=[], metavar="TEXT_OR_FILE",
                   help="a checkpoint kept from a report mail: its two lines, a file "
                   "holding them (the mail's checkpoint.txt) or the saved mail itself "
                   "(report.eml); the log must extend it. Repeatable")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    report = audit_path(args.source, [_checkpoint_text(c) for c in args.checkpoint])
    for line in report.lines():
        print(line)
    return report.exit_status


def _checkpoint_text(text_or_file: str) -> str:
    """A --checkpoint that names a file becomes the file's text here, so a binary or unreadable
    file is a one-line error naming it (the audit parses the text); a saved report mail gives
    the checkpoint it carries (its text part, or its checkpoint.txt)."""
    from pbem.cli.savedmail import checkpoint_texts, is_mail
    from pbem.errors import UsageError
    from pbem.store.checkpoint import TAG

    path = Path(text_or_file).expanduser()
    if TAG in text_or_file:
        return text_or_file
    if not path.is_file():
        raise UsageError(f"--checkpoint {text_or_file}: no such file, and not a checkpoint's "
                         f"text (its two lines start {TAG} game=…): give the checkpoint.txt a "
                         "report mail carries, the saved mail itself, or the two lines")
    text = atomic.read_text(path, "the checkpoint file")
    if TAG in text and not is_mail(text.encode()):
        return text
    found = checkpoint_texts(path.read_bytes()) if is_mail(text.encode()) else []
    if not found:
        raise UsageError(f"--checkpoint {path}: holds no checkpoint (no {TAG} line): give the "
                         "checkpoint.txt a report mail carries, or the saved mail itself")
    return found[-1]
