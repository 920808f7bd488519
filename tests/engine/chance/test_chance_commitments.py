"""Chains and commitments: honest values verify, a tampered referee value, player value or K is
caught with a sentence naming who and which step, a player who withholds changes only his own
contribution, and the vault and referee key hold what the protocol needs."""

from __future__ import annotations

import hashlib
import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.chance.chain import EVERY, HashChain, iterate
from pbem.chance.errors import ChanceError, ChanceMismatch
from pbem.chance.player import (
    check_player_reveal,
    new_seed,
    player_chain,
    player_reveal,
    player_tip,
)
from pbem.chance.published import verify_block
from pbem.chance.referee import RefereeChance, check_referee_reveal, check_secret, new_nonce
from pbem.chance.step import StepChance
from pbem.framing import field
from pbem.protocol.keys import PrivateKey
from pbem.protocol.vault import Vault, VaultError
from pbem.store.referee import referee_key

GAME = "andromeda-7"


@pytest.fixture(scope="module")
def referee(tmp_path_factory) -> RefereeChance:
    """The chance material of a referee key made the way ``pbem new`` makes it."""
    key, created = referee_key(tmp_path_factory.mktemp("root"), create=True)
    assert created
    return RefereeChance(key.raw(), GAME, new_nonce())


def flip(value: bytes) -> bytes:
    return bytes([value[0] ^ 1]) + value[1:]


def test_the_referee_key_gives_32_raw_bytes_that_rebuild_it():
    key = PrivateKey.generate()
    again = PrivateKey(Ed25519PrivateKey.from_private_bytes(key.raw()))
    assert len(key.raw()) == 32 and again.public == key.public


def test_referee_values_verify_against_the_tip_and_each_other(referee):
    tip = referee.commitments().referee_tip
    r = {t: referee.reveal(t) for t in (1, 2, 3, 7)}
    check_referee_reveal(r[1], 1, tip)
    check_referee_reveal(r[3], 3, r[2], 2)
    check_referee_reveal(r[7], 7, r[3], 3)  # a gap is spanned by hashing
    check_referee_reveal(r[7], 7, tip)


def test_a_tampered_referee_value_is_caught(referee):
    tip = referee.commitments().referee_tip
    with pytest.raises(ChanceMismatch, match=r"^referee: the value for step 3 .* does not hash "
                       "to the value revealed for step 2$"):
        check_referee_reveal(flip(referee.reveal(3)), 3, referee.reveal(2), 2)
    with pytest.raises(ChanceMismatch, match="does not hash to the committed tip"):
        check_referee_reveal(referee.reveal(2), 1, tip)  # the right value for the wrong step
    with pytest.raises(ChanceMismatch, match="must come after the last known value"):
        check_referee_reveal(referee.reveal(2), 2, referee.reveal(2), 2)


def test_a_tampered_secret_is_caught(referee):
    commit = referee.commitments().secret_commit
    check_secret(referee.k, commit)
    with pytest.raises(ChanceMismatch, match="referee: the revealed secret K .* does not match "
                       "the secret_commit recorded at genesis"):
        check_secret(flip(referee.k), commit)
    other = RefereeChance(PrivateKey.generate().raw(), GAME, referee.nonce)
    with pytest.raises(ChanceMismatch):
        check_secret(other.k, commit)


def test_the_genesis_nonce_makes_a_reused_game_id_a_new_secret(referee):
    """The same referee key and game id with another nonce: unrelated K, tip and commitment."""
    key_bytes = bytes(range(32))
    a = RefereeChance(key_bytes, GAME, bytes(16))
    b = RefereeChance(key_bytes, GAME, bytes(15) + b"\x01")
    assert a.k != b.k and a.commitments().referee_tip != b.commitments().referee_tip
    assert RefereeChance(key_bytes, GAME, bytes(16)).k == a.k  # and derivation is repeatable


def test_player_values_verify_and_a_tampered_one_names_the_power():
    seed = new_seed()
    chain = player_chain(seed)
    tip = player_tip(seed)
    check_player_reveal("algol", chain.element(1), 1, tip)
    check_player_reveal("algol", chain.element(5), 5, chain.element(2), 2)  # missed 3 and 4
    with pytest.raises(ChanceMismatch, match=r"^algol: the value for step 5 .* does not hash to "
                       "the value revealed for step 2$"):
        check_player_reveal("algol", flip(chain.element(5)), 5, chain.element(2), 2)
    stranger = player_chain(new_seed())
    with pytest.raises(ChanceMismatch, match="^algol: .*committed tip"):
        check_player_reveal("algol", stranger.element(1), 1, tip)


def spub_preimage(chance: StepChance) -> list[bytes]:
    """S_pub's hashed fields, one per item (the documented layout)."""
    parts = [b"pbem-random-v1", field(chance.game.encode()), field(str(chance.step).encode()),
             field(chance.referee)]
    for p in sorted(chance.players):
        parts.append(field(p.encode()) + field(chance.players[p] or b""))
    assert hashlib.sha256(b"".join(parts)).digest() == chance.public_seed
    return parts


def test_a_player_who_withholds_changes_only_his_own_contribution(referee):
    chains = {p: player_chain(new_seed()) for p in ("algol", "regulus", "sirius")}
    r3 = referee.reveal(3)
    full = StepChance(GAME, 3, r3, {p: c.element(3) for p, c in chains.items()})
    withheld = StepChance(GAME, 3, r3, {"algol": chains["algol"].element(3),
                                        "regulus": chains["regulus"].element(3), "sirius": None})
    a, b = spub_preimage(full), spub_preimage(withheld)
    differing = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    assert len(differing) == 1 and b[differing[0]] == field(b"sirius") + field(b"")
    assert full.inputs()["players"]["regulus"] == withheld.inputs()["players"]["regulus"]
    # The step still draws (the game never waits), and publishes its null.
    assert len(withheld.public("d6").roll([1, 2, 3, 4, 5, 6], 5)) == 5
    assert withheld.published()["players"]["sirius"] is None
    assert verify_block(withheld.published()).draws == 1
    # His next value still verifies, against the last one he revealed (step 2).
    check_player_reveal("sirius", chains["sirius"].element(4), 4, chains["sirius"].element(2), 2)


