"""Babylon 5 CGS: the rulings read again against the rulebook (issue 28), one test per rule,
each quoting the rulebook's lines (games/b5cgs/RULES.md).
Rules versions 2 and 3 read them as quoted; a game recorded under an earlier version plays on as
it began, and each test shows that too."""

from __future__ import annotations

import importlib

from pbem.game import versions
from tests.support.b5cgs_driver import (
    PLUGIN,
    ScriptedChance,
    blank,
    check,
    dealt,
    hexes,
    new_game,
    put,
    run_moves,
    setupmod,
)
from tests.support.b5cgs_positions import BOB, SALLY, allocate, bob_at_home, game, of_type

orderform = importlib.import_module("b5cgs.orderform")
fire = importlib.import_module("b5cgs.fire")
sentences = importlib.import_module("b5cgs.sentences")

where = importlib.import_module("b5cgs.where")
EA = "earth-alliance"
ORIGIN = "2,1"


def test_rules_version_4_is_recorded_and_versions_1_to_3_play_on():
    """A change that replays a recorded game differently bumps the rules version; the plugin
    still plays versions 1 to 3, whose states are exactly what they were (version 1: no
    ``rules_version`` option; neither 1 nor 2 has the ``contested`` option version 3 sets)."""
    assert versions.rules_version(PLUGIN) == 4
    assert versions.versions_supported(PLUGIN) == (1, 2, 3, 4)
    new = PLUGIN.setup("basic-2", {"game_id": "g"})
    assert new["options"]["rules_version"] == 4 and new["options"]["contested"] is False
    assert PLUGIN.setup("modular-2", {"game_id": "g"})["options"]["contested"] is True
    three = PLUGIN.setup("modular-2", {"game_id": "g", "rules_version": 3})
    assert three["options"]["rules_version"] == 3 and three["options"]["contested"] is True
    two = PLUGIN.setup("basic-2", {"game_id": "g", "rules_version": 2})
    assert two["options"]["rules_version"] == 2 and "contested" not in two["options"]
    assert two["powers"]["minbari"]["contested"]["default"] == "deny"
    old = PLUGIN.setup("basic-2", {"game_id": "g", "rules_version": 1})
    assert "rules_version" not in old["options"] and "contested" not in old["options"]


def test_mail_by_touch_is_rules_version_4():
    """R23: from version 4 a turn's full report goes to the powers it touched; a game begun
    under version 3 keeps mailing every step to everyone (its window says notify all)."""
    for version, notify in ((3, "all"), (4, "touched")):
        st = PLUGIN.setup("basic-2", {"game_id": "g", "rules_version": version})
        st["phase"], st["order"] = "turn", sorted(st["powers"])
        st["current"] = st["order"][0]
        st.setdefault("round", 1)
        window = PLUGIN.window(st)
        assert window is not None and window.notify == notify


def _edge(st):
    """An exposed hex (not Babylon 5's) next to a hex of a face-down piece: (hex, face-down)."""
    for h in sorted(st["hexes"]):
        if h == st["map"]["b5_hex"]:
            continue
        for n in hexes.neighbours(hexes.parse(h)):
            k = hexes.key(n)
            if where.on_map(st, k) and k not in st["hexes"] and k != st["map"]["b5_hex"]:
                return h, k
    raise AssertionError("no exposed hex borders a face-down piece")


def _build_into_face_down(rules_version=None):
    st = game()
    if rules_version == 1:
        st["options"].pop("rules_version")
    st["powers"][BOB]["reserve"] = 40
    at, face_down = _edge(st)
    base = put(st, "ea-base-2", BOB, at)
    slot = where.slot_of(st, face_down)
    return st, base, face_down, slot


