"""The Scoring Banks (B3.1) and Record Keeping (D1), rule by rule and example by example, each
from its own starting position (games/b5cgs/economy.py)."""

from __future__ import annotations

from tests.support.b5cgs_driver import PLUGIN, ScriptedChance, put, turn
from tests.support.b5cgs_positions import (
    BOB,
    JIM,
    SALLY,
    bob_at_home,
    economy,
    expose_piece,
    game,
    hexes_of,
    of_type,
)


def bob_fleet(st):
    """Bob's C4.3 fleet: Earth Base-8 and Base-2 (Gross 10), a Hyperion (upkeep 3) and a
    Transport (upkeep 2): Net 5."""
    put(st, "ea-hyperion", BOB, "1,3", facing=4)
    put(st, "ea-transport", BOB, "0,4", facing=3)


def test_B3_1_banks_gross_upkeep_net_reserve():
    """Gross: "The sum of the Economy Indicators on all of your bases on the map" (B3.11);
    Total Upkeep: "your tokens on the map and any tokens in your Scrap Yard" (B3.12); Net
    "equals Gross Economy minus Total Upkeep" (B3.13). Another player's tokens count for him."""
    st = game()
    bob_at_home(st, 27)
    bob_fleet(st)
    put(st, "mf-cruiser", SALLY, "3,3", facing=1)
    scrapped = put(st, "ea-olympus", BOB, "2,3", facing=1)
    st["tokens"][scrapped].update({"hex": None, "scrap": True})
    assert economy.banks(st, BOB) == {"gross": 10, "upkeep": 7, "net": 3, "reserve": 27}
    assert economy.banks(st, SALLY) == {"gross": 0, "upkeep": 3, "net": -3, "reserve": 45}


def test_D1_2_generate_economy_27_to_32():
    """"Bob's Net Economy of 5 is added to his Economy Reserve of 27 bringing the Reserve to
    32." """
    st = game()
    bob_at_home(st, 27)
    bob_fleet(st)
    assert economy.banks(st, BOB)["net"] == 5
    events = economy.record_keeping(st, BOB, {}, ScriptedChance())
    assert st["powers"][BOB]["reserve"] == 32
    assert of_type(events, "economy") == [{"type": "economy", "power": BOB, "reserve": 32,
                                           "change": 5, "why": "Net Economy 5 (D1.2)"}]


def test_D1_2_negative_net_lowers_the_reserve_to_no_less_than_0():
    """"If your Net Economy becomes a negative number, your Economy Reserve will be reduced at
    this time (to a minimum of 0)." """
    st = game()
    st["powers"][BOB]["reserve"] = 2
    put(st, "ea-nova", BOB, "1,3", facing=4)          # upkeep 4, no bases: Net -4
    economy.record_keeping(st, BOB, {}, ScriptedChance())
    assert st["powers"][BOB]["reserve"] == 0


def test_D1_31_freighter_docked_to_babylon_5_bonus_32_to_34():
    """"Bob has an E.A. Freighter docked to Babylon 5, giving him a bonus of 2 economy. His
    Reserve is increased from 32 to 34." (docked: adjacent to and facing the B5 hex, B4.33)"""
    st = game()
    st["powers"][BOB]["reserve"] = 32
    f = put(st, "ea-freighter", BOB, "0,1", facing=1)  # south of B5, facing north
    events = economy.bonuses(st, BOB)
    assert st["powers"][BOB]["reserve"] == 34
    assert events[0]["change"] == 2 and f in events[0]["why"]


def test_D1_31_freighter_not_facing_babylon_5_gives_nothing():
    st = game()
    st["powers"][BOB]["reserve"] = 32
    put(st, "ea-freighter", BOB, "0,1", facing=4)      # adjacent but facing away
    assert economy.bonuses(st, BOB) == [] and st["powers"][BOB]["reserve"] == 32


def test_D1_41_black_hole_penalty_34_to_31():
    """"Bob has 3 ships on the 'black hole' map piece and therefore must pay a penalty of 3
    economy, lowering his Economy Reserve from 34 to 31." """
    st = game()
    st["powers"][BOB]["reserve"] = 34
    slot = expose_piece(st, "black-hole")
    for h in hexes_of(st, slot)[1:4]:
        put(st, "ea-transport", BOB, h, facing=1)
    put(st, "mf-flyer", SALLY, hexes_of(st, slot)[4], facing=1)   # Sally's ship: not Bob's
    events = economy.penalties(st, BOB)
    assert st["powers"][BOB]["reserve"] == 31
    assert [e["change"] for e in events] == [-3] and "piece:black-hole" in events[0]["why"]


