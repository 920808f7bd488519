"""4000 A.D. rules, one test (or a few) per rule, named after it. Rule numbers refer to
docs/rules.md; quotes are from the rulebook (RB) or the ADC2 PBEM text (ADC2)."""

from __future__ import annotations

import pytest

from tests.support.ad_driver import AD, Table, ad_module

# ---------------------------------------------------------------------------------------------
# Set-up and turn order
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant,slots",
    [
        ("alliances-2", [["pavo", "antares"], ["regulus", "algol"]]),
        ("alliances-4", [["pavo", "antares"], ["regulus", "algol"]]),
        ("independents-4", [["pavo"], ["antares"], ["regulus"], ["algol"]]),
        ("independents-3", [["antares"], ["regulus"], ["mira"]]),
        ("wild-4", [["pavo"], ["antares"], ["regulus"], ["algol"]]),
    ],
)
def test_setup_turn_order_adc2(variant, slots):
    """ADC2: "Turns proceed in this manner: Pavo-Antares-Regulus-Algol (or Antares-Regulus-Mira
    in the three player game)"; RB Alliances: one alliance, then the other."""
    t = Table(variant)
    assert t.state["slots"] == slots
    for power in (p for s in slots for p in s):
        home = t.state["powers"][power]["home"]
        assert t.ships(home) == {power: 15}, "RB: 15 ships at each home star"
        assert t.state["warps"][power] == {"1": None, "2": None}, "RB: two warps each"


def test_setup_independents_3_algol_and_pavo_are_ordinary():
    """RB: "Use Home Stars Regulus and Antares, but make Mira the third Home Star. Algol and Pavo
    will then become normal, undefended stars.\""""
    t = Table("independents-3")
    assert t.ships("Algol") == {} and t.ships("Pavo") == {}
    view = t.view("mira")
    assert view["stars"]["Algol"]["home_of"] is None
    assert view["stars"]["Mira"]["home_of"] == "mira"
    assert AD.board.distance("Regulus", "Mira") == AD.board.distance("Mira", "Antares") == 5


def test_setup_rejects_unknown_variant_and_option():
    with pytest.raises(Exception, match="no variant named"):
        AD.setup("solo", {"game_id": "x"})
    with pytest.raises(Exception, match="unknown option"):
        AD.setup("alliances-4", {"game_id": "x", "dice": True})
    with pytest.raises(Exception, match="production_turns"):
        AD.setup("alliances-4", {"game_id": "x", "production_turns": "never"})


# ---------------------------------------------------------------------------------------------
# Journeys and moves on each turn
# ---------------------------------------------------------------------------------------------


def test_journey_takes_its_length_in_turns():
    """RB "Making the Journey": departure at the start of the first turn, arrival at the end of
    the last (Algol to Hamal: 2 turns)."""
    t = Table()
    t.play(algol=t.body("algol", ("Algol", 5, "Hamal")))
    assert t.state["warps"]["algol"]["1"]["travelled"] == 1
    assert t.ships("Hamal") == {}
    t.play()
    assert t.ships("Hamal") == {"algol": 5}
    assert t.holder("Hamal") == "algol"
    assert t.state["warps"]["algol"]["1"] is None


def test_same_sector_journey_arrives_at_once_but_needs_a_free_warp():
    """RB: "Between the two stars in the same sector: Departure, Travel, and Arrival all take
    place in the one turn … if no warp is available on that turn, such a journey cannot be
    made.\""""
    t = Table()
    t.play(algol=t.body("algol", ("Algol", 4, "Caph")))
    assert t.ships("Caph") == {"algol": 4}
    assert t.state["warps"]["algol"] == {"1": None, "2": None}
    # both warps busy: the same-sector journey is refused on receipt
    t.play(algol=t.body("algol", ("Algol", 2, "Hamal")))
    t.play(algol=t.body("algol", ("Algol", 2, "Vega")))
    body = {"depart": {"warp": 1, "from": "Algol", "ships": 1, "to": "Caph"}}
    _, problems = t.check("algol", body)
    assert any(p.code == "warp-busy" for p in problems)


def test_warp_beyond_furthest_sector_loses_its_ships():
    """RB: "If a warp should travel too many spaces, so that it has moved beyond the furthest
    sector on the board from its departure sector, the ships on it are lost.\""""
    t = Table().put("Schedar", "algol", 3)
    assert AD.board.furthest("B-yellow") == 6
    t.play(algol=t.body("algol", ("Schedar", 3, "Antares")))  # never revealed below
    for _turn in range(5):
        t.play(algol={})
        assert t.state["warps"]["algol"]["1"] is not None
    assert t.state["warps"]["algol"]["1"]["travelled"] == 6
    t.play(algol={})
    lost = t.of("lost_in_hyperspace")
    assert lost and lost[0]["power"] == "algol" and lost[0]["ships"] == 3
    assert t.state["warps"]["algol"]["1"] is None
    assert t.state["tally"]["lost"] == {"algol": 3}


def test_at_most_one_departure_per_turn():
    """RB: "A player may make only one departure of any kind in one turn.\""""
    t = Table()
    _, problems = t.check("algol", {"depart": [{"warp": 1, "from": "Algol", "ships": 1},
                                                {"warp": 2, "from": "Algol", "ships": 1}]})
    assert [p.code for p in problems] == ["two-departures"]


def test_two_warps_arriving_at_same_star_arrive_together():
    """RB Moves on Each Turn 2: "if both warps are due to arrive on that turn at the same star,
    to combine against an enemy fleet, then both are pushed forward together" — and RB Multiple
    Attacking Fleets: two fleets from different distances timed to combine and win."""
    t = Table().put("Schedar", "algol", 5).put("Hamal", "pavo", 8)
    assert AD.board.distance("Schedar", "Hamal") == 3
    assert AD.board.distance("Algol", "Hamal") == 2
    t.play(algol=t.body("algol", ("Schedar", 5, "Hamal")))       # turn 1: 3-turn journey
    t.play(algol=t.body("algol", ("Algol", 5, "Hamal")))         # turn 2: 2-turn journey
    events = t.play()                                            # turn 3: both arrive
    battle = t.of("battle", events)
    assert len(battle) == 1
    assert battle[0]["attack"] == 10 and battle[0]["defence"] == 8
    assert battle[0]["winner"] == "attacker" and len(battle[0]["fleets"]) == 2
    assert t.ships("Hamal") == {"algol": 10} and t.holder("Hamal") == "algol"
    assert t.state["tally"]["destroyed"] == {"pavo": 8}


