"""The referee's Ed25519 key, shared by every game under one root: ROOT/referee.key and .pub."""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError
from pbem.protocol.keys import PrivateKey, PublicKey, write_keypair
from pbem.store.atomic import fsync_dir

KEY_NAME = "referee.key"
PUB_NAME = "referee.pub"


class RefereeKeyError(PbemError):
    """The referee key is missing, unreadable, or does not match its .pub file."""


def referee_key(root: Path | str, *, create: bool = False) -> tuple[PrivateKey, bool]:
    """The referee's private key under ``root`` and whether it was just created.

    With ``create`` a missing key pair is generated (the private key file gets mode 0600).
    The .pub file must match the private key.
    """
    root = Path(root)
    key_path, pub_path = root / KEY_NAME, root / PUB_NAME
    created = False
    if not key_path.exists():
        if not create:
            raise RefereeKeyError(f"{key_path}: no referee key (pbem new creates one)")
        if pub_path.exists():
            raise RefereeKeyError(
                f"{pub_path} exists without {key_path}: restore the private key "
                "or remove the .pub file"
            )
        write_keypair(root / "referee", "pbem referee")
        fsync_dir(root)
        created = True
    key = PrivateKey.load(key_path)
    if PublicKey.load(pub_path) != key.public:
        raise RefereeKeyError(f"{pub_path} does not match {key_path}")
    return key, created


def referee_public(root: Path | str) -> PublicKey:
    return PublicKey.load(Path(root) / PUB_NAME)