def test_E3_a_ship_may_be_built_into_a_face_down_hex_exposing_it():
    """D4.31 "Definition of 'Entering a Hex': ... - A unit is built in the hex. ... [Note:
    Non-unit tokens may not be built into unexposed hexes and therefore may not be used to
    expose a map piece.]"; D4.21 "A unit entering a hex on an unexposed map piece ... causes
    that piece to be exposed ... the player whose unit is entering the map piece determines
    which way the map piece will be flipped before viewing the other side." A ship is a unit:
    built next to Bob's base into a face-down hex, it exposes the piece about the axis the
    build names (``flip``). Version 1 refused every build into a face-down hex."""
    st, base, hex_, slot = _build_into_face_down()
    entry = {"token": "ea-hyperion", "hex": hex_, "by": base, "flip": 2}
    _, problems = check(st, BOB, {"allocate": {"build": [entry]}})
    assert problems == []
    events = allocate.allocate(st, BOB, {"build": [entry]}, ScriptedChance(lenient=True))
    (built,) = [e for e in events if e["type"] == "built"]
    assert built["hex"] == hex_
    (explored,) = [e for e in events if e["type"] == "explored"]
    assert explored["slot"] == slot and explored["flip"] == 2
    assert st["map"]["slots"][slot]["exposed"] and hex_ in st["hexes"]
    old, base, hex_, _ = _build_into_face_down(1)
    entry = {"token": "ea-hyperion", "hex": hex_, "by": base}
    events = allocate.allocate(old, BOB, {"build": [entry]}, ScriptedChance(lenient=True))
    assert [e["reason"] for e in events] == [f"{hex_} is not on an exposed map piece "
                                             "(ruling E3)"]


def test_E3_non_unit_tokens_and_bases_still_need_an_exposed_hex():
    """D4.31 "[Note: Non-unit tokens may not be built into unexposed hexes ...]": a jumpgate
    (a non-unit token) is refused; so is a base, which D3.24 builds only "in an unoccupied hex
    which has an Economy Indicator", and a face-down hex shows none."""
    st, base, hex_, _ = _build_into_face_down()
    gate = allocate.why_not_build(st, BOB, {"token": "jumpgate", "hex": hex_, "by": base})[0]
    assert gate == (f"{hex_} is on a face-down map piece: non-unit tokens may not be built "
                    "into unexposed hexes (D4.31)")
    new_base = allocate.why_not_build(st, BOB, {"token": "base-2", "hex": hex_, "by": base})[0]
    assert new_base is not None and "shows no Economy Indicator" in new_base


def test_R17_sweeping_is_in_addition_to_its_movement():
    """D4.43 "Minesweeping: In addition to its movement, each of your ships may attempt to
    sweep a mine (see H5 Minesweeping Rolls)." A ship crippled by its own sweep still makes its
    movement (a crippled ship moves as any other, D4.1); only a destroyed one is skipped.
    Version 1 skipped a ship crippled earlier in the phase."""
    st = blank("modular-4")
    t = put(st, "ea-hyperion", EA, ORIGIN, 2)
    to = hexes.key(hexes.neighbour(hexes.parse(ORIGIN), 2))
    put(st, "mine-3", "korath", to, None)
    chance = ScriptedChance(rolls={f"move0:{t}:sweep-dg": [[0]],
                                   f"move0:{t}:sweep-b5": [[3, 3, 2]]})
    events = run_moves(st, EA, [{"sweep": t}, {"unit": t, "to": to, "facing": 2}], chance)
    assert st["tokens"][t]["crippled"]
    assert events[-1]["type"] == "moved" and st["tokens"][t]["hex"] == to


MF, VC = "minbari", "valdri"


def _fleet(st, power):
    """A transport on the first free hex of ``power``'s homeworld piece."""
    free = [h for h in setupmod.homeworld_hexes(st, power)
            if not any(t["hex"] == h for t in st["tokens"].values())
            and not st["hexes"][h].get("damage")]
    transport = {"earth-alliance": "ea-transport", MF: "mf-transport", VC: "vc-transport"}
    ttype = transport[power] if transport[power] in st["pack"]["tokens"] else "gen-freighter"
    return [{"token": ttype, "hex": free[0], "facing": 1}]


