"""The Ashes of Empire: the rulings read again against the rulebook (issue 28), one test per
rule, each quoting the seed's lines (games/ashes/RULES.md, "Rulings"; `S:n` is line n of
the rulebook's text). Rules version 2 reads them as quoted; a game recorded
under version 1 plays on as it began, and each test shows that too."""

from __future__ import annotations

import importlib

from pbem.game import versions
from pbem.game.chance import NO_CHANCE
from tests.support.ashes_driver import (
    PLUGIN,
    PracticeChance,
    ScriptedChance,
    arranged,
    check_conservation,
    of,
    rules,
    step,
)

LABEL = "battle:turn5:red"
present = importlib.import_module("ashes.present")


def problems_of(state, power, body):
    _, problems = PLUGIN.normalize_orders(body, PLUGIN.view(state, power))
    return problems


def test_rules_version_2_is_recorded_and_version_1_games_play_on():
    """A change that replays a recorded game differently bumps the rules version; the plugin
    still plays version 1, whose state is exactly what it was (no ``rules_version`` field)."""
    assert versions.rules_version(PLUGIN) == 2
    assert versions.versions_supported(PLUGIN) == (1, 2)
    assert PLUGIN.setup("sequential-3", {"game_id": "g"})["rules_version"] == 2
    old = PLUGIN.setup("sequential-3", {"game_id": "g", "rules_version": 1})
    assert "rules_version" not in old and rules.rules_version(old) == 1
    assert PLUGIN.view(old, "red")["rules_version"] == 1


def _neutral_battle(rules_version):
    """Red's colony A2 (6 ships) attacks the neutral E4 (population 3, no ship stationed) and
    wins 12 to 3: 2 hits on E4's 3 defenders."""
    state = arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0}}, colonies={"red": {"A2": 6}},
                     galaxy={"E4": 0, "H2": 0}, deck_top=["K1"], rules_version=rules_version)
    chance = ScriptedChance(dice={LABEL + ":attacker": [2, 2, 2, 2, 2, 2],
                                  LABEL + ":defender": [1, 1, 1]})
    return step(state, {"red": {"move": {"conquer": "E4", "from": "A2", "ships": 6,
                                         "survivors_to": "H2"}}}, chance)


def test_A22_a_conquered_neutral_planets_remaining_defenders_retreat():
    """"Execution: ... Neutral planets defend themselves with one die per population point"
    (S:67); "Phase of Retreat: Loser: neutral planet: A 'newly explored' planet is taken off
    the deck and placed in the neutral galaxy. Possibly remaining spaceship of a conquered
    planet now strengthen the defense of one of these 8 neutral planets, which is chosen by the
    conqueror. Spaceship exceeding the stacking limit of this planet is eliminated." (S:73)
    E4's three population dice are its defenders: red's 2 hits leave 1, which red sends to H2;
    H2 (population 1) now defends with 2 dice. Version 1 moved only ships stationed on the
    conquered planet, and none ever were."""
    new, events = _neutral_battle(2)
    (battle,) = of(events, "battle")
    assert battle["winner"] == "red" and battle["defender_left"] == 1
    assert of(events, "neutral_retreat") == [{"type": "neutral_retreat", "turn": 5,
                                              "planet": "planet:H2", "ships": 1,
                                              "eliminated": 0}]
    assert new["galaxy"]["H2"] == 1 and new["galaxy"]["K1"] == 0
    assert new["powers"]["red"]["colonies"]["E4"] == 6
    check_conservation(new)
    old, old_events = _neutral_battle(1)
    assert of(old_events, "neutral_retreat") == [] and old["galaxy"]["H2"] == 0


def test_A22_without_a_choice_the_defenders_go_to_the_newly_explored_planet():
    """"... one of these 8 neutral planets, which is chosen by the conqueror" (S:73): a
    conqueror who names none (``survivors_to``) has them sent to the newly explored planet."""
    state = arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0}}, colonies={"red": {"A2": 6}},
                     galaxy={"E4": 0}, deck_top=["K1"])
    chance = ScriptedChance(dice={LABEL + ":attacker": [2, 2, 2, 2, 2, 2],
                                  LABEL + ":defender": [1, 1, 1]})
    new, events = step(state, {"red": {"move": {"conquer": "E4", "from": "A2", "ships": 6}}},
                       chance)
    assert of(events, "neutral_retreat")[0]["planet"] == "planet:K1"
    assert new["galaxy"]["K1"] == 1


