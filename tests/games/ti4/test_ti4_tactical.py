"""The tactical action's activation, movement and production (games/ti4/tactical.py,
movement.py, production.py, board.py; RULES.md T1-T9, T24-T29), named after the seed's rules."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.ti4 import pack
from games.ti4.board import Board, start
from games.ti4.tactical import Outcome, tactical_action
from games.ti4.units import Catalog
from tests.support.conformance import real_chance
from tests.support.ti4_table import Dice, board, strip_catalog

CAT = strip_catalog()


def act(b: Board, order: dict[str, Any], dice: Dice | None = None, player: str = "red",
        resources: int = 0, cat: Catalog = CAT) -> Outcome:
    return tactical_action(b, cat, player, order, {}, dice or Dice(), resources)


def codes(out: Outcome) -> set[str]:
    return {p.code for p in out.problems}


def kinds(out: Outcome, kind: str) -> list[dict[str, Any]]:
    return [e for e in out.events if e["type"] == kind]


def test_activate_spends_a_tactic_token_into_the_system() -> None:
    """"Activate: put a tactic-pool token in the system."""
    out = act(board(space={"A": {"red": {"frigate": 1}}}), {"activate": "C"})
    assert not out.problems
    data = out.board.to_data()
    assert data["tokens"] == {"C": ["red"]} and data["pools"]["red"]["tactic"] == 2


def test_not_a_system_that_already_has_your_token_nor_with_an_empty_pool() -> None:
    """"activate a system (not one that already has your token)"; a tactic token is spent."""
    b = board(space={"A": {"red": {"frigate": 1}}}, tokens={"C": ["red"]})
    assert "activate-token" in codes(act(b, {"activate": "C"}))
    empty = board(space={"A": {"red": {"frigate": 1}}},
                  pools={"red": {"tactic": 0, "fleet": 3, "strategy": 2}})
    assert "activate-pool" in codes(act(empty, {"activate": "C"}))


def test_a_refused_order_changes_nothing_and_draws_no_dice() -> None:
    """Every problem at once; the board is the one given and no die was drawn."""
    b = board(space={"A": {"red": {"frigate": 1}}, "C": {"blue": {"frigate": 1}}})
    dice = Dice()
    out = act(b, {"activate": "C", "move": [{"path": ["A", "B", "C", "D"],
                                             "ships": {"frigate": 2}}], "bogus": 1}, dice)
    assert {"unknown-field"} <= codes(out)
    out = act(b, {"activate": "C", "move": [{"path": ["A", "B", "C"],
                                             "ships": {"frigate": 2}}]}, dice)
    assert codes(out) == {"move-count"} and out.board is b and not out.events
    assert dice.used == []


def test_ships_whose_move_value_can_reach_it_move_in() -> None:
    """"ships whose move value can reach it move in": a frigate (move 2) reaches C from A, a
    tender (move 1) does not."""
    b = board(space={"A": {"red": {"frigate": 1, "tender": 1}}})
    ok = act(b, {"activate": "C", "move": [{"path": ["A", "B", "C"], "ships": {"frigate": 1}}]})
    assert not ok.problems and ok.board.to_data()["space"]["C"] == {"red": {"frigate": 1}}
    far = act(b, {"activate": "C", "move": [{"path": ["A", "B", "C"], "ships": {"tender": 1}}]})
    assert "path-long" in codes(far)


def test_cant_move_through_enemy_ships_nor_leave_your_own_token() -> None:
    """"can't leave a system that holds your own command token, and can't move through a system
    with enemy ships" (galaxy.path_problems, judged for every ship of a move)."""
    b = board(space={"A": {"red": {"frigate": 1}}, "B": {"blue": {"wing": 1}}})
    assert "path-blocked" in codes(act(b, {"activate": "C", "move": [
        {"path": ["A", "B", "C"], "ships": {"frigate": 1}}]}))
    b = board(space={"A": {"red": {"frigate": 1}}}, tokens={"A": ["red"]})
    assert "path-token" in codes(act(b, {"activate": "B", "move": [
        {"path": ["A", "B"], "ships": {"frigate": 1}}]}))


