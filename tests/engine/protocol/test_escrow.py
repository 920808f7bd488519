"""Escrow: the docs/protocol.md vector, sealing and opening, and everything that must not open."""

from __future__ import annotations

import base64
import stat

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from pbem.protocol import commitment, escrow
from pbem.protocol.escrow import EscrowError, open_escrow, seal
from tests.support.vectors import vector

V = vector("escrow-1")
REF = X25519PrivateKey.from_private_bytes(bytes.fromhex(V["referee_private"]))
EPH = X25519PrivateKey.from_private_bytes(bytes.fromhex(V["ephemeral_private"]))
DEP = (V["game"], V["power"], int(V["warp"]), int(V["turn"]))


def test_doc_vector():
    assert escrow.public_text(REF.public_key()) == V["referee_public"]
    assert escrow.public_bytes(EPH.public_key()).hex() == V["ephemeral_public"]
    assert escrow.associated_data(*DEP).hex() == V["associated_data"]
    blob = escrow.seal_with(EPH, REF.public_key(), *DEP, V["destination"], V["nonce"])
    assert blob == V["escrow"]
    assert open_escrow(REF, V["escrow"], *DEP) == (V["destination"], V["nonce"])


def test_vector_reveal_opens_the_doc_commitment():
    c = vector("commitment-2")
    dest, nonce = open_escrow(REF, V["escrow"], *DEP)
    assert commitment.opens(c["commitment"], *DEP, dest, nonce)


def test_seal_is_fresh_each_time_and_opens():
    nonce = commitment.new_nonce().hex()
    a = seal(REF.public_key(), *DEP, "Hamal", nonce)
    b = seal(REF.public_key(), *DEP, "Hamal", nonce)
    assert a != b
    assert open_escrow(REF, a, *DEP) == open_escrow(REF, b, *DEP) == ("Hamal", nonce)


@pytest.mark.parametrize("index, other", [(0, "orion-2"), (1, "regulus"), (2, 2), (3, 8)])
def test_bound_to_its_departure(index, other):
    dep = list(DEP)
    dep[index] = other
    with pytest.raises(EscrowError, match="does not open"):
        open_escrow(REF, V["escrow"], *dep)


def test_other_key_does_not_open():
    with pytest.raises(EscrowError, match="does not open"):
        open_escrow(X25519PrivateKey.generate(), V["escrow"], *DEP)


def test_tampered_blob_does_not_open():
    raw = bytearray(base64.b64decode(V["escrow"]))
    raw[-1] ^= 1
    with pytest.raises(EscrowError):
        open_escrow(REF, base64.b64encode(bytes(raw)).decode(), *DEP)


@pytest.mark.parametrize("blob, words", [("not base64!", "not base64"), ("AAAA", "too short"),
                                         (base64.b64encode(b"\x02" + bytes(60)).decode(),
                                          "version 2")])
def test_malformed_blobs(blob, words):
    with pytest.raises(EscrowError, match=words):
        open_escrow(REF, blob, *DEP)


def test_nonce_must_be_hex64():
    with pytest.raises(EscrowError):
        seal(REF.public_key(), *DEP, "Hamal", "xyz")


def test_key_files(tmp_path):
    key_path, pub_path = escrow.write_keypair(tmp_path / "ref", "referee of andromeda-7")
    assert key_path.name == "ref.x25519.key" and pub_path.name == "ref.x25519.pub"
    assert stat.S_IMODE(key_path.stat().st_mode) == 0o600
    assert pub_path.read_text().startswith("pbem-x25519 ")
    priv, pub = escrow.load_private(key_path), escrow.load_public(pub_path)
    assert open_escrow(priv, seal(pub, *DEP, "Vega", "ab" * 32), *DEP) == ("Vega", "ab" * 32)
    with pytest.raises(EscrowError, match="refusing to overwrite"):
        escrow.write_keypair(tmp_path / "ref")


def test_bad_key_files(tmp_path):
    bad = tmp_path / "bad.pub"
    bad.write_text("pbem-x25519 AAAA\n")
    with pytest.raises(EscrowError, match="32 bytes"):
        escrow.load_public(bad)
    with pytest.raises(EscrowError, match="not a PEM"):
        escrow.load_private(bad)
    with pytest.raises(EscrowError):
        escrow.load_public(tmp_path / "missing.pub")
