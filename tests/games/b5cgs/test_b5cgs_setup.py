"""Set-up (C1.4 Random Game Set-up, C2.2, C2.3, C4.2, C4.3) and the window: the map's geometry,
Babylon 5 face up in the centre, the order of play by a public roll with re-rolls on ties, the
homeworlds face up with their bases, the face-down deal from the secret stream, the starting
economy and the starting purchases (rules version 3: each player's own step before play, in the
order of play; versions 1 and 2: each player's first orders, ruling R7); then strictly
sequential turns in the order of play."""

from __future__ import annotations

import copy

import pytest

from pbem import canonical
from pbem.errors import PbemError
from tests.support.b5cgs_driver import (
    PLUGIN,
    ScriptedChance,
    check,
    committed,
    dealt,
    hexes,
    new_game,
    setupmod,
)

EA, MF, VC = "earth-alliance", "minbari", "valdri"


def fresh(variant="basic-3"):
    """A game at its deal: the set-up step (every player commits his chance) resolved."""
    return committed(PLUGIN.setup(variant, {"game_id": "t"}))


def test_setup_is_pure_and_secret_free():
    st = PLUGIN.setup("basic-3", {"game_id": "t"})
    assert canonical.encode(PLUGIN.setup("basic-3", {"game_id": "t"})) == canonical.encode(st)
    assert st["phase"] == "setup" and st["referee"]["pieces"] == {}
    assert PLUGIN.hidden(st) == []
    w = PLUGIN.window(st)
    assert w.kind == "setup" and list(w.due) == [EA, MF, VC] and not w.draws
    dealing = fresh()  # the set-up step drew nothing: the deal is the next step, every player due
    assert dealing["referee"]["pieces"] == {} and PLUGIN.hidden(dealing) == []
    w = PLUGIN.window(dealing)
    assert w.kind == "deal" and list(w.due) == [EA, MF, VC] and w.draws


@pytest.mark.parametrize("variant,pieces", [("basic-2", 13), ("basic-3", 13),
                                            ("modular-4", 19)])
def test_C2_1_map_size(variant, pieces):
    st = fresh(variant)
    assert len(st["map"]["slots"]) == pieces == st["options"]["pieces"]


def test_C2_31_babylon_5_face_up_in_the_centre():
    st = fresh()
    b5 = st["map"]["slots"][0]
    assert (b5["centre"], b5["exposed"], b5["piece"], b5["rotation"]) == ("0,0", True,
                                                                         "babylon-5", 0)
    assert st["hexes"]["0,0"]["b5"] is True and st["map"]["b5_hex"] == "0,0"


def test_bad_variant_or_pack_is_refused():
    with pytest.raises(PbemError):
        PLUGIN.setup("basic-9", {"game_id": "t"})
    pack = PLUGIN.default_components()[1]
    del pack["empires"]["minbari"]["homeworld"]
    with pytest.raises(PbemError, match="homeworld"):
        PLUGIN.setup("basic-3", {"game_id": "t", "components": pack})


def test_C2_2_order_of_play_by_a_public_roll_highest_first():
    st = fresh()
    chance = ScriptedChance(rolls={"first-player:1": [[2, 5, 3]]}, lenient=True)
    r = PLUGIN.resolve(st, {}, chance)
    assert r.state["order"] == [MF, VC, EA] and r.state["current"] == MF
    roll = r.events[0]
    assert roll == {"type": "roll", "label": "first-player:1", "die": "d6",
                    "faces": [1, 2, 3, 4, 5, 6], "count": 3, "result": [2, 5, 3],
                    "for": "the order of play: earth-alliance, minbari, valdri",
                    "powers": [EA, MF, VC], "turn": 2, "round": 0}  # before round 1 (R7)


def test_C2_2_tied_players_roll_again():
    st = fresh()
    chance = ScriptedChance(rolls={"first-player:1": [[6, 2, 6]], "first-player:2": [[3, 4]]},
                            lenient=True)
    r = PLUGIN.resolve(st, {}, chance)
    rolls = [e for e in r.events if e["type"] == "roll"]
    assert [e["powers"] for e in rolls] == [[EA, MF, VC], [EA, VC]]
    assert r.state["order"] == [VC, EA, MF]  # clockwise from the winner


