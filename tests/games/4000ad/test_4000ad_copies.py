"""What the rules core shares between the dicts it hands out, and that sharing changes nothing.

A resolution's working copy shares one canonical-order copy of the board data with the states
that follow (games/fourthousand_ad/world.py ``canonical_copy``), and the view builds each star's
entry from a per-board row (view.py ``_star_rows``); the views of equal stars share one
``stars`` object. Resolving a state from a chain of resolutions must give the same state and
events, to the byte, as resolving a fresh JSON copy of it; and nothing written into one power's
view may reach another's: what views share refuses to be written.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable

import pytest

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


def test_nothing_written_into_a_view_reaches_another():
    """The views of one state share their stars (one object: encoded and drawn once per
    resolution), which refuse every write: writing into a star entry or a ship count of one
    power's view raises and changes neither another power's view nor a view made after. The
    rest of a view is its own (writing into its powers reaches no other view), and a copy of a
    view is plain data, free to change."""
    t = Table("independents-4")
    rng = random.Random(5)
    for _ in range(6):
        t.state = AD.resolve(t.state, _orders(t, rng)).state
    powers = list(t.state["powers"])
    first = AD.view(t.state, powers[0])
    second = AD.view(t.state, powers[1])
    assert first["stars"] is second["stars"] is AD.view(t.state, None)["stars"]
    want = json.dumps(second)
    writes: list[Callable[[dict], object]] = [
        lambda e: e.__setitem__("holder", "spy"), lambda e: e["ships"].__setitem__("spy", 99),
        lambda e: e.update(home_of="spy"), lambda e: e.pop("holder"),
        lambda e: e["ships"].clear(), lambda e: e.setdefault("spy", 1)]
    for entry in first["stars"].values():
        for write in writes:
            with pytest.raises(TypeError, match="never written to"):
                write(entry)
    with pytest.raises(TypeError):
        del first["stars"][next(iter(first["stars"]))]
    for entry in first["powers"].values():
        entry["home"] = "spy"
    assert json.dumps(second) == want
    assert "spy" not in json.dumps(AD.view(t.state, powers[1]))
    assert "spy" not in json.dumps(AD.view(t.state, powers[0]))
    for copied in (copy.deepcopy(first), pickle.loads(pickle.dumps(first)),
                   json.loads(json.dumps(first))):
        for entry in copied["stars"].values():
            entry["holder"] = "spy"
            entry["ships"]["spy"] = 99
        assert type(copied["stars"]) is dict
    shallow = copy.copy(first["stars"])
    shallow["Nowhere"] = {}
    assert "Nowhere" not in AD.view(t.state, powers[0])["stars"]
    assert json.dumps(second) == want


def test_the_shared_stars_follow_the_state():
    """A state changed in place (tests do it; the rules never do) gets a view of its stars as
    they are now, never the stars a view of it showed before."""
    t = Table("independents-4")
    state = t.state
    power = next(iter(state["powers"]))
    before = AD.view(state, power)["stars"]
    star = next(name for name, entry in state["stars"].items() if entry.get("ships"))
    state["stars"][star]["ships"][power] += 5
    after = AD.view(state, power)["stars"]
    assert after is not before
    assert after[star]["ships"][power] == before[star]["ships"][power] + 5
