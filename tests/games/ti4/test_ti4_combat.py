"""The seed's "Combat & invasion" for the tactical action (games/ti4/combat.py, invasion.py;
RULES.md T10-T23), named after its rules. Dice are scripted by label (tests/support/ti4_table.py);
an unlisted label shows 1 on every die, a miss for every stand-in unit."""

from __future__ import annotations

from typing import Any

from games.ti4 import pack
from games.ti4.tactical import Outcome, tactical_action
from games.ti4.units import Catalog
from tests.support.ti4_table import Dice, board, strip_catalog

CAT = strip_catalog()


def act(b: Any, order: dict[str, Any], dice: Dice, standing: dict[str, Any] | None = None,
        player: str = "red", resources: int = 0) -> Outcome:
    out = tactical_action(b, CAT, player, order, standing or {}, dice, resources)
    assert not out.problems, out.problems
    return out


def kinds(out: Outcome, kind: str) -> list[dict[str, Any]]:
    return [e for e in out.events if e["type"] == kind]


def test_hits_on_d10_at_or_above_combat_value() -> None:
    """"Roll a d10 for each combat die. Each result equal to or higher than the unit's combat
    value is a hit." Frigates hit on 7: a 7 hits, a 6 does not."""
    b = board(space={"B": {"red": {"frigate": 2}}, "C": {"blue": {"frigate": 2}}})
    dice = Dice({"combat:C:r1:red:frigate": [7, 6], "combat:C:r1:blue:frigate": [6, 6],
                 "combat:C:r2:red:frigate": [10, 10]})
    out = act(b, {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"frigate": 2}}]},
              dice)
    first = kinds(out, "hits")[0]
    assert first["player"] == "blue" and first["hits"] == 1
    assert out.board.to_data()["space"] == {"C": {"red": {"frigate": 2}}}
    rolls = kinds(out, "roll")
    assert rolls[0]["label"] == "combat:C:r1:red:frigate" and rolls[0]["result"] == [7, 6]


def test_hits_assigned_by_defenders_standing_order() -> None:
    """"The defender assigns the hits": blue's standing order takes the tender first, then a
    frigate, though cheaper pickets stand beside them."""
    b = board(space={"B": {"red": {"citadel": 1}},
                     "C": {"blue": {"tender": 1, "frigate": 1, "picket": 1}}})
    dice = Dice({"combat:C:r1:red:citadel": [3, 3, 1]})
    out = act(b, {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"citadel": 1}}]},
              dice, {"blue": {"hits": ["tender", "frigate"]}})
    first = kinds(out, "hits")[0]
    assert first["destroyed"] == {"tender": 1, "frigate": 1}


def test_sustain_damage_cancels_a_hit_when_the_order_says_so() -> None:
    """"Units with this ability cancel 1 hit by becoming damaged": a bastion with 'sustain'
    first in blue's order takes the hit damaged; without the order the cheapest goes."""
    b = board(space={"B": {"red": {"frigate": 1}}, "C": {"blue": {"bastion": 1, "picket": 1}}})
    order = {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"frigate": 1}}]}
    dice = {"combat:C:r1:red:frigate": [9], "combat:C:r1:blue:bastion": [5]}
    out = act(b, order, Dice(dice), {"blue": {"hits": ["sustain"]}})
    assert kinds(out, "hits")[0]["damaged"] == {"bastion": 1}
    assert out.board.to_data()["damaged"]["space"] == {"C": {"blue": {"bastion": 1}}}
    out = act(b, order, Dice(dice), {"blue": {"hits": ["picket"]}})
    assert kinds(out, "hits")[0]["destroyed"] == {"picket": 1}


def test_retreat_to_legal_system() -> None:
    """"A retreat happens at the end of the round, to an adjacent system that has your units or
    planets and no enemy ships." Blue announces (1 ship or fewer), both roll, and blue leaves
    for D, where it owns a planet; its first wish, B, holds red ships."""
    b = board(space={"B": {"red": {"frigate": 2}}, "C": {"blue": {"frigate": 1}},
                     "F": {"red": {"picket": 1}}},
              owner={"pd": "blue", "pf": "blue"})
    out = act(b, {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"frigate": 1}}]},
              Dice(), {"blue": {"retreat": {"at_most": 1, "to": ["B", "F", "D"]}}})
    assert [e["round"] for e in kinds(out, "retreat-announced")] == [1]
    assert kinds(out, "retreat")[0]["dest"] == "D"
    assert out.board.to_data()["space"]["D"] == {"blue": {"frigate": 1}}
    assert kinds(out, "space-combat-end")[0]["winner"] == "red"
    # the dice of round 1 were rolled before the retreat was made
    assert "combat:C:r1:blue:frigate" in [e["label"] for e in kinds(out, "roll")]


