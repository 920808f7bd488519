"""pbem.record: a frozen record behaves as the ``@dataclass(frozen=True, slots=True)`` it
replaces (repr, equality, hash, frozen fields, match, pickling, copying)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from pbem.errors import Problem
from pbem.record import Mutable, Record


class Point(Record):
    __slots__ = ("x", "label")
    x: int
    label: str

    def __init__(self, x: int, label: str = "") -> None:
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "label", label)


@dataclasses.dataclass(frozen=True, slots=True)
class DataPoint:
    x: int
    label: str = ""


def test_a_record_is_its_dataclass_in_every_way_a_caller_sees() -> None:
    rec, data = Point(3, "a"), DataPoint(3, "a")
    assert repr(rec) == repr(data).replace("DataPoint", "Point")
    assert rec == Point(3, "a") and rec != Point(3, "b") and rec != (3, "a")
    assert (rec == data) is False and rec.__eq__(data) is NotImplemented
    assert hash(rec) == hash(data) == hash((3, "a"))
    assert Point(4).label == "" and Point.__match_args__ == DataPoint.__match_args__
    for target in (rec, data):
        with pytest.raises(dataclasses.FrozenInstanceError) as caught:
            target.x = 5  # type: ignore[misc]
        assert str(caught.value) == "cannot assign to field 'x'"
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'x'"):
            del target.x  # type: ignore[misc]
    with pytest.raises(AttributeError):  # (the dataclass raises TypeError here: CPython's bug)
        rec.other = 1  # type: ignore[attr-defined]
    match rec:
        case Point(x, label):
            assert (x, label) == (3, "a")
    for copied in (pickle.loads(pickle.dumps(rec)), copy.copy(rec), copy.deepcopy(rec)):
        assert copied == rec and copied is not rec


def test_problem_is_a_record() -> None:
    problem = Problem("code", "orders.a", "a sentence")
    assert repr(problem) == "Problem(code='code', path='orders.a', message='a sentence')"
    assert str(problem) == "orders.a: a sentence"
    assert {problem} == {Problem(*problem.__getstate__())}


def test_replace_is_dataclasses_replace() -> None:
    rec = Point(3, "a")
    assert rec.replace(label="b") == Point(3, "b") and rec == Point(3, "a")
    assert dataclasses.replace(DataPoint(3, "a"), label="b") == DataPoint(3, "b")
    with pytest.raises(TypeError, match="no field 'y'"):
        rec.replace(y=1)


class Counter(Mutable):
    _fields = ("n", "seen")

    def __init__(self, n: int = 0, seen: list[str] | None = None) -> None:
        self.n = n
        self.seen = [] if seen is None else seen


@dataclasses.dataclass
class DataCounter:
    n: int = 0
    seen: list[str] = dataclasses.field(default_factory=list)


def test_a_mutable_record_is_its_plain_dataclass_in_repr_equality_and_hash() -> None:
    rec, data = Counter(2, ["a"]), DataCounter(2, ["a"])
    assert repr(rec) == repr(data).replace("DataCounter", "Counter")
    assert rec == Counter(2, ["a"]) and rec != Counter(3, ["a"])
    assert rec.__eq__(data) is NotImplemented
    rec.n += 1
    assert rec.n == 3
    for target in (rec, data):
        with pytest.raises(TypeError):
            hash(target)