def test_arrival_then_immediate_departure():
    """RB: "If a player's ships arrive at a star in the first part of his turn, his departure
    may then be some or all of the same ships from that star.\""""
    t = Table()
    t.play(algol=t.body("algol", ("Algol", 5, "Hamal")))
    t.play(algol=t.body("algol", ("Hamal", "all", "Mira")))
    assert t.of("arrival")[0]["star"] == "Hamal"
    dep = [e for e in t.of("departure") if e["power"] == "algol"]
    assert dep and dep[0]["origin"] == "Hamal" and dep[0]["ships"] == 5
    assert t.ships("Hamal") == {}
    assert t.holder("Hamal") is None, "an empty ordinary star is held by no one"


def test_battle_winner_cannot_depart_the_same_turn():
    """RB: "No part of a fleet that wins a battle can depart on the same playing turn.\""""
    t = Table().put("Hamal", "pavo", 4)
    t.play(algol=t.body("algol", ("Algol", 9, "Hamal")))
    t.play(algol=t.body("algol", ("Hamal", "all", "Mira")))
    assert t.of("battle")[0]["winner"] == "attacker"
    failed = t.of("departure_failed")
    assert failed and "fought" in failed[0]["reason"]
    assert failed[0]["_visible_to"] == ["algol"], "a failed order is told to its power only"
    assert t.ships("Hamal") == {"algol": 9}
    t.play(algol=t.body("algol", ("Hamal", "all", "Mira")))  # next turn it may
    assert t.ships("Hamal") == {}


def test_departure_alternatives_tried_in_order():
    """Ruling R5: an order made impossible by earlier events in the round fails with a reason,
    and the next alternative is tried."""
    t = Table().put("Hamal", "algol", 3).put("Sheratan", "pavo", 9)
    t.play(pavo=t.body("pavo", ("Sheratan", 9, "Hamal")))  # pavo moves first in the round
    assert t.ships("Hamal") == {"pavo": 9}
    body = t.body("algol", ("Hamal", 3, "Mira"))
    body["depart"]["else"] = [{"warp": 1, "from": "Algol", "ships": 2,
                              "commitment": body["depart"]["commitment"]}]
    t2 = Table().put("Hamal", "algol", 3).put("Sheratan", "pavo", 9)
    t2.vault = dict(t.vault)
    events = t2.play(pavo=t2.body("pavo", ("Sheratan", 9, "Hamal")), algol=body)
    failed = [e for e in events if e["type"] == "departure_failed"]
    assert failed and failed[0]["reason"] == "you have no ships at Hamal"
    dep = [e for e in events if e["type"] == "departure" and e["power"] == "algol"]
    assert dep and dep[0]["origin"] == "Algol" and dep[0]["ships"] == 2


def test_departure_asking_more_than_remain_departs_with_what_is_there():
    """Ruling R5: ships: N with fewer there departs with what is there, and says so."""
    t = Table("alliances-4").put("Hamal", "algol", 4).put("Hamal", "regulus", 2, holder="algol")
    t.play(regulus=t.body("regulus", permit={"lend": ["algol"]}))
    body = t.body("algol", ("Hamal", 4, "Mira"))
    body["depart"]["with"] = {"regulus": 5}
    events = t.play(algol=body)
    dep = [e for e in events if e["type"] == "departure" and e["power"] == "algol"][0]
    assert dep["fleet"] == {"algol": 4, "regulus": 2}
    assert any("5 of regulus" in n for n in dep["notes"])


# ---------------------------------------------------------------------------------------------
# Battle and occupation
# ---------------------------------------------------------------------------------------------


def test_larger_force_destroys_smaller_without_loss():
    t = Table().put("Hamal", "pavo", 6)
    t.play(algol=t.body("algol", ("Algol", 7, "Hamal")))
    t.play()
    assert t.ships("Hamal") == {"algol": 7}


def test_smaller_attacking_force_is_destroyed():
    t = Table().put("Hamal", "pavo", 8)
    t.play(algol=t.body("algol", ("Algol", 7, "Hamal")))
    t.play()
    battle = t.of("battle")[0]
    assert battle["winner"] == "defender"
    assert t.ships("Hamal") == {"pavo": 8} and t.holder("Hamal") == "pavo"
    assert t.state["tally"]["destroyed"] == {"algol": 7}


def test_equal_forces_do_not_engage_and_come_out_at_the_other_star():
    """RB: "If both forces are equal, the attacker may not come out of hyperspace at that star,
    though he may come out at the other star in the same sector.\""""
    t = Table().put("Hamal", "pavo", 6)
    t.play(algol=t.body("algol", ("Algol", 6, "Hamal")))
    t.play()
    assert t.of("tie")[0]["attack"] == t.of("tie")[0]["defence"] == 6
    assert t.of("diverted")[0]["to_star"] == "Sheratan"
    assert t.ships("Hamal") == {"pavo": 6}
    assert t.ships("Sheratan") == {"algol": 6}


def test_tie_at_both_stars_of_the_sector_stays_in_hyperspace():
    t = Table().put("Hamal", "pavo", 6).put("Sheratan", "antares", 6)
    t.play(algol=t.body("algol", ("Algol", 6, "Hamal")))
    t.play()
    assert t.of("held_in_hyperspace")
    assert t.state["warps"]["algol"]["1"]["travelled"] == 2


def _tie_orders(t: Table, on_tie: str | None) -> dict:
    body = t.body("algol")
    if on_tie is not None:
        body["warps"]["1"]["on_tie"] = on_tie
    return body


def test_rule_r13_tie_default_never_diverts_into_a_losing_battle():
    """Issue 12 point 3. RB: "the attacker may not come out of hyperspace at that star, though
    he *may* come out at the other star in the same sector": a choice, not a duty. Without
    on_tie the fleet diverts only where it would not be destroyed."""

    presenter = ad_module("presenter")
    t = Table().put("Hamal", "pavo", 6).put("Sheratan", "antares", 9)
    t.play(algol=t.body("algol", ("Algol", 6, "Hamal")))
    t.play()
    assert t.of("tie") and not t.of("diverted") and not t.of("battle")
    assert t.of("held_in_hyperspace")[0]["star"] == "Hamal"
    assert t.ships("Sheratan") == {"antares": 9} and not t.state["tally"]["destroyed"]
    warp = t.state["warps"]["algol"]["1"]
    assert warp["ships"] == {"algol": 6} and warp["doomed"] == "Hamal"
    note = presenter.own_warps(t.view("algol"), "algol")[0]["note"]
    assert note.startswith("It can never arrive: it was held in hyperspace at Hamal")