def test_D1_95_penalty_stops_at_0():
    """"You have an Economy Reserve of 3 and ... must pay 5 economy. Your Reserve is reduced
    to zero ... not reduced to -2, nor do you have to pay the 2 economy at any later point."
    (here the penalty is the black hole's, D1.41, for 5 ships)"""
    st = game()
    st["powers"][BOB]["reserve"] = 3
    slot = expose_piece(st, "black-hole")
    for h in hexes_of(st, slot)[1:6]:
        put(st, "ea-transport", BOB, h, facing=1)
    events = economy.penalties(st, BOB)
    assert st["powers"][BOB]["reserve"] == 0 and events[0]["change"] == -3
    economy.penalties(st, BOB)                          # nothing owed later: still 0
    assert st["powers"][BOB]["reserve"] == 0


def test_D1_44_X2_steal_while_docked_thief_gains_what_was_paid():
    """X2: "when the token is docked to an opponent base, the base controller pays a penalty
    ... The controller of the stealing token adds this economy to his Economy Reserve when the
    penalty is paid" (D1.45: only what was actually paid)."""
    st = game()
    bob_at_home(st, 0)
    raider = put(st, "kd-raider", JIM, "1,3", facing=4)     # docked to Earth Base-8
    assert raider
    st["powers"][JIM]["reserve"] = 10
    economy.penalties(st, BOB)
    assert st["powers"][BOB]["reserve"] == 0 and st["powers"][JIM]["reserve"] == 10
    st["powers"][BOB]["reserve"] = 5
    economy.penalties(st, BOB)
    assert st["powers"][BOB]["reserve"] == 4 and st["powers"][JIM]["reserve"] == 11


def test_D1_record_keeping_runs_economy_then_bonuses_then_penalties():
    """X10's order: generate economy (D1.2), collect bonuses (D1.3), pay penalties (D1.4)."""
    st = game()
    bob_at_home(st, 0)
    put(st, "ea-freighter", BOB, "0,1", facing=1)             # upkeep 1, bonus 2
    slot = expose_piece(st, "black-hole")
    put(st, "ea-transport", BOB, hexes_of(st, slot)[2], facing=1)   # upkeep 2, penalty 1
    events = economy.record_keeping(st, BOB, {}, ScriptedChance())
    assert [e["change"] for e in of_type(events, "economy")] == [7, 2, -1]
    assert st["powers"][BOB]["reserve"] == 8


def grosses(st, bob: list[str]):
    """Bob's bases as given; Sally 5 (Base-2 + Base-3); Jim 4 (Base-4)."""
    for i, t in enumerate(bob):
        put(st, t, BOB, ["1,4", "2,4", "1,3"][i])
    put(st, "mf-base-2", SALLY, "-5,1")
    put(st, "base-3", SALLY, "-6,2")
    put(st, "base-4", JIM, "4,-5")


def test_D1_11_who_may_attempt_economic_victory():
    """"Bob has 10 Gross, Sally has 5 and Jim has 4. Bob could attempt Economic Victory at this
    point on his turn. If Bob only had 9, he could not attempt Economic Victory." """
    st = game()
    grosses(st, ["ea-base-8", "ea-base-2"])
    st["powers"][BOB]["turns"] = 3                             # his 4th turn
    assert [economy.banks(st, p)["gross"] for p in (BOB, SALLY, JIM)] == [10, 5, 4]
    assert economy.why_not_declare(st, BOB, "economic") is None
    st = game()
    grosses(st, ["base-6", "base-3"])
    st["powers"][BOB]["turns"] = 3
    assert economy.banks(st, BOB)["gross"] == 9
    assert "twice the Gross Economy" in economy.why_not_declare(st, BOB, "economic")
    events = economy.record_keeping(st, BOB, {"declare": "economic"}, ScriptedChance())
    assert of_type(events, "declaration_refused") and st["powers"][BOB]["declared"] is None


def test_D1_1_no_victory_attempt_on_or_before_the_3rd_turn():
    """"No player may attempt any of the victory conditions on or before his 3rd turn" """
    st = game()
    grosses(st, ["ea-base-8", "ea-base-2"])
    st["powers"][BOB]["turns"] = 2                             # his 3rd turn
    assert "3rd turn" in economy.why_not_declare(st, BOB, "economic")
    view = PLUGIN.view(st, BOB)
    _, problems = economy.check_record({"declare": "economic"}, view)
    assert [p.path for p in problems] == ["record.declare"]
    st["powers"][BOB]["turns"] = 3
    _, problems = economy.check_record({"declare": "economic"}, PLUGIN.view(st, BOB))
    assert problems == []


