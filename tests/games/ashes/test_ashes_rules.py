"""The Ashes of Empire, rule by rule and example by example (games/ashes/RULES.md maps each
seed line to the code and to the test here). Every table is laid out by hand
(tests.support.ashes_driver.arranged) and every die and the deck order are scripted."""

from __future__ import annotations

import copy

import pytest

from pbem import canonical
from pbem.game.chance import NO_CHANCE
from tests.support.ashes_driver import (
    CARDS,
    PLUGIN,
    ScriptedChance,
    arranged,
    check_conservation,
    of,
    rules,
    ships,
    standin_order,
    step,
)

LABEL = "battle:turn5:red"


def problems_of(state, power, body):
    _, problems = PLUGIN.normalize_orders(body, PLUGIN.view(state, power))
    return problems


def test_setup_deals_nothing_and_records_the_deck():
    """Set-up is secret-free: its digest is public in the genesis entry, so it deals nothing;
    the deck's name and digest are recorded (an owner's deck is a set-up option)."""
    state = PLUGIN.setup("sequential-3", {"game_id": "g1"})
    assert state["deck"] == [] and state["galaxy"] == {}
    assert all(p["hand"] == {} for p in state["powers"].values())
    assert state["options"]["deck"] == "standin-1"
    assert state["options"]["deck_digest"] == canonical.digest(
        __import__("ashes.deck").deck.standin())
    assert PLUGIN.window(state).kind == "setup"


def test_starting_the_game_shuffle_deal_galaxy_first_player():
    """"Each player receives 3 planet cards, concealed (the homeplanets). Next, 8 neutral
    planets are laid on the table, topside up. The rest of the deck is stacked (topside down)
    ... the 'black hole'." The shuffle comes from the secret stream, the first player from a
    public draw (the seed's "youngest player" has no email equivalent)."""
    state = PLUGIN.setup("sequential-3", {"game_id": "g1"})
    # the set-up step: every player commits his chance; nothing is drawn (NO_CHANCE refuses)
    state = PLUGIN.resolve(state, {p: {} for p in state["seats"]}, NO_CHANCE).state
    assert state["phase"] == "deal" and PLUGIN.window(state).kind == "deal"
    order = list(reversed(standin_order()))
    chance = ScriptedChance(deck=order, first=2)
    result = PLUGIN.resolve(state, {p: {} for p in state["seats"]}, chance)
    new = result.state
    assert ("secret", "shuffle:deck", "shuffle", 40) in chance.drawn
    assert ("public", "first-player", "below", 3) in chance.drawn
    red, blue, green = (set(new["powers"][p]["hand"]) for p in ("red", "blue", "green"))
    assert red == {order[0], order[3], order[6]} and blue == {order[1], order[4], order[7]}
    assert green == {order[2], order[5], order[8]}
    assert list(new["galaxy"]) == sorted(order[9:17])
    assert new["deck"] == order[17:]
    assert new["active"] == "green" and PLUGIN.window(new).due == ("green",)
    dealt = of(result.events, "dealt")
    assert [e["_visible_to"] for e in dealt] == [["red"], ["blue"], ["green"]]
    assert all("_visible_to" in e for e in dealt)
    check_conservation(new)


def combat_table():
    """Red's colony A2 (population 3, reaches B1) holds 6 ships; blue's colony B1 5."""
    return arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0}, "blue": {"F1": 0, "J4": 0,
                                                                         "K3": 0}},
                    colonies={"red": {"A2": 6}, "blue": {"B1": 5}})


def test_combat_example_to_the_ship():
    """"Example: 6 attacking spaceships throw 6+5+5+3+2+4 = 25 which means 4 hits. The 5
    defending spaceships throw 6+5+5+4+4 = 24, which also means 4 hits. The attacker keeps 2
    spaceships, the defender keeps one. He also looses the battle." The survivor goes home
    (blue's homeplanets); A2, emptied by the attack, revolts."""
    state = combat_table()
    chance = ScriptedChance(dice={LABEL + ":attacker": [6, 5, 5, 3, 2, 4],
                                  LABEL + ":defender": [6, 5, 5, 4, 4]})
    new, events = step(state, {"red": {"move": {"conquer": "B1", "from": "A2", "ships": 6}}},
                       chance)
    (battle,) = of(events, "battle")
    assert (battle["attacker_total"], battle["defender_total"]) == (25, 24)
    assert (battle["attacker_hits"], battle["defender_hits"]) == (4, 4)
    assert (battle["attacker_left"], battle["defender_left"]) == (2, 1)
    assert battle["winner"] == "red"
    assert new["powers"]["red"]["colonies"] == {"B1": 2}
    assert "B1" not in new["powers"]["blue"]["colonies"]
    assert sum(new["powers"]["blue"]["hand"].values()) == 1
    assert [e["planet"] for e in of(events, "revolution")] == ["planet:A2"]
    assert new["deck"][-1] == "A2" and new["under"]["A2"] == "public"


