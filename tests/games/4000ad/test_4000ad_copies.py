"""What the rules core shares between the dicts it hands out, and that sharing changes nothing.

A resolution's working copy shares one canonical-order copy of the board data with the states
that follow (games/fourthousand_ad/world.py ``canonical_copy``), and the view builds each star's
entry from a per-board row (view.py ``_star_rows``). Resolving a state from a chain of
resolutions must give the same state and events, to the byte, as resolving a fresh JSON copy of
it; and no view may share a dict with another view, so nothing written into one power's view
reaches another's.
"""

from __future__ import annotations

import json
import random

from pbem import canonical
from tests.support.ad_driver import AD, Table, random_body


def _orders(t: Table, rng: random.Random) -> dict:
    orders = {}
    for power in AD.powers_due(t.state):
        norm, problems = t.check(power, random_body(t, power, rng))
        orders[power] = norm if not problems else AD.default_orders(t.state, power)
    return orders


def test_resolving_a_chained_state_equals_resolving_a_fresh_copy_of_it():
    """Forty resolutions in a row: each state (whose board data the previous resolution
    shares) and a fresh JSON copy of it (new board data, read again) resolve to the same
    canonical state and events (their key order included), neither input changes, every new
    state is in canonical key order, and the board data never changes."""
    rng = random.Random(17)
    t = Table("wild-4")
    boards = []
    for _ in range(40):
        if AD.is_over(t.state):
            break
        orders = _orders(t, rng)
        before = canonical.encode(t.state)
        fresh = json.loads(json.dumps(t.state))
        chained = AD.resolve(t.state, orders)
        again = AD.resolve(fresh, orders)
        assert canonical.encode(t.state) == before, "resolve changed its input"
        assert canonical.encode(fresh) == before
        assert canonical.encode(chained.state) == canonical.encode(again.state)
        assert json.dumps(chained.events) == json.dumps(again.events)  # key order too
        assert list(chained.state) == sorted(chained.state)  # canonical order, board included
        t.state = chained.state
        boards.append(t.state["board"])
    assert len(boards) >= 10
    assert all(b == boards[0] for b in boards)


def test_no_two_views_share_a_dict():
    """Writing into every star entry and ship count of one power's view changes neither another
    power's view of the same state nor a view made after."""
    t = Table("independents-4")
    rng = random.Random(5)
    for _ in range(6):
        t.state = AD.resolve(t.state, _orders(t, rng)).state
    powers = list(t.state["powers"])
    first = AD.view(t.state, powers[0])
    second = AD.view(t.state, powers[1])
    want = json.dumps(second)
    for entry in first["stars"].values():
        entry["holder"] = "spy"
        entry["ships"]["spy"] = 99
        entry["home_of"] = "spy"
    assert json.dumps(second) == want
    assert "spy" not in json.dumps(AD.view(t.state, powers[1]))
    assert "spy" not in json.dumps(AD.view(t.state, powers[0]))
