"""The signature test vectors and examples of docs/protocol.md, recomputed from the doc text."""

from __future__ import annotations

import hashlib
import re

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.game import registry
from pbem.protocol.envelope import parse_envelope
from pbem.protocol.keyring import Keyring
from pbem.protocol.keys import PrivateKey, PublicKey, pae
from pbem.protocol.orderdoc import DOMAIN, PAYLOAD_TYPE, sign_orders, verify_orders
from pbem.protocol.safeyaml import load_order_yaml
from tests.support.vectors import PROTOCOL, vector, vector_names, vector_text


def test_the_doc_has_every_vector():
    assert {"commitment-1", "commitment-2", "commitment-3", "signature-1", "signature-1-body",
            "signature-1-armored", "escrow-1"} <= set(vector_names())


def test_signature_vector():
    v = vector("signature-1")
    body = vector_text("signature-1-body").encode("utf-8")
    key = PrivateKey(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(v["seed"])))
    assert key.public.text() == v["public"]
    assert key.public.fingerprint == v["fingerprint"]
    assert (v["domain"], v["payload_type"]) == (DOMAIN, PAYLOAD_TYPE)
    assert hashlib.sha256(pae(DOMAIN, PAYLOAD_TYPE, body)).hexdigest() == v["pae_sha256"]
    assert key.sign(DOMAIN, PAYLOAD_TYPE, body).hex() == v["signature"]
    PublicKey.parse(v["public"]).verify(DOMAIN, PAYLOAD_TYPE, body, bytes.fromhex(v["signature"]))


def test_armored_vector_is_what_sign_orders_makes_and_verifies():
    v = vector("signature-1")
    key = PrivateKey(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(v["seed"])))
    armored = vector_text("signature-1-armored")
    assert sign_orders(vector_text("signature-1-body"), key) == armored
    ring = Keyring()
    ring.add("andromeda-7", "algol", PublicKey.parse(v["public"]))
    got = verify_orders(armored, ring, game="andromeda-7", power="algol", turn=7)
    assert got.signed_text == vector_text("signature-1-body") and got.seq == 3


def yaml_examples() -> list[str]:
    text = PROTOCOL.read_text(encoding="utf-8")
    return re.findall(r"```yaml\n(.*?)```", text, re.S)


def test_every_yaml_example_loads():
    examples = yaml_examples()
    assert len(examples) >= 4
    for example in examples:
        doc = load_order_yaml(example)
        if "pbem" in doc:
            parse_envelope(doc)


def test_every_order_kind_in_the_example_is_understood_by_the_game():
    """The complete example names every order kind; the 4000 A.D. validator knows each form
    (it may still object to the situation: this view is turn 1 of a fresh game)."""
    example = load_order_yaml(yaml_examples()[0])["orders"]
    assert set(example) == {"warps", "depart", "permit", "resources", "alliance", "withdraw",
                            "surrender", "concede", "vote_end"}
    ad = registry.load("4000ad")
    state = ad.setup("wild-4", {"game_id": "andromeda-7"})
    _orders, problems = ad.normalize_orders(example, ad.view(state, "algol"))
    assert not [p for p in problems if p.code in ("unknown-key", "type")], problems
