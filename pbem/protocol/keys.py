"""Ed25519 keys and domain-separated signatures (docs/protocol.md, "Keys" and "Signatures").

Key files:
  PREFIX.key  private key, PKCS#8 PEM, file mode 0600
  PREFIX.pub  one line: ``pbem-ed25519 <base64 of the 32 raw public-key bytes> [comment]``

What is signed is never the bare payload but a pre-authentication encoding (DSSE style):

  PAE = "PBEMSIG1" || field(domain) || field(payload_type) || field(body)

with field(x) = 4-byte big-endian length || x. ``domain`` names the protocol and version
("pbem-orders-v1", "pbem-receipt-v1", "pbem-checkpoint-v1", ...), so a signature made for one
purpose can never be replayed as another.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from pbem import atomic
from pbem.errors import PbemError
from pbem.framing import fields
from pbem.record import Record

PUB_TAG = "pbem-ed25519"
PAE_TAG = b"PBEMSIG1"

#: The PKCS#8 DER of an Ed25519 private key (RFC 8410, section 7) before its 32-byte seed: the
#: one form :meth:`PrivateKey.pem` writes. A key file in exactly this form is read without
#: cryptography's serialization package (importing it costs a one-mail ingest ~16 ms and 41
#: modules: its SSH, PKCS#12 and every other key type); any other form goes through it.
_PKCS8_ED25519 = bytes.fromhex("302e020100300506032b657004220420")
_PEM_BEGIN = b"-----BEGIN PRIVATE KEY-----"
_PEM_END = b"-----END PRIVATE KEY-----"


class KeyError_(PbemError):
    """A key file or key string is missing or malformed."""


class BadSignature(PbemError):
    """A signature does not verify."""


def pae(domain: str, payload_type: str, body: bytes) -> bytes:
    return PAE_TAG + fields(domain.encode(), payload_type.encode(), body)


_VERIFIERS: dict[bytes, Ed25519PublicKey] = {}
"""The loaded public keys by their raw bytes: loading one is 4 us of a 90 us verify, and an
audit verifies every order file of a game with the same few keys. A process meeting more keys
than MOST_VERIFIERS starts again."""
MOST_VERIFIERS = 256


def _verifier(raw: bytes) -> Ed25519PublicKey:
    key = _VERIFIERS.get(raw)
    if key is None:
        if len(_VERIFIERS) >= MOST_VERIFIERS:
            _VERIFIERS.clear()
        key = _VERIFIERS[raw] = Ed25519PublicKey.from_public_bytes(raw)
    return key


class PublicKey(Record):
    __slots__ = ("raw",)
    raw: bytes


    def __init__(self, raw: bytes) -> None:
        object.__setattr__(self, "raw", raw)

    @classmethod
    def parse(cls, text: str) -> PublicKey:
        """Accept ``pbem-ed25519 <b64> [comment]`` or the bare base64 of the 32 key bytes."""
        parts = text.strip().split()
        if parts and parts[0] == PUB_TAG:
            parts = parts[1:]
        if not parts:
            raise KeyError_("empty public key")
        try:
            raw = base64.b64decode(parts[0], validate=True)
        except (binascii.Error, ValueError):
            raise KeyError_(f"public key {parts[0][:20]!r}… is not base64") from None
        if len(raw) != 32:
            raise KeyError_(f"public key must be 32 bytes, not {len(raw)}")
        return cls(raw)

    @classmethod
    def load(cls, path: Path) -> PublicKey:
        try:
            return cls.parse(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise KeyError_(f"{path}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise KeyError_(f"{path}: not a public key (not UTF-8 text)") from None
        except KeyError_ as exc:
            raise KeyError_(f"{path}: {exc}") from None

    def text(self, comment: str = "") -> str:
        line = f"{PUB_TAG} {base64.b64encode(self.raw).decode()}"
        return f"{line} {comment}".rstrip()

    @property
    def fingerprint(self) -> str:
        """First 16 hex digits of SHA-256 of the raw key: how documents name a key."""
        return hashlib.sha256(self.raw).hexdigest()[:16]

    def verify(self, domain: str, payload_type: str, body: bytes, signature: bytes) -> None:
        """Raise BadSignature unless ``signature`` signs (domain, payload_type, body)."""
        try:
            _verifier(self.raw).verify(signature, pae(domain, payload_type, body))
        except InvalidSignature:
            raise BadSignature(f"signature does not verify with key {self.fingerprint}") from None


class PrivateKey(Record):
    __slots__ = ("key",)
    key: Ed25519PrivateKey


    def __init__(self, key: Ed25519PrivateKey) -> None:
        object.__setattr__(self, "key", key)

    @classmethod
    def generate(cls) -> PrivateKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def load(cls, path: Path) -> PrivateKey:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise KeyError_(f"{path}: {exc.strerror}") from None
        seed = _seed_of_pem(data)
        if seed is not None:
            return cls(Ed25519PrivateKey.from_private_bytes(seed))
        from cryptography.hazmat.primitives import serialization  # (any other PEM form)

        try:
            key = serialization.load_pem_private_key(data, password=None)
        except ValueError:
            public = data.lstrip().startswith(PUB_TAG.encode())
            raise KeyError_(f"{path}: not a PEM private key" + (
                f" (it is a public key, {PUB_TAG} …: give the .key file `pbem keygen` wrote "
                "beside it)" if public else "")) from None
        if not isinstance(key, Ed25519PrivateKey):
            raise KeyError_(f"{path}: not an Ed25519 key")
        return cls(key)

    @property
    def public(self) -> PublicKey:
        return PublicKey(self.key.public_key().public_bytes_raw())

    def sign(self, domain: str, payload_type: str, body: bytes) -> bytes:
        return self.key.sign(pae(domain, payload_type, body))

    def raw(self) -> bytes:
        """The 32 raw private-key bytes (the Ed25519 seed): the input from which per-game
        secrets are derived (the chance protocol's K, pbem.chance.referee). Never published."""
        return self.key.private_bytes_raw()

    def pem(self) -> bytes:
        from cryptography.hazmat.primitives import serialization  # (writing keys only)

        return self.key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )


