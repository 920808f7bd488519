"""``pbem dice``: re-check a step's public dice from a report, or roll a labelled stream."""

from __future__ import annotations

import argparse
import email
import re
from email import policy
from pathlib import Path

from pbem.chance.errors import ChanceError
from pbem.chance.published import find_blocks, verify_block
from pbem.chance.stream import Stream
from pbem.cli import commands
from pbem.numbers import digits, whole_arg

MAX_INPUT = 20 * 1024 * 1024  # a report is far smaller; refuse to read a disk image by mistake
MAX_ROLLS = 100_000  # rolls printed by one `pbem dice roll` (more is a typo, not a check)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "dice",
        description="Re-check the public chance of a step from the inputs its report publishes.",
    )
    dice = p.add_subparsers(dest="dice_command", metavar="SUBCOMMAND", required=True)
    v = dice.add_parser(
        "verify",
        help="recompute a step's public draws from a report mail or a step JSON file",
        description="Recompute the public seed and every public draw of each chance block in "
        "FILE (a report .eml, or the chance-step-N.json attached to it) and print one line "
        "per block. Exits 1 at the first draw that differs, naming it.",
    )
    v.add_argument("file", metavar="FILE", type=Path, help="REPORT.eml or STEP.json")
    v.add_argument("--referee-tip", metavar="HEX|WELCOME.eml",
                   help="the referee_tip from the game's genesis, to check the referee's value "
                   "against: 64 hex digits, or the welcome mail (saved) that gave it (the "
                   "block's own tips are checked in any case)")
    v.set_defaults(func=run_verify)
    r = dice.add_parser(
        "roll",
        help="roll dice on one labelled stream of a given seed",
        description="Print COUNT rolls of a die with FACES from the stream LABEL of the seed "
        "SEED (64 hex digits, e.g. a step's public seed), one line, space-separated.",
    )
    r.add_argument("--seed-hex", required=True, metavar="SEED", help="the seed, 64 hex digits")
    r.add_argument("--label", required=True, help="the stream's label")
    r.add_argument("--faces", default="1,2,3,4,5,6", help="comma-separated faces "
                   "(default: 1,2,3,4,5,6)")
    r.add_argument("--count", type=whole_arg, default=1, help="how many rolls (default: 1)")
    r.set_defaults(func=run_roll)


def run_verify(args: argparse.Namespace) -> int:
    path: Path = args.file
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_INPUT + 1)
    except OSError as exc:
        raise ChanceError(f"{path}: {exc.strerror}") from None
    if len(raw) > MAX_INPUT:
        raise ChanceError(f"{path}: larger than {MAX_INPUT // (1024 * 1024)} MiB: not a report")
    tip = None
    if args.referee_tip is not None:
        tip = _referee_tip(args.referee_tip)
    for block in find_blocks(raw, str(path)):
        print(verify_block(block, referee_tip=tip).line())
    return 0


_TIP_LINE = re.compile(rb"referee_tip[\"']?\s*[:=]\s*[\"']?([0-9a-f]{64})")


def _referee_tip(text: str) -> bytes:
    """``--referee-tip``: 64 hex digits, or a saved welcome mail whose FAIR CHANCE part gives
    ``referee_tip: HEX``."""
    if re.fullmatch(r"[0-9a-fA-F]{64}", text):
        return bytes.fromhex(text)
    path = Path(text)
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_INPUT)
    except OSError:
        raise ChanceError("--referee-tip: must be 64 hex digits or the welcome mail that "
                          f"gives it ({text}: no such file)") from None
    texts = [raw]
    if raw.lstrip()[:1].isalpha():  # a mail: its decoded text parts (base64, quoted-printable)
        msg = email.message_from_bytes(raw, policy=policy.default)
        texts += [p for p in (part.get_payload(decode=True) for part in msg.walk()
                              if part.get_content_maintype() == "text") if isinstance(p, bytes)]
    found = next((m for m in map(_TIP_LINE.search, texts) if m is not None), None)
    if found is None:
        raise ChanceError(f"--referee-tip: {text} gives no referee_tip (save the welcome mail "
                          "of the game, whose FAIR CHANCE part carries it)")
    return bytes.fromhex(found.group(1).decode())


def _seed(text: str, option: str) -> bytes:
    if not re.fullmatch(r"[0-9a-fA-F]{64}", text):
        raise ChanceError(f"{option}: must be 64 hex digits")
    return bytes.fromhex(text)


def run_roll(args: argparse.Namespace) -> int:
    seed = _seed(args.seed_hex, "--seed-hex")
    found = [digits(f.strip().removeprefix("-")) for f in args.faces.split(",")]
    if any(n is None for n in found):
        raise ChanceError(f"--faces: {args.faces[:60]!r} is not a comma-separated list of whole "
                          "numbers")
    faces = [-n if f.strip().startswith("-") else n
             for f, n in zip(args.faces.split(","), found, strict=True) if n is not None]
    if args.count > MAX_ROLLS:
        raise ChanceError(f"--count: at most {MAX_ROLLS:,} rolls, not {args.count:,}")
    rolls = Stream(seed, args.label).roll(faces, args.count)
    print(" ".join(str(x) for x in rolls))
    return 0
