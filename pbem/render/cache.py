"""What one renderer computes once and reuses for the rest of its life (one game's visit: a
resolution's reports, the game master's summary, the order check before them, an ingest
round's receipts): the one cache of pbem.render.

- ``views``: ``plugin.view(state, power)`` per state object and power. Keyed by the state's
  identity (the entry holds the state, so the identity is not reused while it lives); views
  are read, never changed. At most ``VIEW_STATES`` states are kept (a resolution's before
  and after, with room for a catch-up).
- ``svg``: each map drawing rendered to SVG once (pbem.render.mails._map says the key).
- ``cells``: the drawing of each cell of a map grid (pbem.render.mails._map_cells).
- ``encoded``: the canonical JSON of each object a view holds at its top level (a dict or a
  list), by identity: views that share an object (a game's tables) have it encoded once
  (``RenderCache.json``).
- ``parts``: partials rendered once per context (pbem.render.environment.Renderer.once), by
  template name: the contexts and the text, latest last.

``plugin_viewing`` hands the plugin to code that takes one (the order check of
pbem.store.replay.gather_orders) with its ``view`` answered from here, so the views the
order check builds are the ones the reports show again.

Nothing here shares anything between powers: a view is cached per power, a drawing by the
objects the presenter handed over; what a presenter shares between readers it must compute
from the public view alone (docs/plugins.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from pbem import canonical
from pbem.game.plugin import GamePlugin

if TYPE_CHECKING:
    from pbem.game.shapes import GameState, GameView, StateIn

VIEW_STATES = 4  # states whose views a cache keeps (a resolution's before and after)


@dataclass
class RenderCache:
    views: dict[int, tuple[StateIn, dict[str | None, GameView]]] = field(
        default_factory=dict)
    svg: dict[tuple[object, ...], tuple[object, str]] = field(default_factory=dict)
    # (map grid, its cells)
    cells: list[tuple[object, list[Markup] | None]] = field(default_factory=list)
    parts: dict[str, list[tuple[dict[str, Any], Any]]] = field(default_factory=dict)
    encoded: dict[int, tuple[object, str]] = field(default_factory=dict)

    def json(self, doc: Mapping[str, Any]) -> bytes:
        """``canonical.encode(doc)`` of a view (or a view with the host's fields added): the
        same bytes, with each dict or list value at its top level encoded once per object
        while this cache lives, so the objects the views of a resolution share are encoded
        once (views and what they hold are never changed: docs/plugins.md)."""
        if not all(type(k) is str for k in doc):
            return canonical.encode(doc)
        parts = []
        for key in sorted(doc):
            value = doc[key]
            if type(value) is dict or type(value) is list:
                hit = self.encoded.get(id(value))
                if hit is None or hit[0] is not value:
                    hit = (value, canonical.dumps(value))
                    self.encoded[id(value)] = hit
                parts.append(f"{canonical.dumps(key)}:{hit[1]}")
            else:
                parts.append(f"{canonical.dumps(key)}:{canonical.dumps(value)}")
        return ("{" + ",".join(parts) + "}").encode("utf-8")

    def view(self, plugin: GamePlugin, state: StateIn,
             power: str | None) -> GameView:
        """``plugin.view(state, power)``, computed once per state object and power."""
        entry = self.views.get(id(state))
        if entry is None or entry[0] is not state:
            if len(self.views) >= VIEW_STATES:
                del self.views[next(iter(self.views))]  # the oldest state
            entry = (state, {})
            self.views[id(state)] = entry
        views = entry[1]
        if power not in views:
            views[power] = plugin.view(dict(state), power)
        return views[power]

    def plugin_viewing(self, plugin: GamePlugin) -> GamePlugin:
        """``plugin`` with its ``view`` answered from this cache."""
        return _Viewing(plugin, self)  # type: ignore[return-value]


class _Viewing:
    """A plugin whose ``view`` is the cache's; every other attribute is the plugin's."""

    def __init__(self, plugin: GamePlugin, cache: RenderCache) -> None:
        self._plugin, self._cache = plugin, cache

    def view(self, state: GameState, power: str | None) -> GameView:
        return self._cache.view(self._plugin, state, power)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._plugin, name)