def _seed_of_pem(data: bytes) -> bytes | None:
    """The 32-byte seed of a PEM file holding exactly one PKCS#8 Ed25519 key in the form
    :meth:`PrivateKey.pem` writes (None for any other content: the caller then asks
    cryptography's parser, which reads every form and says what is wrong)."""
    lines = data.strip().splitlines()
    if len(lines) < 3 or lines[0].strip() != _PEM_BEGIN or lines[-1].strip() != _PEM_END:
        return None
    try:
        der = base64.b64decode(b"".join(line.strip() for line in lines[1:-1]), validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(der) != len(_PKCS8_ED25519) + 32 or not der.startswith(_PKCS8_ED25519):
        return None
    return der[len(_PKCS8_ED25519):]


def write_keypair(prefix: Path, comment: str = "") -> tuple[Path, Path]:
    """Write PREFIX.key (0600, never overwritten) and PREFIX.pub (0644: it is published)."""
    prefix = Path(prefix)
    key_path = prefix.with_name(prefix.name + ".key")
    pub_path = prefix.with_name(prefix.name + ".pub")
    key = PrivateKey.generate()
    write_pair(key_path, key.pem(), pub_path, key.public.text(comment) + "\n")
    return key_path, pub_path


def write_pair(key_path: Path, pem: bytes, pub_path: Path, pub_text: str) -> None:
    """Create a private key file (0600) and its public file (0644); neither may exist yet
    (a key is never overwritten). Shared by the signing and the escrow key pairs."""
    for path in (key_path, pub_path):
        if path.exists() or path.is_symlink():
            raise KeyError_(f"{path} exists already: refusing to overwrite a key")
    try:
        atomic.write_exclusive(key_path, pem, mode=atomic.PRIVATE)
        atomic.write_exclusive(pub_path, pub_text.encode("utf-8"), mode=0o644)
    except atomic.FileExists:
        raise KeyError_(f"{key_path} or {pub_path} exists already: refusing to overwrite a key"
                        ) from None