def test_C2_2_endless_ties_end_with_the_first_tied_seat():
    st = fresh()
    r = PLUGIN.resolve(st, {}, ScriptedChance(lenient=True))  # every die shows its lowest
    assert sum(1 for e in r.events if e["type"] == "roll") == setupmod.MAX_TIE_ROLLS
    assert r.state["order"][0] == EA


def test_C2_32_homeworlds_face_up_in_positions_by_order_of_play_with_C4_3_bases():
    st = new_game("basic-3", first=MF)
    assert st["order"] == [MF, VC, EA]
    for position, power in enumerate(st["order"]):
        slot = hexes.HOMEWORLD_SLOTS[3][position]
        assert st["powers"][power]["homeworld_slot"] == slot
        s = st["map"]["slots"][slot]
        assert s["exposed"] and s["piece"] == st["pack"]["empires"][power]["homeworld"]
    earth = st["map"]["slots"][st["powers"][EA]["homeworld_slot"]]
    centre = hexes.parse(earth["centre"])
    at = {t["type"]: t["hex"] for t in st["tokens"].values() if t["owner"] == EA}
    assert at == {"ea-base-8": hexes.key(centre),  # Earth
                  "ea-base-2": hexes.key(hexes.printed_to_board(centre, "3", 0))}  # Mars


def test_C4_2_starting_economy():
    st = new_game("basic-3")
    for p in st["seats"]:
        assert st["powers"][p]["reserve"] == st["pack"]["empires"][p]["reserve"] == 45


def test_C1_42_the_other_pieces_are_dealt_face_down_from_the_secret_stream():
    st = fresh()
    standard = sorted(p for p, x in st["pack"]["pieces"].items() if x["kind"] == "standard")
    order = list(reversed(standard))
    chance = ScriptedChance(rolls={"first-player:1": [[6, 1, 1]]},
                            shuffle={"deal:pieces": [order]},
                            below={"deal:backs": [5, 4, 3, 2, 1, 0, 5, 4, 3],
                                   "salt": [12345]})
    r = PLUGIN.resolve(st, {}, chance)
    dealt = [s["slot"] for s in r.state["map"]["slots"] if s["kind"] == "deal"]
    assert r.state["referee"]["pieces"] == {str(s): p for s, p in zip(dealt, order,
                                                                     strict=False)}
    assert r.state["referee"]["backs"]["1"] == 5
    assert r.state["referee"]["aside"] == sorted(order[len(dealt):])
    assert r.state["referee"]["salt"] == f"{12345:016x}"
    assert ("secret", "deal:pieces", "shuffle") in chance.drawn
    for s in dealt:
        assert not r.state["map"]["slots"][s]["exposed"]
    shown = canonical.dumps([PLUGIN.view(r.state, p) for p in [*r.state["seats"], None]])
    shown += canonical.dumps(PLUGIN.view_events(r.events, None))
    for secret in PLUGIN.hidden(r.state):
        assert secret not in shown


def first_turn(st, power, body):
    """``power``'s starting purchases resolved: in his starting-fleet step (rules version 3),
    in his first turn (versions 1 and 2)."""
    o, problems = check(st, power, body)
    assert problems == [], problems
    return PLUGIN.resolve(st, {power: o}, ScriptedChance(lenient=True))


def test_C4_3_starting_fleet_with_the_empire_discount():
    """Bob (Earth Alliance, Reserve 45) buys a Hyperion Cr. for 13 (16-3) and a Transport for 4
    (6-2). The example says "a total of 18. This leaves 27"; 13 + 4 is 17 (ruling R7):
    the Reserve is 28."""
    st = dealt("basic-3")  # Earth Alliance's starting-fleet step
    hw = setupmod.homeworld_hexes(st, EA)
    free = [h for h in hw if not any(t["hex"] == h for t in st["tokens"].values())
            and not st["hexes"][h].get("damage")]
    r = first_turn(st, EA, {"start": [{"token": "ea-hyperion", "hex": free[0], "facing": 2},
                                      {"token": "ea-transport", "hex": free[1], "facing": 3}]})
    placed = [e for e in r.events if e["type"] == "placed"]
    assert [(e["token_type"], e["cost"]) for e in placed] == [("ea-hyperion", 13),
                                                              ("ea-transport", 4)]
    after = [e for e in r.events if e["type"] == "economy" and e["power"] == EA]
    assert after[1]["reserve"] == 28
    hyperion = r.state["tokens"][placed[0]["token"]]
    assert (hyperion["hex"], hyperion["facing"], hyperion["built"]) == (free[0], 2,
                                                                        [3, "start"])


