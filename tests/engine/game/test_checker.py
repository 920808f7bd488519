"""pbem.game.checker: the one problem collector every game's order check uses."""

from __future__ import annotations

from pbem.errors import Problem
from pbem.game.checker import Checker, did_you_mean, field, item, kind, show, unknown_keys


def test_unknown_keys_are_named_at_their_path_with_the_closest_known_key() -> None:
    c = Checker()
    ok = c.unknown_keys({"plya": 1, "play": 2, 7: 3}, ("play",), "orders", code="unknown-order",
                        say=lambda key, hint: f"no order {show(key)}{hint}")
    assert not ok
    assert c.problems == [
        Problem("unknown-order", "orders.plya", "no order 'plya' — did you mean \"play\"?"),
        Problem("unknown-order", "orders.7", "no order 7"),
    ]
    assert unknown_keys({"play": 1}, ("play",), "", code="x", say=lambda k, h: "") == []


def test_paths_and_descriptions() -> None:
    assert field("", "move") == "move" and field("move", "to") == "move.to"
    assert item("move", 2) == "move[2]" and field(item("move", 2), "to") == "move[2].to"
    assert field("", "x" * 50).startswith("'xxx") and field("", "x" * 50).endswith("…")
    assert kind(True) == "a true/false value" and kind({}) == "a mapping" and kind(None) == \
        "nothing"
    assert show(10**400) == "a number of about 401 digits"
    assert did_you_mean("retreet", ("place", "retreat")) == ' — did you mean "retreat"?'
    assert did_you_mean("zzz", ("place",)) == ""


def test_whole_numbers_are_read_strictly() -> None:
    c = Checker()
    say = "a whole number 1..99"
    assert c.whole(7, "a", code="n", say=say, low=1, high=99) == 7
    assert c.whole("7", "b", code="n", say=say, low=1, high=99, as_text=True) == 7
    for value in (True, "7", 0, 100, 7.0):  # "7" only with as_text; bools are not numbers
        assert c.whole(value, "c", code="n", say=say, low=1, high=99) is None
    for text in ("²", "١", " 7", "+7", "1_0"):  # str.isdigit() or int() would take these
        assert c.whole(text, "d", code="n", say=say, low=0, as_text=True) is None
    assert [p.path for p in c.problems] == ["c"] * 5 + ["d"] * 5


def test_type_checks_collect_a_sentence_made_from_the_value() -> None:
    c = Checker()
    mark = c.mark()
    assert c.mapping({"a": 1}, "m", code="shape", say="a mapping") == {"a": 1}
    assert c.listing([1, 2], "l", code="shape", say="a list", most=2) == [1, 2]
    assert c.clean_since(mark)
    assert c.listing([1, 2, 3], "l", code="shape", say="at most 2", most=2) is None
    assert c.text(5, "t", code="type", say=lambda v: f"a text, not {kind(v)}") is None
    assert c.flag("yes", "f", code="type", say="true or false") is None
    assert not c.required({"a": 1}, ("a", "b"), "r", code="missing", say=lambda k: f"{k}?")
    assert not c.clean_since(mark)
    assert [str(p) for p in c.problems] == ["l: at most 2", "t: a text, not a number",
                                            "f: true or false", "r.b: b?"]