def test_capacity_and_excess_fighters() -> None:
    """"Ships with capacity carry fighters and ground forces ... Fighters left over beyond
    capacity are removed at the end of movement or production." A tender (4) may not carry 5;
    the yard holds 3 fighters, so a fourth built there is removed."""
    b = board(space={"A": {"red": {"tender": 1, "wing": 3, "trooper": 2}}})
    over = act(b, {"activate": "B", "move": [{"path": ["A", "B"], "ships": {"tender": 1},
                                              "carry": {"wing": 3, "trooper": 2}}]})
    assert "capacity" in codes(over)
    fits = act(b, {"activate": "B", "move": [{"path": ["A", "B"], "ships": {"tender": 1},
                                              "carry": {"wing": 2, "trooper": 2}}]})
    assert fits.board.to_data()["space"]["B"] == {"red": {"tender": 1, "trooper": 2,
                                                          "wing": 2}}
    dock = board(planets={"pa": {"red": {"yard": 1}}}, owner={"pa": "red"})
    out = act(dock, {"activate": "A", "produce": {"wing": 4}}, resources=2)
    assert out.board.to_data()["space"]["A"] == {"red": {"wing": 3}}
    assert kinds(out, "excess")[0]["units"] == {"wing": 1}


def test_excess_fighters_removed_when_their_carrier_is_lost() -> None:
    """Capacity is checked again after space cannon offense and combat (ruling T8): the
    battery destroys the tender, so its wings go too."""
    b = board(space={"B": {"red": {"tender": 1, "wing": 2}}},
              planets={"pc": {"blue": {"battery": 1}}}, owner={"pc": "blue"})
    out = tactical_action(b, CAT, "red", {"activate": "C", "move": [
        {"path": ["B", "C"], "ships": {"tender": 1}, "carry": {"wing": 2}}]},
        {"red": {"hits": ["tender"]}}, Dice({"cannon:C:pc:blue:battery": [10]}))
    assert "C" not in out.board.to_data()["space"]
    assert kinds(out, "excess")[0]["units"] == {"wing": 2}


def test_fleet_pool_limits_ships_in_the_active_system() -> None:
    """"Fleet: the number of non-fighter ships you may have in each system"."""
    b = board(space={"A": {"red": {"frigate": 2, "wing": 1}}},
              pools={"red": {"tactic": 3, "fleet": 1, "strategy": 2}})
    assert "fleet-pool" in codes(act(b, {"activate": "B", "move": [
        {"path": ["A", "B"], "ships": {"frigate": 2}}]}))
    assert not act(b, {"activate": "B", "move": [
        {"path": ["A", "B"], "ships": {"frigate": 1}}]}).problems


def test_gravity_rift_may_destroy_a_ship_leaving_it() -> None:
    """Ruling T7: a ship leaving a gravity rift rolls a d10 and is lost on 1-3; the rift's +1
    move lets a tender reach C."""
    cat = strip_catalog({"B": "gravity-rift"})
    b = board(space={"A": {"red": {"tender": 2}}})
    out = act(b, {"activate": "C", "move": [{"path": ["A", "B", "C"], "ships": {"tender": 2}}]},
              Dice({"rift:0:0:B:red:tender": [3, 4]}), cat=cat)
    assert not out.problems
    assert out.board.to_data()["space"]["C"] == {"red": {"tender": 1}}


def test_production_dock_bonus() -> None:
    """"A space dock's production is its planet's resources plus its dock bonus": the yard
    (2) on pa (2 resources) builds 4 units, not 5."""
    b = board(planets={"pa": {"red": {"yard": 1}}}, owner={"pa": "red"})
    assert not act(b, {"activate": "A", "produce": {"frigate": 2, "wing": 2}},
                   resources=5).problems
    assert "produce-count" in codes(act(b, {"activate": "A", "produce": {"frigate": 5}},
                                        resources=10))
    assert "produce-dock" in codes(act(b, {"activate": "B", "produce": {"frigate": 1}},
                                       resources=10))


def test_production_two_for_one() -> None:
    """"Fighters and infantry cost 1 for 2": 2 wings and 2 troopers cost 2; 3 wings cost 2;
    what was spent is returned, and more than the resources given is refused."""
    b = board(planets={"pa": {"red": {"yard": 1}}}, owner={"pa": "red"})
    out = act(b, {"activate": "A", "produce": {"wing": 2, "trooper": 2}}, resources=2)
    assert out.spent == 2
    assert out.board.to_data()["planets"]["pa"] == {"red": {"trooper": 2, "yard": 1}}
    assert act(b, {"activate": "A", "produce": {"wing": 3}}, resources=2).spent == 2
    assert "produce-cost" in codes(act(b, {"activate": "A", "produce": {"frigate": 2}},
                                       resources=3))
    spent = kinds(act(b, {"activate": "A", "produce": {"wing": 1}}, resources=1), "spent")[0]
    assert spent["to"] == ["red"]  # private: only the producer reads what he paid


