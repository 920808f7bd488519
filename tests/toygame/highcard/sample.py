"""Random legal play of High Card (the ``sample_orders`` hook, docs/plugins.md): a random card
of the viewer's hand, now and then nothing (its lowest card as standing orders)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any


def sample_orders(view: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """``{play: CARD}`` from the hand, ``{}`` in the set-up step (it commits the chance
    only), None once the viewer has nothing to play."""
    if view.get("result") is not None or view.get("viewer") not in view.get("due", []):
        return None
    if view.get("phase") == "setup":
        return {}
    hand = list(view.get("hand") or [])
    if not hand:
        return None
    return {} if rng.random() < 0.1 else {"play": rng.choice(hand)}
