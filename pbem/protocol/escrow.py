"""Escrow: the opening of a commitment (value and nonce), sealed so that only the referee can open
it (docs/protocol.md, "Escrow").

Generic: a game may let a player seal a committed value to the referee, to be opened only when
the player misses a step that needs it (the game decides when, in ``nmr_orders``). 4000 A.D. uses
it for a departure's destination: the referee opens it only on a turn the fleet must arrive and
the power sent no orders, so the fleet is not lost. Without escrow the value is secret from the
referee too. Slot and turn are those of the commitment (pbem.protocol.commitment).

Construction (ECIES style, all from ``cryptography``)::

    e, E      = fresh X25519 key pair (ephemeral)
    shared    = X25519(e, R)                       R = the referee's public key
    key       = HKDF-SHA256(shared, salt = E || R, info = "pbem-escrow-v1", 32 bytes)
    ad        = "pbem-escrow-v1" || field(game) || field(power) || field(slot) || field(turn)
    plaintext = field(value) || field(nonce, 32 raw bytes)
    blob      = base64( 0x01 || E || ChaCha20-Poly1305(key, nonce = 12 zero bytes, plaintext, ad) )

field(x) is the 4-byte big-endian length of x then x (text UTF-8, slot and turn decimal ASCII;
docs/protocol.md names them with 4000 A.D.'s words: warp, destination). The all-zero AEAD nonce
is safe because every key is used once (fresh ephemeral key). Binding game, power, slot and turn
as associated data stops a sealed opening being moved to another commitment.

Key files: ``PREFIX.x25519.key`` (PKCS#8 PEM, mode 0600, never overwritten) and
``PREFIX.x25519.pub`` (one line ``pbem-x25519 <base64 of 32 bytes> [comment]``).
"""

from __future__ import annotations

import base64
import binascii
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.errors import PbemError
from pbem.framing import fields
from pbem.protocol import keys
from pbem.protocol.commitment import NONCE_BYTES, is_hex64, slot_fields

DOMAIN = b"pbem-escrow-v1"
VERSION = 1
PUB_TAG = "pbem-x25519"
_ZERO_NONCE = bytes(12)
# The AEAD (cryptography's ciphers package) and the PEM parser (its serialization package, with
# SSH and PKCS#12) are imported where a blob is sealed or opened and a key file read: a module
# that imports this one for its names (a game's player's tool) pays for neither.


class EscrowError(PbemError):
    """An escrow blob or an X25519 key cannot be read or does not open."""


def _fields(data: bytes, count: int) -> list[bytes]:
    out = []
    at = 0
    for _ in range(count):
        if at + 4 > len(data):
            raise EscrowError("escrow content is truncated")
        size = int.from_bytes(data[at : at + 4], "big")
        at += 4
        if at + size > len(data):
            raise EscrowError("escrow content is truncated")
        out.append(data[at : at + size])
        at += size
    if at != len(data):
        raise EscrowError("escrow content has trailing bytes")
    return out


def associated_data(game: str, power: str, slot: int, turn: int) -> bytes:
    return DOMAIN + slot_fields(game, power, slot, turn)


def _key(shared: bytes, ephemeral_pub: bytes, referee_pub: bytes) -> bytes:
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=ephemeral_pub + referee_pub,
                info=DOMAIN)
    return hkdf.derive(shared)


def public_bytes(key: X25519PublicKey) -> bytes:
    return key.public_bytes_raw()


def seal_with(
    ephemeral: X25519PrivateKey,
    referee_pub: X25519PublicKey,
    game: str,
    power: str,
    slot: int,
    turn: int,
    value: str,
    nonce_hex: str,
) -> str:
    """``seal`` with a given ephemeral key: for test vectors only (reusing one leaks)."""
    if not is_hex64(nonce_hex):
        raise EscrowError("the nonce to escrow must be 64 lower-case hex digits")
    eph_pub = public_bytes(ephemeral.public_key())
    ref_pub = public_bytes(referee_pub)
    key = _key(ephemeral.exchange(referee_pub), eph_pub, ref_pub)
    plaintext = fields(value.encode("utf-8"), bytes.fromhex(nonce_hex))
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    sealed = ChaCha20Poly1305(key).encrypt(
        _ZERO_NONCE, plaintext, associated_data(game, power, slot, turn)
    )
    return base64.b64encode(bytes([VERSION]) + eph_pub + sealed).decode("ascii")


