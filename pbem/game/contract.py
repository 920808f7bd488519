"""The load-time check of a game against the plugin contract (pbem.game.plugin).

A game that lacks a part of the contract must fail when it is loaded, with one sentence naming
every missing part, rather than when a player first needs that part (a report at turn 7, an
audit, a player's tool command). This checks presence and shape (attributes, callables, the
arity of ``resolve``, the presenter's declared sections, the templates it needs), not behaviour:
behaviour is what tests/engine/game/test_conformance.py checks.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pbem.game.plugin import PRESENTER_REQUIRED, REQUIRED, TOOL_REQUIRED
from pbem.game.presentation import NO_MAP, SECTIONS

#: Templates a game must provide (the common ones come with pbem); ``map.svg`` if it has a map.
GAME_TEMPLATES = ("welcome", "turn_report", "gm_summary", "game_end")
ATTRIBUTES = ("id", "title", "presenter", "tool", "sections", "map_kind")


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
        sections = getattr(presenter, "sections", None)
        if sections is not None and not set(sections) <= SECTIONS:
            out.append("presenter.sections from " + ", ".join(sorted(SECTIONS)) + " (not "
                       + ", ".join(sorted(set(sections) - SECTIONS)) + ")")
        needed = [f"{n}{ext}" for n in GAME_TEMPLATES
                  for ext in (".subject.txt", ".txt", ".html")]
        if getattr(presenter, "map_kind", NO_MAP) != NO_MAP:
            needed.append("map.svg")
        absent = [n for n in needed if not any((d / n).is_file() for d in template_dirs)]
        if absent:
            out.append("templates " + ", ".join(absent))
    tool = getattr(plugin, "tool", None)
    if tool is not None:
        out += _lacking(tool, TOOL_REQUIRED, "tool.")
    return out
