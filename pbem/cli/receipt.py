"""``pbem verify-receipt RECEIPT [--log EXPORT|GAMEDIR] [--referee-key KEY]``: a player's proof."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pbem.audit import AuditFailure, audit_bytes, read_source, verified_records
from pbem.audit.receipts import check
from pbem.cli import commands
from pbem.errors import PbemError
from pbem.protocol.keys import KeyError_, PublicKey
from pbem.protocol.receipt import ReceiptError, read
from pbem.store.log import Entry


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "verify-receipt",
        description="Verify the referee's signature on a receipt (the saved receipt mail, .eml, "
        "or the signed 'pbem-receipt …' text), print what it attests (game, power, turn, seq, "
        "the order file's sha256), and with --log say whether the resolution of that turn used "
        "the order file, was superseded by a later one of yours, or dropped it (naming the "
        "resolution). Exit 0 if used or not yet resolved, 1 on a dropped order, a bad "
        "signature or a log that fails its audit (see docs/audit.md).",
    )
    p.add_argument("receipt", metavar="RECEIPT",
                   help="the saved receipt mail (.eml) or a file holding the signed text; - "
                   "reads standard input")
    p.add_argument("--log", type=Path, metavar="EXPORT|GAMEDIR",
                   help="the game's export (pbem export, full or --public) or game directory; "
                   "its genesis entry holds the referee key")
    p.add_argument("--referee-key", metavar="KEY",
                   help="the referee's public key (a .pub file or its text); needed without "
                   "--log, checked against the log's key with it")
    p.set_defaults(func=run)


def _bytes(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(name).expanduser().read_bytes()
    except OSError as exc:
        raise ReceiptError(f"{name}: cannot read ({exc.strerror})") from None


def _key(text: str) -> PublicKey:
    path = Path(text).expanduser()
    try:
        return PublicKey.load(path) if path.is_file() else PublicKey.parse(text)
    except KeyError_ as exc:
        raise ReceiptError(f"--referee-key: {exc}") from None


def run(args: argparse.Namespace) -> int:
    receipt = read(_bytes(args.receipt))
    given = _key(args.referee_key) if args.referee_key else None
    if args.log is None:
        if given is None:
            raise ReceiptError("give --log EXPORT|GAMEDIR (its genesis entry holds the referee "
                               "key) or --referee-key KEY to check the receipt's signature")
        receipt.verify(given)
        print(f"receipt signed by the referee (key {given.fingerprint}): {receipt.attests()}")
        print("give --log EXPORT|GAMEDIR to check that the resolution of its turn used it")
        return 0
    data, source = read_source(args.log)
    records, _ = verified_records(data, source)
    genesis = records[0]
    try:
        referee = PublicKey.parse(str(genesis.body["referee"]))  # type: ignore[union-attr]
        game = str(genesis.body["game_id"])  # type: ignore[union-attr]
    except (PbemError, KeyError, TypeError):
        raise ReceiptError(f"{source}: its genesis entry names no referee key") from None
    assert isinstance(genesis, Entry)
    if given is not None and given != referee:
        raise ReceiptError(f"{source} was started with referee key {referee.fingerprint}, not "
                           f"the key {given.fingerprint} you gave")
    if receipt.game != game:
        raise ReceiptError(f"the receipt is for game {receipt.game}, {source} is game {game}")
    receipt.verify(referee)
    print(f"receipt signed by the referee (key {referee.fingerprint}): {receipt.attests()}")
    finding = check(receipt, records)
    if finding.dropped:
        raise ReceiptError(f"{finding.sentence[0].upper()}{finding.sentence[1:]}.")
    print(f"{finding.sentence}.")
    try:
        report = audit_bytes(data, source)
    except AuditFailure as exc:
        raise ReceiptError(f"the log fails its audit, so it proves nothing: {exc}") from None
    print(f"the log's audit: {report.lines()[0]}")
    return 0
