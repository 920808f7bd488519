"""Babylon 5 Component Game System (the Basic Game) as a pbem game plugin: a hex map explored
face down, an economy of bases and upkeep, movement with facings and jumps, fire with Babylon 5
and Defense Grid dice. STATE.md documents the state, view, order file and events."""

from __future__ import annotations

from .plugin import B5CGS

PLUGIN = B5CGS()

__all__ = ["PLUGIN"]