def test_A22_a_neutral_planet_that_holds_loses_ships_never_population():
    """Ruling A6 stands: a neutral planet that wins keeps its population; the attacker's hits
    remove only the ships stationed there. H2 (population 1, 2 ships stationed) rolls 3 dice
    and holds on the tie, 18 to 18; red's 3 hits remove both ships."""
    state = arranged(hands={"red": {"A2": 0, "C2": 0, "G3": 0}}, colonies={"red": {"E4": 6}},
                     galaxy={"H2": 2})
    chance = ScriptedChance(dice={LABEL + ":attacker": [6, 6, 6],
                                  LABEL + ":defender": [6, 6, 6]})
    new, events = step(state, {"red": {"move": {"conquer": "H2", "from": "E4", "ships": 3}}},
                       chance)
    assert of(events, "battle")[0]["winner"] == "neutral"
    assert new["galaxy"]["H2"] == 0


def _second_degree(rules_version):
    """Red holds B2, D2 (hand), E2, J2, K2 (colonies) and conquers H2 from E4: six planets
    numbered 2, which are not the deck's printed group (A2, C2, E2, F2, G2, H2)."""
    state = arranged(hands={"red": {"B2": 0, "D2": 0, "G3": 0}},
                     colonies={"red": {"E2": 1, "J2": 1, "K2": 1, "E4": 5}},
                     galaxy={"H2": 0}, rules_version=rules_version)
    chance = ScriptedChance(dice={LABEL + ":attacker": [6, 6], LABEL + ":defender": [1]})
    return step(state, {"red": {"move": {"conquer": "H2", "from": "E4", "ships": 2}}}, chance)


def test_A10_second_degree_cluster_any_six_of_one_number():
    """"A 2nd degree cluster consists of 6 planets with the same numbers (e.g. A2, C2, E2, F2,
    G2, H2)." (S:12) The list is an example ("e.g."): any six planets of one number are a
    cluster. Version 1 counted only the deck's printed groups."""
    new, events = _second_degree(2)
    assert new["result"]["reason"] == "cluster" and new["result"]["degree"] == 2
    assert new["result"]["cluster"] == ["B2", "D2", "E2", "H2", "J2", "K2"]
    old, _ = _second_degree(1)
    assert old["result"] is None


def _last_card(rules_version):
    """Six players, one card left (A4). Red holds A1, A2 and B3, his colony A3; he colonises
    B3 and draws A4, the last card: it would complete the cluster A1-A4."""
    state = arranged("sequential-6", hands={"red": {"A1": 0, "A2": 0, "B3": 0}},
                     colonies={"red": {"A3": 1}}, deck_top=["A4"], deck_size=1,
                     rules_version=rules_version)
    return step(state, {"red": {"place": {"B3": 2}, "move": {"colonise": "B3"}}})


def test_A11_a_cluster_completed_by_the_last_card_drawn_does_not_win():
    """"1. The first player to possess a 1st or 2nd degree cluster wins. 2. If no player
    possesses a complete cluster before the last card is drawn off the deck, the game ends
    immediately. Now the player having the highest total amount of population points wins."
    (S:79-S:80) A cluster the last card itself completes is not possessed before it is drawn:
    the game ends on population. Version 1 let that card win."""
    new, events = _last_card(2)
    assert new["deck"] == [] and "A4" in new["powers"]["red"]["hand"]
    assert new["result"]["reason"] == "deck"
    assert "cluster" not in of(events, "victory")[0]
    old, _ = _last_card(1)
    assert old["result"]["reason"] == "cluster" and old["result"]["winners"] == ["red"]


def test_A11_a_cluster_possessed_before_the_last_draw_still_wins():
    """"If no player possesses a complete cluster before the last card is drawn" (S:80): a
    cluster completed by a conquest, before the newly explored planet takes the last card,
    wins. Red conquers A4 from D2 (one card, K1, left: it refills the galaxy)."""
    state = arranged("sequential-6", hands={"red": {"A1": 0, "A2": 0, "G3": 0}},
                     colonies={"red": {"A3": 1, "D2": 5}}, galaxy={"A4": 0},
                     deck_top=["K1"], deck_size=1)
    chance = ScriptedChance(dice={LABEL + ":attacker": [6, 6, 6], LABEL + ":defender": [1, 1]})
    new, _ = step(state, {"red": {"move": {"conquer": "A4", "from": "D2", "ships": 3}}},
                  chance)
    assert new["deck"] == [] and new["result"]["reason"] == "cluster"
    assert new["result"]["winners"] == ["red"]


def _big_colony(rules_version):
    """An owner's deck where B4 has population 5 (stacking 10): red's homeplanet B4 holds 8."""
    state = arranged(hands={"red": {"D4": 0, "C2": 4, "B4": 6}}, deck_top=["K1"],
                     rules_version=rules_version)
    state["catalogue"]["cards"]["B4"]["population"] = 5
    state["powers"]["red"]["hand"]["B4"] = 8
    return state


