"""What one renderer computes once and reuses for the rest of its life (one game's visit: a
resolution's reports, the game master's summary, the order check before them, an ingest
round's receipts): the one cache of pbem.render.

- ``views``: ``plugin.view(state, power)`` (and the order checks' ``order_view``) per state
  object and power: pbem.game.views.ViewCache, the engine's one view cache, which the audit
  uses too (the same key: the state's identity and the power). At most ``VIEW_STATES``
  states are kept (a resolution's before and after, with room for a catch-up); the audit
  keeps one, the state it walks.
- ``svg``: each map drawing rendered to SVG once (pbem.render.mails._map says the key).
- ``cells``: the drawing of each cell of a map grid (pbem.render.mails._map_cells).

``plugin_viewing`` hands the plugin to code that takes one (the order check of
pbem.store.replay.gather_orders) with its ``view`` and ``order_view`` answered from here, so
the views the order check builds are the ones the reports show again (a game without an
``order_view``).

Nothing here shares anything between powers: a view is cached per power, a drawing by the
objects the presenter handed over; what a presenter shares between readers it must compute
from the public view alone (docs/plugins.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.game.plugin import GamePlugin
from pbem.game.views import ViewCache

VIEW_STATES = 4  # states whose views a cache keeps (a resolution's before and after)


@dataclass
class RenderCache:
    views: ViewCache = field(default_factory=lambda: ViewCache(VIEW_STATES))
    svg: dict[tuple[Any, ...], tuple[object, str]] = field(default_factory=dict)
    cells: list[tuple[Any, Any]] = field(default_factory=list)  # (map grid, its cells)

    def view(self, plugin: GamePlugin, state: Mapping[str, Any],
             power: str | None) -> dict[str, Any]:
        """``plugin.view(state, power)``, computed once per state object and power."""
        made: dict[str, Any] = self.views.view(plugin, state, power)
        return made

    def plugin_viewing(self, plugin: GamePlugin) -> GamePlugin:
        """``plugin`` with its ``view`` (and ``order_view``) answered from this cache."""
        viewing: GamePlugin = self.views.viewing(plugin)
        return viewing
