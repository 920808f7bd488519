"""The safe order-file loader: every bad input gets a Problem with a path; nothing is guessed."""

from __future__ import annotations

import pytest

from pbem.errors import Rejected
from pbem.protocol.safeyaml import MAX_BYTES, MAX_DEPTH, load_order_yaml, resolve_plain, scan
from tests.support.workcount import calls


def problems(text: str) -> list[tuple[str, str]]:
    with pytest.raises(Rejected) as info:
        load_order_yaml(text)
    return [(p.code, p.path) for p in info.value.problems]


def messages(text: str) -> str:
    with pytest.raises(Rejected) as info:
        load_order_yaml(text)
    return str(info.value)


def test_plain_document_loads():
    doc = load_order_yaml("pbem: 1\ngame: andromeda-7\norders:\n  warps:\n    1: continue\n")
    assert doc == {"pbem": 1, "game": "andromeda-7", "orders": {"warps": {1: "continue"}}}


def test_not_yaml_reports_line_and_column():
    text = "pbem: 1\norders: [warps\n  depart: {\n"
    assert problems(text) == [("not-yaml", "")]
    assert "not valid YAML" in messages(text) and "line" in messages(text)


@pytest.mark.parametrize("text", ["", "# only a comment\n", "~\n"])
def test_empty_document(text):
    assert problems(text) == [("empty", "")]


@pytest.mark.parametrize("text, kind", [("- a\n- b\n", "list"), ("just words\n", "single")])
def test_top_level_must_be_a_mapping(text, kind):
    assert problems(text) == [("not-mapping", "")]
    assert kind in messages(text)


def test_aliases_and_anchors_are_refused_with_paths():
    text = "orders:\n  depart: &d {warp: 1}\n  else: *d\n"
    assert problems(text) == [("anchor", "orders.depart"), ("alias", "orders.else")]
    assert "&d" in messages(text) and "*d" in messages(text)


def _laughs(levels: int) -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [{', '.join(['*' + prev] * 9)}]")
    return "\n".join(lines) + "\n"


def test_billion_laughs_is_refused_without_expanding_it():
    """Nine levels of aliases (9^9 strings if expanded) cost about twice the work of four
    (counted in function calls, not time): the text is read, never expanded."""
    found, big = calls(lambda: problems(_laughs(9)))
    assert {code for code, _ in found} == {"anchor", "alias"}
    _, small = calls(lambda: problems(_laughs(4)))
    assert big <= 3 * small, (big, small)


@pytest.mark.parametrize("opener, closer", [("[", "]"), ("{a: ", "}")])
def test_too_deep_is_refused(opener, closer):
    text = "orders: " + opener * (MAX_DEPTH + 5) + "1" + closer * (MAX_DEPTH + 5) + "\n"
    assert [code for code, _ in problems(text)] == ["too-deep"]


def test_very_deep_nesting_is_refused_without_recursion_error():
    text = "x: " + "[" * 5000 + "]" * 5000
    assert [code for code, _ in problems(text)] == ["too-deep"]


def test_depth_limit_itself_is_allowed():
    text = "[" * (MAX_DEPTH - 1) + "1" + "]" * (MAX_DEPTH - 1)
    assert scan("x: " + text)[1] == []


def test_size_cap_is_checked_before_parsing():
    text = "pbem: 1\n" + "# padding\n" * (MAX_BYTES // 10) + "a: [\n"  # also broken YAML
    assert problems(text) == [("too-large", "")]
    assert "65536" in messages(text) or "64 KiB" in messages(text)


def test_size_cap_counts_utf8_bytes():
    text = "a: " + "é" * (MAX_BYTES // 2) + "\n"  # fewer characters than bytes
    assert problems(text) == [("too-large", "")]


def test_duplicate_keys_name_the_path_and_lines():
    text = "orders:\n  warps:\n    1: continue\n    1: {arrive: Hamal}\n"
    assert problems(text) == [("duplicate-key", "orders.warps.1")]
    assert "lines 3 and 4" in messages(text)


def test_keys_that_read_alike_are_duplicates():
    assert problems("warps:\n  1: continue\n  '1': continue\n") == [
        ("duplicate-key", "warps.1")
    ]


def test_every_duplicate_is_listed():
    text = "game: a\ngame: b\norders:\n  depart: {ships: 1, ships: 2}\n"
    assert problems(text) == [("duplicate-key", "game"), ("duplicate-key", "orders.depart.ships")]


def test_list_paths_use_indexes():
    text = "orders:\n  resources:\n    - {star: Vega, to: mira}\n    - {star: A, star: B}\n"
    assert problems(text) == [("duplicate-key", "orders.resources[1].star")]


@pytest.mark.parametrize(
    "plain, value",
    [
        ("no", "no"),
        ("yes", "yes"),
        ("on", "on"),
        ("off", "off"),
        ("No", "No"),
        ("012", "012"),
        ("1:30", "1:30"),
        ("0x1f", "0x1f"),
        ("0o17", "0o17"),
        ("1_000", "1_000"),
        ("2026-11-30", "2026-11-30"),
        (".inf", ".inf"),
        ("1e3", "1e3"),
        ("True", "True"),
        ("true", True),
        ("false", False),
        ("0", 0),
        ("-3", -3),
        ("+5", 5),
        ("42", 42),
        ("2.5", 2.5),
        ("null", None),
        ("~", None),
        ("", None),
    ],
)
def test_strict_resolver(plain, value):
    assert resolve_plain(plain) == value
    assert type(resolve_plain(plain)) is type(value)
    assert load_order_yaml(f"x: {plain}\n")["x"] == value


def test_quoted_scalars_are_always_text():
    doc = load_order_yaml("a: '1'\nb: \"true\"\nc: 'null'\n")
    assert doc == {"a": "1", "b": "true", "c": "null"}


def test_explicit_tags_are_refused():
    text = "a: !!int 12\nb: !!python/object:os.system x\n"
    assert [code for code, _ in problems(text)] == ["tag", "tag"]


def test_keys_must_be_names_or_numbers():
    assert problems("? [1, 2]\n: x\n") == [("bad-key", "")]
    assert problems("orders:\n  true: 1\n") == [("bad-key", "orders")]
    assert problems("orders:\n  ~: 1\n") == [("bad-key", "orders")]


def test_two_documents_are_refused():
    assert problems("pbem: 1\n---\npbem: 1\n") == [("many-documents", "")]


def test_huge_integer_stays_text_for_the_validator():
    digits = "9" * 5000
    assert load_order_yaml(f"ships: {digits}\n")["ships"] == digits


def test_problems_found_together():
    text = "a: &x 1\nb: *x\na: 2\nc: !!str z\n"
    assert [code for code, _ in problems(text)] == ["anchor", "alias", "duplicate-key", "tag"]
