"""Twilight Imperium's core round by mail, on a stand-in component pack (not TI4), as a pbem
game plugin: strategy, action, status and agenda phases over a hex galaxy. STATE.md documents
the state, windows, order file, view and events; RULES.md the rules and rulings."""

from __future__ import annotations

from .plugin import TI4

PLUGIN = TI4()

__all__ = ["PLUGIN"]
