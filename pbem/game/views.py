"""The view the engine checks orders against: a game's cheaper ``order_view``, or its ``view``.

``normalize_orders(body, view)`` reads a few fields of the power's view, yet a game's full
``view`` is built for the reports (everything the power may see, with what the reports derive
from it). A game may declare, besides the GamePlugin contract,

* ``order_view(state, power) -> View`` — what ``normalize_orders`` reads of
  ``view(state, power)``, and nothing else of the state: for every state, power and order body
  ``normalize_orders(body, order_view(state, power))`` equals
  ``normalize_orders(body, view(state, power))``, problems and their sentences included
  (tests/crossgame proves it for every game, over a played game's states).

It is read with :func:`order_view`, so a game that declares none is checked against its full
view. The engine asks it wherever it only checks orders: acceptance (pbem.host.accept), the
replay's choice of the orders a resolution uses (pbem.store.replay.gather_orders) and the
audit. It never leaves the engine: what a player sees is still ``view`` alone.

:class:`ViewCache` is the engine's one cache of views: each ``view`` and ``order_view`` made
once per state object and power. The renderer keeps one for a game's visit
(pbem.render.cache: a resolution's before and after), the audit one for the state it walks
(pbem.audit._walk, the state it holds: one).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbem.game.plugin import GamePlugin
    from pbem.game.shapes import GameState, GameView

ORDER_VIEW = "order_view"
"""The optional attribute's name (docs/plugins.md)."""


def order_view(plugin: GamePlugin, state: GameState, power: str) -> GameView:
    """The view ``power``'s orders are checked against: the game's ``order_view`` if it has
    one, else its ``view``."""
    make = getattr(plugin, ORDER_VIEW, None)
    if make is None:
        return plugin.view(state, power)
    return make(state, power)


VIEW = "view"


class ViewCache:
    """``plugin.view(state, power)`` and :func:`order_view` per state object and power, each
    computed once.

    Keyed by the state's identity: the cache holds the state itself beside its views, so the
    identity is not reused while the entry lives, and a state is never changed once made (the
    plugin contract), so its views are not either; they are handed out by reference, to be
    read only. At most ``states`` states are kept, the oldest dropped first. The two kinds are
    kept apart (a game's ``order_view`` is not its ``view``); nothing is shared between
    powers."""

    def __init__(self, states: int = 1) -> None:
        self.states = states
        self._entries: dict[int, tuple[Mapping[str, Any], dict[tuple[str, str | None], Any]]] = {}

    def _of(self, state: Mapping[str, Any]) -> dict[tuple[str, str | None], Any]:
        entry = self._entries.get(id(state))
        if entry is None or entry[0] is not state:
            if len(self._entries) >= self.states:
                del self._entries[next(iter(self._entries))]  # the oldest state
            entry = (state, {})
            self._entries[id(state)] = entry
        return entry[1]

    def holds(self, state: Mapping[str, Any], power: str | None) -> bool:
        """Whether ``power``'s view of this very state object has been made (and is kept)."""
        entry = self._entries.get(id(state))
        return entry is not None and entry[0] is state and (VIEW, power) in entry[1]

    def view(self, plugin: Any, state: Mapping[str, Any], power: str | None) -> Any:
        """``plugin.view(state, power)``, made once per state object and power (the plugin is
        handed a ``dict``, whatever mapping ``state`` is)."""
        made = self._of(state)
        key = (VIEW, power)
        if key not in made:
            made[key] = plugin.view(dict(state), power)
        return made[key]

    def order_view(self, plugin: Any, state: Mapping[str, Any], power: str) -> Any:
        """:func:`order_view`, made once per state object and power (the game's full ``view``,
        from the same cache, where it declares no ``order_view``)."""
        made = self._of(state)
        key = (ORDER_VIEW, power)
        if key not in made:
            make = getattr(plugin, ORDER_VIEW, None)
            made[key] = (self.view(plugin, state, power) if make is None
                         else make(dict(state), power))
        return made[key]

    def viewing(self, plugin: Any) -> Any:
        """``plugin`` with its ``view`` (and ``order_view``, if it has one) answered from this
        cache; every other attribute is the plugin's."""
        return _Viewing(plugin, self)


class _Viewing:
    """A plugin whose views are the cache's; every other attribute is the plugin's."""

    def __init__(self, plugin: Any, cache: ViewCache) -> None:
        self._plugin, self._cache = plugin, cache
        if getattr(plugin, ORDER_VIEW, None) is not None:
            self.order_view = self._order_view

    def view(self, state: dict[str, Any], power: str | None) -> Any:
        return self._cache.view(self._plugin, state, power)

    def _order_view(self, state: dict[str, Any], power: str) -> Any:
        return self._cache.order_view(self._plugin, state, power)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._plugin, name)
