"""Frozen value records without ``dataclasses`` (issue 30, "Fast start").

``@dataclass(frozen=True, slots=True)`` writes its ``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__`` and ``__delattr__`` as source text and compiles each with ``exec``
when the class is created: ~3.7 M instructions a class (callgrind), paid by every process that
imports it. An order mail's ``pbem ingest`` imported ~49 of them. A record is a class with
``__slots__`` naming its fields in order, its own typed ``__init__`` (``object.__setattr__`` per
field), and this base's methods, which behave as the dataclass ones do: the same ``repr``,
equality (same class, fields equal) and hash, ``dataclasses.FrozenInstanceError`` on
assignment or deletion, ``match`` by position, pickling and copying. What a record does not
offer: ``dataclasses.fields`` and ``asdict`` (a class used with them stays a dataclass); its
:meth:`Record.replace` is ``dataclasses.replace`` for a record whose ``__init__`` takes every
field by its name. ``dataclasses`` itself (with ``inspect``, ``ast``, ``dis`` and ``tokenize``:
~42 M instructions, callgrind) is imported only when a record is assigned to.
"""

from __future__ import annotations

import reprlib
from typing import Any, Self


class Record:
    """The base of a frozen record: ``__slots__`` (the fields, in order) and ``__init__`` are the
    subclass's own; ``__match_args__`` is its ``__slots__``."""

    __slots__: tuple[str, ...] = ()
    __match_args__: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.__match_args__ = cls.__slots__  # type: ignore[misc]

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.__slots__])

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        return self.__class__.__qualname__ + "(" + ", ".join(
            f"{name}={getattr(self, name)!r}" for name in self.__slots__) + ")"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            assert isinstance(other, Record)
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __setattr__(self, name: str, value: Any) -> None:
        raise _frozen(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise _frozen(f"cannot delete field {name!r}")

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` (``dataclasses.replace``): the class called with every field
        by name, so its ``__init__`` checks the new values as it checks any."""
        unknown = set(changes) - set(self.__slots__)
        if unknown:
            raise TypeError(f"{self.__class__.__qualname__} has no field {sorted(unknown)[0]!r}")
        return self.__class__(**{name: changes.get(name, getattr(self, name))
                                 for name in self.__slots__})

    def __getstate__(self) -> list[Any]:
        return list(self._values())

    def __setstate__(self, state: list[Any]) -> None:
        for name, value in zip(self.__slots__, state, strict=True):
            object.__setattr__(self, name, value)


class Mutable:
    """The base of a mutable record, for a class that was a plain ``@dataclass``: the subclass's
    own ``__init__`` sets its fields, ``_fields`` names them in order; ``repr`` and equality are
    the dataclass ones (same class, fields equal), and it is unhashable, as they are."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return self.__class__.__qualname__ + "(" + ", ".join(
            f"{name}={getattr(self, name)!r}" for name in self._fields) + ")"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return all(getattr(self, name) == getattr(other, name) for name in self._fields)
        return NotImplemented


def _frozen(message: str) -> AttributeError:
    """The error a frozen dataclass raises, ``dataclasses.FrozenInstanceError``: imported here,
    when a record is assigned to (a bug), not by every process that imports a record."""
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(message)