def test_D1_11_economic_victory_won_next_turn_only_if_still_qualifying():
    """"If at the beginning of your next turn, during this phase, you still qualify for
    Economic Victory ... then you have won the game." """
    st = game()
    grosses(st, ["ea-base-8", "ea-base-2"])
    st["powers"][BOB]["turns"] = 3
    events = economy.record_keeping(st, BOB, {"declare": "economic"}, ScriptedChance())
    assert of_type(events, "declared") and st["powers"][BOB]["declared"]["victory"] == "economic"
    won = economy.record_keeping(st, BOB, {}, ScriptedChance())       # his next turn
    assert won[0] == {"type": "victory", "winners": [BOB], "reason": "economic"}
    assert st["result"]["winners"] == [BOB] and st["phase"] == "over"
    assert of_type(won, "revealed")                                     # every piece shown
    # the same declaration, but Sally built a Base-6 meanwhile: 10 < 2 x 11
    st = game()
    grosses(st, ["ea-base-8", "ea-base-2"])
    st["powers"][BOB]["turns"] = 3
    economy.record_keeping(st, BOB, {"declare": "economic"}, ScriptedChance())
    put(st, "base-6", SALLY, "-4,1")
    events = economy.record_keeping(st, BOB, {}, ScriptedChance())
    assert of_type(events, "declaration_lapsed") and st["result"] is None
    assert st["powers"][BOB]["declared"] is None


def test_D1_13_territorial_victory_is_an_option_and_needs_6_pieces_alone():
    """Territorial Victory (modular): "your Gross Economy exceeds the Gross Economy of each
    opponent and 6 or more map pieces are occupied by one or more of your units ... and are not
    occupied by any opponent units"."""
    st = game("basic-3")
    st["powers"][BOB]["turns"] = 3
    grosses(st, ["ea-base-8", "ea-base-2"])
    assert "optional rule" in economy.why_not_declare(st, BOB, "territorial")
    st = game("modular-3")
    st["powers"][BOB]["turns"] = 3
    grosses(st, ["ea-base-8", "ea-base-2"])                    # Bob holds Earth's piece
    slots = [s for s in st["map"]["slots"] if s["kind"] == "deal"][:5]
    for s in slots[:4]:
        put(st, "ea-transport", BOB, s["hexes"][1], facing=1)
    assert economy.held_pieces(st, BOB) == 5
    assert "6 or more map pieces" in economy.why_not_declare(st, BOB, "territorial")
    t = put(st, "ea-transport", BOB, slots[4]["hexes"][1], facing=1)
    assert economy.held_pieces(st, BOB) == 6
    assert economy.why_not_declare(st, BOB, "territorial") is None
    put(st, "mf-flyer", SALLY, slots[4]["hexes"][2], facing=1)  # shared: not held alone
    assert economy.held_pieces(st, BOB) == 5 and t


def test_D1_12_surrender_only_with_negative_net():
    """"If you have a negative Net Economy, you may (but are not required to) surrender" """
    st = game()
    bob_at_home(st, 10)                                         # Net 10
    _, problems = economy.check_record({"surrender": True}, PLUGIN.view(st, BOB))
    assert [p.path for p in problems] == ["record.surrender"]
    events = economy.record_keeping(st, BOB, {"surrender": True}, ScriptedChance())
    assert of_type(events, "surrender_refused")
    assert st["powers"][BOB]["surrendered"] is False


def test_D1_12_surrender_on_negative_net_through_the_turn():
    """A negative Net: the player surrenders; his units and War Tokens leave play (turn.py),
    mines he laid stay (D1.12: map element tokens stay), and the others play on."""
    st = game()
    bob_at_home(st, 10)
    for h in ("1,3", "0,4", "2,3", "0,5"):
        put(st, "ea-nova", BOB, h, facing=1)                   # upkeep 16: Net -6
    mine = put(st, "mine-2", BOB, "3,3", facing=None)
    st["powers"][SALLY]["war_tokens"] = [BOB]
    assert economy.banks(st, BOB)["net"] == -6
    _, problems = economy.check_record({"surrender": True}, PLUGIN.view(st, BOB))
    assert problems == []
    st["powers"][BOB]["turns"] = 1
    new, events = turn.resolve(st, {BOB: {"record": {"surrender": True}}}, ScriptedChance())
    assert new["powers"][BOB]["surrendered"] is True
    assert of_type(events, "surrenders")[0]["net"] == -6
    assert not [t for t in new["tokens"].values() if t["owner"] == BOB and t["type"] != "mine-2"]
    assert mine in new["tokens"] and new["powers"][SALLY]["war_tokens"] == []
    assert new["result"] is None and new["current"] == SALLY
    assert not of_type(events, "economy")                       # no economy generated


def test_banks_work_on_a_view_as_on_the_state():
    """The checkers and the report read the banks from the player's view."""
    st = game()
    bob_at_home(st, 27)
    bob_fleet(st)
    assert PLUGIN.view(st, SALLY)["powers"][BOB]["banks"] == economy.banks(st, BOB)
    assert economy.banks(PLUGIN.view(st, None), BOB) == economy.banks(st, BOB)

