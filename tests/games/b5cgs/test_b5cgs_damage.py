"""Damage (E2) and the Scrap Yard (B3.7), rule by rule (games/b5cgs/damage.py)."""

from __future__ import annotations

import pytest

from tests.support.b5cgs_driver import PLUGIN, put
from tests.support.b5cgs_positions import BOB, SALLY, allocate, damage, economy, game

# base-2 in the stand-in pack: defense rating 4 undamaged, 2 crippled (E2's example token)


@pytest.mark.parametrize(("points", "result"), [(3, "none"), (4, "crippled"), (7, "crippled"),
                                                (8, "destroyed"), (20, "destroyed")])
def test_E2_2_E2_4_E2_5_undamaged_token_of_defense_rating_4(points, result):
    """"A token with a defense rating of 4 requires at least 4 damage to cripple" (E2.2);
    "twice the defense rating of the token or more, the token is destroyed" (E2.4); less is
    "insufficient (even by 1 point) ... no harm" (E2.5)."""
    st = game()
    t = put(st, "base-2", SALLY, "0,3")
    events = damage.apply(st, t, points, "test")
    assert events[0]["result"] == result and events[0]["points"] == points
    if result == "none":
        assert st["tokens"][t]["crippled"] is False
    elif result == "crippled":
        assert st["tokens"][t]["crippled"] is True and st["tokens"][t]["hex"] == "0,3"
    else:
        assert t not in st["tokens"]          # a base has no upkeep: set aside out of play


@pytest.mark.parametrize(("points", "result"), [(1, "none"), (2, "destroyed"),
                                                (9, "destroyed")])
def test_E2_3_crippled_token_destroyed_by_its_crippled_defense_rating(points, result):
    """"If a crippled token takes damaged equal to or greater than its defense rating it is
    destroyed" (the crippled side's rating, B4.21: 2 for the base-2)."""
    st = game()
    t = put(st, "base-2", SALLY, "0,3", crippled=True)
    events = damage.apply(st, t, points, "test")
    assert events[0]["result"] == result
    assert (t in st["tokens"]) == (result == "none")
    if result == "none":
        assert st["tokens"][t]["crippled"] is True


def test_E2_outcome_table_is_the_rule():
    """The thresholds themselves, both sides of every boundary."""
    assert [damage.outcome([4, 2], False, p) for p in range(10)] == (
        ["none"] * 4 + ["crippled"] * 4 + ["destroyed"] * 2)
    assert [damage.outcome([4, 2], True, p) for p in range(4)] == (
        ["none"] * 2 + ["destroyed"] * 2)


def test_E2_1_token_without_defense_rating_cannot_be_damaged():
    """"Only tokens with a defense rating may be damaged" (a mine has none)."""
    st = game()
    m = put(st, "mine-3", BOB, "0,3", facing=None)
    events = damage.apply(st, m, 30, "test")
    assert events[0]["result"] == "none" and m in st["tokens"]


def test_B3_7_destroyed_ship_goes_to_the_scrap_yard_and_keeps_its_upkeep():
    """"Tokens with upkeep are placed in the Scrap Yard when destroyed" (E2.3) and Total
    Upkeep is "your tokens on the map and any tokens in your Scrap Yard" (B3.12)."""
    st = game()
    put(st, "ea-base-8", BOB, "1,4")
    h = put(st, "ea-hyperion", BOB, "1,3", facing=4)
    before = economy.banks(st, BOB)
    events = damage.apply(st, h, 12, "test")           # 2 x DR 6: destroyed undamaged
    assert events[0]["result"] == "destroyed" and events[0]["goes"] == "scrap yard"
    tok = st["tokens"][h]
    assert tok["hex"] is None and tok["scrap"] is True and tok["crippled"] is False
    assert economy.banks(st, BOB) == before == {"gross": 8, "upkeep": 3, "net": 5,
                                                "reserve": 45}


def test_B3_7_rebuilding_from_the_scrap_yard_does_not_change_total_upkeep():
    """"You can rebuild these tokens (without altering your Total Upkeep)" (B3.7, D3.23);
    building a new one of the same type would add its upkeep."""
    st = game()
    st["powers"][BOB]["reserve"] = 40
    base = put(st, "ea-base-8", BOB, "1,4")
    h = put(st, "ea-hyperion", BOB, "1,3", facing=4)
    damage.apply(st, h, 12, "test")
    upkeep = economy.banks(st, BOB)["upkeep"]
    events = allocate.allocate(st, BOB, {"build": [
        {"token": "ea-hyperion", "hex": "0,4", "by": base, "from_scrap": h}]}, None)
    assert [e["type"] for e in events] == ["economy", "built"], events
    assert st["tokens"][h]["hex"] == "0,4" and st["tokens"][h]["scrap"] is False
    assert st["tokens"][h]["facing"] == 3              # facing the base (docked, D3.24)
    assert economy.banks(st, BOB)["upkeep"] == upkeep == 3
    allocate.allocate(st, BOB, {"build": [
        {"token": "ea-hyperion", "hex": "2,3", "by": base}]}, None)
    assert economy.banks(st, BOB)["upkeep"] == 6       # a new one from out of play


def test_damage_events_are_public():
    """Damage is seen by every player (the token is on the table): no event of this module
    is private (pbem.game.events: ``_visible_to`` restricts an event to the powers named)."""
    st = game()
    t = put(st, "ea-hyperion", BOB, "1,3", facing=4)
    b = put(st, "base-2", SALLY, "0,3")
    events = damage.apply(st, t, 12, "test") + damage.apply(st, b, 8, "test")
    assert all("_visible_to" not in e for e in events)
    for power in (BOB, SALLY, None):
        assert PLUGIN.view_events(events, power) == events