def seal(
    referee_x25519_pub: X25519PublicKey,
    game: str,
    power: str,
    slot: int,
    turn: int,
    value: str,
    nonce_hex: str,
) -> str:
    """Encrypt (value, nonce) of the commitment (game, power, slot, turn) to the referee."""
    return seal_with(
        X25519PrivateKey.generate(), referee_x25519_pub, game, power, slot, turn, value, nonce_hex,
    )


def open_escrow(
    referee_x25519_priv: X25519PrivateKey,
    blob: str,
    game: str,
    power: str,
    slot: int,
    turn: int,
) -> tuple[str, str]:
    """Decrypt an escrow blob: (value, nonce_hex). Raises EscrowError if it does not open."""
    try:
        raw = base64.b64decode(blob.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise EscrowError("escrow is not base64") from None
    if len(raw) < 1 + 32 + 16:
        raise EscrowError("escrow is too short to hold a sealed reveal")
    if raw[0] != VERSION:
        raise EscrowError(f"escrow version {raw[0]} is not supported (only {VERSION})")
    eph_pub = raw[1:33]
    ref_pub = public_bytes(referee_x25519_priv.public_key())
    try:
        shared = referee_x25519_priv.exchange(X25519PublicKey.from_public_bytes(eph_pub))
    except ValueError:
        raise EscrowError("escrow holds an invalid ephemeral key") from None
    key = _key(shared, eph_pub, ref_pub)
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    try:
        plaintext = ChaCha20Poly1305(key).decrypt(
            _ZERO_NONCE, raw[33:], associated_data(game, power, slot, turn)
        )
    except InvalidTag:
        raise EscrowError(
            f"escrow does not open for {power}'s commitment {slot} of turn {turn} in "
            f"{game}: sealed to another key or for another commitment"
        ) from None
    dest, nonce = _fields(plaintext, 2)
    if len(nonce) != NONCE_BYTES:
        raise EscrowError(f"escrowed nonce must be {NONCE_BYTES} bytes, not {len(nonce)}")
    try:
        return dest.decode("utf-8"), nonce.hex()
    except UnicodeDecodeError:
        raise EscrowError("escrowed value is not UTF-8") from None


# -- key files ----------------------------------------------------------------------------------


def parse_public(text: str) -> X25519PublicKey:
    """``pbem-x25519 <base64> [comment]`` (or the bare base64) -> key."""
    parts = text.strip().split()
    if parts and parts[0] == PUB_TAG:
        parts = parts[1:]
    if not parts:
        raise EscrowError("empty X25519 public key")
    try:
        raw = base64.b64decode(parts[0], validate=True)
    except (binascii.Error, ValueError):
        raise EscrowError(f"X25519 public key {parts[0][:20]!r}… is not base64") from None
    if len(raw) != 32:
        raise EscrowError(f"X25519 public key must be 32 bytes, not {len(raw)}")
    return X25519PublicKey.from_public_bytes(raw)


def public_text(key: X25519PublicKey, comment: str = "") -> str:
    return f"{PUB_TAG} {base64.b64encode(public_bytes(key)).decode()} {comment}".rstrip()


def load_public(path: Path) -> X25519PublicKey:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise EscrowError(f"{path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise EscrowError(f"{path}: not an escrow public key (not UTF-8 text)") from None
    try:
        return parse_public(text)
    except EscrowError as exc:
        raise EscrowError(f"{path}: {exc}") from None


def load_private(path: Path) -> X25519PrivateKey:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise EscrowError(f"{path}: {exc.strerror}") from None
    from cryptography.hazmat.primitives import serialization

    try:
        key = serialization.load_pem_private_key(data, password=None)
    except ValueError:
        raise EscrowError(f"{path}: not a PEM private key") from None
    if not isinstance(key, X25519PrivateKey):
        raise EscrowError(f"{path}: not an X25519 key")
    return key


def write_keypair(prefix: Path, comment: str = "") -> tuple[Path, Path]:
    """Write PREFIX.x25519.key (0600, never overwritten) and PREFIX.x25519.pub."""
    prefix = Path(prefix)
    key_path = prefix.with_name(prefix.name + ".x25519.key")
    pub_path = prefix.with_name(prefix.name + ".x25519.pub")
    for path in (key_path, pub_path):
        if path.exists():
            raise EscrowError(f"{path} exists already: refusing to overwrite a key")
    from cryptography.hazmat.primitives import serialization

    key = X25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    try:
        keys.write_pair(key_path, pem, pub_path, public_text(key.public_key(), comment) + "\n")
    except keys.KeyError_ as exc:
        raise EscrowError(str(exc)) from None
    return key_path, pub_path