def test_no_ships_produced_into_enemy_ships() -> None:
    """"You can't build ships into a system that has enemy ships": the frigate is not built
    (nor paid), the troopers are."""
    b = board(space={"A": {"blue": {"frigate": 1}}}, planets={"pa": {"red": {"yard": 1}}},
              owner={"pa": "red"})
    out = act(b, {"activate": "A", "produce": {"frigate": 1, "trooper": 2}}, resources=3)
    assert not out.problems and out.spent == 1
    assert "frigate" not in out.board.to_data()["space"]["A"].get("red", {})
    assert "blue has ships in A" in kinds(out, "not-built")[0]["text"]


def test_units_are_limited_by_the_plastic() -> None:
    """"Units are limited by the plastic you have, apart from fighters and infantry": a third
    citadel (limit 2) is not built; wings past their pack limit are (ruling T4)."""
    b = board(space={"B": {"red": {"citadel": 2}}, "A": {"red": {"wing": 10}}},
              planets={"pa": {"red": {"yard": 1}}}, owner={"pa": "red"},
              pools={"red": {"tactic": 3, "fleet": 9, "strategy": 2}})
    out = act(b, {"activate": "A", "produce": {"citadel": 1, "wing": 2}}, resources=20)
    assert "plastic limit" in kinds(out, "not-built")[0]["text"]
    assert out.board.total("red", "citadel") == 2 and out.board.total("red", "wing") == 12 - 9


def test_board_is_immutable_and_its_canonical_form_round_trips() -> None:
    """T1: a resolution never changes the board it was given; to_data is plain JSON, sorted,
    and from_data reads it back equal."""
    b = board(space={"A": {"red": {"frigate": 1}}}, owner={"pa": "red"})
    before = json.dumps(b.to_data(), sort_keys=True)
    out = act(b, {"activate": "B", "move": [{"path": ["A", "B"], "ships": {"frigate": 1}}]})
    assert json.dumps(b.to_data(), sort_keys=True) == before
    assert Board.from_data(json.loads(json.dumps(out.board.to_data()))) == out.board
    with pytest.raises(AttributeError):
        b.owner = {}  # type: ignore[misc]


def test_start_places_each_factions_home() -> None:
    """T2: set-up from the stand-in pack: home planets owned, starting units placed, pools
    3/3/2 of 16."""
    data = pack.standin()
    cat = Catalog.from_pack(data, "small-3")
    b = start(data, cat, {"red": "aurel", "blue": "brannock", "green": "cassiel"})
    d = b.to_data()
    assert d["owner"]["aurel"] == "red" and d["owner"]["aurel-minor"] == "red"
    assert d["space"]["H1"]["red"] == {"frigate": 1, "tender": 1, "wing": 2}
    assert d["planets"]["aurel"]["red"] == {"trooper": 3, "yard": 1}
    assert d["pools"]["red"] == {"fleet": 3, "strategy": 2, "tactic": 3}
    assert b.tokens_of("red") == 8


def test_fighters_left_behind_beyond_capacity_are_removed() -> None:
    """Ruling T8: capacity is checked at the end of movement in the systems ships left too; a
    tender leaving its wings behind in open space loses them."""
    b = board(space={"A": {"red": {"tender": 1, "wing": 2}}})
    out = act(b, {"activate": "B", "move": [{"path": ["A", "B"], "ships": {"tender": 1}}]})
    assert "A" not in out.board.to_data()["space"]
    assert kinds(out, "excess")[0]["system"] == "A"


def test_a_tactical_action_draws_from_pbems_fair_chance() -> None:
    """The dice are pbem.chance's public draws (the chance the engine passes): the same inputs
    give the same dice, every one a d10 listed with its label."""
    b = board(space={"B": {"red": {"frigate": 2}}, "C": {"blue": {"frigate": 2}}})
    order = {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"frigate": 2}}]}
    one = tactical_action(b, CAT, "red", order, {}, real_chance(3, ["red"]))
    two = tactical_action(b, CAT, "red", order, {}, real_chance(3, ["red"]))
    rolls = kinds(one, "roll")
    assert rolls and all(1 <= x <= 10 for r in rolls for x in r["result"])
    assert one.events == two.events and one.board == two.board


def test_every_problem_of_an_order_and_its_standing_answers_at_once() -> None:
    """T3: a bad order and bad standing answers are refused with every problem, each with its
    path."""
    b = board(space={"A": {"red": {"frigate": 1}}})
    out = tactical_action(b, CAT, "red", {"move": "fast", "produce": {"frigate": 0}},
                          {"blue": {"hits": ["frigat"], "retreat": {"to": ["Q"]}}}, Dice())
    assert {(p.code, p.path) for p in out.problems} >= {
        ("activate", "activate"), ("move", "move"), ("counts", "produce"),
        ("standing-hits", "standing.blue.hits[0]"),
        ("standing-retreat", "standing.blue.retreat.to[0]")}
