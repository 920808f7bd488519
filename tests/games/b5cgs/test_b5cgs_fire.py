"""The Fire phase (D5), Long Range Support (H1), the Defense Grid (H2.1) and War Tokens
(B4.51), rule by rule and example by example, each from its own starting position, every die
scripted (games/b5cgs/fire.py)."""

from __future__ import annotations

import pytest

from tests.support.b5cgs_driver import PLUGIN, ScriptedChance, ScriptError, put, turn
from tests.support.b5cgs_positions import BOB, JIM, SALLY, fire, game, of_type, rolls

TARGET = "3,3"


def test_D5_6_combined_volley_of_10():
    """"A ship with a heavy weapon output of 2 and a laser output of 3, plus a ship with a heavy
    weapon output of 1 and a laser output of 4, both fire at a base 1 hex away. The damage
    applied in this case is 10." (before the Defense Grid: scripted 0)"""
    st = game()
    base = put(st, "base-6", SALLY, TARGET)                       # defense rating 8
    olympus = put(st, "ea-olympus", BOB, "3,4", facing=1)          # heavy 2, laser 3
    cruiser = put(st, "mf-cruiser", BOB, "2,3", facing=3)          # heavy 1, laser 4
    chance = ScriptedChance(rolls={"fire0:dg": [[0]]})
    events = fire.fire(st, BOB, [{"target": base, "with": [olympus, cruiser]}], chance)
    total = of_type(events, "volley_total")[0]
    assert total["scores"] == {olympus: {"heavy": 2, "laser": 3},
                               cruiser: {"heavy": 1, "laser": 4}}
    assert total["total"] == 10 and total["dg"] == 0 and total["damage"] == 10
    assert of_type(events, "damage")[0]["result"] == "crippled"   # 10 >= 8, < 16
    assert [r["label"] for r in rolls(events)] == ["fire0:dg"]    # range 1: no LRS die


def test_H2_1_defense_grid_of_the_target_subtracts():
    """"roll 1 Defense Grid Die (1DG) and subtract the result from the volley before applying
    damage"; the die is the target token's empire's, a generic token's the generic one."""
    st = game()
    base = put(st, "base-6", SALLY, TARGET)
    olympus = put(st, "ea-olympus", BOB, "3,4", facing=1)
    cruiser = put(st, "mf-cruiser", BOB, "2,3", facing=3)
    chance = ScriptedChance(rolls={"fire0:dg": [[2]]})
    events = fire.fire(st, BOB, [{"target": base, "with": [olympus, cruiser]}], chance)
    (dg,) = rolls(events)
    assert dg["die"] == "dg:generic" and dg["faces"] == st["pack"]["dice"]["dg"]["generic"]
    assert of_type(events, "volley_total")[0]["damage"] == 8
    ship = put(st, "mf-flyer", SALLY, "5,3", facing=1)
    gunner = put(st, "ea-olympus", BOB, "5,4", facing=1)
    chance = ScriptedChance(rolls={"fire0:dg": [[3]]})
    events = fire.fire(st, BOB, [{"target": ship, "with": [gunner]}], chance)
    assert rolls(events)[0]["die"] == "dg:minbari"


@pytest.mark.parametrize(("lrs", "applied"), [(2, 2), (5, 3), (0, 0)])
def test_H1_long_range_support_caps_each_weapon_at_range_2(lrs, applied):
    """"A ship is firing 3 points of heavy weapons at a base 2 hexes away. A Long Range
    Support Die Roll is made and the result is a 2, apply 2 (not 3) damage ... rolls a 5 ...
    Apply 3 damage" (1B5 at range 2; lasers, range 1, do not reach)."""
    st = game()
    base = put(st, "base-6", SALLY, TARGET)
    hyperion = put(st, "ea-hyperion", BOB, "3,5", facing=1)        # heavy 3, 2 hexes south
    script = {f"fire0:lrs:{hyperion}:heavy": [[lrs]]}
    if applied:
        script["fire0:dg"] = [[0]]
    chance = ScriptedChance(rolls=script)
    events = fire.fire(st, BOB, [{"target": base, "with": [hyperion]}], chance)
    lrs_roll = rolls(events)[0]
    assert lrs_roll["die"] == "b5" and lrs_roll["faces"] == [0, 1, 2, 3, 4, 5]
    assert lrs_roll["label"] == f"fire0:lrs:{hyperion}:heavy" and lrs_roll["result"] == [lrs]
    total = of_type(events, "volley_total")[0]
    assert total["scores"] == {hyperion: {"heavy": applied}} and total["damage"] == applied
    assert len(rolls(events)) == (2 if applied else 1)           # no DG against nothing


