"""The envelope: game, power, turn, seq, orders -- every problem with its path, all at once."""

from __future__ import annotations

import pytest

from pbem.errors import Rejected
from pbem.protocol.envelope import STANDING_TURN, check_envelope, parse_envelope
from pbem.protocol.safeyaml import load_order_yaml

GOOD = ("pbem: 1\ngame: andromeda-7\npower: algol\nturn: 7\nseq: 3\n"
        "instance: 0123456789abcdef0123456789abcdef\norders: {}\n")


def found(text: str, **expect) -> dict[str, str]:
    envelope, problems = check_envelope(load_order_yaml(text), **expect)
    assert envelope is None and problems
    return {p.path: f"{p.code}: {p.message}" for p in problems}


def test_good_envelope():
    env = parse_envelope(load_order_yaml(GOOD), game="andromeda-7", power="algol", turn=7)
    assert (env.game, env.power, env.turn, env.seq) == ("andromeda-7", "algol", 7, 3)
    assert env.orders == {}


def test_orders_with_nothing_under_it_are_standing_orders():
    env = parse_envelope(load_order_yaml(GOOD.replace("orders: {}", "orders:\n  # none")))
    assert env.orders == {}


def test_unknown_keys_get_did_you_mean():
    got = found(GOOD + "tunr: 7\ndepart: {}\n")
    assert got["tunr"].startswith("unknown-key") and "did you mean turn?" in got["tunr"]
    assert "orders go under orders:" in got["depart"]


def test_missing_keys_each_reported():
    got = found("pbem: 1\norders: {}\n")
    assert set(got) == {"game", "power", "turn", "seq", "instance"}
    assert all(v.startswith("missing") for v in got.values())


def test_a_file_without_instance_is_refused_with_one_sentence_naming_how_to_get_it():
    got = found(GOOD.replace("instance: 0123456789abcdef0123456789abcdef\n", ""))
    assert got == {"instance": "missing: missing: the game instance this file is for (the "
                   "instance: line of your report's order form), which `pbem orders new --view "
                   "REPORT.eml` writes"}


@pytest.mark.parametrize(
    "line, path, words",
    [
        ("pbem: 2", "pbem", "version 1"),
        ("pbem: '1'", "pbem", "version 1"),
        ("game: 12", "game", "must be a name"),
        ("game: ''", "game", "must be a name"),
        ("power: [algol]", "power", "a list"),
        ("power: no", None, None),  # `no` is the text "no": a name, wrong only if unexpected
        ("turn: 0", "turn", "between 1"),
        ("turn: -2", "turn", "between 1"),
        ("turn: 7.5", "turn", "a fraction"),
        ("turn: '7'", "turn", "whole number"),
        ("turn: true", "turn", "yes/no"),
        ("turn: 012", "turn", "'012'"),
        ("turn: 1:30", "turn", "'1:30'"),
        ("turn: 99999999999999999999", "turn", "between 1"),
        ("seq: -1", "seq", "between 0"),
        ("seq: ~", "seq", "empty"),
        ("orders: [continue]", "orders", "mapping"),
        ("orders: continue", "orders", "mapping"),
    ],
)
def test_wrong_types_and_ranges(line, path, words):
    key = line.split(":")[0]
    text = "\n".join(ln if not ln.startswith(key + ":") else line for ln in GOOD.splitlines())
    if path is None:
        assert check_envelope(load_order_yaml(text))[1] == []
        return
    got = found(text)
    assert list(got) == [path]
    assert words in got[path]


def test_wrong_game_power_and_turn_all_reported():
    got = found(GOOD, game="orion-2", power="mira", turn=8)
    assert set(got) == {"game", "power", "turn"}
    assert "orion-2" in got["game"] and "andromeda-7" in got["game"]
    assert got["power"].startswith("wrong-power")
    assert "turn 7 (an earlier turn)" in got["turn"] and "turn 8" in got["turn"]


def test_power_in_wrong_case_is_named():
    got = found(GOOD.replace("power: algol", "power: Algol"), power="algol")
    assert got["power"].endswith("write algol in lower case, not Algol")


def test_every_problem_at_once():
    text = "pbem: 3\ngame: 5\npower: algol\nturn: 0\nseq: x\norders: 1\nextra: 1\n"
    with pytest.raises(Rejected) as info:
        parse_envelope(load_order_yaml(text))
    assert [p.path for p in info.value.problems] == [
        "extra", "instance", "pbem", "game", "turn", "seq", "orders"
    ]


def test_a_standing_file_says_turn_standing_and_is_for_whichever_step_is_open():
    text = GOOD.replace("turn: 7", "turn: standing")
    env = parse_envelope(load_order_yaml(text), game="andromeda-7", power="algol", turn=7)
    assert env.turn == STANDING_TURN == 0
    got = found(GOOD.replace("turn: 7", "turn: later"))
    assert got["turn"].startswith("type") and "whole number or standing" in got["turn"]
    got = found(GOOD, turn=STANDING_TURN)  # a step's file where a standing one is expected
    assert got["turn"].startswith("wrong-turn")
