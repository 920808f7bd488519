"""``pbem keygen`` run as a real subprocess."""

from __future__ import annotations

import stat

from pbem.protocol import escrow
from pbem.protocol.keys import PrivateKey, PublicKey
from tests.support.run import pbem_text as pbem


def test_keygen_writes_a_private_and_a_public_key(tmp_path):
    out = pbem("keygen", str(tmp_path / "algol"), "--comment", "algol@example.org")
    assert out.returncode == 0, out.stderr
    key, pub = tmp_path / "algol.key", tmp_path / "algol.pub"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    public = PublicKey.load(pub)
    assert PrivateKey.load(key).public == public
    assert pub.read_text().endswith(" algol@example.org\n")
    assert f"wrote {key}" in out.stdout and public.fingerprint in out.stdout


def test_keygen_refuses_to_overwrite(tmp_path):
    assert pbem("keygen", str(tmp_path / "k")).returncode == 0
    before = (tmp_path / "k.key").read_bytes()
    out = pbem("keygen", str(tmp_path / "k"))
    assert out.returncode == 1
    assert out.stderr.count("\n") == 1 and "refusing to overwrite" in out.stderr
    assert (tmp_path / "k.key").read_bytes() == before


def test_keygen_x25519_for_the_referee(tmp_path):
    out = pbem("keygen", "--x25519", str(tmp_path / "ref"))
    assert out.returncode == 0, out.stderr
    key = tmp_path / "ref.x25519.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    pub = escrow.load_public(tmp_path / "ref.x25519.pub")
    assert escrow.public_bytes(escrow.load_private(key).public_key()) == escrow.public_bytes(pub)
    assert pbem("keygen", "--x25519", str(tmp_path / "ref")).returncode == 1


def test_keygen_into_a_missing_directory_is_one_line(tmp_path):
    out = pbem("keygen", str(tmp_path / "nowhere" / "k"))
    assert out.returncode == 1
    assert out.stderr.startswith("pbem keygen: cannot write") and out.stderr.count("\n") == 1
    assert f"there is no directory {tmp_path / 'nowhere'} (make it first" in out.stderr
    assert not (tmp_path / "nowhere").exists()


def test_signing_with_the_public_key_says_to_give_the_private_one(tmp_path):
    assert pbem("keygen", str(tmp_path / "ann")).returncode == 0
    orders = tmp_path / "orders.yaml"
    orders.write_text("pbem: 1\ngame: g1\npower: north\nturn: 1\nseq: 0\n"
                      f"instance: {'ab' * 16}\norders: {{}}\n")
    out = pbem("orders", "sign", str(orders), "--key", str(tmp_path / "ann.pub"),
               env={"PBEM_VAULT": str(tmp_path / "vault.json")})
    assert out.returncode == 1 and out.stderr.count("\n") == 1, out.stderr
    assert "ann.pub: not a PEM private key (it is a public key" in out.stderr
    assert "give the .key file" in out.stderr


def test_help():
    out = pbem("keygen", "--help")
    assert "PREFIX.key" in out.stdout and "--x25519" in out.stdout
