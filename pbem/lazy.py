"""Modules imported on first use, for the commands a process runs per mail.

Why: ``pbem ingest --stdin`` starts a process per delivered mail, and most mails (spam, a
duplicate, a quarantined message) need no rendered reply; importing the template engine up front
cost every one of them jinja2's import. ``module(name)`` returns the module object at once but
runs its code only when an attribute is first read (``importlib.util.LazyLoader``), so the
import statements stay at the top of the modules that use them.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Generic, TypeVar

T = TypeVar("T")


def module(name: str) -> ModuleType:
    """``name`` (imported already, or to be imported on first attribute access)."""
    found = sys.modules.get(name)
    if found is not None:
        return found
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    lazy = importlib.util.module_from_spec(spec)
    sys.modules[name] = lazy
    loader.exec_module(lazy)
    return lazy


class PartMissing(ImportError):
    """A part loaded on first use lacks what the plugin contract asks (pbem.game.contract)."""


class attribute(Generic[T]):
    """A class attribute read from a module when first used: ``presenter =
    lazy.attribute(__package__ + ".present", "PRESENTER")`` in a game's plugin class. A process
    that only judges orders (``pbem ingest --stdin``) then imports no presenter, player's tool or
    archive hooks of the game (issue 30)."""

    def __init__(self, module: str, name: str | None = None) -> None:
        self._module = module
        self._name = name
        self._value: T | None = None
        self.loaded = False
        #: What the part lacks once loaded, in words (set by the game's load-time check).
        self.check: Callable[[T], list[str]] | None = None

    def __get__(self, obj: object, owner: type | None = None) -> T:
        if not self.loaded:
            found = importlib.import_module(self._module)
            value: T = (found if self._name is None  # type: ignore[assignment]
                        else getattr(found, self._name))
            missing = self.check(value) if self.check is not None else []
            if missing:
                raise PartMissing(f"{self._module}: it lacks {', '.join(missing)} "
                                  "(see docs/plugins.md)")
            self._value, self.loaded = value, True
        return self._value  # type: ignore[return-value]  # (loaded: a T)
