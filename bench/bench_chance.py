"""The fair-chance protocol's cost per step (docs/protocol.md, "Fair chance").

Floor: the raw SHA-256 calls the same work needs, made with hashlib on byte strings of the same
sizes in the same run; the ratio is what the Python around the hashes (framing, rejection
sampling, bookkeeping) costs on top of the hashing that cannot be avoided.

* a step: check the referee's value and four players' values against the previous step (one hash
  each), derive S_pub and S_sec, roll 100 d6 on one labelled stream;
* the referee's value for a step once the chain's checkpoints are in memory (at most 255 hashes);
* the referee's value for step 1 in a fresh process (one walk of N - 1 hashes).
"""

from __future__ import annotations

import hashlib

from bench.report import line, median_seconds
from pbem.chance.chain import EVERY, HashChain, N, sha256
from pbem.chance.player import check_player_reveal, player_chain
from pbem.chance.referee import RefereeChance, chain_start, check_referee_reveal
from pbem.chance.step import PUBLIC_TAG, SECRET_TAG, StepChance
from pbem.framing import field

GAME = "andromeda-7"
POWERS = ("algol", "capella", "regulus", "vega")
D6 = (1, 2, 3, 4, 5, 6)
LABEL = "battle:Vega:attacker"
STEP = 10


def raw_hashes(messages: list[bytes]) -> None:
    h = hashlib.sha256
    for m in messages:
        h(m).digest()


def run() -> None:
    referee = RefereeChance(bytes(range(32)), GAME, bytes(16))
    chains = {p: player_chain(sha256(p.encode())) for p in POWERS}
    r_prev, r_t = referee.reveal(STEP - 1), referee.reveal(STEP)
    prev = {p: c.element(STEP - 1) for p, c in chains.items()}
    values: dict[str, bytes | None] = {p: c.element(STEP) for p, c in chains.items()}

    def step() -> StepChance:
        check_referee_reveal(r_t, STEP, r_prev, STEP - 1)
        for p in POWERS:
            check_player_reveal(p, values[p] or b"", STEP, prev[p], STEP - 1)
        chance = StepChance(GAME, STEP, r_t, values, referee.k)
        chance.public(LABEL).roll(D6, 100)
        return chance

    done = step()
    s_pub = done.public_seed
    preimage = (PUBLIC_TAG + field(GAME.encode()) + field(str(STEP).encode()) + field(r_t)
                + b"".join(field(p.encode()) + field(values[p] or b"") for p in sorted(values)))
    messages = [r_t] + [values[p] or b"" for p in POWERS] + [
        preimage, SECRET_TAG + field(referee.k) + field(s_pub)]
    block_input = s_pub + field(LABEL.encode()) + bytes(8)
    messages += [block_input] * done.blocks_used
    assert sha256(preimage) == s_pub
    cost = median_seconds(step, repeat=7, number=200)
    floor = median_seconds(lambda: raw_hashes(messages), repeat=7, number=200)
    line("chance: derive one step's seeds and 100 d6 rolls", cost * 1e3, "ms", floor * 1e3)

    # The referee's value per step with checkpoints in memory: steps 1..EVERY cover every
    # distance from a checkpoint once, so the mean is the steady-state cost.
    warm = HashChain(chain_start(referee.k))
    warm.element(1)
    steps = range(1, EVERY + 1)
    walked = sum((N - t) % EVERY for t in steps)
    cost = median_seconds(lambda: [warm.element(t) for t in steps], repeat=5, number=2)
    zero = bytes(32)
    floor = median_seconds(lambda: raw_hashes([zero] * walked), repeat=5, number=2)
    line("chance: referee's value for a step, checkpoints in memory", cost * 1e3 / EVERY, "ms",
         floor * 1e3 / EVERY)

    cold = median_seconds(lambda: HashChain(chain_start(referee.k)).element(1), repeat=3)
    floor = median_seconds(lambda: raw_hashes([zero] * (N - 1)), repeat=3)
    line("chance: referee's value for step 1, first walk in a process", cold * 1e3, "ms",
         floor * 1e3)


if __name__ == "__main__":
    run()
