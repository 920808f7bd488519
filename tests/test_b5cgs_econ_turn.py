"""The econ phases inside whole turns (turn.py): Record Keeping, Allocate and Fire in one order
file, and a contested-space answer given in one player's orders used in another's turn."""

from __future__ import annotations

from tests.b5cgs_driver import PLUGIN, ScriptedChance, put, turn
from tests.b5cgs_positions import BOB, SALLY, bob_at_home, economy, game, of_type


def test_one_turn_record_allocate_fire_in_order():
    st = game()
    bases = bob_at_home(st, 10)
    gunner = put(st, "ea-olympus", BOB, "3,4", facing=1)
    target = put(st, "mf-flyer", SALLY, "3,3", facing=1)
    st["powers"][BOB]["turns"] = 4
    body = {"record": {}, "allocate": {"build": [
        {"token": "ea-transport", "hex": "1,3", "by": bases["base8"]}]},
            "fire": [{"target": target, "with": [gunner]}]}
    normalized, problems = PLUGIN.normalize_orders(body, PLUGIN.view(st, BOB))
    assert problems == []
    new, events = turn.resolve(st, {BOB: normalized}, ScriptedChance(rolls={"fire0:dg": [[0]]}))
    kinds = [e["type"] for e in events if e["type"] in ("economy", "built", "volley", "damage")]
    assert kinds == ["economy", "economy", "built", "volley", "damage"]
    assert [e["reserve"] for e in of_type(events, "economy")] == [18, 12]   # 10+8 (D1.2), -6
    assert new["tokens"][target]["crippled"] is True
    assert new["powers"][SALLY]["war_tokens"] == [BOB]
    assert economy.banks(new, BOB) == {"gross": 10, "upkeep": 4, "net": 6, "reserve": 12}


def test_contested_answer_given_in_sallys_orders_used_in_bobs_turn():
    """D3.42 by mail: the answer stands until changed (STATE.md ``contested``)."""
    st = game()
    bases = bob_at_home(st, 10)
    put(st, "mf-cruiser", SALLY, "1,2", facing=4)             # next to 1,3
    st["current"] = SALLY
    st["powers"][SALLY]["turns"] = 1
    answer = {"contested": {"default": "deny", "allow": [BOB], "deny": []}}
    body, problems = PLUGIN.normalize_orders(answer, PLUGIN.view(st, SALLY))
    assert problems == []
    st, _ = turn.resolve(st, {SALLY: body}, ScriptedChance())
    st["current"] = BOB
    order = {"allocate": {"build": [{"token": "ea-transport", "hex": "1,3",
                                     "by": bases["base8"]}]}}
    new, events = turn.resolve(st, {BOB: order}, ScriptedChance())
    assert of_type(events, "built") and not of_type(events, "allocate_void")
