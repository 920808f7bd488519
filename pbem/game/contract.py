"""The load-time check of a game against the plugin contract (pbem.game.plugin).

A game that lacks a part of the contract must fail when it is loaded, with one sentence naming
every missing part, rather than when a player first needs that part (a report at turn 7, an
audit, a player's tool command). This checks presence and shape (attributes, callables, the
arity of ``resolve``, the archive hooks it declares, the map template a game with a map needs),
not behaviour: behaviour is what tests/engine/game/test_conformance.py checks. A game needs no
template of its own: ``templates/common/`` has a generic one for every mail
(pbem.game.base.Presenter's contexts).
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pbem.game.plugin import ARCHIVE_HOOKS, PRESENTER_REQUIRED, REQUIRED, TOOL_REQUIRED
from pbem.game.presentation import NO_MAP

ATTRIBUTES = ("id", "title", "presenter", "tool", "map_kind")


def _lacking(obj: Any, names: Sequence[str], prefix: str) -> list[str]:
    out = []
    for name in names:
        value = getattr(obj, name, None)
        if value is None and not (name == "tool" and hasattr(obj, "tool")):
            out.append(prefix + name)
        elif name not in ATTRIBUTES and not callable(value):
            out.append(f"{prefix}{name} (not callable)")
    return out


def missing_parts(plugin: Any, template_dirs: Sequence[Path]) -> list[str]:
    """Every part of the contract ``plugin`` lacks, in words ([] if it is complete)."""
    out = _lacking(plugin, REQUIRED, "")
    resolve = getattr(plugin, "resolve", None)
    if callable(resolve):
        try:
            params = list(inspect.signature(resolve).parameters.values())
        except (TypeError, ValueError):
            params = []
        if params and len(params) < 3 and not any(p.kind is p.VAR_POSITIONAL for p in params):
            out.append("resolve(state, orders, chance) (it takes no chance)")
    presenter = getattr(plugin, "presenter", None)
    if presenter is not None:
        out += _lacking(presenter, PRESENTER_REQUIRED, "presenter.")
        if getattr(presenter, "map_kind", NO_MAP) != NO_MAP and not any(
                (d / "map.svg").is_file() for d in template_dirs):
            out.append("templates map.svg (its map_kind is "
                       f"{getattr(presenter, 'map_kind', NO_MAP)!r})")
    archive = getattr(plugin, "archive", None)
    if archive is not None:
        given = [n for n in ARCHIVE_HOOKS if getattr(archive, n, None) is not None]
        out += [f"archive.{n} (not callable)" for n in given
                if not callable(getattr(archive, n))]
        if not given:
            out.append("archive hooks (PLUGIN.archive defines none of "
                       + ", ".join(ARCHIVE_HOOKS) + "; leave it None for the defaults)")
    tool = getattr(plugin, "tool", None)
    if tool is not None:
        out += _lacking(tool, TOOL_REQUIRED, "tool.")
    return out
