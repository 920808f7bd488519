"""MAC'd hint files: the one key derivation, MAC, reader and writer of every cache pbem trusts
only while its MAC holds (a game's trusted point, pbem.store.trusted; the root's due list,
pbem.host.duelist; the root index, pbem.host.rootindex).

A hint file is a hex MAC on its first line, then the payload. The MAC is HMAC-SHA256 over the
file's name, a NUL and the payload, under a key derived (HKDF-SHA256, RFC 5869: zero salt,
32 bytes) from the bytes of ROOT/referee.key with a label naming the kind of file
(``pbem-trusted-point-v1``, ``pbem-root-index-v1``): whoever cannot read the referee key cannot
forge a hint, one kind's file does not fit another kind, and one file's MAC does not fit another
name. A root without a readable referee key has no key: its hints are neither read nor written.

A hint is a cache, never a record: it is written by temp file and rename, without fsync, best
effort; after a crash it is the old file, the new one, missing or torn, and a torn, forged,
foreign or stale one is refused (:class:`Unfit`) and rebuilt by its owner. A hint that only
the holder of a lock writes (a game's trusted point) may be rewritten in place
(:func:`rewrite`): a reader or a crash in between sees a mix of the two, which fails the MAC
like a torn file.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from pbem import atomic, failpoints

#: The referee's key file under a root (pbem.store.referee writes it).
KEY_FILE = "referee.key"
_keys: dict[tuple[str, int, int, int, bytes], bytes] = {}


class Unfit(Exception):
    """A hint file that cannot be trusted: unreadable, torn, or failing its MAC."""


def key(root: Path, label: bytes) -> bytes | None:
    """The MAC key of ``root`` for hints of kind ``label`` (None when the root has no readable
    referee key). Cached per process by the key file's identity, so a run over many games reads
    and derives it once."""
    path = root / KEY_FILE
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    ident = (str(path), st.st_ino, st.st_mtime_ns, st.st_size, label)
    derived = _keys.get(ident)
    if derived is None:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            return None
        try:
            ikm = os.read(fd, 1 << 16)
        finally:
            os.close(fd)
        prk = hmac.new(b"\0" * 32, ikm, hashlib.sha256).digest()  # HKDF-Extract, zero salt
        derived = hmac.new(prk, label + b"\x01", hashlib.sha256).digest()  # HKDF-Expand, 32 B
        _keys[ident] = derived
    return derived


def mac(key: bytes, name: str, payload: bytes) -> bytes:
    """HMAC-SHA256 of ``payload`` for the file called ``name``: one file's MAC never fits
    another."""
    return hmac.new(key, name.encode("utf-8") + b"\0" + payload, hashlib.sha256).digest()


def read(path: Path, key: bytes, name: str) -> bytes | None:
    """The payload of the hint file at ``path`` (None: there is none); raises :class:`Unfit`
    when it cannot be read or fails its MAC."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise Unfit(f"{path}: {exc.strerror}") from None
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    except OSError as exc:
        raise Unfit(f"{path}: {exc.strerror}") from None
    finally:
        os.close(fd)
    mac_hex, _, payload = b"".join(chunks).partition(b"\n")
    try:
        fits = hmac.compare_digest(bytes.fromhex(mac_hex.decode("ascii")), mac(key, name, payload))
    except (ValueError, UnicodeDecodeError):
        fits = False
    if not fits:
        raise Unfit(f"{path} fails its MAC")
    return payload


def write(path: Path, key: bytes, name: str, payload: bytes, *,
          failpoint: str | None = None) -> None:
    """Write the hint file at ``path`` (mode 0600) by a temporary ``.NAME.XXXXXXXX`` beside it
    and a rename, without fsync. Best effort: a failure leaves the old file or none."""
    data = mac(key, name, payload).hex().encode("ascii") + b"\n" + payload
    tmp = path.parent / f".{path.name.lstrip('.')}.{secrets.token_hex(4)}"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        if failpoint is not None:
            failpoints.reached(failpoint)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def rewrite(path: Path, key: bytes, name: str, payload: bytes) -> None:
    """:func:`write`, but into the existing file in place when it is a regular file of one
    link (:func:`pbem.atomic.overwrite`), for a hint only one writer at a time writes (under a
    lock): a reader in between, or a crash, sees the new bytes over the old ones, which fails
    the MAC, like a torn file. Anything else at ``path`` is replaced by :func:`write`."""
    data = mac(key, name, payload).hex().encode("ascii") + b"\n" + payload
    try:
        if atomic.overwrite(path, data):
            return
    except atomic.StorageError:
        pass  # best effort, as write: replaced below
    write(path, key, name, payload)
