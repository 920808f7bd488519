"""``pbem press sign FILE --key KEY`` and ``pbem press verify MAIL --referee-key KEY``: the
player's side of press (docs/protocol.md, "Press")."""

from __future__ import annotations

import argparse
import email
import sys
from email import policy
from pathlib import Path

from pbem.cli import commands
from pbem.errors import PbemError
from pbem.host.press import verify_relay
from pbem.protocol import orderfile
from pbem.protocol.armor import find_press_blocks
from pbem.protocol.keys import KeyError_, PrivateKey, PublicKey
from pbem.protocol.pressdoc import sign_press
from pbem.protocol.receipt import text_of


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "press",
        description="Press: messages to other powers, sent through the referee inside your "
        "signed mail and relayed at once.")
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
        "that its attached press-message.txt is the text the referee relayed; print that text "
        "and say whether the mail's visible bodies show it. Exit 1 if any check fails.")
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
    orderfile.hand_out(args.output, armored, "pasted into your mail")
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
    try:
        text = exact.decode("utf-8")
    except UnicodeDecodeError:
        raise PbemError(f"{args.mail}: press-message.txt is not UTF-8 text") from None
    fields = verify_relay(text_of(data), text, key)
    print(f"relayed by the referee (key {key.fingerprint}): game {fields['game']}, turn "
          f"{fields['turn']}, from {fields['from']} to {fields['to']}")
    print("----- the text the referee relayed -----")
    print(_printable(text.rstrip("\n")))
    print("----- end of the text -----")
    # The attachment is what the statement covers; what a mail program shows is the body,
    # which whoever forwarded the mail could have edited.
    from pbem.render.press import shown_messages, shows

    parts = shown_messages(msg)
    wrong = [kind for kind, shown in parts if not shows(kind, shown, text)]
    for kind, shown in parts:
        verdict = ("shows this text" if kind not in wrong else
                   "shows no single message block" if shown is None else
                   "shows a DIFFERENT text: it was edited after the referee relayed it")
        print(f"the mail's {'HTML' if kind == 'html' else 'plain-text'} body {verdict}")
    if not parts:
        print("the mail has no body showing the message: trust only the text above")
        return 1
    if wrong:
        print("read only the text above: the body of this mail is not what the referee relayed")
        return 1
    return 0


def _printable(text: str) -> str:
    """``text`` with every control character but newline and tab shown as U+FFFD (a relayed
    text is a player's: no terminal escapes)."""
    return "".join(c if c.isprintable() or c in "\n\t" else "\ufffd" for c in text)


def _read(name: str) -> bytes:
    try:
        return Path(name).expanduser().read_bytes()
    except OSError as exc:
        raise PbemError(f"{name}: cannot read ({exc.strerror})") from None
