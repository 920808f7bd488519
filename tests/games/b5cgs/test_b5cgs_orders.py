"""The order file (orders.normalize_orders): the whole turn in one file, checked against the
player's view only; every problem with its path; never raises; the standing contested-space
answer (D3.42) kept until changed and seen by its owner only."""

from __future__ import annotations

import copy
import importlib
import json

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st_

from pbem import canonical
from tests.support.b5cgs_driver import PLUGIN, ScriptedChance, blank, check, new_game, put

hx = importlib.import_module("b5cgs.hexes")
orders_mod = importlib.import_module("b5cgs.orders")

EA, MF = "earth-alliance", "minbari"


def test_an_empty_file_is_the_standing_orders():
    st = new_game()
    orders, problems = check(st, EA, {})
    assert problems == [] and orders == PLUGIN.default_orders(st, EA)
    fresh = PLUGIN.setup("basic-3", {"game_id": "t"})
    orders, problems = PLUGIN.normalize_orders({}, PLUGIN.view(fresh, EA))
    assert problems == []


def test_nothing_to_order_in_the_set_up_step():
    fresh = PLUGIN.setup("basic-3", {"game_id": "t"})
    _, problems = PLUGIN.normalize_orders({"move": [{"sweep": "t1"}]}, PLUGIN.view(fresh, EA))
    assert [p.path for p in problems] == ["move"]


def test_unknown_sections_and_shapes_are_named():
    st = new_game()
    _, problems = check(st, EA, {"build": [], "move": "north"})
    assert {p.path for p in problems} == {"build", "move"}
    _, problems = check(st, EA, ["move"])  # not a mapping
    assert problems and problems[0].code == "shape"


def test_hostile_bodies_never_raise():
    st = new_game()
    view = PLUGIN.view(st, EA)
    junk = [None, 1, "x", [], {"move": [None, 1, {"unit": 10**100}]},
            {"move": [{"unit": "t1", "to": [10**30, 1]}]}, {"start": "all"},
            {"contested": ["deny"]}, {"contested": {"default": "maybe", "x": 1}},
            {"move": [{"unit": "t1", "jump": "1,1", "fleet": "t2"}]},
            {"move": [{"unit": "t1"}] * 500}, {"start": [{"token": None}] * 3}]
    for body in junk:
        orders, problems = PLUGIN.normalize_orders(body, view)
        assert problems, body
        assert orders == PLUGIN.default_orders(st, EA)


def test_a_good_file_normalises_the_same_twice_and_round_trips():
    st = blank("modular-3")  # contested space is modular (A4, ruling E4)
    t = put(st, "ea-hyperion", EA, "2,-2", 1)
    body = {"move": [{"unit": t, "to": [2, -3], "facing": 1}],
            "contested": {"default": "allow", "deny": [MF]}}
    a, pa = check(st, EA, body)
    b, pb = check(st, EA, json.loads(json.dumps(body)))
    assert pa == pb == [] and canonical.encode(a) == canonical.encode(b)
    assert a["move"] == [{"unit": t, "to": "2,-3", "facing": 1}]
    assert a["contested"] == {"default": "allow", "allow": [], "deny": [MF]}


def test_D3_42_the_contested_answer_names_powers_of_the_game():
    st = new_game("modular-3")
    _, problems = check(st, EA, {"contested": {"allow": ["narn"], "deny": []}})
    assert [p.path for p in problems] == ["contested.allow"]
    _, problems = check(st, EA, {"contested": {"allow": [MF], "deny": [MF]}})
    assert [p.path for p in problems] == ["contested"]


