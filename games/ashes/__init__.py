"""The Ashes of Empire (card game) as a pbem game plugin: deck data, rules core, views."""

from __future__ import annotations

from .plugin import Ashes

PLUGIN = Ashes()

__all__ = ["PLUGIN"]