def test_rule_r13_on_tie_order_chooses_stay_or_divert():
    """The arrival order says what a tie does: `divert` comes out at the other star whatever
    waits there; `stay` stays in hyperspace even when the other star is free."""
    t = Table().put("Hamal", "pavo", 6).put("Sheratan", "antares", 9)
    t.play(algol=t.body("algol", ("Algol", 6, "Hamal")))
    t.play(algol=_tie_orders(t, "divert"))
    assert t.of("diverted")[0]["to_star"] == "Sheratan"
    assert t.of("battle")[0]["winner"] == "defender"
    assert t.state["tally"]["destroyed"] == {"algol": 6}
    u = Table(destinations="free").put("Hamal", "pavo", 6)
    u.play(algol=u.body("algol", ("Algol", 6, "Hamal")))
    u.play(algol=_tie_orders(u, "stay"))
    assert u.of("held_in_hyperspace") and not u.of("diverted")
    assert u.ships("Sheratan") == {}
    assert "doomed" not in u.state["warps"]["algol"]["1"], "free destinations: it may arrive later"
    _, problems = u.check("algol", {"warps": {1: {"arrive": "Mira", "on_tie": "fight"}}})
    assert [p.code for p in problems] == ["on_tie"]


def test_undefended_star_occupied_while_one_ship_remains():
    t = Table()
    t.play(algol=t.body("algol", ("Algol", 1, "Caph")))
    assert t.holder("Caph") == "algol"


def test_home_star_stays_owners_when_emptied():
    """RB: "A player may choose to withdraw all his ships from his own Home Star, but he remains
    in possession of it.\""""
    t = Table()
    t.play(algol=t.body("algol", ("Algol", "all", "Hamal")))
    assert t.ships("Algol") == {} and t.holder("Algol") == "algol"
    t.play()
    assert t.of("production")[-1]["power"] == "algol"
    assert t.ships("Algol") == {"algol": 1}


def test_empty_home_star_lost_to_enemy_occupation_without_battle():
    """RB: "He loses it if an enemy occupies it (without a battle).\""""
    t = Table().put("Algol", "algol", 0, holder="algol").put("Caph", "pavo", 2)
    t.play(pavo=t.body("pavo", ("Caph", 1, "Algol")))
    assert t.holder("Algol") == "pavo"
    assert any(e["type"] == "home_captured" for e in t.last)


# ---------------------------------------------------------------------------------------------
# Production
# ---------------------------------------------------------------------------------------------


def test_production_every_second_turn_even_turns_by_default():
    """ADC2: "Each even numbered turn is a Resource turn" (ruling R2)."""
    t = Table()
    t.play()
    assert not t.of("production")
    t.play()
    assert len(t.of("production")) == 4
    t.play()
    assert not t.of("production")


def test_production_rulebook_coin_option_odd_turns():
    """RB coin read literally: heads on turns 1, 3, 5 … but not the first turn (ruling R2)."""
    t = Table(production_turns="odd")
    t.play()
    t.play()
    assert not t.of("production")
    t.play()
    assert len(t.of("production")) == 4


def test_production_pairs_circle_and_cross_unpaired_symbols_are_worthless():
    """RB: "one new ship for each pair of circle and cross among the stars he occupies …
    An extra of one symbol is of no value.\""""
    t = Table().put("Mirach", "algol", 1).put("Schedar", "algol", 1).put("Almach", "algol", 1)
    t.play()
    t.play()
    prod = [e for e in t.of("production") if e["power"] == "algol"][0]
    # Algol (o+), Mirach (o), Schedar (o), Almach (+): 3 circles, 2 crosses -> 2 ships
    assert (prod["circles"], prod["crosses"], prod["ships"]) == (3, 2, 2)
    assert t.ships("Algol") == {"algol": 17}


def test_no_production_without_home_star_captor_draws_its_own_resources_only():
    """RB "Loss of a Home Star": no production without it; the captor "can draw from it only its
    own resources … nor can he produce new ships for himself there.\""""
    t = Table("alliances-4").put("Algol", "algol", 0, holder="algol").put("Algol", "pavo", 3)
    t.put("Hamal", "algol", 3)
    t.play()
    t.play()
    algol = [e for e in t.last if e.get("power") == "algol" and "production" in e["type"]]
    assert algol[0]["type"] == "no_production"
    pavo = [e for e in t.of("production") if e["power"] == "pavo"][0]
    assert pavo["stars"] == ["Algol", "Pavo"] and pavo["ships"] == 2
    assert t.ships("Pavo") == {"pavo": 17} and t.ships("Algol") == {"pavo": 3}


def test_alliances_both_allies_produce_before_either_moves():
    """RB Alliances Procedure of Play: "both allies take their new ships before either of them
    make their moves"; Independents: each at the start of its own turn."""
    t = Table("alliances-4")
    t.play()
    events = t.play()
    kinds = [(e["type"], e.get("power")) for e in events if e["type"] == "production"]
    assert kinds == [("production", "pavo"), ("production", "antares"),
                     ("production", "regulus"), ("production", "algol")]
    slots = [e["slot"] for e in events if e["type"] == "production"]
    assert slots == [0, 0, 1, 1]


# ---------------------------------------------------------------------------------------------
# Alliances
# ---------------------------------------------------------------------------------------------


def test_two_player_alliances_two_allies_combine_arrivals():
    """RB 2 players: "His two Home Stars will be two independent allies"; allies' fleets
    arriving on the same turn at one star are combined (Multiple attacking fleets - allies)."""
    t = Table("alliances-2").put("Caph", "regulus", 6).put("Hamal", "pavo", 10)
    t.play(algol=t.body("algol", ("Algol", 6, "Hamal")),
           regulus=t.body("regulus", ("Caph", 6, "Hamal")))
    events = t.play()
    battles = t.of("battle", events)
    assert len(battles) == 1 and battles[0]["attack"] == 12 and battles[0]["winner"] == "attacker"
    assert {f["power"] for f in battles[0]["fleets"]} == {"algol", "regulus"}
    assert t.ships("Hamal") == {"algol": 6, "regulus": 6}
    assert t.holder("Hamal") == "regulus", "the ally whose turn it was (first in order) holds it"


def test_entering_an_allys_home_star_needs_permission():
    """RB: "One ally may send ships to a star already occupied by another ally - without his
    permission. But if it is to an ally's Home Star then his permission is required.\""""
    t = Table("alliances-4").put("Markab", "algol", 2)
    t.play(algol=t.body("algol", ("Markab", 2, "Regulus")))
    assert t.ships("Regulus") == {"regulus": 15}
    assert t.of("diverted")[0]["to_star"] == "Markab"
    t.play(regulus=t.body("regulus", permit={"home": ["algol"]}),
           algol=t.body("algol", ("Markab", 2, "Regulus")))
    assert t.ships("Regulus") == {"regulus": 16, "algol": 2}  # turn 2 built one
    assert t.holder("Regulus") == "regulus"