def test_R7_every_starting_fleet_is_placed_in_the_order_of_play_before_the_first_turn():
    """C4.3 "After the map has been created ... each player places empire-specific base(s) ...
    on his homeworld map piece. Players, in the order of play, may then spend any or all of
    their starting Economy Reserve to place additional units ... on their homeworld map piece";
    C4.4 "Begin Play: Proceed to D - Turn Sequence and start with the player who had the highest
    roll (see C2.2)"; X8 "Place Starting Fleets in Order of Play (C4.3) ... Begin Play
    (Starting with the first player)". Rules version 3: after the deal, one starting-fleet step
    per player in the order of play, each seeing the fleets placed before his; then round 1
    begins with the first player. Nothing but the fleet is ordered in that step, and no fleet
    is bought in a turn. Under versions 1 and 2 each player bought his in his first turn."""
    st = dealt("basic-3", first=MF)
    assert st["order"] == [MF, VC, "earth-alliance"]
    seen = []
    while st["phase"] == "fleet":
        w = PLUGIN.window(st)
        power = w.due[0]
        seen.append((w.kind, w.due, st["round"]))
        view = PLUGIN.view(st, power)
        placed_before = {t["owner"] for t in view["tokens"].values()
                         if t["built"][1] == "start"}
        assert placed_before == {p for _, (p,), _ in seen[:-1]}  # the earlier fleets, seen
        _, problems = check(st, power, {"start": _fleet(st, power), "move": [{"unit": "t1"}]})
        assert [p.path for p in problems] == ["move"] and "C4.3" in problems[0].message
        orders, problems = check(st, power, {"start": _fleet(st, power)})
        assert problems == []
        r = PLUGIN.resolve(st, {power: orders}, ScriptedChance(lenient=True))
        assert [e["type"] for e in r.events][:2] == ["fleet_begins", "placed"]
        st = r.state
    assert seen == [("fleet", (MF,), 0), ("fleet", (VC,), 0),
                    ("fleet", ("earth-alliance",), 0)]
    assert r.events[-1]["type"] == "play_begins" and r.events[-1]["power"] == MF
    assert (st["phase"], st["round"], st["current"]) == ("play", 1, MF)
    assert PLUGIN.window(st).kind == "turn"
    assert all(st["powers"][p]["turns"] == 0 for p in st["seats"])
    _, problems = check(st, MF, {"start": _fleet(st, MF)})
    assert [p.path for p in problems] == ["start"] and "before play" in problems[0].message
    old = new_game("basic-3", first=MF, version=2)  # version 2: the first turn buys it
    assert old["phase"] == "play" and PLUGIN.window(old).kind == "turn"
    assert check(old, MF, {"start": _fleet(old, MF)})[1] == []


def test_R7_a_player_who_concedes_in_his_starting_fleet_step_is_passed_over():
    """D1.12 for a concession (ruling R22) while the starting fleets are placed: the next player
    in the order of play places his; after the last, play begins (C4.4)."""
    st = dealt("basic-3", first=MF)
    r = PLUGIN.concede(st, MF)
    assert (r.state["phase"], r.state["current"]) == ("fleet", VC)
    st = PLUGIN.resolve(r.state, {}, ScriptedChance(lenient=True)).state
    last = PLUGIN.resolve(st, {}, ScriptedChance(lenient=True))
    assert (last.state["phase"], last.state["current"], last.state["round"]) == ("play", VC, 1)


def _contested(variant, version=None, answer=None):
    """Bob at his first turn builds a transport at 1,3, next to Sally's cruiser; Sally's
    standing answer ``answer`` (None: as the game began)."""
    st = game(variant, version=version)
    bases = bob_at_home(st, 20)
    put(st, "mf-cruiser", SALLY, "1,2", facing=4)
    if answer is not None:
        st["powers"][SALLY]["contested"] = answer
    entry = {"token": "ea-transport", "hex": "1,3", "by": bases["base8"]}
    return st, allocate.allocate(st, BOB, {"build": [entry]}, None)


