"""The referee's Ed25519 key, shared by every game under one root: ROOT/referee.key and .pub.

The private key signs every checkpoint, receipt and game-master entry: whoever can read it can
forge the referee. So it is created 0600 (pbem.atomic), it may not be a symbolic link, and pbem
warns once per run, in one line on stderr, when the key or the root is readable or writable by
others (the root holds every game's unresolved orders and the players' addresses).
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from pbem.atomic import fsync_dir, refuse_links
from pbem.errors import PbemError
from pbem.protocol.keys import PrivateKey, PublicKey, write_keypair

KEY_NAME = "referee.key"
PUB_NAME = "referee.pub"

_warned: set[str] = set()


class RefereeKeyError(PbemError):
    """The referee key is missing, unreadable, or does not match its .pub file."""


def referee_key(root: Path | str, *, create: bool = False) -> tuple[PrivateKey, bool]:
    """The referee's private key under ``root`` and whether it was just created.

    With ``create`` a missing key pair is generated (the private key file gets mode 0600).
    The .pub file must match the private key.
    """
    root = Path(root)
    key_path, pub_path = root / KEY_NAME, root / PUB_NAME
    refuse_links(root, [key_path, pub_path])
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
    warn_permissions(root)
    marks = (_mark(key_path), _mark(pub_path))
    kept = _loaded.get(str(root))
    if kept is not None and kept[0] == marks:
        return kept[1], created
    key = PrivateKey.load(key_path)
    if PublicKey.load(pub_path) != key.public:
        raise RefereeKeyError(f"{pub_path} does not match {key_path}")
    _loaded[str(root)] = (marks, key)
    return key, created


#: The key pair read last under each root, with the two files' marks (:func:`_mark`) when
#: they were read: a cron run opens the referee key once per game it visits.
_loaded: dict[str, tuple[tuple[tuple[int, ...], ...], PrivateKey]] = {}


def _mark(path: Path) -> tuple[int, ...]:
    """What changes when a file is replaced or written: device, inode, size, times (ns)."""
    st = os.stat(path)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def referee_public(root: Path | str) -> PublicKey:
    return PublicKey.load(Path(root) / PUB_NAME)


def permission_problems(root: Path | str) -> list[str]:
    """One sentence for the referee key and one for the root if others (group or world) may
    read or write them; empty when both are private."""
    root = Path(root)
    found = []
    for path, fix in ((root / KEY_NAME, "600"), (root, "700")):
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except OSError:
            continue
        others = mode & 0o077
        if not others:
            continue
        how = " and ".join(
            word for word, bits in (("readable", 0o044), ("writable", 0o022)) if others & bits
        ) or "accessible"
        found.append(f"{path} is {how} by others (mode {mode:04o}); run chmod {fix} {path}")
    return found


def warn_permissions(root: Path | str) -> None:
    """Print the :func:`permission_problems` of ``root`` on one stderr line, once per process."""
    given = str(root)
    if given in _warned:  # (asked on every game's visit: an absolute root is not resolved
        return  # again; a relative one may name another directory later)
    key = str(Path(root).resolve())
    warned = key in _warned
    if os.path.isabs(given):
        _warned.add(given)
    if warned:
        return
    _warned.add(key)
    problems = permission_problems(root)
    if problems:
        print("warning: " + "; ".join(problems), file=sys.stderr)