def test_retreat_skipped_when_none_legal() -> None:
    """No adjacent system has blue's units or planets: the announced retreat is skipped with a
    reason, and blue fights on until it has no ships left."""
    b = board(space={"B": {"red": {"frigate": 2}}, "C": {"blue": {"frigate": 1}}})
    dice = Dice({"combat:C:r2:red:frigate": [10]})
    out = act(b, {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"frigate": 1}}]},
              dice, {"blue": {"retreat": {"at_most": 1}}})
    skipped = kinds(out, "retreat-skipped")
    assert skipped and "no adjacent system has his units or planets" in skipped[0]["text"]
    assert kinds(out, "space-combat-end")[0]["winner"] == "red"


def test_defender_in_a_nebula_adds_1_to_its_rolls() -> None:
    """Ruling T16: in a nebula the defender hits one lower (a frigate on 6)."""
    cat = strip_catalog({"C": "nebula"})
    b = board(space={"B": {"red": {"frigate": 1}}, "C": {"blue": {"frigate": 1}}})
    dice = Dice({"combat:C:r1:blue:frigate": [6]})
    out = tactical_action(b, cat, "red", {"activate": "C", "move": [
        {"path": ["B", "C"], "ships": {"frigate": 1}}]}, {}, dice)
    assert kinds(out, "space-combat-end")[0]["winner"] == "blue"


def test_anti_fighter_barrage_fires_at_fighters_before_round_1() -> None:
    """"Before round 1, anti-fighter barrage (AFB) fires": a picket's two dice at 9 destroy
    two wings, and only wings."""
    b = board(space={"B": {"red": {"picket": 1}}, "C": {"blue": {"tender": 1, "wing": 2}}})
    dice = Dice({"afb:C:red:picket": [9, 10], "combat:C:r1:red:picket": [9]})
    out = act(b, {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"picket": 1}}]},
              dice)
    afb = kinds(out, "hits")[0]
    assert afb["destroyed"] == {"wing": 2} and "anti-fighter barrage" in afb["text"]


def test_space_cannon_offense_fires_at_ships_moving_in() -> None:
    """"PDS in or next to the system may fire at ships there": blue's battery (range 0) on pc
    fires at red's ships in C before combat; with space_cannon: false it stays silent."""
    b = board(space={"B": {"red": {"frigate": 2}}}, planets={"pc": {"blue": {"battery": 1}}},
              owner={"pc": "blue"})
    order = {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"frigate": 2}}]}
    out = act(b, order, Dice({"cannon:C:pc:blue:battery": [6]}))
    assert kinds(out, "hits")[0]["destroyed"] == {"frigate": 1}
    quiet = act(b, order, Dice({"cannon:C:pc:blue:battery": [6]}),
                {"blue": {"space_cannon": False}})
    assert not kinds(quiet, "roll")


def test_bombardment_stopped_by_planetary_shield_unless_it_ignores_it() -> None:
    """"Planetary shield (PDS) stops it; the war sun ignores the shield": the bastion may not
    bombard pc under blue's battery, the citadel may."""
    b = board(space={"B": {"red": {"bastion": 1, "citadel": 1, "trooper": 1}}},
              planets={"pc": {"blue": {"battery": 1, "trooper": 2}}}, owner={"pc": "blue"})
    order = {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"citadel": 1}},
                                       {"path": ["B", "C"], "ships": {"bastion": 1},
                                        "carry": {"trooper": 1}}],
             "bombard": {"pc": {"bastion": 1, "citadel": 1}}}
    dice = Dice({"bombard:pc:red:citadel": [3, 3, 2]}, default=1)
    out = act(b, order, dice, {"blue": {"space_cannon": False}})
    labels = [e["label"] for e in kinds(out, "roll")]
    assert "bombard:pc:red:citadel" in labels and "bombard:pc:red:bastion" not in labels
    assert kinds(out, "hits")[0]["destroyed"] == {"trooper": 2}


def test_ground_combat_then_control_exhausts_the_captured_planet() -> None:
    """"Ground combat: rounds repeat until only one side is left ... Taking a planet exhausts
    it"; the loser's structures on it are destroyed (ruling T23)."""
    b = board(space={"B": {"red": {"tender": 1, "trooper": 3}}},
              planets={"pc": {"blue": {"trooper": 1, "yard": 1}}}, owner={"pc": "blue"})
    order = {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"tender": 1},
                                        "carry": {"trooper": 3}}],
             "invade": {"pc": {"trooper": 3}}}
    dice = Dice({"ground:pc:r1:red:trooper": [8, 1, 1], "ground:pc:r1:blue:trooper": [8]})
    out = act(b, order, dice)
    data = out.board.to_data()
    assert data["owner"]["pc"] == "red" and "pc" in data["exhausted"]
    assert data["planets"]["pc"] == {"red": {"trooper": 2}}
    assert kinds(out, "control")[0]["previous"] == "blue"