def test_tie_the_defender_wins():
    """"The player with the highest die cast wins. The defender wins if it is a tie." Both
    sides still lose floor(total / 6): 24 against 24, 4 hits each."""
    state = combat_table()
    chance = ScriptedChance(dice={LABEL + ":attacker": [6, 5, 5, 4, 2, 2],
                                  LABEL + ":defender": [6, 5, 5, 4, 4]})
    new, events = step(state, {"red": {"move": {"conquer": "B1", "from": "A2", "ships": 6}}},
                       chance)
    (battle,) = of(events, "battle")
    assert battle["attacker_total"] == battle["defender_total"] == 24
    assert battle["winner"] == "blue"
    assert new["powers"]["blue"]["colonies"] == {"B1": 1}
    assert of(events, "retreat")[0] == {"type": "retreat", "turn": 5, "power": "red",
                                        "ships": 2, "eliminated": 0}


def test_neutral_planets_defend_with_one_die_per_population_point():
    """"Neutral planets defend themselves with one die per population point, colonies defend
    themselves with one die per spaceship." E4 (population 3) rolls 3 dice."""
    state = arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0}}, colonies={"red": {"A2": 5}},
                     galaxy={"E4": 0}, deck_top=["K1"])
    chance = ScriptedChance(dice={LABEL + ":attacker": [6, 6, 6, 6],
                                  LABEL + ":defender": [1, 1, 1]})
    new, events = step(state, {"red": {"move": {"conquer": "E4", "from": "A2", "ships": 4}}},
                       chance)
    assert ("public", LABEL + ":defender", "roll", 3) in chance.drawn
    assert new["powers"]["red"]["colonies"]["E4"] == 4
    assert "K1" in new["galaxy"] and "E4" not in new["galaxy"]  # the newly explored planet


def test_reinforcement_one_ship_per_planet():
    """"Each player receives one spaceship for every planet in his possession": 3
    homeplanets + 2 colonies = 5, placed as the player chooses."""
    state = arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0}},
                     colonies={"red": {"A2": 1, "E4": 1}})
    new, events = step(state, {"red": {"place": {"A2": 3, "D4": 2}}})
    assert of(events, "reinforcement")[0]["received"] == 5
    assert new["powers"]["red"]["colonies"]["A2"] == 4
    assert new["powers"]["red"]["hand"]["D4"] == 2


def test_reinforcement_at_the_108_cap():
    """"... (as long as there is one of his 108 spaceship 'in stock')": holding 21 planets
    with 106 ships in play, red receives 2; at 108 none. (A table of rules version 1: under
    version 2 any 21 planets hold six of one number, a won game, ruling A10.)"""
    big = ["B1", "E1", "H1", "A2", "D2", "G2", "K2", "C3", "F3", "J3", "B4", "E4", "H4"]
    mid = ["A1", "D1", "G1", "K1", "C2", "F2", "J2"]
    cols = {c: 2 * CARDS[c]["population"] for c in big[3:] + mid}
    cols["H4"], cols["B3"] = 4, 2
    state = arranged(hands={"red": {c: 6 for c in big[:3]}}, colonies={"red": cols},
                     rules_version=1)
    assert ships(state, "red") == 106 and rules.complete_cluster(state, "red") is None
    new, events = step(state, {"red": {}})
    assert of(events, "reinforcement")[0]["received"] == 2
    assert ships(new, "red") == 108
    again = copy.deepcopy(new)
    again["active"] = "red"
    _, events = step(again, {"red": {}})
    assert of(events, "reinforcement")[0]["received"] == 0