def test_allied_ships_defend_as_one_force():
    """RB: "they form one force for defense, and if attacked and outnumbered, all are
    destroyed.\""""
    t = Table("alliances-4").put("Hamal", "algol", 4).put("Hamal", "regulus", 4, holder="algol")
    t.put("Sheratan", "pavo", 8)
    t.play(pavo=t.body("pavo", ("Sheratan", 8, "Hamal")))
    assert t.of("tie"), "8 against 4 + 4 allied: equal, no battle"
    t2 = Table("alliances-4").put("Hamal", "algol", 4).put("Hamal", "regulus", 3, holder="algol")
    t2.put("Sheratan", "pavo", 8)
    t2.play(pavo=t2.body("pavo", ("Sheratan", 8, "Hamal")))
    assert t2.ships("Hamal") == {"pavo": 8}
    assert t2.state["tally"]["destroyed"] == {"algol": 4, "regulus": 3}


def test_combined_fleet_needs_permission_and_one_own_ship():
    """RB Combined fleets: "with the latter's permission"; "At least one of his own must be among
    them.\""""
    t = Table("alliances-4").put("Hamal", "algol", 3).put("Hamal", "regulus", 3, holder="algol")
    body = t.body("algol", ("Hamal", 3, "Mira"))
    body["depart"]["with"] = {"regulus": 3}
    events = t.play(algol=body)
    dep = [e for e in events if e["type"] == "departure"][0]
    assert dep["fleet"] == {"algol": 3}
    assert any("not permitted" in n for n in dep["notes"])
    # a fleet of only the ally's ships cannot be moved
    t2 = Table("alliances-4").put("Hamal", "regulus", 3, holder="regulus")
    _, problems = t2.check("algol", {"depart": {"warp": 1, "from": "Hamal", "ships": "all",
                                                "commitment": "0" * 64, "with": {"regulus": 3}}})
    assert any(p.code == "ships" for p in problems)


def test_resources_of_shared_star_go_to_first_occupier_unless_agreed():
    """RB: "the one who occupied it first is entitled to its resources. However, they may agree
    that the second will receive them"; "The other must send at least one ship there.\""""
    t = Table("alliances-4").put("Capella", "algol", 2)
    t.play(regulus=t.body("regulus", ("Regulus", 1, "Markab")))
    assert t.holder("Capella") == "algol"
    t.put("Capella", "regulus", 1, holder="algol")
    t.play(algol=t.body("algol", resources=[{"star": "Capella", "to": "regulus"}]))
    assert t.holder("Capella") == "regulus"
    assert t.of("resources_assigned")


def test_alliance_victory_capturing_both_enemy_home_stars():
    """RB: "The alliance that captures both Home Stars of the enemy wins the game. The game is
    over as soon as the second enemy Home Star is captured.\""""
    t = Table("alliances-4").put("Shaula", "regulus", 20).put("Sabik", "algol", 20)
    t.play(regulus=t.body("regulus", ("Shaula", 20, "Pavo")),
           algol=t.body("algol", ("Sabik", 20, "Antares")))
    assert t.state["result"]["winners"] == ["algol", "regulus"]
    assert t.state["result"]["reason"] == "captured both enemy home stars"
    assert AD.powers_due(t.state) == [] and AD.is_over(t.state)


def test_alliance_victory_optional_rule_must_hold_own_home_stars():
    """RB optional rule: "The alliance that captures both enemy Home Stars must not have lost
    either of its own Home Stars at the time.\""""
    t = Table("alliances-4", hold_own_homes=True)
    t.put("Shaula", "regulus", 20).put("Sabik", "algol", 20)
    t.put("Regulus", "regulus", 0, holder="pavo").put("Regulus", "pavo", 1, holder="pavo")
    t.put("Markab", "regulus", 30)
    t.play(regulus=t.body("regulus", ("Shaula", 20, "Pavo")),
           algol=t.body("algol", ("Sabik", 20, "Antares")))
    assert t.state["result"] is None
    t.play(regulus=t.body("regulus", ("Markab", 30, "Regulus")))
    assert t.state["result"]["winners"] == ["algol", "regulus"]


def test_ally_recaptures_home_star_for_its_owner_in_alliances():
    """RB: "His ally may also recapture it for him without his help.\""""
    t = Table("alliances-4").put("Regulus", "regulus", 0, holder="pavo")
    t.put("Regulus", "pavo", 3, holder="pavo").put("Markab", "algol", 5).put("Hamal", "regulus", 1)
    t.play(algol=t.body("algol", ("Markab", 5, "Regulus")))
    assert t.holder("Regulus") == "regulus"
    assert any(e["type"] == "home_regained" for e in t.last)


def test_alliance_concession_ends_the_game():
    t = Table("alliances-4")
    t.play(pavo=t.body("pavo", concede=True), antares=t.body("antares", concede=True))
    assert t.state["result"]["winners"] == ["algol", "regulus"]


# ---------------------------------------------------------------------------------------------
# Independents
# ---------------------------------------------------------------------------------------------


def test_independents_home_captured_not_regained_next_turn_eliminates_and_surrenders():
    """RB "Capture of a Home Star": eliminated if not regained on his very next turn; his fleets
    in hyperspace arrive at a star of his choosing; his ships surrender to the first player who
    sends a ship there. Captured in round 1 before algol's slot, algol's orders for round 1 were
    written blind: its very next turn is round 2 (ruling R23)."""
    t = Table().put("Caph", "pavo", 20).put("Hamal", "algol", 3).put("Sheratan", "antares", 1)
    t.set("warps.algol.1", {"from": "Hamal", "sector": "D-yellow", "departed": 0,
                            "travelled": 1, "ships": {"algol": 2}, "commitment": "0" * 64,
                            "escrow": None})
    t.play(pavo=t.body("pavo", ("Caph", 20, "Algol")), algol=t.body("algol"))
    assert t.holder("Algol") == "pavo"
    assert t.state["powers"]["algol"]["status"] == "active", "no elimination on blind orders"
    assert t.state["powers"]["algol"]["home_lost"]["turn"] == 1
    t.play(algol=t.body("algol", surrender={1: "Mirach"}))  # 3 sectors from D-yellow
    assert t.state["powers"]["algol"]["status"] == "eliminated"
    assert t.ships("Mirach") == {"algol": 2}, "the fleet came out where its power chose"
    assert t.ships("Hamal") == {"algol": 3}
    t.play(antares=t.body("antares", ("Sheratan", 1, "Hamal")))
    assert t.ships("Hamal") == {"antares": 4}
    assert t.of("surrender")[0]["ships"] == 3


