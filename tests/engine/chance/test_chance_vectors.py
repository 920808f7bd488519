"""The fair-chance test vectors of docs/protocol.md ("Chance test vectors"), recomputed from the
document's text by the code and, where short, by an independent re-implementation of the
documented construction."""

from __future__ import annotations

import hashlib
import hmac

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.chance.chain import N, iterate
from pbem.chance.player import player_chain, player_reveal, player_tip
from pbem.chance.referee import RefereeChance, chain_start, derive_k, secret_commit
from pbem.chance.step import StepChance, public_seed, secret_seed
from pbem.chance.stream import Stream
from pbem.framing import field
from pbem.protocol.keys import PrivateKey
from tests.support.vectors import vector, vector_names


def h(text: str) -> bytes:
    return bytes.fromhex(text)


def test_the_doc_has_every_chance_vector():
    assert {"chance-referee", "chance-players", "chance-step-1", "chance-d6", "chance-shuffle",
            "chance-below"} <= set(vector_names())


def test_referee_vector():
    v = vector("chance-referee")
    key = PrivateKey(Ed25519PrivateKey.from_private_bytes(h(v["referee_private"])))
    assert key.raw() == h(v["referee_private"])
    k = derive_k(key.raw(), v["game"], h(v["nonce"]))
    assert k.hex() == v["k"]
    # RFC 5869 by hand: extract with an all-zero salt, one expand block.
    prk = hmac.new(b"\0" * 32, key.raw(), "sha256").digest()
    info = b"pbem-random-v1" + field(v["game"].encode()) + field(h(v["nonce"]))
    assert hmac.new(prk, info + b"\x01", "sha256").hexdigest() == v["k"]
    assert chain_start(k).hex() == v["chain_start"]
    assert hashlib.sha256(b"pbem-chain-v1" + k).hexdigest() == v["chain_start"]
    assert secret_commit(k).hex() == v["secret_commit"]
    assert hashlib.sha256(b"pbem-secret-v1" + k).hexdigest() == v["secret_commit"]
    referee = RefereeChance(key.raw(), v["game"], h(v["nonce"]))
    assert referee.commitments().to_json() == {
        "nonce": v["nonce"], "referee_tip": v["referee_tip"], "secret_commit": v["secret_commit"]}
    assert iterate(h(v["chain_start"]), N).hex() == v["referee_tip"]
    assert referee.reveal(1).hex() == v["r_1"] and referee.reveal(2).hex() == v["r_2"]
    assert hashlib.sha256(h(v["r_1"])).hexdigest() == v["referee_tip"]
    assert hashlib.sha256(h(v["r_2"])).hexdigest() == v["r_1"]


def test_players_vector():
    v = vector("chance-players")
    for name in ("algol", "regulus"):
        seed = h(v[f"{name}_seed"])
        assert player_tip(seed).hex() == v[f"{name}_tip"]
        assert iterate(hashlib.sha256(seed).digest(), N).hex() == v[f"{name}_tip"]
        assert player_reveal(seed, 1).hex() == v[f"{name}_e_1"]
        assert hashlib.sha256(h(v[f"{name}_e_1"])).hexdigest() == v[f"{name}_tip"]
    assert player_chain(h(v["algol_seed"])).element(2).hex() == v["algol_e_2"]


def step_inputs() -> tuple[str, int, bytes, dict[str, bytes | None], bytes]:
    ref, players, step = vector("chance-referee"), vector("chance-players"), vector("chance-step-1")
    # the seed takes the due and the listened powers alike, sorted by name
    values = {p: (h(players[f"{p}_e_1"]) if f"{p}_e_1" in players else None)
              for p in step["due"].split() + step["listens"].split()}
    return ref["game"], int(step["step"]), h(ref["r_1"]), values, h(ref["k"])


def test_step_vector():
    v = vector("chance-step-1")
    game, step, r_1, values, k = step_inputs()
    assert values["sirius"] is None
    preimage = (b"pbem-random-v1" + field(game.encode()) + field(str(step).encode())
                + field(r_1) + b"".join(field(p.encode()) + field(values[p] or b"")
                                        for p in sorted(values)))
    assert preimage.hex() == v["public_seed_preimage"]
    assert hashlib.sha256(preimage).hexdigest() == v["public_seed"]
    assert public_seed(game, step, r_1, values).hex() == v["public_seed"]
    assert secret_seed(k, h(v["public_seed"])).hex() == v["secret_seed"]
    assert hashlib.sha256(b"pbem-random-secret-v1" + field(k) + field(h(v["public_seed"]))
                          ).hexdigest() == v["secret_seed"]
    chance = StepChance(game, step, r_1, values, k)
    assert chance.public_seed.hex() == v["public_seed"]


def test_d6_vector():
    v = vector("chance-d6")
    faces = [int(f) for f in v["faces"].split()]
    block_0 = hashlib.sha256(h(v["seed"]) + field(v["label"].encode()) + bytes(8)).digest()
    assert block_0.hex() == v["block_0"]
    rolls = Stream(h(v["seed"]), v["label"]).roll(faces, 10)
    assert rolls == [int(r) for r in v["rolls"].split()]
    # By hand from the documented rule: low 3 bits of each byte, values 6 and 7 rejected.
    by_hand = [faces[b & 7] for b in block_0 if b & 7 < 6][:10]
    assert by_hand == rolls
    # And through the step object, as a game's resolve sees it.
    game, step, r_1, values, k = step_inputs()
    assert StepChance(game, step, r_1, values, k).public(v["label"]).roll(faces, 10) == rolls


def test_shuffle_vector():
    v = vector("chance-shuffle")
    items = v["items"].split()
    assert Stream(h(v["seed"]), v["label"]).shuffle(items) == v["shuffled"].split()
    game, step, r_1, values, k = step_inputs()
    chance = StepChance(game, step, r_1, values, k)
    assert chance.secret(v["label"]).shuffle(items) == v["shuffled"].split()
    assert chance.draws.of("secret")[0].result == [items.index(x) for x in v["shuffled"].split()]


def test_below_vector():
    v = vector("chance-below")
    s = Stream(h(v["seed"]), v["label"])
    assert [s.below(3) for _ in range(5)] == [int(x) for x in v["below_3"].split()]
    assert [s.below(2**64 + 1) for _ in range(2)] == [int(x) for x in v["below_2^64+1"].split()]
    assert [s.below(256) for _ in range(3)] == [int(x) for x in v["below_256"].split()]