def test_C4_3_generic_tokens_at_full_cost():
    st = dealt("basic-3")  # Earth Alliance's starting-fleet step
    hw = [h for h in setupmod.homeworld_hexes(st, EA)
          if not any(t["hex"] == h for t in st["tokens"].values())]
    r = first_turn(st, EA, {"start": [{"token": "gen-freighter", "hex": hw[0], "facing": 1}]})
    placed = next(e for e in r.events if e["type"] == "placed")
    assert placed["cost"] == 6
    assert next(e for e in r.events if e["type"] == "economy")["reserve"] == 45 - 6


def test_C4_3_purchases_go_on_the_own_homeworld_and_within_the_reserve():
    st = dealt("basic-3")  # Earth Alliance's starting-fleet step
    hw = [h for h in setupmod.homeworld_hexes(st, EA)
          if not any(t["hex"] == h for t in st["tokens"].values())]
    base8 = next(t["hex"] for t in st["tokens"].values() if t["type"] == "ea-base-8")
    body = {"start": [{"token": "mf-cruiser", "hex": hw[0], "facing": 1},
                      {"token": "ea-hyperion", "hex": "0,-1", "facing": 1},
                      {"token": "ea-hyperion", "hex": base8, "facing": 1},
                      {"token": "ea-nova", "hex": hw[1], "facing": 1},
                      {"token": "ea-omega", "hex": hw[2], "facing": 1},
                      {"token": "ea-omega", "hex": hw[3], "facing": 1},
                      {"token": "mine-2", "hex": hw[4], "facing": 1}]}
    _, problems = check(st, EA, body)
    by = {p.path: p.message for p in problems}
    assert "token of minbari" in by["start[0]"]
    assert "homeworld" in by["start[1]"]
    assert "occupied" in by["start[2]"]
    assert "start[3]" not in by  # Nova for 16: 29 left
    assert "start[4]" not in by  # Omega for 18: 11 left
    assert "no financing" in by["start[5]"]  # another Omega for 18
    assert "ships and bases" in by["start[6]"]


def test_C4_3_only_in_the_first_turn_under_rules_version_2():
    """Rules versions 1 and 2 (ruling R7): the starting fleet is bought in the first turn."""
    st = new_game("basic-3", version=2)
    st2 = copy.deepcopy(st)
    st2["powers"][EA]["turns"] = 1
    hw = setupmod.homeworld_hexes(st, EA)
    _, problems = PLUGIN.normalize_orders(
        {"start": [{"token": "ea-transport", "hex": hw[1], "facing": 1}]},
        PLUGIN.view(st2, EA))
    assert [p.path for p in problems] == ["start"]


def test_A3_3_turns_are_sequential_in_the_order_of_play():
    st = new_game("basic-3", first=MF)
    seen = []
    for _ in range(7):
        w = PLUGIN.window(st)
        assert w.kind == "turn" and len(w.due) == 1
        seen.append((st["round"], w.due[0]))
        st = PLUGIN.resolve(st, {w.due[0]: PLUGIN.default_orders(st, w.due[0])},
                            ScriptedChance(lenient=True)).state
    assert seen == [(1, MF), (1, VC), (1, EA), (2, MF), (2, VC), (2, EA), (3, MF)]
    assert all(st["powers"][p]["turns"] == (3 if p == MF else 2) for p in st["seats"])


def test_D1_12_a_conceding_player_leaves_and_the_last_one_wins():
    st = new_game("basic-2")
    r = PLUGIN.concede(st, EA)
    assert r.state["powers"][EA]["surrendered"]
    assert not any(t["owner"] == EA for t in r.state["tokens"].values())
    assert r.state["result"]["winners"] == [MF] and PLUGIN.window(r.state) is None