def test_stacking_limit_rejects_a_placement_over_population_times_two():
    """"The stacking limit of a planet equals its population x 2": E4 (population 3) holds
    5; placing 2 more is refused with the planet's path, 1 is accepted."""
    state = arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0}},
                     colonies={"red": {"A2": 1, "E4": 5}})
    problems = problems_of(state, "red", {"place": {"E4": 2}})
    assert [(p.code, p.path) for p in problems] == [("stacking", "place.E4")]
    assert problems_of(state, "red", {"place": {"E4": 1}}) == []


def test_winner_ships_over_the_stacking_limit_are_eliminated():
    """"The winner places the conquered planet/colony in front of him as his colony and
    occupies it with those spaceship that survived the battle. Spaceship exceeding the
    stacking limit are eliminated." 4 survivors on H2 (population 1): 2 stay."""
    state = arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0}}, colonies={"red": {"A2": 5}},
                     galaxy={"H2": 0})
    chance = ScriptedChance(dice={LABEL + ":attacker": [6, 6, 6, 6],
                                  LABEL + ":defender": [1]})
    new, events = step(state, {"red": {"move": {"conquer": "H2", "from": "A2", "ships": 4}}},
                       chance)
    assert new["powers"]["red"]["colonies"]["H2"] == 2
    assert of(events, "conquered")[0]["eliminated"] == 2


def test_movement_limit_of_six_ships():
    """"A maximum number of 6 spaceships can be moved during each game turn": a conquest
    with 7 is refused."""
    state = arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0}},
                     colonies={"red": {"A2": 6, "E4": 6}}, galaxy={"H2": 0})
    problems = problems_of(state, "red", {"move": {"conquer": "H2", "from": "A2",
                                                   "ships": 7}})
    assert "move-limit" in [p.code for p in problems]
    assert all(p.path.startswith("move") for p in problems)


def test_reorganisation_is_the_exception_to_the_movement_limit():
    """"(exception: 2.d, reorganisation)" / "A player is allowed to place (within the
    stacking limit) every spaceship already in the game onto every colony and/or
    homeplanet": 10 ships change planets in one turn."""
    state = arranged(hands={"red": {"K2": 0, "C2": 0, "B4": 0}},
                     colonies={"red": {"A2": 6, "E4": 6}})
    order = {"place": {"B4": 5}, "move": {"reorganise": {"A2": 1, "E4": 1, "K2": 6, "C2": 4,
                                                         "B4": 5}}}
    new, events = step(state, {"red": order})
    assert new["powers"]["red"]["colonies"] == {"A2": 1, "E4": 1}
    assert new["powers"]["red"]["hand"] == {"B4": 5, "C2": 4, "K2": 6}
    assert of(events, "reorganised")


def test_exchange_homeplanets():
    """"1. exchange homeplanets: One handcard is shoved underneath the 'black hole', a new one
    is taken off the top." Its ships move to the new card (ruling A3); blue sees neither
    card."""
    state = arranged(hands={"red": {"D4": 2, "C2": 0, "G3": 0}}, deck_top=["K1"])
    new, events = step(state, {"red": {"place": {"C2": 3}, "move": {"exchange": "D4"}}})
    assert set(new["powers"]["red"]["hand"]) == {"K1", "C2", "G3"}
    assert new["powers"]["red"]["hand"]["K1"] == 2
    assert new["deck"][-1] == "D4" and new["under"]["D4"] == "red"
    blue = canonical.dumps(PLUGIN.view(new, "blue")) + canonical.dumps(
        PLUGIN.view_events(events, "blue"))
    assert "planet:D4" not in blue and "planet:K1" not in blue
    red = canonical.dumps(PLUGIN.view_events(events, "red"))
    assert "planet:D4" in red and "planet:K1" in red


