"""Views (view.py): the only way out of a state. Everything on the table is public; the
contested-space answer is its owner's; the face-down pieces, the set-aside pieces, their
rotations and the salt are the referee's alone until the game ends."""

from __future__ import annotations

from pbem import canonical
from tests.support.b5cgs_driver import PLUGIN, new_game, view

EA, MF, VC = "earth-alliance", "minbari", "valdri"


def test_a_view_carries_what_the_engine_needs():
    st = new_game()
    v = PLUGIN.view(st, EA)
    # step 6: the set-up step, the deal and three starting-fleet steps before it (ruling R7)
    assert (v["game"], v["game_id"], v["viewer"], v["turn"]) == ("b5cgs", "t", EA, 6)
    assert set(v["powers"]) == {EA, MF, VC}
    assert v["window"] == {"kind": "turn", "label": "Round 1: Earth Alliance's turn",
                           "due": [EA]}
    assert "you" not in PLUGIN.view(st, None)


def test_the_referee_part_never_leaves():
    st = new_game()
    for power in [EA, MF, VC, None]:
        v = PLUGIN.view(st, power)
        assert "referee" not in v
        shown = canonical.dumps(v)
        assert st["referee"]["salt"] not in shown
        for piece in st["referee"]["pieces"].values():
            assert piece not in shown
        assert set(v["pack"]["pieces"]) == {s["piece"] for s in st["map"]["slots"]
                                            if s["exposed"]}


def test_tokens_economy_and_map_are_public():
    st = new_game()
    pub = PLUGIN.view(st, None)
    assert pub["tokens"] == st["tokens"] and pub["hexes"] == st["hexes"]
    assert pub["powers"][EA]["reserve"] == 45


def test_R12_the_contested_answer_is_its_owners_alone():
    st = new_game()
    (varied, knowers), = view.variations(st, MF)
    assert knowers == (MF,)
    assert PLUGIN.view(varied, MF) != PLUGIN.view(st, MF)
    for other in (EA, VC, None):
        assert canonical.dumps(PLUGIN.view(varied, other)) == canonical.dumps(
            PLUGIN.view(st, other))


def test_private_events_reach_their_powers_only():
    events = [{"type": "a"}, {"type": "b", "_visible_to": [EA]}]
    assert [e["type"] for e in PLUGIN.view_events(events, EA)] == ["a", "b"]
    assert [e["type"] for e in PLUGIN.view_events(events, MF)] == ["a"]
    assert [e["type"] for e in PLUGIN.view_events(events, None)] == ["a"]