def test_D3_42_the_standing_answer_is_kept_and_private():
    st = new_game("modular-3")
    assert st["powers"][EA]["contested"]["default"] == "allow"  # rules version 3 (E4)
    o, _ = check(st, EA, {"contested": {"default": "deny"}})
    r = PLUGIN.resolve(st, {EA: o}, ScriptedChance(lenient=True))
    assert r.state["powers"][EA]["contested"]["default"] == "deny"
    assert PLUGIN.view(r.state, EA)["you"]["contested"]["default"] == "deny"
    mine = [e for e in PLUGIN.view_events(r.events, EA) if e["type"] == "contested_answer"]
    theirs = [e for e in PLUGIN.view_events(r.events, MF) if e["type"] == "contested_answer"]
    assert mine and not theirs
    # the next turn without the section keeps it
    nxt = r.state["current"]
    r2 = PLUGIN.resolve(r.state, {nxt: PLUGIN.default_orders(r.state, nxt)},
                        ScriptedChance(lenient=True))
    assert r2.state["powers"][EA]["contested"]["default"] == "deny"
    # the same answer again (a standing file repeats it at every step) says nothing: an event
    # addressed to him would mail him the step's report (Window notify "touched")
    r3 = PLUGIN.resolve(r2.state, {r2.state["current"]: PLUGIN.default_orders(
        r2.state, r2.state["current"]), EA: o}, ScriptedChance(lenient=True))
    assert r3.state["powers"][EA]["contested"]["default"] == "deny"
    assert not [e for e in r3.events if e["type"] == "contested_answer"]


def test_the_econ_sections_go_to_their_checkers():
    st = new_game()
    for section in ("record", "allocate", "fire"):
        body = {section: {"no such field": 1} if section != "fire" else [{"nonsense": 1}]}
        _, problems = check(st, EA, body)
        assert problems, section
        assert all(p.path.startswith(section) for p in problems), problems


def test_a_unit_built_this_turn_may_be_named_by_its_coming_id():
    st = new_game()
    coming = f"t{st['next_token']}"
    _, problems = check(st, EA, {"move": [{"unit": coming, "to": "1,1", "facing": 1}]})
    assert [p.message for p in problems] == [
        f"there is no token {coming} (this file buys no token of that id: purchases are "
        f"numbered from {coming} in the order bought)"]
    _, problems = check(st, EA, {"move": [{"unit": "t1", "to": "1,1", "facing": 1}]})
    assert problems  # t1 is a base
    st2 = copy.deepcopy(st)
    _, problems = check(st2, EA, {"move": [{"unit": "t0", "to": "1,1", "facing": 1}]})
    assert problems


def _first_turn() -> tuple[dict, str, list[str]]:
    """Earth's first turn, with a Minbari base-4 five hexes straight ahead of Earth's hex 1,3
    (facing 1): the hexes from 1,3 forward. Rules version 2, whose first turn buys the starting
    fleet in the same file as the moves and volleys (ruling R7)."""
    st = new_game(first=EA, version=2)
    line = ["1,3"]
    for _ in range(5):
        line.append(hx.key(hx.neighbour(hx.parse(line[-1]), 1)))
    base = put(st, "base-4", MF, line[5])
    return st, base, line


def _referee(st: dict, body: dict) -> list[dict]:
    """The turn as the referee resolves it (the body as normalised orders)."""
    orders = {**PLUGIN.default_orders(st, EA), **body}
    return PLUGIN.resolve(st, {EA: orders}, ScriptedChance(lenient=True)).events


def test_check_refuses_a_two_hex_move_of_a_ship_bought_in_the_same_file():
    """The referee voids it (Earth's chart has no forward-2, D4.11): the check says the same
    sentence, on the ship the file buys (t7, the id it will get)."""
    st, _, line = _first_turn()
    bought = f"t{st['next_token']}"
    body = {"start": [{"token": "ea-hyperion", "hex": line[0], "facing": 1}],
            "move": [{"unit": bought, "to": line[2], "facing": 1}]}
    voids = [e["reason"] for e in _referee(st, body) if e["type"] == "move_void"]
    _, problems = check(st, EA, body)
    assert len(voids) == 1 and [(p.path, p.message) for p in problems] == [("move[0]", voids[0])]
    one_hex = {**body, "move": [{"unit": bought, "to": line[1], "facing": 1}]}
    assert check(st, EA, one_hex)[1] == []
    done = orders_mod.rehearse(one_hex, PLUGIN.view(st, EA))
    assert done.bought == [("start[0]", bought, "ea-hyperion")]