def test_change_homeplanet_into_colony():
    """"2. change homeplanets into colonies: A player places one of his handcards topside up
    on the table in front him and occupies it with up to 6 spaceship (stationed before that
    on his homeplanets). After that, a new homeplanet is drawn." """
    state = arranged(hands={"red": {"D4": 0, "C2": 4, "B4": 6}}, deck_top=["K1"])
    new, events = step(state, {"red": {"place": {"D4": 3},
                                       "move": {"colonise": "D4", "ships": {"C2": 1}}}})
    assert new["powers"]["red"]["colonies"] == {"D4": 4}
    assert set(new["powers"]["red"]["hand"]) == {"C2", "B4", "K1"}
    assert of(events, "colonised")[0]["planet"] == "planet:D4"
    too_many = problems_of(state, "red", {"move": {"colonise": "D4",
                                                   "ships": {"C2": 4, "B4": 3}}})
    assert "move-limit" in [p.code for p in too_many]


def test_homeplanet_route_shows_the_card():
    """"If the target planet can only be reached from one of the players homeplanets, he must
    prove this by showing the card. 1-6 spaceships stationed on the homeplanets are deployed
    for the attack. The shown handcard is shoven underneath the deck, a new homeplanet is
    taken." The proof is public; ships left on it move to the new card (ruling A3)."""
    state = arranged(hands={"red": {"A2": 4, "C2": 2, "G3": 0}}, galaxy={"E4": 0},
                     deck_top=["K1"])
    chance = ScriptedChance(dice={LABEL + ":attacker": [6, 6, 6, 6],
                                  LABEL + ":defender": [1, 1, 1]})
    new, events = step(state, {"red": {"place": {"G3": 2}, "move": {
        "conquer": "E4", "from": "A2", "ships": {"A2": 3, "C2": 1}}}}, chance)
    assert of(events, "proof")[0]["planet"] == "planet:A2"
    assert "_visible_to" not in of(events, "proof")[0]
    assert new["deck"][-1] == "A2" and new["under"]["A2"] == "public"
    assert new["powers"]["red"]["hand"]["K1"] == 1  # the ship left on A2
    assert new["powers"]["red"]["colonies"]["E4"] == 4


def test_homeplanet_route_refused_when_a_colony_reaches_the_target():
    """Ruling A5: a homeplanet is shown only when the target "can only be reached from one of
    the players homeplanets"; red's colony H3 reaches E4 too."""
    state = arranged(hands={"red": {"A2": 4, "C2": 2, "G3": 0}}, colonies={"red": {"H3": 1}},
                     galaxy={"E4": 0})
    problems = problems_of(state, "red", {"move": {"conquer": "E4", "from": "A2",
                                                   "ships": 3}})
    assert [(p.code, p.path) for p in problems] == [("homeplanet-route", "move.from")]


def test_conquest_needs_a_planet_whose_line_d_shows_the_target():
    """"... coming from the colony wich in line D shows the planet's number": A2's line D
    does not show K1 (planet 34)."""
    state = arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0}}, colonies={"red": {"A2": 5}},
                     galaxy={"K1": 0})
    problems = problems_of(state, "red", {"move": {"conquer": "K1", "from": "A2", "ships": 2}})
    assert [(p.code, p.path) for p in problems] == [("reach", "move.from")]


def test_revolution_of_an_emptied_colony():
    """"If, during the movement phase, the last spaceship has been removed from any one
    planet, a revolution starts on this planet. It becomes neutral and his player must shove
    the card underneath the 'black hole'." """
    state = arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0}},
                     colonies={"red": {"A2": 3, "E4": 1}})
    new, events = step(state, {"red": {"place": {"E4": 5},
                                       "move": {"reorganise": {"A2": 0, "D4": 3}}}})
    assert "A2" not in new["powers"]["red"]["colonies"]
    assert new["deck"][-1] == "A2" and "A2" not in new["galaxy"]
    assert of(events, "revolution")[0]["planet"] == "planet:A2"


