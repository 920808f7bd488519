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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