def test_rule_r23_blind_elimination_deadline_counts_from_the_first_informed_turn():
    """Issue 12 point 1. RB: eliminated "if he cannot regain it on his very next turn"; in
    simultaneous mode a capture earlier in the round is unknown to the orders of the rest of
    the round, so the very next turn is the next round's; the reports say so."""

    presenter = ad_module("presenter")
    t = Table().put("Caph", "pavo", 20).put("Hamal", "algol", 3)
    t.play(pavo=t.body("pavo", ("Caph", 20, "Algol")))
    assert t.state["powers"]["algol"]["status"] == "active"
    captured = t.of("home_captured")[0]
    assert captured["deadline"] == 2
    view = t.view("algol")
    assert view["powers"]["algol"]["home_deadline"] == 2
    text = presenter.sentence(captured, presenter.Voice(["algol"]), "independents")
    assert "You must regain it on turn 2 (by the end of your own move)" in text
    t.play()
    assert t.state["powers"]["algol"]["status"] == "eliminated"
    # sequential mode: algol's slot comes after pavo's and orders after it: same round
    s = Table(mode="sequential").put("Caph", "pavo", 20).put("Hamal", "algol", 3)
    s.play(pavo=s.body("pavo", ("Caph", 20, "Algol")))
    assert s.of("home_captured")[0]["deadline"] == 1
    s.play()
    s.play()
    s.play()
    assert s.state["powers"]["algol"]["status"] == "eliminated"


def test_independents_regaining_home_next_turn_avoids_elimination():
    t = Table().put("Caph", "pavo", 16).put("Mirach", "algol", 20)
    t.play(algol=t.body("algol", ("Mirach", 20, "Algol")))       # turn 1: 2-turn journey
    t.play(pavo=t.body("pavo", ("Caph", 16, "Algol")))          # turn 2, slot 0: captured
    captured = [e for e in t.last if e["type"] == "home_captured"]
    assert captured and captured[0]["owner"] == "algol"
    # slot 3 of the same round is algol's very next turn: its fleet arrives and wins
    assert t.holder("Algol") == "algol"
    assert t.state["powers"]["algol"]["status"] == "active"
    assert any(e["type"] == "home_regained" for e in t.last)


def _withdrawal_table() -> Table:
    """Round 1: pavo captures Algol. Round 2 (algol's first informed turn): algol captures Pavo
    from Shaula (same sector) and proposes a mutual withdrawal."""
    t = Table().put("Caph", "pavo", 20).put("Shaula", "algol", 20)
    t.play(pavo=t.body("pavo", ("Caph", 20, "Algol")))
    t.play(algol=t.body("algol", ("Shaula", 20, "Pavo"), withdraw="pavo"))
    assert t.holder("Algol") == "pavo" and t.holder("Pavo") == "algol"
    assert t.state["powers"]["algol"]["status"] == "active"
    assert t.of("withdrawal_proposed")[0]["answer_turn"] == 3
    return t


def test_independents_mutual_withdrawal_agreed():
    """RB: he may capture the Home Star of the player who captured his, and persuade him to a
    mutual withdrawal; "If they agree to withdraw, each must do so.\""""
    t = _withdrawal_table()
    t.play(pavo=t.body("pavo", withdraw="algol"))
    assert t.of("mutual_withdrawal")
    assert t.holder("Algol") == "algol" and t.holder("Pavo") == "pavo"
    assert t.ships("Pavo") == {"pavo": 20} and t.ships("Algol") == {"algol": 20}
    assert all(t.state["powers"][p]["status"] == "active" for p in ("pavo", "algol"))


def test_independents_mutual_withdrawal_refused_captor_faces_elimination():
    """RB: "the other player must agree or face elimination himself, unless he is in a position
    to recapture his Home Star on his next turn" (ruling R12)."""
    t = _withdrawal_table()
    t.play(pavo=t.body("pavo"))
    assert t.state["powers"]["pavo"]["status"] == "eliminated"
    assert t.state["powers"]["algol"]["status"] == "active"
    assert t.holder("Algol") == "algol", "pavo's ships there surrendered: the star is free"
    assert t.ships("Algol") == {"pavo": 20}, "they wait there to surrender (ruling R16)"


def test_rule_r12_blind_withdrawal_answer_waits_for_informed_orders():
    """Issue 12 point 2: a captor later in the round does not answer (or refuse) a proposal
    made earlier in that round with orders written before it; it answers next round."""
    t = Table().put("Caph", "regulus", 0).put("Markab", "algol", 20).put("Hamal", "regulus", 20)
    # round 1: regulus (slot 2) captures Algol; round 2: algol (slot 3) captures Regulus from
    # Markab and proposes; regulus's slot 2 already passed in round 2.
    t.set("warps.regulus.1", {"from": "Hamal", "sector": "D-yellow", "departed": 0,
                              "travelled": 1, "ships": {"regulus": 20}, "commitment": None,
                              "escrow": None})
    t.set("options.destinations", "free")
    t.play(regulus={"warps": {1: {"arrive": "Algol"}}})
    assert t.holder("Algol") == "regulus"
    t.play(algol=t.body("algol", ("Markab", 20, "Regulus"), withdraw="regulus"))
    proposal = t.of("withdrawal_proposed")[0]
    assert proposal["answer_turn"] == 3
    # round 3: algol's turn (slot 3) comes after regulus's (slot 2), which answers first
    t.play(regulus=t.body("regulus", withdraw="algol"))
    assert t.of("mutual_withdrawal")
    assert t.holder("Algol") == "algol" and t.holder("Regulus") == "regulus"
    # simultaneous orders of the proposal's own round never answer it
    u = Table().put("Caph", "pavo", 20).put("Shaula", "algol", 20)
    u.play(pavo=u.body("pavo", ("Caph", 20, "Algol")))
    u.play(pavo=u.body("pavo", withdraw="algol"),
           algol=u.body("algol", ("Shaula", 20, "Pavo"), withdraw="pavo"))
    assert not u.of("mutual_withdrawal") and not u.of("withdrawal_refused")
    assert u.state["withdrawals"] and u.state["powers"]["algol"]["status"] == "active"


