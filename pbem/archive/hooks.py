"""What a game may supply to its archive, and what the archive does when it supplies nothing.

A game's package may hold a module ``archive`` (``games/<package>/archive.py``) defining any of
the functions of :class:`ArchiveHooks`. Each one sees only public data: the public view of a
step (``plugin.view(state, None)``) and that step's public events, so a hook cannot leak what
the view function withholds. A game without the module still gets an archive: tables of its
public view (:func:`generic_summary` and no map).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from pbem.game import registry
from pbem.game.events import game_fields

View = Mapping[str, Any]
Event = Mapping[str, Any]
PALETTE = ("#1565c0", "#c0392b", "#2e7d32", "#6a1b9a", "#d35400", "#9a7d0a", "#00838f",
           "#5d4037")
Numbers = dict[str, dict[str, int]]
"""Per power, named counts for one step: ``{"pavo": {"ships": 13, "stars": 1}}``."""


class ArchiveHooks(Protocol):
    """What a game may define in ``games/<package>/archive.py`` (every function optional)."""

    def archive_summary(self, view: View, events: Sequence[Event]) -> Numbers:
        """Per power, the counts shown in the step's table and charted over the game (the
        first two keys are charted, e.g. ships and stars)."""
        ...

    def archive_map(self, before: View | None, view: View,
                    events: Sequence[Event]) -> str | None:
        """The map of the step as an inline SVG element (``<svg role="img" …>``), or None.
        ``before`` is the public view of the step before (None for the first), so a path can
        be drawn from where a fleet left to where it arrived."""
        ...

    def archive_event(self, event: Event, view: View | None) -> str:
        """One public event as a plain sentence (``view``: the public view after the step, or
        None where the export withholds it)."""
        ...

    def archive_colours(self, view: View) -> Mapping[str, str]:
        """Per power, a CSS colour (always shown beside the power's name, never alone)."""
        ...


@dataclass(frozen=True)
class Hooks:
    """The hooks of one game, each falling back to the generic version."""

    module: ModuleType | None

    def summary(self, view: View, events: Sequence[Event]) -> Numbers:
        fn = getattr(self.module, "archive_summary", None)
        return dict(fn(view, events)) if fn else generic_summary(view)

    def map(self, before: View | None, view: View, events: Sequence[Event]) -> str | None:
        fn = getattr(self.module, "archive_map", None)
        return fn(before, view, events) if fn else None

    def colours(self, view: View | None, powers: Sequence[str]) -> dict[str, str]:
        fn = getattr(self.module, "archive_colours", None)
        given = dict(fn(view)) if fn and view is not None else {}
        return {p: given.get(p) or PALETTE[i % len(PALETTE)] for i, p in enumerate(powers)}

    def event(self, event: Event, view: View | None) -> str:
        fn = getattr(self.module, "archive_event", None)
        return str(fn(event, view)) if fn else generic_event(event)


def hooks_for(game_id: str) -> Hooks:
    """The archive hooks of the game ``game_id``: its package's ``archive`` attribute or
    submodule (loaded after registry.load, which registers the package), else none."""
    registry.load(game_id)
    name = registry.module_name(game_id)
    package = importlib.import_module(name)
    found = getattr(package, "archive", None)
    if not isinstance(found, ModuleType) and importlib.util.find_spec(f"{name}.archive"):
        found = importlib.import_module(f"{name}.archive")
    return Hooks(found if isinstance(found, ModuleType) else None)


def generic_summary(view: View) -> Numbers:
    """Whole-number fields of ``view["powers"][power]`` (lists count their items), when the view
    has such a mapping; otherwise nothing."""
    powers = view.get("powers")
    if not isinstance(powers, Mapping):
        return {}
    out: Numbers = {}
    for power, info in powers.items():
        if not isinstance(info, Mapping):
            continue
        row: dict[str, int] = {}
        for key, value in info.items():
            if isinstance(value, bool):
                continue
            if isinstance(value, int):
                row[str(key)] = value
            elif isinstance(value, list):
                row[str(key)] = len(value)
        out[str(power)] = row
    return out


def generic_event(event: Event) -> str:
    """``type: key=value, …`` for a game that does not word its events."""
    kind = str(event.get("type", "event"))
    fields = game_fields(event)
    detail = ", ".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "type")
    return f"{kind}: {detail}" if detail else kind