def test_every_roll_is_an_event_with_label_die_faces_and_result():
    """STATE.md: every roll is a labelled public draw and an event any player can re-check."""
    st = game()
    base = put(st, "base-6", SALLY, TARGET)
    hyperion = put(st, "ea-hyperion", BOB, "3,5", facing=1)
    chance = ScriptedChance(rolls={f"fire0:lrs:{hyperion}:heavy": [[4]], "fire0:dg": [[1]]})
    events = fire.fire(st, BOB, [{"target": base, "with": [hyperion]}], chance)
    assert [(s, lab) for s, lab, _ in chance.drawn] == [
        ("public", f"fire0:lrs:{hyperion}:heavy"), ("public", "fire0:dg")]
    for r in rolls(events):
        assert set(r) >= {"type", "label", "die", "faces", "count", "result", "for"}
        assert r["count"] == len(r["result"]) == 1 and r["result"][0] in r["faces"]


def test_D5_43_arcs_by_side_with_spines_included():
    """"Any unit in a hex between the two spine lines or intersected by a spine line may be
    targeted" (D5.43); weapons fire only in their arcs (D5.41). The raider's heavy weapons
    fire forward only: a target on the forward arc's right spine is in, one in the
    forward-right arc is not."""
    st = game()
    raider = put(st, "kd-raider", BOB, "3,5", facing=1)            # heavy 2 [F], laser 1 [F]
    on_spine = put(st, "mf-flyer", SALLY, "4,3", facing=1)         # offset (1,-2): range 2
    beside = put(st, "mf-flyer", SALLY, "5,3", facing=1)           # offset (2,-2): FR only
    chance = ScriptedChance(rolls={f"fire0:lrs:{raider}:heavy": [[5]], "fire0:dg": [[0]]})
    events = fire.fire(st, BOB, [{"target": on_spine, "with": [raider]}], chance)
    assert of_type(events, "volley_total")[0]["scores"] == {raider: {"heavy": 2}}
    st["flags"] = {"moved": [], "fired": [], "targeted": []}
    events = fire.fire(st, BOB, [{"target": beside, "with": [raider]}], ScriptedChance())
    assert "out of range or arc" in of_type(events, "volley_void")[0]["tried"][0]["reason"]


def test_D5_3_lasers_range_1_heavy_range_2():
    st = game()
    olympus = put(st, "ea-olympus", BOB, "3,5", facing=1)          # heavy 2 [F], laser 3
    far = put(st, "mf-flyer", SALLY, TARGET, facing=1)             # 2 hexes north
    chance = ScriptedChance(rolls={f"fire0:lrs:{olympus}:heavy": [[5]], "fire0:dg": [[0]]})
    events = fire.fire(st, BOB, [{"target": far, "with": [olympus]}], chance)
    assert of_type(events, "volley_total")[0]["scores"] == {olympus: {"heavy": 2}}


def test_D5_52_D5_53_double_fire_rejected_by_the_checker():
    """"Once a token has fired at a target, it cannot fire again on the same turn" (D5.52);
    "Once a token has been targeted, it may not be targeted again on the same turn" (D5.53)."""
    st = game()
    a = put(st, "mf-flyer", SALLY, TARGET, facing=1)
    b = put(st, "mf-flyer", SALLY, "4,3", facing=1)
    s1 = put(st, "ea-olympus", BOB, "3,4", facing=1)
    s2 = put(st, "ea-olympus", BOB, "4,4", facing=1)
    view = PLUGIN.view(st, BOB)
    _, problems = fire.check_fire([{"target": a, "with": [s1]},
                                   {"target": b, "with": [s1]}], view)
    assert [p.path for p in problems] == ["fire[1].with[0]"] and "D5.52" in problems[0].message
    _, problems = fire.check_fire([{"target": a, "with": [s1]},
                                   {"target": a, "with": [s2]}], view)
    assert [p.path for p in problems] == ["fire[1].target"] and "D5.53" in problems[0].message
    checked, problems = fire.check_fire([{"target": a, "with": [s1], "else": [b]},
                                         {"target": b, "with": [s2]}], view)
    assert problems == [] and len(checked) == 2


def test_D5_52_D5_53_double_fire_skipped_at_resolution_if_it_slips_through():
    st = game()
    a = put(st, "mf-flyer", SALLY, TARGET, facing=1)
    b = put(st, "mf-flyer", SALLY, "4,3", facing=1)
    s1 = put(st, "ea-olympus", BOB, "3,4", facing=1)
    s2 = put(st, "ea-olympus", BOB, "4,4", facing=1)
    chance = ScriptedChance(rolls={"fire0:dg": [[0]], "fire2:dg": [[0]]})
    events = fire.fire(st, BOB, [{"target": a, "with": [s1]},
                                 {"target": b, "with": [s1]},       # s1 again: skipped
                                 {"target": a, "with": [s2]}], chance)   # a again: void
    skipped = of_type(events, "fire_skipped")
    assert [(e["volley"], e["token"]) for e in skipped] == [(1, s1)]
    void = of_type(events, "volley_void")
    assert [e["volley"] for e in void] == [1, 2]
    assert "already targeted" in void[1]["tried"][0]["reason"]
    assert [e["target"] for e in of_type(events, "volley")] == [a]