def test_retreat_from_a_neutral_planet_refills_the_galaxy():
    """"Loser: neutral planet: A 'newly explored' planet is taken off the deck and placed in
    the neutral galaxy. Possibly remaining spaceship of a conquered planet now strengthen the
    defense of one of these 8 neutral planets, which is chosen by the conqueror. Spaceship
    exceeding the stacking limit of this planet is eliminated." E4 holds 4 neutral ships
    (ruling A6: 3 + 4 dice, 7 defenders); red's 12 take 2 of them (ruling A22), 5 survive and go
    to H2 (population 1, 1 already there): 1 fits, 4 are eliminated."""
    state = arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0}}, colonies={"red": {"A2": 6}},
                     galaxy={"E4": 4, "H2": 1}, deck_top=["K1"])
    chance = ScriptedChance(dice={LABEL + ":attacker": [2, 2, 2, 2, 2, 2],
                                  LABEL + ":defender": [1, 1, 1, 1, 1, 1, 1]})
    new, events = step(state, {"red": {"move": {"conquer": "E4", "from": "A2", "ships": 6,
                                                "survivors_to": "H2"}}}, chance)
    assert ("public", LABEL + ":defender", "roll", 7) in chance.drawn
    assert new["powers"]["red"]["colonies"]["E4"] == 5
    assert len(new["galaxy"]) == 8 and new["galaxy"]["K1"] == 0
    assert new["galaxy"]["H2"] == 2
    assert of(events, "neutral_retreat")[0]["eliminated"] == 4


def test_retreat_of_the_colony_loser_to_his_homeplanets():
    """"Colony: After the battle for a colony, the loser send his spaceship back to his
    home-planets. Spaceship exceeding the stacking limit are eliminated." Blue's standing
    preference sends them to J4 first (ruling A9); J4 (population 1) takes 2, the rest by
    room."""
    state = arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0},
                            "blue": {"F1": 0, "J4": 1, "K3": 2}},
                     colonies={"red": {"A2": 6}, "blue": {"B1": 6}})
    state["powers"]["blue"]["retreat"] = ["J4"]
    chance = ScriptedChance(dice={LABEL + ":attacker": [6, 6, 6, 6, 6, 6],
                                  LABEL + ":defender": [1, 1, 1, 1, 1, 1]})
    new, events = step(state, {"red": {"place": {"D4": 3},
                                       "move": {"conquer": "B1", "from": "A2", "ships": 5}}},
                       chance)
    assert new["powers"]["blue"]["hand"] == {"F1": 0, "J4": 2, "K3": 2}
    assert of(events, "retreat") == [{"type": "retreat", "turn": 5, "power": "blue",
                                      "ships": 1, "eliminated": 0}]


def test_victory_first_degree_cluster_counts_homeplanets():
    """"The first player to possess a 1st or 2nd degree cluster wins": A1, A2 in hand, A3 a
    colony, A4 conquered from D2. The winning hand is revealed."""
    state = arranged(hands={"red": {"A1": 0, "A2": 0, "G3": 0}},
                     colonies={"red": {"A3": 1, "D2": 5}}, galaxy={"A4": 0})
    chance = ScriptedChance(dice={LABEL + ":attacker": [6, 6, 6],
                                  LABEL + ":defender": [1, 1]})
    new, events = step(state, {"red": {"move": {"conquer": "A4", "from": "D2", "ships": 3}}},
                       chance)
    assert new["result"]["winners"] == ["red"] and new["result"]["degree"] == 1
    assert PLUGIN.is_over(new) and PLUGIN.window(new) is None
    (reveal,) = of(events, "reveal")
    assert set(reveal["hands"]["red"]) == {"planet:A1", "planet:A2", "planet:G3"}


def test_victory_second_degree_cluster_the_seeds_group():
    """"A 2nd degree cluster consists of 6 planets with the same numbers (e.g. A2, C2, E2,
    F2, G2, H2)": red holds five of them and conquers H2 from E4."""
    state = arranged(hands={"red": {"A2": 0, "C2": 0, "G3": 0}},
                     colonies={"red": {"E2": 1, "F2": 1, "G2": 1, "E4": 5}},
                     galaxy={"H2": 0})
    chance = ScriptedChance(dice={LABEL + ":attacker": [6, 6],
                                  LABEL + ":defender": [1]})
    new, _ = step(state, {"red": {"move": {"conquer": "H2", "from": "E4", "ships": 2}}},
                  chance)
    assert new["result"]["degree"] == 2
    assert new["result"]["cluster"] == ["A2", "C2", "E2", "F2", "G2", "H2"]


