"""The rules core: resolving one simultaneous round of a four-power 4000 A.D. game.

Floor: the rules core works on a private copy of the state (a JSON round trip, so the input is
never mutated); that copy is measured on the same state in the same run and used as the floor,
so the ratio is what the rules themselves cost on top of the unavoidable copy.
"""

from __future__ import annotations

import json
import random

from bench.report import line, median_seconds
from tests.support.ad_driver import AD, Table, random_body


def midgame(seed: int = 7, rounds: int = 12) -> Table:
    rng = random.Random(seed)
    t = Table("independents-4")
    for _ in range(rounds):
        t.play(**{p: random_body(t, p, rng) for p in AD.powers_due(t.state)})
    return t


def run() -> None:
    t = midgame()
    rng = random.Random(11)
    orders = {}
    for power in AD.powers_due(t.state):
        norm, problems = t.check(power, random_body(t, power, rng))
        orders[power] = norm
    state = t.state
    resolve = median_seconds(lambda: AD.resolve(state, orders), repeat=7, number=50)
    copy = median_seconds(lambda: json.loads(json.dumps(state)), repeat=7, number=50)
    line("rules: resolve one four-power round", resolve * 1e3, "ms", copy * 1e3)
    view = median_seconds(lambda: AD.view(state, "algol"), repeat=7, number=50)
    line("rules: one power's view", view * 1e3, "ms", copy * 1e3)


if __name__ == "__main__":
    run()
