"""The resolution's working copy (world.canonical_copy) is the JSON round trip of the state in
canonical key order, made in Python: equal values, the same key order at every level, tuples as
lists, and nothing shared with the state but the board and immutable leaves."""

from __future__ import annotations

import importlib
import json
from typing import Any

from pbem import canonical
from tests.support.ad_driver import AD, Table  # loads the game, so its package imports

canonical_copy = importlib.import_module("fourthousand_ad.world").canonical_copy


def _order(value: Any) -> Any:
    """The value with every mapping's key order made visible (as lists of pairs)."""
    if isinstance(value, dict):
        return [[k, _order(v)] for k, v in value.items()]
    if isinstance(value, list):
        return [_order(v) for v in value]
    return value


def _containers(value: Any) -> list[int]:
    if isinstance(value, dict):
        return [id(value), *(i for v in value.values() for i in _containers(v))]
    if isinstance(value, list):
        return [id(value), *(i for v in value for i in _containers(v))]
    return []


def test_the_working_copy_is_the_canonical_json_round_trip() -> None:
    t = Table("wild-4")
    for _ in range(6):
        state = t.state
        copied = canonical_copy(state)
        want = json.loads(canonical.dumps(state))
        assert copied == want and _order(copied) == _order(want)
        mine = {k: v for k, v in copied.items() if k != "board"}
        theirs = {k: v for k, v in state.items() if k != "board"}
        assert not set(_containers(mine)) & set(_containers(theirs))
        t.state = AD.resolve(state, {p: AD.default_orders(state, p)
                                     for p in AD.powers_due(state)}).state


def test_tuples_become_lists_and_other_keys_take_the_json_round_trip() -> None:
    state = {**Table().state, "extra": {"b": (1, (2, 3)), "a": [{"z": 1, "y": 2}]}}
    copied = canonical_copy(state)
    assert copied["extra"] == {"a": [{"y": 2, "z": 1}], "b": [1, [2, 3]]}
    assert list(copied["extra"]) == ["a", "b"]
    odd = {**Table().state, "extra": {1: "one"}}
    assert canonical_copy(odd)["extra"] == {"1": "one"}
