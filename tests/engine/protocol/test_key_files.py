"""Reading a private key file: the PKCS#8 form pbem writes is read without cryptography's
serialization package (a process per mail pays for no SSH or PKCS#12 code), and gives the very
key cryptography's own parser gives; every other form still goes through that parser."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519, x25519

from pbem.protocol import keys
from pbem.protocol.keys import KeyError_, PrivateKey, write_keypair


def test_a_key_file_pbem_wrote_loads_as_cryptography_reads_it(tmp_path: Path) -> None:
    key_path, pub_path = write_keypair(tmp_path / "referee")
    loaded = PrivateKey.load(key_path)
    theirs = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    assert isinstance(theirs, ed25519.Ed25519PrivateKey)
    assert loaded.raw() == theirs.private_bytes_raw()
    assert loaded.public.text() == pub_path.read_text().strip()
    assert loaded.pem() == key_path.read_bytes()


def test_a_key_file_with_windows_line_ends_loads_the_same_key(tmp_path: Path) -> None:
    key_path, _ = write_keypair(tmp_path / "referee")
    crlf = tmp_path / "crlf.key"
    crlf.write_bytes(key_path.read_bytes().replace(b"\n", b"\r\n"))
    assert PrivateKey.load(crlf).raw() == PrivateKey.load(key_path).raw()


@pytest.mark.parametrize("content,says", [
    (b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "not a PEM private key"),
    (ed25519.Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH,
        serialization.NoEncryption()), "not a PEM private key"),
    (x25519.X25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()), "not an Ed25519 key"),
    (b"", "not a PEM private key"),
])
def test_any_other_key_file_is_refused_as_before(tmp_path: Path, content: bytes,
                                                 says: str) -> None:
    path = tmp_path / "other.key"
    path.write_bytes(content)
    with pytest.raises(KeyError_, match=says):
        PrivateKey.load(path)


def test_loading_and_using_a_key_imports_no_serialization_package(tmp_path: Path) -> None:
    """Sign, verify and derive the public key: no cryptography.hazmat.primitives.serialization
    (a real process, its modules listed)."""
    key_path, pub_path = write_keypair(tmp_path / "referee")
    probe = (
        "import sys\n"
        "from pbem.protocol.keys import PrivateKey, PublicKey\n"
        f"key = PrivateKey.load({str(key_path)!r})\n"
        f"pub = PublicKey.load({str(pub_path)!r})\n"
        "pub.verify('d', 't', b'x', key.sign('d', 't', b'x'))\n"
        "assert key.public == pub and len(key.raw()) == 32\n"
        "print(sorted(m for m in sys.modules if '.serialization' in m))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=120)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_a_public_key_verifies_the_same_with_its_loaded_key_kept(monkeypatch) -> None:
    """PublicKey.verify keeps each loaded key (keys._VERIFIERS, bounded): every key checks its
    own signatures and refuses another's, also after the cache was emptied for a new key."""
    monkeypatch.setattr(keys, "MOST_VERIFIERS", 2)
    monkeypatch.setattr(keys, "_VERIFIERS", {})
    signers = [PrivateKey.generate() for _ in range(5)]
    for _ in range(2):
        for n, signer in enumerate(signers):
            sig = signer.sign("pbem-test", "text/plain", b"body")
            signer.public.verify("pbem-test", "text/plain", b"body", sig)
            other = signers[(n + 1) % len(signers)].public
            with pytest.raises(keys.BadSignature):
                other.verify("pbem-test", "text/plain", b"body", sig)
            with pytest.raises(keys.BadSignature):
                signer.public.verify("pbem-test", "text/plain", b"bodY", sig)
            assert len(keys._VERIFIERS) <= 2
