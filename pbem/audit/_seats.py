"""The audit of abandoned seats (pbem.host.seats): every ``autopilot`` entry names a power still
in the game and not on autopilot already, records as ``missed`` the due steps that power really
missed in a row (re-counted from the resolutions with the summary's own rule,
pbem.store.summary.fold_missed), and, when the cron job made it (``auto``), at least the
``after`` it cites. A seat leaves autopilot with its player's next accepted order file, a new
key (replace) or a concession, as in ``Summary.on_autopilot``.
"""

from __future__ import annotations

from typing import Any

from pbem.store.summary import AUTOPILOT, fold_missed

Problem = tuple[str, str, str]  # (field, expected, found) for the audit's failure line


class SeatBook:
    """The missed due steps in a row and the seats on autopilot, as the walk reaches them."""

    def __init__(self, powers: list[str]) -> None:
        self.powers = powers
        self.missed: dict[str, dict[str, int]] = {}
        self.autopilot: dict[str, int] = {}
        self.conceded: set[str] = set()

    def resolved(self, body: Any) -> None:
        fold_missed(self.missed, body)

    def back(self, power: str) -> None:
        """``power``'s seat has a player again (his orders, or a new key)."""
        self.autopilot.pop(power, None)

    def gm(self, seq: int, body: Any) -> Problem | None:
        if not isinstance(body, dict):
            return None
        op, power = body.get("op"), str(body.get("power"))
        if op == "concede":
            self.conceded.add(power)
            self.autopilot.pop(power, None)
        if op != AUTOPILOT:
            return None
        if power not in self.powers or power in self.conceded:
            return "power", "a power still in the game", power
        if power in self.autopilot:
            return "power", f"a seat not on autopilot ({power} is since log entry " \
                f"{self.autopilot[power]})", power
        count = self.missed.get(power, {}).get("in_a_row", 0)
        if body.get("missed") != count:
            return "missed", f"{count} (the due steps {power} missed in a row, from the " \
                "resolutions)", f"{body.get('missed')} recorded"
        if body.get("auto"):
            after = body.get("after")
            if type(after) is not int or after < 1 or count < after:
                return "after", f"at most {count} (the cron job acts only after that many " \
                    "missed due steps)", str(after)
        self.autopilot[power] = seq
        return None
