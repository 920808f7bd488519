"""Hostile or malformed order sections: the econ checkers answer with problems (paths under the
section's own key) and never raise; the phase functions, handed anything, change nothing."""

from __future__ import annotations

import copy

import pytest

from tests.support.b5cgs_driver import PLUGIN, ScriptedChance, put
from tests.support.b5cgs_positions import BOB, SALLY, allocate, bob_at_home, economy, fire, game

JUNK = [1, "x", [1, 2], {"a": 1}, None, True, 10**40, [{"target": [1], "with": {"x": 1}}],
        {"build": "all"}, {"build": [{"token": ["ea-transport"], "hex": {}, "by": 7}]},
        {"repair": [{"token": {"t1": 1}}]}, {"mines": [None, 3]},
        {"declare": ["economic"], "surrender": "yes"},
        [{"target": "t1", "with": ["t1"] * 50}], [{"target": "t1", "with": [], "else": "t2"}]]


def position():
    st = game()
    bob_at_home(st, 30)
    put(st, "ea-olympus", BOB, "3,4", facing=1)
    put(st, "mf-flyer", SALLY, "3,3", facing=1)
    st["powers"][BOB]["turns"] = 2
    return st


@pytest.mark.parametrize("junk", JUNK, ids=[str(i) for i in range(len(JUNK))])
def test_checkers_never_raise_and_name_the_section(junk):
    st = position()
    view = PLUGIN.view(st, BOB)
    for check, key in ((economy.check_record, "record"), (allocate.check_allocate, "allocate"),
                       (fire.check_fire, "fire")):
        normalized, problems = check(junk, view)
        if junk is None:
            assert problems == []
        for p in problems:
            assert p.path.startswith(key) and p.message
        if problems:
            assert not any(normalized.values()) if isinstance(normalized, dict) else \
                normalized == []


@pytest.mark.parametrize("junk", JUNK, ids=[str(i) for i in range(len(JUNK))])
def test_phase_functions_given_junk_change_nothing_but_the_economy(junk):
    st = position()
    before = copy.deepcopy(st)
    events = allocate.allocate(st, BOB, junk, ScriptedChance())
    assert all(e["type"] == "allocate_void" for e in events)
    events = fire.fire(st, BOB, junk, ScriptedChance())
    assert all(e["type"] in ("volley_void", "fire_skipped") for e in events)
    assert st["tokens"] == before["tokens"]
    assert st["powers"][BOB]["reserve"] == before["powers"][BOB]["reserve"]
    economy.record_keeping(st, BOB, junk, ScriptedChance())
    assert st["powers"][BOB]["declared"] is None and not st["powers"][BOB]["surrendered"]
