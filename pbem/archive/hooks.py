"""What a game may supply to its archive, and what the archive does when it supplies nothing.

A game declares its hooks as ``PLUGIN.archive``: an object (usually its module ``archive``)
defining any of the functions of :class:`ArchiveHooks` (pbem.game.plugin.ARCHIVE_HOOKS, checked
when the game is loaded: each one given must be callable). Each one sees only public data: the
public view of a step (``plugin.view(state, None)``) and that step's public events, so a hook
cannot leak what the view function withholds. A game without hooks (``archive = None``, the
default of pbem.game.base.Game) still gets an archive: tables of its public view
(:func:`generic_summary`), no map, its events in its presenter's words where the presenter has a
``sentence`` (pbem.game.base.Presenter), else :func:`generic_event`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
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
    """What ``PLUGIN.archive`` may define (every function optional)."""

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
    """The hooks of one game (``module``: its ``PLUGIN.archive``), each falling back to the
    generic version; ``sentence``: the presenter's wording of an event, if it has one."""

    module: Any
    sentence: Callable[[Event], str] | None = None

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
        if fn:
            return str(fn(event, view))
        return str(self.sentence(event)) if self.sentence else generic_event(event)


def hooks_for(game_id: str) -> Hooks:
    """The archive hooks the game ``game_id`` declares (``PLUGIN.archive``)."""
    plugin = registry.load(game_id)
    return Hooks(getattr(plugin, "archive", None),
                 getattr(getattr(plugin, "presenter", None), "sentence", None))


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
