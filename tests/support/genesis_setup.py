"""Set-up options for tests that re-make a game's initial state from its genesis entry by hand:
the recorded options, rules version and (for games on the stand-in pack) the default pack."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.game import registry, versions


def setup_options(genesis: Mapping[str, Any]) -> dict[str, Any]:
    pack = versions.default_components(registry.load(genesis["plugin"]))
    data = pack[1] if pack is not None and versions.COMPONENTS_KEY in genesis else None
    return versions.setup_options(genesis, data)
