"""The engine's one view cache (pbem.game.views.ViewCache), which the renderer
(pbem.render.cache) and the audit (pbem.audit._walk) both keep: each view made once per state
object and power, the two kinds kept apart, the oldest state dropped first, and a plugin
handed on with its views answered from the cache. Checked with every installed game's own
plugin and initial state."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.game import registry, views
from pbem.render.cache import RenderCache

GAMES = registry.available()


def _initial(game_id: str) -> tuple[Any, dict[str, Any]]:
    plugin = registry.load(game_id)
    variant = next(iter(plugin.variants()))
    return plugin, plugin.setup(variant, {"game_id": "cache-test"})


@pytest.mark.parametrize("game_id", GAMES)
def test_views_are_made_once_per_state_and_power(game_id: str) -> None:
    plugin, state = _initial(game_id)
    power = plugin.powers_due(state)[0]
    cache = views.ViewCache(2)
    first = cache.view(plugin, state, power)
    assert first == plugin.view(state, power)
    assert cache.view(plugin, state, power) is first
    assert cache.view(plugin, dict(state), power) is not first  # another state object
    checked = cache.order_view(plugin, state, power)
    assert checked == views.order_view(plugin, state, power)
    assert cache.order_view(plugin, state, power) is checked
    if getattr(plugin, views.ORDER_VIEW, None) is None:
        assert checked is first  # no order_view: the order check reads the cached view
    public = cache.view(plugin, state, None)
    assert public == plugin.view(state, None) and public is not first


@pytest.mark.parametrize("game_id", GAMES)
def test_the_oldest_state_is_dropped(game_id: str) -> None:
    plugin, state = _initial(game_id)
    power = plugin.powers_due(state)[0]
    cache = views.ViewCache(1)
    first = cache.view(plugin, state, power)
    other = dict(state)
    cache.view(plugin, other, power)
    assert cache.view(plugin, state, power) is not first  # made again: only one state kept


@pytest.mark.parametrize("game_id", GAMES)
def test_a_plugin_viewing_the_cache(game_id: str) -> None:
    """The renderer hands the order check a plugin whose views are its own (the turn job's
    gather_orders): it has an ``order_view`` only where the game has one."""
    plugin, state = _initial(game_id)
    power = plugin.powers_due(state)[0]
    render = RenderCache()
    viewing = render.plugin_viewing(plugin)
    assert hasattr(viewing, views.ORDER_VIEW) == hasattr(plugin, views.ORDER_VIEW)
    assert viewing.view(state, power) is render.view(plugin, state, power)
    assert views.order_view(viewing, state, power) is views.order_view(viewing, state, power)
    assert viewing.id == plugin.id