def test_A13_a_colony_is_founded_with_up_to_6_ships():
    """"2. change homeplanets into colonies: A player places one of his handcards topside up
    on the table in front him and occupies it with up to 6 spaceship (stationed before that on
    his homeplanets). After that, a new homeplanet is drawn." (S:58) The card's own ships were
    stationed on a homeplanet too: they count among the 6. B4's 8 occupy it with 6; the 2 others
    stay at home, on the card drawn in its place (as ruling A3 moves a leaving card's ships).
    Version 1 kept all of a card's own ships and let 6 more come."""
    state = _big_colony(2)
    new, events = step(state, {"red": {"place": {"D4": 3}, "move": {"colonise": "B4"}}})
    assert new["powers"]["red"]["colonies"] == {"B4": 6}
    assert new["powers"]["red"]["hand"]["K1"] == 2
    too_many = problems_of(state, "red", {"move": {"colonise": "B4", "ships": {"C2": 1}}})
    assert [p.code for p in too_many] == ["colony-six"]
    old = _big_colony(1)
    assert problems_of(old, "red", {"move": {"colonise": "B4", "ships": {"C2": 1}}}) == []
    new_old, _ = rules.resolve(old, {"red": {"place": {"D4": 3}, "move": {
        "colonise": "B4", "ships": {"C2": 1}}}}, ScriptedChance())
    assert new_old["powers"]["red"]["colonies"] == {"B4": 9}


def _emptied_home(rules_version):
    """Red colonises D4 (3 ships placed there) with the one ship of C2, emptying C2."""
    state = arranged(hands={"red": {"D4": 0, "C2": 1, "B4": 6}}, deck_top=["K1", "H1"],
                     rules_version=rules_version)
    return step(state, {"red": {"place": {"D4": 3},
                                "move": {"colonise": "D4", "ships": {"C2": 1}}}})


def test_A18_an_emptied_homeplanet_revolts_too():
    """"If, during the movement phase, the last spaceship has been removed from any one
    planet, a revolution starts on this planet. It becomes neutral and his player must shove
    the card underneath the 'black hole'" (S:63) - any one planet, homeplanets too; "Every
    player needs to again/still hold three homeplanets in his hands" (S:60): he draws one in
    its place. A homeplanet that had no ship (K1, just drawn) does not revolt. Version 1 let
    only colonies revolt."""
    new, events = _emptied_home(2)
    me = new["powers"]["red"]
    assert me["colonies"] == {"D4": 4} and set(me["hand"]) == {"B4", "K1", "H1"}
    assert new["deck"][-1] == "C2" and new["under"]["C2"] == "public"
    (revolution,) = of(events, "revolution")
    assert revolution["planet"] == "planet:C2" and revolution["homeplanet"] is True
    assert "to" not in revolution
    assert "red's homeplanet had no ship left" in present.sentence(revolution).lower()
    check_conservation(new)
    old, old_events = _emptied_home(1)
    assert old["powers"]["red"]["hand"] == {"B4": 6, "C2": 0, "K1": 0}
    assert of(old_events, "revolution") == []


def test_A1_round_mode_a_fixed_clockwise_cycle():
    """"The youngest player begins, the others follow clockwise." (S:37) The order of play
    is a fixed cycle: in the round mode every round runs from the same first player (drawn at
    the deal) in seat order. Version 1 moved the first player one seat each round."""
    state = arranged("rounds-3", hands={}, active="blue")
    assert PLUGIN.window(state).due == ("blue", "green", "red")
    new, events = step(state, {p: {} for p in state["seats"]})
    assert [e["power"] for e in of(events, "reinforcement")] == ["blue", "green", "red"]
    assert new["first"] == "blue" and PLUGIN.window(new).due == ("blue", "green", "red")
    again, events = step(new, {p: {} for p in new["seats"]})
    assert [e["power"] for e in of(events, "reinforcement")] == ["blue", "green", "red"]


def test_A17_seven_and_eight_players():
    """"The Ashes of Empire / the strategic card game for 1-8 players" (S:3). Solitaire is an
    advanced rule (out of scope); 7 and 8 players are played in both modes. Eight players
    take 24 homeplanets and lay 8 neutral planets: 8 cards are left in the black hole."""
    variants = PLUGIN.variants()
    for n in (7, 8):
        assert {f"sequential-{n}", f"rounds-{n}"} <= set(variants)
        assert len(variants[f"sequential-{n}"].powers) == n
    state = PLUGIN.setup("sequential-8", {"game_id": "eight"})
    # the set-up step draws nothing (every player commits his chance); the deal comes next
    state = PLUGIN.resolve(state, {p: {} for p in state["seats"]}, NO_CHANCE).state
    dealt = PLUGIN.resolve(state, {p: {} for p in state["seats"]},
                           PracticeChance("eight", 2)).state
    assert all(len(dealt["powers"][p]["hand"]) == 3 for p in dealt["seats"])
    assert len(dealt["galaxy"]) == 8 and len(dealt["deck"]) == 8