def test_space_cannon_defense_fires_at_ground_forces_landing() -> None:
    """"Defense: fires at ground forces landing on the PDS's planet"; an empty planet is then
    taken without ground combat."""
    b = board(space={"B": {"red": {"tender": 1, "trooper": 2}}},
              planets={"pc": {"blue": {"battery": 1}}}, owner={"pc": "blue"})
    order = {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"tender": 1},
                                        "carry": {"trooper": 2}}],
             "invade": {"pc": {"trooper": 2}}}
    out = act(b, order, Dice({"cannon-defense:pc:blue:battery": [9]}),
              {"blue": {"hits": []}})
    assert [e["destroyed"] for e in kinds(out, "hits")] == [{"trooper": 1}]
    assert out.board.to_data()["owner"]["pc"] == "red"
    assert not kinds(out, "ground-combat")


def test_no_invasion_while_enemy_ships_remain() -> None:
    """Ruling T18: red's attack fails (stalemate-free: red is destroyed), so it cannot land."""
    b = board(space={"B": {"red": {"tender": 1, "trooper": 1}}, "C": {"blue": {"frigate": 1}}},
              owner={"pc": "blue"})
    order = {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"tender": 1},
                                        "carry": {"trooper": 1}}],
             "invade": {"pc": {"trooper": 1}}}
    out = act(b, order, Dice({"combat:C:r1:blue:frigate": [9]}))
    assert kinds(out, "invasion-skipped")
    assert out.board.to_data()["owner"]["pc"] == "blue"


def test_an_invasion_order_names_planets_of_the_active_system_and_units_that_can() -> None:
    """T19, T20: bombard with bombardment units, land ground forces that will be in the active
    system's space, on its planets, not on a closed one."""
    b = board(space={"B": {"red": {"tender": 1, "trooper": 2}}})
    order = {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"tender": 1},
                                        "carry": {"trooper": 2}}],
             "bombard": {"pc": {"trooper": 1}}, "invade": {"pd": {"trooper": 3}}}
    out = tactical_action(b, CAT, "red", order, {}, Dice(), closed=frozenset({"pd"}))
    assert {p.code for p in out.problems} == {"invasion-unit", "invasion-planet",
                                              "invade-closed", "invasion-count"}


def test_attacker_may_not_announce_a_retreat_when_the_defender_does() -> None:
    """T14: the defender is asked first; in a round where it announces, the attacker may not."""
    b = board(space={"B": {"red": {"frigate": 1}}, "C": {"blue": {"frigate": 1}}},
              owner={"pd": "blue", "pa": "red"})
    out = act(b, {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"frigate": 1}}]},
              Dice(), {"blue": {"retreat": {"at_most": 1}}, "red": {"retreat": {"at_most": 1}}})
    assert [e["player"] for e in kinds(out, "retreat-announced")] == ["blue"]
    assert kinds(out, "retreat")[0]["dest"] == "D"


def test_a_combat_that_never_hits_stops_at_the_round_limit() -> None:
    """T17: dice that never hit cannot hang the referee: 40 rounds, then a stalemate."""
    b = board(space={"B": {"red": {"frigate": 1}}, "C": {"blue": {"frigate": 1}}})
    out = act(b, {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"frigate": 1}}]},
              Dice())
    assert kinds(out, "stalemate") and len(kinds(out, "roll")) == 2 * 40
    assert kinds(out, "space-combat-end")[0]["winner"] is None


def test_a_players_unit_upgrade_changes_his_units_only() -> None:
    """T1: Catalog.from_pack takes each player's unit overrides (a unit upgrade's fields):
    red's frigates with combat 6 hit on a 6, blue's still need 7."""
    data = pack.standin()
    cat = Catalog.from_pack(data, "small-3", upgrades={"red": {"frigate": {
        "combat": {"value": 6, "dice": 1}, "move": 3}}})
    assert cat.unit("frigate", "red").combat.value == 6  # type: ignore[union-attr]
    assert cat.unit("frigate", "red").move == 3 and cat.unit("frigate", "blue").move == 2
    assert cat.unit("frigate", "blue").combat.value == 7  # type: ignore[union-attr]


def test_a_retreat_keeps_the_fleet_pool() -> None:
    """T14: ships retreating into a system where they would pass the fleet pool lose the
    excess, cheapest first."""
    b = board(space={"B": {"red": {"frigate": 2}}, "C": {"blue": {"frigate": 1, "picket": 1}},
                     "D": {"blue": {"frigate": 1}}},
              pools={"blue": {"tactic": 3, "fleet": 2, "strategy": 2}})
    out = act(b, {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"frigate": 2}}]},
              Dice(), {"blue": {"retreat": {"at_most": 2, "to": ["D"]}}})
    assert out.board.to_data()["space"]["D"] == {"blue": {"frigate": 2}}
    assert kinds(out, "fleet-excess")[0]["units"] == {"picket": 1}
