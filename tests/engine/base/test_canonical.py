"""pbem.canonical: the one byte encoding of states, views and log entries is json.dumps with
sorted keys, no whitespace and UTF-8 kept, whichever encoder makes it."""

from __future__ import annotations

import json
import math
import random

import pytest

from pbem import canonical


def _reference(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _random_value(rng: random.Random, depth: int = 0) -> object:
    kind = rng.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return rng.randrange(-10**20, 10**20)
    if kind == 1:
        return rng.choice([0.1, -2.5e-300, 1e300, 3.0, -0.0, math.inf, -math.inf])
    if kind == 2:
        return "".join(rng.choice('aé"\\\n\x00\u2028✓ ') for _ in range(rng.randrange(6)))
    if kind == 3:
        return rng.choice([None, True, False])
    if kind in (4, 5):
        return rng.choice(["", "x"])
    if kind in (6, 7):
        return {f"k{rng.randrange(50)}é": _random_value(rng, depth + 1)
                for _ in range(rng.randrange(5))}
    return [_random_value(rng, depth + 1) for _ in range(rng.randrange(5))]


def test_the_encoding_is_json_dumps_sorted_and_compact() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        value = _random_value(rng)
        assert canonical.dumps(value) == _reference(value)
        assert canonical.encode(value) == _reference(value).encode("utf-8")
    assert canonical.dumps(math.nan) == "NaN"
    assert canonical.dumps({2: "b", 1: "a"}) == '{"1":"a","2":"b"}'


def test_what_is_not_json_data_is_refused() -> None:
    with pytest.raises(TypeError):
        canonical.dumps({"a": object()})
    with pytest.raises(TypeError):
        canonical.dumps({1: "a", "b": 2})  # keys that do not sort


def test_a_mapping_with_some_values_encoded_already() -> None:
    """dumps_with: the encoding of a mapping whose values at some keys are given encoded (in
    runs of the other keys around them) is dumps of the mapping."""
    rng = random.Random(5)
    for _ in range(500):
        value = {f"k{rng.randrange(30)}": _random_value(rng) for _ in range(rng.randrange(8))}
        done = {k: canonical.dumps(v) for k, v in value.items() if rng.random() < 0.4}
        assert canonical.dumps_with(value, done) == _reference(value)
    assert canonical.dumps_with({}, {}) == "{}"
    assert canonical.dumps_with({2: "b", 1: "a"}, {}) == '{"1":"a","2":"b"}'  # type: ignore[dict-item]
