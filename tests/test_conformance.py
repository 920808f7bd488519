"""The conformance test every game plugin must pass, through the GamePlugin interface only
(nothing here knows 4000 A.D.): set-up of every variant, standing orders round after round,
determinism to the byte, JSON round trips, views that never carry another power's secrets,
an ending by agreement, and order checking that rejects nonsense with paths."""

from __future__ import annotations

import json

import pytest

from pbem import canonical
from pbem.game import registry
from pbem.game.plugin import GamePlugin

CASES = [(gid, variant) for gid in registry.available()
         for variant in registry.load(gid).variants()]


@pytest.mark.parametrize("game_id,variant", CASES)
def test_plugin_conformance(game_id: str, variant: str) -> None:
    plugin: GamePlugin = registry.load(game_id)
    options = {"game_id": "conformance"}
    state = plugin.setup(variant, options)
    assert canonical.encode(plugin.setup(variant, options)) == canonical.encode(state)
    assert json.loads(json.dumps(state)) == state
    powers = list(plugin.variants()[variant].powers)
    for _ in range(12):
        if plugin.is_over(state):
            break
        due = plugin.powers_due(state)
        assert due and set(due) <= set(powers)
        orders = {}
        for power in due:
            view = plugin.view(state, power)
            norm, problems = plugin.normalize_orders({}, view)
            assert problems == [], problems
            orders[power] = norm
            standing, _ = plugin.nmr_orders(state, power, None)
            assert canonical.encode(standing) == canonical.encode(plugin.default_orders(state,
                                                                                        power))
        before = canonical.encode(state)
        first = plugin.resolve(state, orders)
        again = plugin.resolve(json.loads(before), json.loads(json.dumps(orders)))
        assert canonical.encode(state) == before, "resolve must not change its input"
        assert canonical.encode(first.state) == canonical.encode(again.state)
        assert canonical.encode(first.events) == canonical.encode(again.events)
        state = first.state
        for power in powers:
            shown = canonical.dumps(plugin.view(state, power))
            shown += canonical.dumps(plugin.view_events(first.events, power))
            for other in powers:
                if other != power:
                    for secret in plugin.secrets(state, other):
                        own = plugin.secrets(state, power)
                        assert secret in own or secret not in shown, (power, other, secret)
        public = canonical.dumps(plugin.view(state, None))
        for power in powers:
            for secret in plugin.secrets(state, power):
                assert secret not in public
    ended = plugin.end_game(state, "conformance")
    assert plugin.is_over(ended.state) and plugin.powers_due(ended.state) == []
    _, problems = plugin.normalize_orders({"no such order": 1},
                                          plugin.view(state, plugin.powers_due(state)[0]
                                                      if plugin.powers_due(state) else powers[0]))
    assert problems and all(p.message for p in problems)
