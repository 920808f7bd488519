"""The econ phases inside whole turns (turn.py): Record Keeping, Allocate and Fire in one order
file, and a contested-space answer given in one player's orders used in another's turn."""

from __future__ import annotations

from tests.support.b5cgs_driver import PLUGIN, ScriptedChance, put, turn
from tests.support.b5cgs_positions import BOB, SALLY, bob_at_home, economy, game, of_type


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
    """D3.42 by mail: the answer stands until changed (STATE.md ``contested``). Contested
    space is modular (A4): rules version 3 plays it in the modular variants (ruling E4)."""
    st = game("modular-3")
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


def test_a_ship_bought_this_turn_is_named_by_its_coming_id_in_fire_and_allocate():
    """RULES.md R18: tokens get ids in the order bought, so the orders may name a ship of the
    starting fleet (bought before Allocate and Fire) by the id it will get; the check places
    it as the referee will and judges it with the referee's rules, so what the referee would
    void or skip is refused with his reason. Rules version 2, where the starting fleet is
    bought in the first turn (ruling R7)."""
    st = game(version=2)
    bob_at_home(st, 45)
    flyer = put(st, "mf-flyer", SALLY, "1,2", facing=4)
    coming = f"t{st['next_token']}"
    body = {"start": [{"token": "ea-hyperion", "hex": "1,3", "facing": 1}],
            "allocate": {"repair": [{"token": coming}]},
            "fire": [{"target": flyer, "with": [coming, f"t{st['next_token'] + 5}"]}]}
    _, problems = PLUGIN.normalize_orders(body, PLUGIN.view(st, BOB))
    assert [(p.path, p.message) for p in problems] == [
        ("allocate.repair[0]", f"{coming} is not crippled (D3.31)"),
        ("fire[0].with[1]", f"t{st['next_token'] + 5} is not one of your units on the map")]
    body = {"start": body["start"], "fire": [{"target": flyer, "with": [coming]}]}
    normalized, problems = PLUGIN.normalize_orders(body, PLUGIN.view(st, BOB))
    assert problems == []
    new, events = turn.resolve(st, {BOB: normalized},
                               ScriptedChance(rolls={"fire0:dg": [[0]]}))
    assert of_type(events, "placed")[0]["token"] == coming
    assert of_type(events, "volley_total")[0]["scores"] == {coming: {"heavy": 3, "laser": 2}}
    assert new["tokens"][flyer]["crippled"] is True          # 5: DR 4 <= 5 < 8
