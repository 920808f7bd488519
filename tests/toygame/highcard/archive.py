"""High Card's archive hook: each public event as the reports word it (the cross-game suite
checks every game's archive for sentences, tests/crossgame)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .present import sentence


def archive_event(event: Mapping[str, Any], view: Mapping[str, Any] | None) -> str:
    return sentence(event)