def test_volley_else_target_when_the_first_is_gone():
    """Volleys are tried in order; when the target is gone the ``else`` target is fired at
    with the same tokens (the PBEM form of declaring "1 target at a time", D5.51)."""
    st = game()
    weak = put(st, "mf-flyer", SALLY, TARGET, facing=1, crippled=True)   # DR 2 crippled
    other = put(st, "mf-flyer", SALLY, "4,3", facing=1)
    s1 = put(st, "ea-olympus", BOB, "3,4", facing=1)
    s2 = put(st, "ea-olympus", BOB, "4,4", facing=1)
    chance = ScriptedChance(rolls={"fire0:dg": [[0]], "fire1:dg": [[0]]})
    events = fire.fire(st, BOB, [{"target": weak, "with": [s1]},
                                 {"target": weak, "with": [s2], "else": [other]}], chance)
    assert of_type(events, "damage")[0]["result"] == "destroyed"
    second = of_type(events, "volley")[1]
    assert second["target"] == other and second["passed_over"][0]["target"] == weak
    assert of_type(events, "damage")[1]["token"] == other


def test_B4_51_war_token_given_once():
    """"the firing player must give that player one of his War Tokens, if that player does not
    currently have one" — once, however many volleys."""
    st = game()
    a = put(st, "mf-flyer", SALLY, TARGET, facing=1)
    b = put(st, "mf-flyer", SALLY, "4,3", facing=1)
    c = put(st, "vc-skiff", JIM, "2,4", facing=1)
    s1 = put(st, "ea-olympus", BOB, "3,4", facing=1)
    s2 = put(st, "ea-olympus", BOB, "4,4", facing=1)
    s3 = put(st, "ea-olympus", BOB, "1,5", facing=2)
    chance = ScriptedChance(rolls={f"fire{i}:dg": [[0]] for i in range(3)})
    events = fire.fire(st, BOB, [{"target": a, "with": [s1]}, {"target": b, "with": [s2]},
                                 {"target": c, "with": [s3]}], chance)
    assert [(e["from"], e["to_power"]) for e in of_type(events, "war_token")] == [
        (BOB, SALLY), (BOB, JIM)]
    assert st["powers"][SALLY]["war_tokens"] == [BOB] == st["powers"][JIM]["war_tokens"]
    st["flags"] = {"moved": [], "fired": [], "targeted": []}
    events = fire.fire(st, BOB, [{"target": a, "with": [s1]}],
                       ScriptedChance(rolls={"fire0:dg": [[0]]}))
    assert of_type(events, "war_token") == [] and st["powers"][SALLY]["war_tokens"] == [BOB]


def test_D5_1_only_tokens_with_a_defense_rating_of_others_are_targets():
    st = game()
    mine = put(st, "mine-2", SALLY, TARGET, facing=None)
    own = put(st, "ea-transport", BOB, "4,3", facing=1)
    s1 = put(st, "ea-olympus", BOB, "3,4", facing=1)
    _, problems = fire.check_fire([{"target": mine, "with": [s1], "else": [own]}],
                                  PLUGIN.view(st, BOB))
    assert [p.path for p in problems] == ["fire[0].target", "fire[0].else[0]"]


def test_fire_phase_through_the_turn_uses_the_turns_flags():
    """The phase runs after Move in turn.py; the flags are emptied after the turn."""
    st = game()
    a = put(st, "mf-flyer", SALLY, TARGET, facing=1)
    s1 = put(st, "ea-olympus", BOB, "3,4", facing=1)
    st["powers"][BOB]["turns"] = 1
    chance = ScriptedChance(rolls={"fire0:dg": [[1]]})
    new, events = turn.resolve(st, {BOB: {"fire": [{"target": a, "with": [s1]}]}}, chance)
    assert of_type(events, "volley_total")[0]["damage"] == 4
    assert new["tokens"][a]["crippled"] is True
    assert new["flags"] == {"moved": [], "fired": [], "targeted": []}
    with pytest.raises(ScriptError):                 # an unscripted die is never invented
        fire.fire(st, BOB, [{"target": a, "with": [s1]}], ScriptedChance())


def test_a_power_fired_on_is_touched_and_mailed_at_once():
    """Each volley at another power's unit names him (``under_fire``), so a step whose window
    says ``notify: "touched"`` mails him its report at once (pbem.game.events.notified), not
    in a digest at his pace; a third power is not named."""
    from pbem.game.events import notified

    st = game()
    a = put(st, "mf-flyer", SALLY, TARGET, facing=1)
    s1 = put(st, "ea-olympus", BOB, "3,4", facing=1)
    events = fire.fire(st, BOB, [{"target": a, "with": [s1]}],
                       ScriptedChance(rolls={"fire0:dg": [[0]]}))
    assert [(e["power"], e["by"], e["target"]) for e in of_type(events, "under_fire")] == [
        (SALLY, BOB, a)]
    assert notified("touched", events, []) == {BOB, SALLY}
    assert JIM not in notified("touched", events, [])
    window = PLUGIN.window(st)
    assert st["phase"] == "play" and window is not None and window.notify == "touched"
