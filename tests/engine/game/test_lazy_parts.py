"""A game's presenter, player's tool and archive hooks may be imported when first used
(pbem.lazy.attribute): judging an order mail then imports none of them. The load-time contract
check (pbem.game.contract) still holds for such a part: it is checked when it is loaded, with
the same words, and a complete one loads as the object itself."""

from __future__ import annotations

import sys

import pytest

from pbem import lazy
from pbem.game import contract, registry
from pbem.game.base import lazy_part


def _plugin_class(module: str) -> type:
    class Plugin:
        presenter = lazy_part(module, "PRESENTER")
        tool = lazy_part(module, "TOOL")
        archive = lazy_part(module)

    return Plugin


def test_a_lazy_part_that_lacks_members_fails_when_loaded(tmp_path, monkeypatch) -> None:
    (tmp_path / "halfgame_parts.py").write_text(
        "class _P:\n    title = 'half'\n    map_kind = 'none'\n\n"
        "PRESENTER = _P()\nTOOL = None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "halfgame_parts", raising=False)
    plugin = _plugin_class("halfgame_parts")()
    missing = contract.missing_parts(plugin, [])
    assert not [m for m in missing if m.startswith(("presenter", "tool", "archive"))], missing
    assert "halfgame_parts" not in sys.modules  # declared: not imported by the check
    with pytest.raises(lazy.PartMissing, match="presenter.welcome"):
        plugin.presenter  # noqa: B018
    assert plugin.tool is None  # a game without a tool
    with pytest.raises(lazy.PartMissing, match="archive hooks"):
        plugin.archive  # noqa: B018


def test_a_real_game_loads_its_tool_when_first_used() -> None:
    plugin = registry.load("4000ad")
    tool = plugin.tool
    assert tool is not None and callable(tool.register_orders)
    assert plugin.tool is tool and type(plugin).tool is tool
    assert callable(plugin.archive.archive_summary)
