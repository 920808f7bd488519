"""Read-only copies of plain data: the component tables every state and view of a pack shares.

A ``Frozen`` dict or ``FrozenList`` refuses every write, and so does everything in it (``freeze``
makes the whole tree of them), so it is the same data for as long as it lives: the renderer
keeps its canonical JSON for the process's life, not one resolution's (its class declares
pbem.render.cache's ``LASTING`` attribute, ``__pbem_lasting__``: a game imports nothing of
pbem.render). States and views are never changed (docs/plugins.md); these refuse it, so no
code can change another state or view, or another game's, through them. A copy (``dict`` or
``list``, ``copy``, ``deepcopy``, pickle) is plain data, free to change.
"""

from __future__ import annotations

import copy
from typing import Any, NoReturn


def _refuse(*_: Any, **__: Any) -> NoReturn:
    raise TypeError("read-only: the component tables are shared by every state and view of "
                    "their pack; copy them to change them (docs/plugins.md: states and views "
                    "are never changed)")


_SCALARS = frozenset((str, int, float, bool, type(None)))


class Frozen(dict[str, Any]):
    """A read-only dict (``freeze``)."""

    __slots__ = ()
    __pbem_lasting__ = True  # pbem.render.cache.LASTING: it never changes while it lives

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return {k: copy.deepcopy(v, memo) for k, v in self.items()}

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))


class FrozenList(list[Any]):
    """A read-only list (``freeze``)."""

    __slots__ = ()
    __pbem_lasting__ = True

    __setitem__ = __delitem__ = append = extend = insert = pop = remove = clear = _refuse
    sort = reverse = __iadd__ = __imul__ = _refuse

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return [copy.deepcopy(v, memo) for v in self]

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


def freeze(value: Any) -> Any:
    """``value`` (plain data: dicts, lists, tuples, strings, numbers, None) as read-only data:
    every dict a ``Frozen``, every list a ``FrozenList``, made anew but for the parts of
    ``value`` that are read-only already (they cannot change: shared, not copied; a view's
    tables made from a state's read-only pack). Strings, numbers and None are taken as they
    are, without a call each (a pack is mostly those)."""
    if type(value) in _READ_ONLY:
        return value
    if isinstance(value, dict):
        return Frozen({k: v if type(v) in _SCALARS else freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return FrozenList([v if type(v) in _SCALARS else freeze(v) for v in value])
    if isinstance(value, tuple):
        return tuple(freeze(v) for v in value)
    return value


_READ_ONLY = frozenset((Frozen, FrozenList))
