"""The Ashes of Empire on fair chance (pbem.chance.StepChance): the one shuffle is the only
secret draw, every later step resolves without the referee's secret K (so every player can
recheck every die from the published block), each battle event's dice are the draws the block
publishes under the event's labels, and the same inputs replay the same game."""

from __future__ import annotations

import hashlib
import json
import random

from pbem import canonical
from pbem.chance.step import StepChance
from tests.support.ashes_driver import PLUGIN, check_conservation
from tests.support.ashes_play import random_orders

K = hashlib.sha256(b"referee secret K (test)").digest()


def chance_for(state, k=K):
    step = state["turn"]
    referee = hashlib.sha256(f"referee {step}".encode()).digest()
    players = {p: hashlib.sha256(f"{p} {step}".encode()).digest()
               for p in PLUGIN.powers_due(state)}
    return StepChance(state["game_id"], step, referee, players, k)


def test_a_game_on_fair_chance_secret_shuffle_public_dice_replayable():
    rng = random.Random(7)
    state = PLUGIN.setup("rounds-3", {"game_id": "fair-1"})
    battles = 0
    for _ in range(300):
        if PLUGIN.is_over(state):
            break
        orders = {p: PLUGIN.normalize_orders(random_orders(PLUGIN.view(state, p), rng),
                                             PLUGIN.view(state, p))[0]
                  for p in PLUGIN.powers_due(state)}
        chance = chance_for(state)
        result = PLUGIN.resolve(state, orders, chance)
        check_conservation(result.state)
        secret = [d.label for d in chance.draws.of("secret")]
        assert secret == (["shuffle:deck"] if state["phase"] == "deal" else [])
        published = {d["label"]: d["result"] for d in chance.published()["draws"]
                     if d["kind"] == "roll"}
        for e in result.events:
            if e["type"] == "battle":
                battles += 1
                assert published[e["attacker_label"]] == e["attacker_dice"]
                assert published[e["defender_label"]] == e["defender_dice"]
        if state["phase"] == "play":  # a player without K recomputes the whole step
            again = PLUGIN.resolve(json.loads(json.dumps(state)), orders,
                                   chance_for(state, k=None))
            assert canonical.encode(again.state) == canonical.encode(result.state)
            assert canonical.encode(again.events) == canonical.encode(result.events)
        state = result.state
    assert PLUGIN.is_over(state) and battles > 0
