"""Commitments: the docs/protocol.md vectors, and what opens a commitment and what does not."""

from __future__ import annotations

import pytest

from pbem.protocol import commitment
from tests.support.vectors import vector, vector_names


@pytest.mark.parametrize("name", [n for n in vector_names() if n.startswith("commitment-")])
def test_doc_vectors(name):
    v = vector(name)
    args = (v["game"], v["power"], int(v["warp"]), int(v["turn"]), v["destination"],
            bytes.fromhex(v["nonce"]))
    assert commitment.preimage(*args).hex() == v["preimage"]
    assert commitment.commit(*args) == v["commitment"]
    assert commitment.opens(v["commitment"], *args[:5], v["nonce"])


V = vector("commitment-1")
GOOD = (V["game"], V["power"], int(V["warp"]), int(V["turn"]), V["destination"], V["nonce"])


@pytest.mark.parametrize(
    "index, other",
    [(0, "andromeda-8"), (1, "regulus"), (2, 1), (3, 5), (4, "Mira"), (4, "hamal"),
     (5, "00" * 32), (5, V["nonce"].upper()), (5, V["nonce"][:-2]), (5, "zz" * 32)],
)
def test_any_other_field_does_not_open(index, other):
    args = list(GOOD)
    args[index] = other
    assert not commitment.opens(V["commitment"], *args)


def test_commitment_itself_must_be_64_lower_hex():
    assert not commitment.opens(V["commitment"].upper(), *GOOD)
    assert not commitment.opens(V["commitment"][:63], *GOOD)
    assert not commitment.is_hex64(12)
    assert commitment.is_hex64(V["commitment"])


def test_encoding_is_unambiguous():
    """Moving characters between neighbouring fields changes the commitment."""
    nonce = bytes(32)
    a = commitment.commit("ab", "c", 1, 2, "Vega", nonce)
    b = commitment.commit("a", "bc", 1, 2, "Vega", nonce)
    c = commitment.commit("ab", "c", 12, 2, "Vega", nonce)
    d = commitment.commit("ab", "c", 1, 22, "Vega", nonce)
    assert len({a, b, c, d}) == 4


def test_nonce_must_be_32_bytes():
    with pytest.raises(ValueError):
        commitment.commit("g", "p", 1, 1, "Vega", b"short")


def test_new_nonces_are_fresh():
    nonces = {commitment.new_nonce() for _ in range(100)}
    assert len(nonces) == 100 and all(len(n) == 32 for n in nonces)


def test_answers_are_remembered_and_stay_right():
    """opens remembers its last answers (a game asks twice per reveal): the same answer when
    asked again, also once the memo is full and cleared, and for arguments it cannot hold."""
    assert commitment.opens(V["commitment"], *GOOD)
    assert commitment.opens(V["commitment"], *GOOD)
    for turn in range(2 * commitment._MOST_OPENED):
        assert not commitment.opens(V["commitment"], *GOOD[:3], turn + 100, *GOOD[4:])
    assert commitment.opens(V["commitment"], *GOOD)
    assert not commitment.opens(V["commitment"], *GOOD[:5], [GOOD[5]])  # a list: not held
