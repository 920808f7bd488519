"""The events of the tactical action's rarer steps (combat, retreats, bombardment and shields,
landing, ground combat, control, a stalemate) in TI4's sentences (games/ti4/sentences.py),
from the rules core's own events: each sentence reads the event's fields, none falls back."""

from __future__ import annotations

from typing import Any

from games.ti4 import sentences
from games.ti4.tactical import tactical_action
from tests.support.ti4_table import Dice, board, strip_catalog

CAT = strip_catalog()


def _events(b: Any, order: dict[str, Any], dice: Dice,
            standing: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    out = tactical_action(b, CAT, "red", order, standing or {}, dice, 0)
    assert not out.problems, out.problems
    return out.events


def _said(events: list[dict[str, Any]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for e in events:
        if e["type"] != "roll":
            out.setdefault(e["type"], []).append(sentences.SENTENCES[e["type"]](e))
    return out


def test_a_retreat_skipped_and_a_space_combat_won() -> None:
    b = board(space={"B": {"red": {"frigate": 2}}, "C": {"blue": {"frigate": 1}}})
    said = _said(_events(b, {"activate": "C", "move": [{"path": ["B", "C"],
                                                         "ships": {"frigate": 1}}]},
                         Dice({"combat:C:r2:red:frigate": [10]}),
                         {"blue": {"retreat": {"at_most": 1}}}))
    assert said["activate"] == ["Red activates C."]
    assert said["move"] == ["Red moves 1 frigate from B to C."]
    assert said["space-combat"] == ["Space combat in C: Red attacks Blue."]
    assert said["retreat-announced"][0] == "Blue announces a retreat from C (round 1)."
    assert said["retreat-skipped"][0].startswith("Blue cannot retreat from C: no adjacent")
    assert said["hits"] == ["Blue takes 1 hit at C: destroyed 1 frigate."]
    assert said["space-combat-end"] == ["The space combat in C ends: Red holds the system."]


def test_bombardment_landing_ground_combat_and_control() -> None:
    b = board(space={"B": {"red": {"tender": 1, "trooper": 3}}},
              planets={"pc": {"blue": {"trooper": 1, "yard": 1}}}, owner={"pc": "blue"})
    order = {"activate": "C", "move": [{"path": ["B", "C"], "ships": {"tender": 1},
                                        "carry": {"trooper": 3}}],
             "invade": {"pc": {"trooper": 3}}}
    said = _said(_events(b, order, Dice({"ground:pc:r1:red:trooper": [8, 1, 1],
                                         "ground:pc:r1:blue:trooper": [8]})))
    assert said["move"] == ["Red moves 1 tender from B to C, carrying 3 trooper."]
    assert said["landing"] == ["Red lands 3 trooper on pc."]
    assert said["ground-combat"] == ["Ground combat on pc: Red against Blue."]
    assert said["ground-combat-end"] == ["The ground combat on pc ends after 1 round: Red holds "
                                         "pc."]
    assert said["control"] == ["Red takes control of pc from Blue; it is exhausted."]


def test_a_shield_and_a_stalemate() -> None:
    b = board(space={"B": {"red": {"bastion": 1, "trooper": 1}}},
              planets={"pc": {"blue": {"battery": 1}}}, owner={"pc": "blue"})
    said = _said(_events(b, {"activate": "C", "move": [{"path": ["B", "C"],
                                                         "ships": {"bastion": 1}}],
                             "bombard": {"pc": {"bastion": 1}}}, Dice(),
                         {"blue": {"space_cannon": False}}))
    assert said["shield"] == ["A planetary shield covers pc."]
    b = board(space={"B": {"red": {"frigate": 1}}, "C": {"blue": {"frigate": 1}}})
    said = _said(_events(b, {"activate": "C", "move": [{"path": ["B", "C"],
                                                         "ships": {"frigate": 1}}]}, Dice()))
    assert said["stalemate"] == ["The space combat in C stops with both sides in place."]
    assert said["space-combat-end"] == ["The space combat in C ends: no winner."]