def test_rule_r16_fleets_of_a_power_eliminated_outside_its_turn_arrive_and_surrender():
    """Issue 12 point 4. RB: "he must on that next turn make any fleet(s) he has in hyperspace
    arrive at a star of his own choosing"; a concession (Independents) takes effect before any
    move, so the warps make their step and come out where the surrender: orders say."""
    t = Table().put("Hamal", "algol", 3)
    t.set("warps.algol.1", {"from": "Hamal", "sector": "D-yellow", "departed": 0,
                            "travelled": 2, "ships": {"algol": 4}, "commitment": "0" * 64,
                            "escrow": None})
    t.set("warps.algol.2", {"from": "Hamal", "sector": "D-yellow", "departed": 0,
                            "travelled": 1, "ships": {"algol": 2}, "commitment": "0" * 64,
                            "escrow": None})
    t.play(algol=t.body("algol", concede=True, surrender={1: "Mirach"}))
    assert t.state["powers"]["algol"]["status"] == "eliminated"
    assert t.ships("Mirach") == {"algol": 4}, "its chosen star, 3 sectors out"
    unchosen = [e for e in t.of("surrender_arrival") if e["warp"] == 2][0]
    assert not unchosen["chosen"] and t.ships(unchosen["star"]) == {"algol": 2}, (
        "no fleet is thrown away: the referee picks an empty star at its distance")
    assert not t.state["tally"]["lost"]
    # ...and it surrenders to the first power to reach it
    t.put("Sheratan", "antares", 1)
    t.play(antares=t.body("antares", ("Sheratan", 1, "Hamal")))
    assert t.ships("Hamal") == {"antares": 4}


def test_rule_r12_mutual_withdrawal_homecoming_fights_who_is_there():
    """Issue 12 point 5: ships sent home by a mutual withdrawal arrive as any fleet does: an
    enemy at the home star is fought, not joined."""
    t = Table("wild-4").put("Caph", "pavo", 20).put("Shaula", "algol", 20)
    t.set("alliances", [{"members": ["algol", "regulus"], "public": True, "since": 1}])
    t.put("Pavo", "regulus", 5, holder="pavo")
    t.put("Regulus", "regulus", 0, holder="antares").put("Regulus", "antares", 3)
    t.set("powers.regulus.home_lost", None)
    t.play(pavo=t.body("pavo", ("Caph", 20, "Algol")))
    t.play(algol=t.body("algol", ("Shaula", 20, "Pavo"), withdraw="pavo"))
    assert t.ships("Pavo") == {"algol": 20, "regulus": 5}
    t.play(pavo=t.body("pavo", withdraw="algol"))
    assert t.of("mutual_withdrawal")
    assert t.ships("Regulus") == {"regulus": 5}, "5 regulus ships beat the 3 antares ones"
    assert t.holder("Regulus") == "regulus"
    battle = [b for b in t.of("battle") if b["star"] == "Regulus"][0]
    assert battle["winner"] == "attacker"

    presenter = ad_module("presenter")
    text = presenter.sentence(battle, presenter.Voice(["regulus"]), "wild")
    assert text.startswith("Your 5 ships going home attacked Regulus, 5 ships against 3")


def test_independents_last_power_standing_wins_and_concession():
    t = Table("independents-3")
    t.play(antares=t.body("antares", concede=True), regulus=t.body("regulus", concede=True))
    assert t.state["result"]["winners"] == ["mira"]
    assert t.state["result"]["reason"] == "last power standing"


def test_end_by_agreement_most_stars_then_most_ships():
    """RB: "The player who occupies the greatest number of stars (regardless of total ships) is
    the winner. If occupied stars are equal, the player with the greatest total of ships.\""""
    t = Table().put("Caph", "algol", 1).put("Shaula", "pavo", 1).put("Sabik", "antares", 1)
    t.put("Pavo", "pavo", 20)
    t.play(**{p: t.body(p, vote_end=True) for p in ("pavo", "antares", "regulus", "algol")})
    result = t.state["result"]
    assert result["reason"] == "ended by agreement"
    assert result["winners"] == ["pavo"]
    assert result["scores"]["pavo"] == {"stars": 2, "ships": 21}


def test_vote_to_end_needs_everyone():
    t = Table()
    t.play(**{p: t.body(p, vote_end=True) for p in ("pavo", "antares", "regulus")})
    assert t.state["result"] is None


def test_game_master_end_scores_the_position():
    t = Table().put("Caph", "algol", 1)
    result = AD.end_game(t.state, "ended by the game master")
    assert result.state["result"]["winners"] == ["algol"]


def test_elimination_when_no_ships_left_and_no_home():
    t = Table("alliances-4").put("Shaula", "regulus", 20)
    t.play(regulus=t.body("regulus", ("Shaula", 20, "Pavo")))
    assert t.state["powers"]["pavo"]["status"] == "eliminated"
    assert t.state["result"] is None, "Alliances: the other enemy home star is still theirs"


# ---------------------------------------------------------------------------------------------
# Wild Alliance
# ---------------------------------------------------------------------------------------------


def test_wild_alliance_secret_until_first_cooperating_action():
    """RB: "they are not bound to announce whether they have formed an alliance or not until a
    cooperating action takes place.\""""
    t = Table("wild-4").put("Capella", "algol", 2).put("Elnath", "regulus", 2)
    t.play(algol=t.body("algol", alliance={"propose": ["regulus"]}),
           regulus=t.body("regulus", alliance={"accept": ["algol"]}))
    assert t.state["alliances"] == [{"members": ["algol", "regulus"], "public": False,
                                     "since": 1}]
    assert t.view("pavo")["alliances"] == []
    assert t.view("regulus")["alliances"][0]["members"] == ["algol", "regulus"]
    t.play(algol=t.body("algol", ("Capella", 2, "Elnath")))
    assert t.ships("Elnath") == {"regulus": 2, "algol": 2}
    assert t.of("alliance_announced")
    assert t.view("pavo")["alliances"][0]["public"] is True


def test_wild_alliance_fleets_together_do_not_fight_after_the_alliance_ends():
    """RB: "once two fleets are together at the same star … neither of those fleets can attack
    the other while they are there together. Nor may one of the players send another fleet
    there to attack his ally's force while still there himself.\""""
    t = Table("wild-4").put("Elnath", "regulus", 2).put("Elnath", "algol", 2, holder="regulus")
    t.put("Capella", "algol", 5)
    t.set("alliances", [{"members": ["algol", "regulus"], "public": True, "since": 1}])
    t.play(algol=t.body("algol", alliance={"end": ["regulus"]}))
    assert t.state["alliances"] == []
    t.play(algol=t.body("algol", ("Capella", 5, "Elnath")))
    assert not t.of("battle")
    assert t.ships("Elnath") == {"regulus": 2, "algol": 7}


