"""The load-time check of a game against the plugin contract (pbem.game.plugin).

A game that lacks a part of the contract must fail when it is loaded, with one sentence naming
every missing part, rather than when a player first needs that part (a report at turn 7, an
audit, a player's tool command). This checks presence and shape (attributes, callables, the
arity of ``resolve``, the archive hooks it declares, the map template a game with a map needs),
not behaviour: behaviour is what tests/engine/game/test_conformance.py checks. A game needs no
template of its own: ``templates/common/`` has a generic one for every mail
(pbem.game.base.Presenter's contexts).

A part a game imports when first used (``presenter``, ``tool`` or ``archive`` given as a
pbem.lazy.attribute, so that judging an order mail imports no player's tool) is checked when it
is loaded: loading it raises :class:`pbem.lazy.PartMissing` with the same words.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pbem import lazy
from pbem.game.base import unwritten
from pbem.game.plugin import ARCHIVE_HOOKS, PRESENTER_REQUIRED, REQUIRED, TOOL_REQUIRED
from pbem.game.presentation import NO_MAP

ATTRIBUTES = ("id", "title", "presenter", "tool", "map_kind")


LAZY_PARTS = ("presenter", "archive", "tool")


def _unloaded(obj: object, name: str) -> lazy.attribute[Any] | None:
    found = inspect.getattr_static(obj, name, None)
    return found if isinstance(found, lazy.attribute) and not found.loaded else None


def _lacking(obj: object, names: Sequence[str], prefix: str) -> list[str]:
    out = []
    for name in names:
        if _unloaded(obj, name) is not None:
            continue  # declared; checked when loaded (missing_parts)
        value = getattr(obj, name, None)
        if value is None and not (name == "tool" and hasattr(obj, "tool")):
            out.append(prefix + name)
        elif name not in ATTRIBUTES and not callable(value):
            out.append(f"{prefix}{name} (not callable)")
    return out


def missing_parts(plugin: object, template_dirs: Sequence[Path]) -> list[str]:
    """Every part of the contract ``plugin`` lacks, in words ([] if it is complete)."""
    out = _lacking(plugin, REQUIRED, "") + unwritten(plugin)
    resolve = getattr(plugin, "resolve", None)
    if callable(resolve):
        try:
            params = list(inspect.signature(resolve).parameters.values())
        except (TypeError, ValueError):
            params = []
        if params and len(params) < 3 and not any(p.kind is p.VAR_POSITIONAL for p in params):
            out.append("resolve(state, orders, chance) (it takes no chance)")
    for name in LAZY_PARTS:
        part = _unloaded(plugin, name)
        if part is None:
            out += _part_missing(name, getattr(plugin, name, None), template_dirs)
        else:
            part.check = lambda value, name=name: _part_missing(name, value, template_dirs)
    return out


def _part_missing(name: str, value: object, template_dirs: Sequence[Path]) -> list[str]:
    """What the presenter, the archive hooks or the tool (``name``, loaded as ``value``) lack."""
    out: list[str] = []
    presenter = value if name == "presenter" else None
    if presenter is not None:
        out += _lacking(presenter, PRESENTER_REQUIRED, "presenter.")
        if getattr(presenter, "map_kind", NO_MAP) != NO_MAP and not any(
                (d / "map.svg").is_file() for d in template_dirs):
            out.append("templates map.svg (its map_kind is "
                       f"{getattr(presenter, 'map_kind', NO_MAP)!r})")
    archive = value if name == "archive" else None
    if archive is not None:
        given = [n for n in ARCHIVE_HOOKS if getattr(archive, n, None) is not None]
        out += [f"archive.{n} (not callable)" for n in given
                if not callable(getattr(archive, n))]
        if not given:
            out.append("archive hooks (PLUGIN.archive defines none of "
                       + ", ".join(ARCHIVE_HOOKS) + "; leave it None for the defaults)")
    tool = value if name == "tool" else None
    if tool is not None:
        out += _lacking(tool, TOOL_REQUIRED, "tool.")
    return out
