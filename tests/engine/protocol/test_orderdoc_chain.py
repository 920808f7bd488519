"""The whole receiving chain on issue 3's list of bad bodies: signed text -> VerifiedOrders ->
the 4000 A.D. check. Each file is rejected with a path under ``orders.`` and the accepted
submission stands."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.errors import Problem, Rejected
from pbem.game import registry
from pbem.protocol import commitment
from pbem.protocol.keyring import Keyring
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import (
    VerifiedOrders,
    find_signed_blocks,
    sign_orders,
)
from pbem.protocol.orderdoc import verify_orders as verify

GAME = "andromeda-7"
KEY = PrivateKey(Ed25519PrivateKey.from_private_bytes(bytes(range(32))))
NONCE = bytes(range(32))
TO_HAMAL = commitment.commit(GAME, "algol", 1, 1, "Hamal", NONCE)


@pytest.fixture(scope="module")
def game():
    ad = registry.load("4000ad")
    state1 = ad.setup("independents-4", {"game_id": GAME})
    body = {"depart": {"warp": 1, "from": "Algol", "ships": 5, "commitment": TO_HAMAL}}
    orders, problems = ad.normalize_orders(body, ad.view(state1, "algol"))
    assert problems == []
    defaults = {p: ad.default_orders(state1, p) for p in ad.powers_due(state1)}
    state2 = ad.resolve(state1, {**defaults, "algol": orders}).state
    return ad, ad.view(state2, "algol")  # turn 2: warp 1 in flight, due at Hamal now


def receive(ad, view, orders_yaml: str, seq: int = 1) -> tuple[VerifiedOrders, list[Problem]]:
    """The referee's side: find, verify, then the game's check with paths under orders."""
    for token, value in (("C64", TO_HAMAL), ("N64", NONCE.hex()), ("UPPER", TO_HAMAL.upper()),
                         ("ZERO", "00" * 32)):
        orders_yaml = orders_yaml.replace(token, value)
    text = (f"pbem: 1\ngame: {GAME}\npower: algol\nturn: 2\nseq: {seq}\n"
            f"instance: 0123456789abcdef0123456789abcdef\norders:\n{orders_yaml}")
    (block,) = find_signed_blocks("From the player:\n" + sign_orders(text, KEY, check=False))
    ring = Keyring()
    ring.add(GAME, "algol", KEY.public)
    verified = verify(block, ring, game=GAME, power="algol", turn=2)
    _orders, found = ad.normalize_orders(verified.body, view)
    return verified, [Problem(p.code, f"orders.{p.path}", p.message) for p in found]


ARRIVE = "  warps:\n    1: {arrive: Hamal, nonce: N64}\n"


def test_a_good_arrival_is_accepted(game):
    ad, view = game
    _verified, problems = receive(ad, view, ARRIVE)
    assert problems == []


BAD = [  # C64: the commitment to Hamal made on turn 1; N64: its nonce
    ("  depart: {warp: 2, from: Algol, ships: -3, commitment: C64}\n", "orders.depart.ships"),
    ("  depart: {warp: 2, from: Algol, ships: 0, commitment: C64}\n", "orders.depart.ships"),
    ("  depart: {warp: 2, from: Algol, ships: 2.5, commitment: C64}\n", "orders.depart.ships"),
    ("  depart: {warp: 2, from: Algol, ships: 10000000000, commitment: C64}\n",
     "orders.depart.ships"),
    ("  depart: {warp: 2, from: Algol, ships: 99, commitment: C64}\n", "orders.depart.ships"),
    ("  depart:\n    - {warp: 2, from: Algol, ships: 1, commitment: C64}\n"
     "    - {warp: 2, from: Algol, ships: 1, commitment: C64}\n", "orders.depart"),
    ("  depart: {warp: 2, from: Algol, ships: 1, commitment: 3a7b}\n",
     "orders.depart.commitment"),
    ("  depart: {warp: 2, from: Algol, ships: 1, commitment: UPPER}\n",
     "orders.depart.commitment"),
    ("  depart: {warp: 2, from: no, ships: 1, commitment: C64}\n", "orders.depart.from"),
    ("  depart: {warp: 2, from: Algl, ships: 1, commitment: C64}\n", "orders.depart.from"),
    ("  warps:\n    3: continue\n", "orders.warps[3]"),
    ("  warps:\n    1: {arrive: Hamal, nonce: ZERO}\n", "orders.warps[1].nonce"),
    ("  warps:\n    1: {arrive: Sheratan, nonce: N64}\n", "orders.warps[1].nonce"),
    ("  warps:\n    1: {arrive: Vega, nonce: N64}\n", "orders.warps[1].arrive"),
    ("  warps:\n    1: {arrive: Hamal, nonce: 012}\n", "orders.warps[1].nonce"),
    ("  concede: no\n", "orders.concede"),
    ("  vote_edn: true\n", "orders.vote_edn"),
]


@pytest.mark.parametrize("orders_yaml, path", BAD)
def test_bad_body_is_rejected_with_its_path_and_changes_nothing(game, orders_yaml, path):
    ad, view = game
    accepted, problems = receive(ad, view, ARRIVE, seq=1)
    assert problems == []
    candidate, problems = receive(ad, view, orders_yaml, seq=2)
    assert path in [p.path for p in problems], problems
    assert all(p.message for p in problems)


def test_suggestions_in_messages(game):
    ad, view = game
    _v, problems = receive(ad, view, BAD[9][0])
    assert any("did you mean Algol" in p.message for p in problems)
    _v, problems = receive(ad, view, BAD[-1][0])
    assert any("vote_end" in p.message for p in problems)


@pytest.mark.parametrize("second", ["1", "'1'"])
def test_warp_listed_twice_is_caught_before_the_game(game, second):
    ad, view = game
    with pytest.raises(Rejected) as info:
        receive(ad, view, f"  warps:\n    1: continue\n    {second}: continue\n")
    assert [(p.code, p.path) for p in info.value.problems] == [
        ("duplicate-key", "orders.warps.1")
    ]