def test_check_refuses_fire_at_a_base_five_hexes_away_as_the_referee_does():
    """D5.3: heavy weapons reach 2 hexes, lasers 1; the referee finds the volley void (D5.41)
    and the check refuses it with his reason; moved into range first, it is accepted."""
    st, base, line = _first_turn()
    bought = f"t{st['next_token']}"
    body = {"start": [{"token": "ea-hyperion", "hex": line[0], "facing": 1}],
            "fire": [{"target": base, "with": [bought]}]}
    voids = [e["tried"] for e in _referee(st, body) if e["type"] == "volley_void"]
    _, problems = check(st, EA, body)
    assert voids == [[{"target": base, "reason": f"{base} is out of range or arc of every "
                                                  "firing token (D5.41)"}]]
    assert [(p.path, p.message) for p in problems] == [
        ("fire[0]", f"no target of this volley can be fired at: {voids[0][0]['reason']}")]
    closer = {**body, "start": [{"token": "ea-hyperion", "hex": line[0], "facing": 1}],
              "move": [{"unit": bought, "to": line[1], "facing": 1}]}
    assert check(st, EA, closer)[1] != []  # still 4 hexes away
    st2, base2, line2 = _first_turn()
    st2["tokens"][base2]["hex"] = line2[3]  # 3 hexes: 2 after a one-hex move
    _, problems = check(st2, EA, {**closer, "fire": [{"target": base2, "with": [bought]}]})
    assert problems == []
    assert [e for e in _referee(st2, {**closer, "fire": [{"target": base2, "with": [bought]}]})
            if e["type"] == "volley_void"] == []


def test_every_problem_of_every_section_at_once():
    """A problem in one order hides none in another: shape problems, a bad build beside a
    malformed one, a void move, a void volley, all in one answer."""
    st, base, line = _first_turn()
    bought = f"t{st['next_token']}"
    body = {"start": [{"token": "ea-hyperion", "hex": line[0], "facing": 1},
                      {"token": "no-such-ship", "hex": line[1], "facing": 1}],
            "allocate": {"build": [{"nonsense": 1}, {"token": "base-4", "hex": "0,0",
                                                      "by": "t1"}]},
            "move": [{"unit": bought, "to": line[2], "facing": 1}, {"unit": "t99"}],
            "fire": [{"target": base, "with": [bought]}], "record": {"x": 1}}
    _, problems = check(st, EA, body)
    paths = [p.path for p in problems]
    for where in ("start[1]", "allocate.build[0].nonsense", "allocate.build[1]", "move[0]",
                  "move[1]", "fire[0]", "record.x"):
        assert where in paths, (where, problems)


_leaf = st_.one_of(st_.none(), st_.booleans(), st_.integers(-10**20, 10**20),
                   st_.sampled_from(["t1", "t7", "t99", "0,0", "2,-2", "1,1", "deny", "allow",
                                     "minbari", "ea-hyperion", "c", "", "x" * 50]),
                   st_.text(max_size=8))
_json = st_.recursive(_leaf, lambda kids: st_.one_of(
    st_.lists(kids, max_size=4),
    st_.dictionaries(st_.sampled_from(["unit", "to", "facing", "flip", "jump", "fleet", "sweep",
                                       "token", "hex", "default", "allow", "deny", "by",
                                       "target", "with", "else", "declare", "surrender",
                                       "build", "repair", "mines", "x"]), kids, max_size=5)),
    max_leaves=20)
_body = st_.dictionaries(st_.sampled_from(["start", "record", "allocate", "move", "fire",
                                           "contested", "other"]), _json, max_size=4)
_VIEW_STATE = None


def _fuzz_view():
    global _VIEW_STATE
    if _VIEW_STATE is None:
        st = blank()
        put(st, "ea-hyperion", EA, "2,-2", 1)
        put(st, "ea-transport", EA, "1,-1", 2)
        put(st, "mf-cruiser", MF, "3,-3", 4)
        _VIEW_STATE = st
    st = copy.deepcopy(_VIEW_STATE)
    st["current"] = EA
    return PLUGIN.view(st, EA)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=_body)
@example(body={"start": None, "contested": {"allow": [[]]}})  # once a TypeError
def test_any_order_body_gives_problems_or_orders_never_an_internal_error(body):
    view = _fuzz_view()
    orders, problems = PLUGIN.normalize_orders(body, view)
    assert all(p.code != "malformed" for p in problems), (body, problems)
    assert all(p.message for p in problems)
    json.dumps(orders)