def test_E4_contested_space_only_in_the_modular_variants():
    """A4 "Adding Advanced Rules: Many advanced rules have the note 'Modular' after their
    title ... - Contested Space ........ D3.25, D3.33 & D3.4"; D3.4 "Contested Space
    (Modular)"; A3.11 "The advanced rules are not used in a Basic Game". Rules version 3: the
    basic variants play no contested space: no answer is asked (the order form has no
    ``contested:`` line, a ``contested:`` section is refused) and none is applied (a build next
    to an opponent who had said deny goes ahead). Under version 2 every variant played it."""
    deny = {"default": "deny", "allow": [], "deny": []}
    st, events = _contested("basic-3", answer=deny)
    assert of_type(events, "built") and not of_type(events, "allocate_void")
    view = PLUGIN.view(st, SALLY)
    assert not any("contested" in line for line in orderform.comments(view))
    _, problems = check(st, SALLY, {"contested": {"default": "deny"}})
    assert [p.path for p in problems] == ["contested"] and "A4" in problems[0].message
    _, events = _contested("modular-3", answer=deny)
    assert SALLY in of_type(events, "allocate_void")[0]["reason"]
    _, events = _contested("basic-3", version=2)
    assert SALLY in of_type(events, "allocate_void")[0]["reason"]  # version 2: default deny


def test_E4_a_hex_is_contested_only_if_a_neighbour_desires_it():
    """D3.42 "A hex is considered contested if any player with a ship or base (not squadron) in
    an adjacent hex desires the hex to be contested"; D3.41 "If no opponent units are adjacent
    to a hex, the hex is automatically not contested". Rules version 3: a player who has not
    said deny does not desire it, so the standing answer starts as allow, and a ``contested:``
    section without a default keeps allow; a player who says deny is asked and denies ("No
    economy is paid if the build is denied"). Under versions 1 and 2 the default was deny."""
    st, events = _contested("modular-3")
    assert st["powers"][SALLY]["contested"]["default"] == "allow"
    assert of_type(events, "built")
    orders, problems = check(st, SALLY, {"contested": {"deny": [BOB]}})
    assert problems == [] and orders["contested"] == {"default": "allow", "allow": [],
                                                      "deny": [BOB]}
    st, events = _contested("modular-3", answer=orders["contested"])
    assert of_type(events, "allocate_void") and st["powers"][BOB]["reserve"] == 20
    old, _ = _contested("modular-3", version=2)
    assert old["powers"][SALLY]["contested"]["default"] == "deny"
    orders, _ = check(old, SALLY, {"contested": {"deny": [BOB]}})
    assert orders["contested"]["default"] == "deny"


def _long_range_volley(version=None):
    """Bob's Hyperion (heavy 3) fires at Sally's base two hexes north; the Long Range Support
    die shows 2, the Defense Grid 0."""
    st = game(version=version)
    base = put(st, "base-6", SALLY, "3,3")
    hyperion = put(st, "ea-hyperion", BOB, "3,5", facing=1)
    chance = ScriptedChance(rolls={f"fire0:lrs:{hyperion}:heavy": [[2]], "fire0:dg": [[0]]})
    return st, fire.fire(st, BOB, [{"target": base, "with": [hyperion]}], chance), hyperion


def test_W1_long_range_support_and_volleys_named_as_players_count_them():
    """H1 "A ship is firing 3 points of heavy weapons at a base 2 hexes away. A Long Range
    Support Die Roll is made and the result is a 2, apply 2 (not 3) damage": the roll caps the
    weapon, so its reason no longer says "at most 3" where the cap was 2; D5.51 "1 target at a
    time": volleys are counted from 1 in the report ("Volley 1 at ..."), and the damage's cause
    says "volley 1" too, not "volley 0". Rules version 3 writes these event texts; a game of
    versions 1 and 2 keeps its events' words exactly (they are in the log's digest)."""
    st, events, hyperion = _long_range_volley()
    lrs = of_type(events, "roll")[0]
    assert lrs["for"] == (f"Long Range Support, {hyperion}'s heavy of 3 at range 2 (H1): it "
                          "scores at most the roll") and lrs["result"] == [2]
    (hurt,) = of_type(events, "damage")
    assert hurt["points"] == 2 and hurt["cause"] == f"volley 1 of {BOB}"
    view = PLUGIN.view(st, SALLY)
    said = [sentences.sentence(e, view) for e in events]
    assert any("Volley 1 at" in s for s in said)
    assert any("(volley 1 of Earth Alliance)" in s for s in said)
    _, old, hyperion = _long_range_volley(version=2)
    assert of_type(old, "roll")[0]["for"] == (f"Long Range Support, {hyperion}'s heavy at "
                                              "range 2 (H1): at most 3")
    assert of_type(old, "damage")[0]["cause"] == f"volley 0 of {BOB}"
