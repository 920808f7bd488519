"""Who contributed to which drawing step: one fold over the log's resolve entries, read by every
place that says a contribution is missing (the player's report, ``pbem gm status``, the audit).

A resolve entry that drew records ``random: {referee, players: {power: hex or null}}``: each
power with a place in the step's seed (the powers due, and those the step listened to), null
where the power's value was not in it. ``Contributions`` counts, per power, the drawing steps it
had a place in and those it gave a value to, and keeps the steps without its value as ranges of
consecutive places ("steps 4–15").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Contributions:
    steps: int = 0  # drawing steps so far
    places: dict[str, int] = field(default_factory=dict)
    given: dict[str, int] = field(default_factory=dict)
    missing: dict[str, list[list[int]]] = field(default_factory=dict)  # [[first, last], …]
    last_place: dict[str, int] = field(default_factory=dict)  # the last step with a place

    def add(self, step: int, random: object) -> None:
        """A resolve entry, as the ``step``-th resolution, with its ``random`` field (None or
        absent: it drew nothing)."""
        if not isinstance(random, Mapping):
            return
        self.steps += 1
        players = random.get("players")
        for power, value in (players.items() if isinstance(players, Mapping) else ()):
            self.places[power] = self.places.get(power, 0) + 1
            if isinstance(value, str):
                self.given[power] = self.given.get(power, 0) + 1
            else:
                runs = self.missing.setdefault(power, [])
                if runs and runs[-1][1] == self.last_place.get(power):
                    runs[-1][1] = step
                else:
                    runs.append([step, step])
            self.last_place[power] = step

    def without(self, power: str) -> list[list[int]]:
        """The runs of steps drawn without ``power``'s value."""
        return [list(r) for r in self.missing.get(power, [])]

    def to_data(self) -> dict[str, Any]:
        return {"steps": self.steps, "places": dict(self.places), "given": dict(self.given),
                "missing": {p: [list(r) for r in runs] for p, runs in self.missing.items()},
                "last_place": dict(self.last_place)}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Contributions:
        if not data:
            return cls()
        return cls(int(data["steps"]), dict(data["places"]), dict(data["given"]),
                   {p: [list(r) for r in runs] for p, runs in data["missing"].items()},
                   dict(data["last_place"]))


def steps_text(runs: list[list[int]]) -> str:
    """``step 4``, ``steps 4–15``, ``steps 2, 4–15 and 20``."""
    parts = [f"{a}" if a == b else f"{a}–{b}" for a, b in runs]
    plural = len(runs) > 1 or runs[0][0] != runs[0][1]
    body = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return ("steps " if plural else "step ") + body


def drawn_without(runs: list[list[int]], whose: str) -> str:
    """``steps 4–15 were drawn without red's value`` (``whose``: "red's", "your")."""
    plural = len(runs) > 1 or runs[0][0] != runs[0][1]
    return f"{steps_text(runs)} {'were' if plural else 'was'} drawn without {whose} value"


def audit_line(c: Contributions, power: str) -> str:
    """``red contributed to 3 of 15 drawing steps; steps 4–15 were drawn without red's
    value`` (the audit's words for one power)."""
    text = (f"{power} contributed to {c.given.get(power, 0)} of {c.places.get(power, 0)} "
            "drawing steps")
    runs = c.without(power)
    return text + (f"; {drawn_without(runs, power + chr(39) + 's')}" if runs else "")