def test_wild_ally_liberating_without_owner_ship_does_not_save_owner():
    """RB Independents: "can regain it on the next turn with the help of an ally, but at least
    one ship of his own must be among the recapturing force" (ruling R9)."""
    t = Table("wild-4").put("Caph", "pavo", 16)
    t.set("alliances", [{"members": ["algol", "regulus"], "public": True, "since": 1}])
    t.put("Algol", "algol", 0, holder="algol")
    t.put("Caph", "regulus", 0, holder="pavo")
    t.play(pavo=t.body("pavo", ("Caph", 16, "Algol")))
    assert t.holder("Algol") == "pavo"


def test_rule_r9_wild_owner_ship_arriving_takes_back_its_liberated_home():
    """Issue 12 point 6. ADC2 OCCUPATION: "The original HS of the liberated Home Star will
    recieve control upon arrival of one or more of the original HS's ships"; everyone is told
    who holds it."""
    t = Table("wild-4").put("Caph", "pavo", 16).put("Hamal", "algol", 1)
    t.set("alliances", [{"members": ["algol", "regulus"], "public": True, "since": 1}])
    t.play(pavo=t.body("pavo", ("Caph", 16, "Algol")))       # round 1: algol's home captured
    assert t.holder("Algol") == "pavo"
    t.put("Caph", "regulus", 17, holder="regulus").put("Caph", "algol", 1, holder="regulus")
    t.play(regulus=t.body("regulus", ("Caph", 17, "Algol")),  # round 2: regulus liberates
           algol=t.body("algol", ("Caph", 1, "Algol")))        # then algol's own ship arrives
    held = t.of("home_held_by_ally")[0]
    assert held["power"] == "regulus" and held["liberated"]
    assert any(e["type"] == "home_regained" and e["power"] == "algol" for e in t.last)
    assert t.holder("Algol") == "algol"
    assert t.state["powers"]["algol"]["status"] == "active"
    assert t.ships("Algol") == {"regulus": 17, "algol": 1}


def test_rule_r24_pairwise_alliances_an_ally_does_not_defend_against_its_other_ally():
    """Wild Alliance alliances are pairs. Ships at a star defend together against a power that is
    the enemy of each of them; a power allied with the attacker neither defends nor is attacked
    (RB: "Allied ships at the same star ... form one force for defense")."""
    t = Table("wild-4").put("Elnath", "algol", 3).put("Elnath", "regulus", 3, holder="algol")
    t.put("Capella", "pavo", 4)
    t.set("alliances", [{"members": ["algol", "regulus"], "public": True, "since": 1},
                        {"members": ["algol", "pavo"], "public": True, "since": 1}])
    t.play(pavo=t.body("pavo", ("Capella", 4, "Elnath")))
    battle = t.of("battle")[0]
    assert battle["defenders"] == {"regulus": 3} and battle["winner"] == "attacker"
    assert t.ships("Elnath") == {"algol": 3, "pavo": 4}


def test_rule_r24_former_allies_together_still_count_as_one_force():
    """Former allies whose fleets are still together at a star (R17: they never fight each
    other there) are attacked as the ships at that star: an attacker must beat them all."""
    t = Table("wild-4").put("Elnath", "algol", 3).put("Elnath", "regulus", 3, holder="algol")
    t.put("Capella", "antares", 5)
    t.play(antares=t.body("antares", ("Capella", 5, "Elnath")))
    battle = t.of("battle")[0]
    assert battle["defence"] == 6 and battle["winner"] == "defender"


def test_rule_r25_no_wild_alliance_for_three_players():
    """RB allows alliances in any Independents game; ADC2 makes Wild Alliance a four-player
    game and forbids alliances in the three-player one (ruling R25)."""
    names = set(AD.variants())
    assert "wild-4" in names and not any(n.startswith("wild") and n != "wild-4" for n in names)
    _, problems = Table("independents-3").check("mira", {"alliance": {"propose": ["antares"]}})
    assert [p.code for p in problems] == ["variant"]


def test_rule_r18_two_player_alliances_one_concession_concedes_for_both():
    """Issue 12 point 9. RB 2 players: one player commands both home stars, so his concession
    (given with either power's orders) is the alliance's."""
    t = Table("alliances-2")
    t.play(pavo=t.body("pavo", concede=True))
    assert t.state["result"]["winners"] == ["algol", "regulus"]
    four = Table("alliances-4")
    four.play(pavo=four.body("pavo", concede=True))
    assert four.state["result"] is None, "4 players: each ally concedes for itself"


def test_rule_r16_surrender_star_at_the_wrong_distance_is_refused():
    """Issue 12 point 7: the surrender star must be where the fleet can come out this turn."""
    t = Table()
    t.play(algol=t.body("algol", ("Algol", 5, "Adhara")))        # a 4-sector journey
    assert t.view("algol")["warps"]["algol"]["1"]["next_distance"] == 2
    _, problems = t.check("algol", {"surrender": {1: "Mirach"}})  # 2 sectors: fine
    assert problems == []
    _, problems = t.check("algol", {"surrender": {1: "Adhara"}})  # 4 sectors: not this turn
    assert [p.code for p in problems] == ["distance"]
    _, problems = t.check("algol", {"surrender": {1: "Hamal", 2: "Hamal"}})
    assert [p.code for p in problems] == ["not-in-flight"]


def test_rule_eliminated_power_orders_are_refused_saying_so():
    """Issue 12 point 7: an eliminated power is told it was eliminated, not that it must wait."""
    t = Table().set("powers.algol.status", "eliminated")
    _, problems = t.check("algol", {})
    assert [(p.code, p.message) for p in problems] == [
        ("eliminated", "algol was eliminated: no more orders are taken from it")]


def test_rule_same_sector_journey_to_its_own_star_is_refused():
    """Issue 12 point 7. RB: "A journey is always from one star to another star"."""
    t = Table()
    _, problems = t.check("algol", {"depart": {"warp": 1, "from": "Algol", "ships": 1,
                                               "to": "Algol"}})
    assert [p.code for p in problems] == ["to"]


# ---------------------------------------------------------------------------------------------
# Hidden destinations
# ---------------------------------------------------------------------------------------------


def test_reveal_that_does_not_open_commitment_is_rejected_on_receipt():
    t = Table()
    t.play(algol=t.body("algol", ("Algol", 5, "Hamal")))
    star, nonce = t.vault[("algol", "1", 1)]
    _, problems = t.check("algol", {"warps": {1: {"arrive": "Sheratan", "nonce": nonce}}})
    assert [p.code for p in problems] == ["commitment"]
    assert "commitment made on turn 1" in problems[0].message
    _, problems = t.check("algol", {"warps": {1: {"arrive": "Mira", "nonce": nonce}}})
    assert [p.code for p in problems] == ["distance"]