def test_deck_exhausted_highest_population_wins():
    """"If no player possesses a complete cluster before the last card is drawn off the deck,
    the game ends immediately. Now the player having the highest total amount of population
    points wins." Red colonises and draws C3, the last card."""
    state = arranged(hands={}, deck_size=1)
    assert state["deck"] == ["C3"]
    card = next(iter(state["powers"]["red"]["hand"]))
    new, events = step(state, {"red": {"place": {card: 1}, "move": {"colonise": card}}})
    totals = {p: rules.population(new, p) for p in new["seats"]}
    assert new["deck"] == [] and new["result"]["reason"] == "deck"
    assert new["result"]["winners"] == [max(totals, key=totals.__getitem__)] == ["red"]


def test_deck_exhausted_ties_win_together():
    """"In case of a tie, these players win together." Six players; white draws J2 (the
    last card, population 2) and ties red and yellow at 11."""
    state = arranged("sequential-6", hands={}, deck_size=1, active="white")
    assert state["deck"] == ["J2"]
    card = next(iter(state["powers"]["white"]["hand"]))
    new, _ = step(state, {"white": {"place": {card: 1}, "move": {"colonise": card}}})
    assert new["result"]["population"]["white"] == 11
    assert new["result"]["winners"] == ["red", "yellow", "white"]


def test_round_mode_every_player_orders_and_turns_rotate():
    """Ruling A1 under rules version 1: in the round mode every player orders once per round;
    the turns run in seat order from the round's first player, who rotates (version 2 keeps
    him: test_ashes_rulings.py::test_A1_round_mode_a_fixed_clockwise_cycle)."""
    state = arranged("rounds-3", hands={}, active="blue", rules_version=1)
    assert PLUGIN.window(state).due == ("blue", "green", "red")
    new, events = step(state, {p: {} for p in state["seats"]})
    assert [e["power"] for e in of(events, "reinforcement")] == ["blue", "green", "red"]
    assert new["first"] == "green" and PLUGIN.window(new).due == ("green", "red", "blue")


def test_round_mode_falls_back_when_the_source_is_gone():
    """In the round mode an order is written against the round's start: red, first this
    round, conquers blue's colony E1; blue's conquest from E1 no longer fits, so his ``else``
    option (an exchange) runs instead, and only blue is told why."""
    state = arranged("rounds-2", hands={"red": {"D4": 0, "C2": 0, "G3": 0},
                                        "blue": {"F1": 0, "J4": 0, "K3": 0}},
                     colonies={"red": {"H3": 4}, "blue": {"E1": 6}}, galaxy={"D2": 0},
                     deck_top=["K1"])
    dice = {"battle:turn5:red:attacker": [6, 6, 6, 6],
            "battle:turn5:red:defender": [1, 1, 1, 1, 1, 1]}
    orders = {"red": {"place": {"D4": 4}, "move": {"conquer": "E1", "from": "H3",
                                                   "ships": 4}},
              "blue": {"move": {"conquer": "D2", "from": "E1", "ships": 3},
                       "else": [{"exchange": "F1"}]}}
    new, events = step(state, orders, ScriptedChance(dice=dice))
    assert new["powers"]["red"]["colonies"]["E1"] == 3
    void = of(events, "move_void")
    assert [e["_visible_to"] for e in void] == [["blue"]]
    assert "F1" not in new["powers"]["blue"]["hand"] and "K1" in new["powers"]["blue"]["hand"]
    assert "move_void" not in {e["type"] for e in PLUGIN.view_events(events, "red")}


def test_concession_colonies_revolt_and_the_last_player_wins():
    """Ruling A15: a conceding player's colonies revolt, his hand goes under unseen."""
    state = arranged(hands={}, colonies={"blue": {"A2": 2}})
    result = PLUGIN.concede(state, "blue")
    assert result.state["result"]["winners"] == ["red"]
    assert "A2" in result.state["deck"]
    check_conservation(result.state)


@pytest.mark.parametrize("body,code", [
    ([], "shape"), ({"move": {"exchange": "Z9"}}, "planet"),
    ({"move": {"exchange": "B1", "conquer": "A2"}}, "move-kind"),
    ({"place": {"D4": -1}}, "count"), ({"place": {"D4": True}}, "count"),
    ({"move": {"conquer": "H2"}}, "from"), ({"fly": 1}, "unknown-order"),
])
def test_order_problems_have_codes_and_paths(body, code):
    state = arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0}})
    problems = problems_of(state, "red", body)
    assert code in [p.code for p in problems] and all(p.message for p in problems)
