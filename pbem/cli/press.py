"""``pbem press sign FILE --key KEY`` and ``pbem press verify MAIL --referee-key KEY``: the
player's side of press (docs/protocol.md, "Press")."""

from __future__ import annotations

import argparse
import email
import sys
from email import policy
from pathlib import Path

from pbem.errors import PbemError
from pbem.host.press import verify_relay
from pbem.protocol import orderfile
from pbem.protocol.keys import KeyError_, PrivateKey, PublicKey
from pbem.protocol.pressdoc import find_press_blocks, sign_press
from pbem.protocol.receipt import text_of


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("press", help="sign press (messages to other powers) and check relayed "
                       "press", description="Press: messages to other powers, sent through "
                       "the referee inside your signed mail and relayed at once.")
    group = p.add_subparsers(dest="press_command", metavar="SUBCOMMAND")
    s = group.add_parser("sign", help="sign a press file; prints the block to mail",
                         description="Check a press file (pbem, game, power, turn, press: a "
                         "list of {to, text, anonymous}) and sign it with your key. Paste the "
                         "printed block into your mail, with or without signed orders.")
    s.add_argument("file", type=Path, metavar="FILE", help="the press file (YAML)")
    s.add_argument("--key", required=True, type=Path, metavar="KEY", help="your private key")
    s.add_argument("-o", "--output", type=Path, metavar="OUT",
                   help="write the block here instead of printing it")
    s.set_defaults(func=run_sign)
    sub_verify = group.add_parser(
        "verify", help="check that a press mail came through the referee",
        description="Check the referee's signature on a relayed press mail (saved .eml) and "
        "that its attached press-message.txt is the text the referee relayed. Exit 1 if not.")
    sub_verify.add_argument("mail", metavar="MAIL", help="the saved press mail (.eml); - reads "
                            "standard input")
    sub_verify.add_argument("--referee-key", required=True, metavar="KEY",
                            help="the referee's public key (a .pub file or its text)")
    sub_verify.set_defaults(func=run_verify)

    def usage(_args: argparse.Namespace) -> int:
        p.print_help()
        return 2

    p.set_defaults(func=usage)


def run_sign(args: argparse.Namespace) -> int:
    text = orderfile.read_text(args.file)
    if find_press_blocks(text):
        raise PbemError(f"{args.file} is signed already; sign the plain press file")
    armored = sign_press(text, PrivateKey.load(args.key))
    if args.output is None:
        sys.stdout.write(armored)
    else:
        orderfile.write(args.output, armored)
        print(f"wrote {args.output}: mail it to the referee (pasted into your mail)")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    data = sys.stdin.buffer.read() if args.mail == "-" else _read(args.mail)
    path = Path(args.referee_key).expanduser()
    try:
        key = PublicKey.load(path) if path.is_file() else PublicKey.parse(args.referee_key)
    except KeyError_ as exc:
        raise PbemError(f"--referee-key: {exc}") from None
    msg = email.message_from_bytes(data, policy=policy.default)
    exact: bytes | None = None
    for part in msg.walk():
        if part.get_filename() == "press-message.txt":
            payload = part.get_payload(decode=True)
            exact = payload if isinstance(payload, bytes) else None
    if exact is None:
        raise PbemError(f"{args.mail}: no press-message.txt attachment (is it a press mail?)")
    fields = verify_relay(text_of(data), exact.decode("utf-8"), key)
    print(f"relayed by the referee (key {key.fingerprint}): game {fields['game']}, turn "
          f"{fields['turn']}, from {fields['from']} to {fields['to']}")
    return 0


def _read(name: str) -> bytes:
    try:
        return Path(name).expanduser().read_bytes()
    except OSError as exc:
        raise PbemError(f"{name}: cannot read ({exc.strerror})") from None