def test_reveal_refused_at_resolution_keeps_the_fleet_travelling():
    t = Table()
    t.play(algol=t.body("algol", ("Algol", 5, "Hamal")))
    orders = {"algol": {"arrive": {"1": {"star": "Sheratan", "nonce": "ab" * 32}}, "depart": []}}
    t.play_raw(orders)
    refused = t.of("reveal_refused")
    assert refused and refused[0]["_visible_to"] == ["algol"]
    assert t.state["warps"]["algol"]["1"]["travelled"] == 2


def test_free_destinations_variant_changes_destination_in_flight():
    """ADC2: "you CAN change your mind- just as long as your Arrival point is the same distance
    from your Departure point as is the amount of blocks you travelled.\""""
    t = Table(destinations="free")
    t.play(algol=t.body("algol", ("Algol", 5, "Hamal")))
    assert t.state["warps"]["algol"]["1"]["commitment"] is None
    t.play(algol={"warps": {1: {"arrive": "Sheratan"}}})
    assert t.ships("Sheratan") == {"algol": 5}


def test_sequential_mode_one_slot_at_a_time():
    t = Table(mode="sequential")
    assert AD.powers_due(t.state) == ["pavo"]
    t.play(pavo=t.body("pavo", ("Pavo", 3, "Shaula")))
    assert AD.powers_due(t.state) == ["antares"] and t.state["turn"] == 1
    t.play()
    t.play()
    t.play()
    assert AD.powers_due(t.state) == ["pavo"] and t.state["turn"] == 2


# ---------------------------------------------------------------------------------------------
# Rulings (docs/rules.md) not covered above
# ---------------------------------------------------------------------------------------------


def test_ruling_r7_sequential_wild_allies_in_other_slots_arrive_separately():
    t = Table("wild-4", mode="sequential").put("Caph", "regulus", 4).put("Hamal", "pavo", 6)
    t.set("alliances", [{"members": ["algol", "regulus"], "public": True, "since": 1}])
    for _ in range(2):          # pavo, antares: nothing
        t.play()
    t.play(regulus=t.body("regulus", ("Caph", 4, "Hamal")))
    t.play(algol=t.body("algol", ("Algol", 4, "Hamal")))
    for _ in range(2):
        t.play()
    t.play()                    # regulus alone: 4 against 6, destroyed
    battles = t.of("battle")
    assert battles and battles[0]["attack"] == 4 and battles[0]["winner"] == "defender"


def test_ruling_r7_no_move_out_of_sequence_is_needed_to_get_a_ship_out_of_the_way():
    """RB: "If, in order to make a simultaneous move and arrival, it is necessary for an ally to
    make one of his other moves out of normal sequence or turn (to get a ship out of the way) he
    may do so." Here no ship is ever in the way: an ally's trailing warp joins an allied arrival
    although its leading warp has not moved yet, and the leading warp moves in its own turn
    (ruling R7)."""
    t = Table("alliances-4", destinations="free").put("Hamal", "pavo", 8)
    t.set("warps.algol.1", {"from": "Algol", "sector": "A-yellow", "departed": 0,
                            "travelled": 3, "ships": {"algol": 2}, "commitment": None,
                            "escrow": None})
    t.set("warps.algol.2", {"from": "Algol", "sector": "A-yellow", "departed": 0,
                            "travelled": 1, "ships": {"algol": 5}, "commitment": None,
                            "escrow": None})
    t.set("warps.regulus.1", {"from": "Schedar", "sector": "B-yellow", "departed": 0,
                              "travelled": 2, "ships": {"regulus": 5}, "commitment": None,
                              "escrow": None})
    t.play(regulus={"warps": {1: {"arrive": "Hamal"}}},
           algol={"warps": {2: {"arrive": "Hamal"}}})
    battle = t.of("battle")[0]
    assert battle["power"] == "regulus" and battle["attack"] == 10
    assert {(f["power"], f["warp"]) for f in battle["fleets"]} == {("regulus", 1), ("algol", 2)}
    assert t.state["warps"]["algol"]["1"]["travelled"] == 4, "the leading warp moved on its own"


def test_ruling_r8_allied_fleets_of_different_lengths_combine():
    t = Table("alliances-4").put("Schedar", "regulus", 5).put("Hamal", "pavo", 8)
    t.play(regulus=t.body("regulus", ("Schedar", 5, "Hamal")))   # 3 turns
    t.play(algol=t.body("algol", ("Algol", 5, "Hamal")))         # 2 turns, one turn later
    events = t.play()
    battle = [e for e in events if e["type"] == "battle"]
    assert battle and battle[0]["attack"] == 10 and battle[0]["winner"] == "attacker"


def test_ruling_r10_a_defender_that_wins_may_depart_on_its_own_turn():
    t = Table().put("Hamal", "algol", 8).put("Sheratan", "pavo", 5)
    t.play(pavo=t.body("pavo", ("Sheratan", 5, "Hamal")),          # pavo moves first: loses
           algol=t.body("algol", ("Hamal", 8, "Mira")))            # algol's turn: departs
    assert t.of("battle")[0]["winner"] == "defender"
    assert any(e["type"] == "departure" and e["power"] == "algol" for e in t.last)
    assert not t.of("departure_failed")


def test_ruling_r11_a_power_holding_its_empty_home_is_not_out():
    t = Table().put("Algol", "algol", 0, holder="algol")
    t.play()
    assert t.state["powers"]["algol"]["status"] == "active"
    t.play()
    assert t.ships("Algol") == {"algol": 1}, "it builds at its home star"


def test_ruling_r15_holder_passes_to_longest_present_when_holder_leaves():
    t = Table("alliances-4").put("Capella", "algol", 3).put("Capella", "regulus", 2,
                                                              holder="algol")
    t.play(algol=t.body("algol", ("Capella", "all", "Elnath")))
    assert t.holder("Capella") == "regulus"


def test_ruling_r20_liberating_a_captured_ally_home_needs_no_permission():
    t = Table("alliances-4").put("Regulus", "regulus", 0, holder="pavo")
    t.put("Regulus", "pavo", 2, holder="pavo").put("Markab", "algol", 3).put("Hamal", "regulus", 1)
    t.play(algol=t.body("algol", ("Markab", 3, "Regulus")))
    assert not t.of("diverted")
    assert t.holder("Regulus") == "regulus"