def test_hidden_draws_need_k():
    chance = StepChance(GAME, 1, bytes(32), {})
    with pytest.raises(ChanceError, match="hidden draws need the referee's secret K"):
        chance.secret("deal")
    with pytest.raises(ChanceError, match="32 bytes"):
        StepChance(GAME, 1, bytes(31), {})
    with pytest.raises(ChanceError, match="algol: a revealed value is 32 bytes"):
        StepChance(GAME, 1, bytes(32), {"algol": b"short"})
    with pytest.raises(ChanceError, match="a drawing step is a whole number >= 1"):
        StepChance(GAME, 0, bytes(32), {})


def test_chain_checkpoints_give_the_same_values_and_can_be_handed_back():
    start = hashlib.sha256(b"start").digest()
    chain = HashChain(start, length=3000)
    for t in (2999, 5, 1234, 0, 3000, 17, 2048):
        assert chain.element(t) == iterate(start, 3000 - t)
    marks = chain.checkpoints
    assert len(marks) == 3000 // EVERY + 1 and marks[1] == iterate(start, EVERY)
    again = HashChain(start, length=3000, checkpoints=marks)
    assert again.element(700) == chain.element(700)
    with pytest.raises(ChanceError, match="another chain"):
        HashChain(hashlib.sha256(b"other").digest(), length=3000, checkpoints=marks)
    with pytest.raises(ChanceError, match="outside the chain"):
        chain.element(3001)


def test_threads_walking_one_chain_keep_its_checkpoints_right():
    """A chain kept for a process (the referee's per game, the player's per seed) may be walked
    by several threads at once: each mark is added once, in its place, and every value stays
    the chain's."""
    start = hashlib.sha256(b"threads").digest()
    chain = HashChain(start, length=5000)
    steps = [5000 - 7 * i for i in range(700)]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(chain.element, steps))
    assert got == [iterate(start, 5000 - t) for t in steps]
    assert chain.checkpoints == [iterate(start, EVERY * i) for i in range(len(chain.checkpoints))]


def test_a_players_values_come_from_his_kept_chain():
    """player_tip and player_reveal give a fresh chain's values, from one chain kept per seed
    (``pbem orders sign`` walks N hashes once per process, not once per value)."""
    seed = new_seed()
    fresh = player_chain(seed)
    assert player_tip(seed) == fresh.tip
    for step in (1, 300, 2, 40_000):
        assert player_reveal(seed, step) == fresh.element(step)
    with pytest.raises(ChanceError, match="32 bytes"):
        player_tip(b"short")


def test_the_vault_keeps_chance_seeds_by_tip(tmp_path):
    path = tmp_path / "vault.json"
    vault = Vault.load(path)
    seed = new_seed()
    tip = player_tip(seed).hex()
    vault.add_chance_seed(GAME, "algol", seed.hex(), tip)
    vault.add_chance_seed(GAME, "algol", seed.hex(), tip)  # a repeat is ignored
    vault.save()
    loaded = Vault.load(path)
    assert loaded.chance_seed(GAME, "algol", tip) == seed.hex()
    assert loaded.chance_seed(GAME, "algol", "0" * 64) is None
    data = json.loads(path.read_text())
    assert data["games"][GAME]["algol"] == {"departures": [],
                                            "chance": [{"seed": seed.hex(), "tip": tip}]}
    data["games"][GAME]["algol"]["chance"][0]["tip"] = "not hex"
    path.write_text(json.dumps(data))
    with pytest.raises(VaultError, match="chance must be a list of"):
        Vault.load(path)
    with pytest.raises(VaultError, match="64 lower-case hex"):
        vault.add_chance_seed(GAME, "algol", "xyz", tip)


def test_a_vault_without_chance_seeds_is_written_as_before(tmp_path):
    path = tmp_path / "vault.json"
    path.write_text(json.dumps({"pbem_vault": 1, "games": {GAME: {"algol": {"departures": []}}}}))
    assert Vault.load(path).to_json() == {"pbem_vault": 1,
                                          "games": {GAME: {"algol": {"departures": []}}}}


def test_the_revealed_secret_must_also_make_the_referee_tip(referee):
    commits = referee.commitments()
    check_secret(referee.k, commits.secret_commit, commits.referee_tip)
    with pytest.raises(ChanceMismatch, match="does not make the referee_tip"):
        check_secret(referee.k, commits.secret_commit, flip(commits.referee_tip))


@pytest.mark.parametrize("change,message", [
    ({"tips": {"players": ["algol"]}}, "tips.players: must be a mapping"),
    ({"tips": "x"}, "tips: must be a mapping"),
    ({"players": {"algol": "AB" * 32}}, "players.algol: must be 64 lower-case hex digits"),
    ({"step": 0}, "step: must be a whole number >= 1"),
    ({"draws": [{"label": "x", "kind": "roll", "faces": [1], "count": 10**7, "result": []}]},
     "draws: more than 1000000 values"),
    ({"pbem_chance": 2}, "not a version-1 pbem chance block"),
])
def test_a_malformed_block_is_one_clear_error(change, message):
    block = StepChance(GAME, 2, bytes(32), {"algol": None}).published()
    block.update(change)
    with pytest.raises(ChanceError, match=message.replace("(", r"\(")):
        verify_block(block)
