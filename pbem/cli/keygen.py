"""``pbem keygen``: make a signing key pair (players, referee) or the referee's escrow key pair."""

from __future__ import annotations

import argparse
from pathlib import Path

from pbem.cli import commands
from pbem.errors import UsageError
from pbem.protocol import escrow, keys


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "keygen",
        description="Write an Ed25519 signing key pair: PREFIX.key (private, mode 0600) and "
        "PREFIX.pub (one line to give the referee). With --x25519, write the referee's escrow "
        "key pair instead: PREFIX.x25519.key and PREFIX.x25519.pub. Existing files are never "
        "overwritten.",
    )
    p.add_argument("prefix", metavar="PREFIX", type=Path, help="path and name without suffix")
    p.add_argument("--comment", default="", help="text after the key in the .pub file")
    p.add_argument(
        "--x25519",
        action="store_true",
        help="make the referee's X25519 escrow key pair instead of a signing key",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    folder = Path(args.prefix).parent
    if not folder.is_dir():
        raise UsageError(f"cannot write the keys {args.prefix}.*: there is no directory {folder} "
                         "(make it first, or give a PREFIX in an existing one)")
    try:
        return _write(args)
    except OSError as exc:
        raise UsageError(f"cannot write {exc.filename or args.prefix}: {exc.strerror}") from None


def _write(args: argparse.Namespace) -> int:
    if args.x25519:
        key_path, pub_path = escrow.write_keypair(args.prefix, args.comment)
        print(f"wrote {key_path} (private escrow key, keep it secret)")
        print(f"wrote {pub_path} (public escrow key: publish it to the players)")
        return 0
    key_path, pub_path = keys.write_keypair(args.prefix, args.comment)
    fingerprint = keys.PublicKey.load(pub_path).fingerprint
    print(f"wrote {key_path} (private key, keep it secret)")
    print(f"wrote {pub_path} (public key {fingerprint}: give it to the referee)")
    return 0
