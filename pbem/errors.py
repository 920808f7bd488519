"""The one error root of pbem, and the Problem record used for every rejection.

Every error a user can cause is a PbemError subclass whose message is a plain sentence naming the
problem and where it is. The CLI catches PbemError once and prints that sentence.
"""

from __future__ import annotations

from dataclasses import dataclass


class PbemError(Exception):
    """Base of every error pbem reports to a user."""


class UsageError(PbemError):
    """A command was called with arguments that do not fit."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason an input is rejected: a stable code, the field path and a plain sentence."""

    code: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


def show_value(value: object) -> str:
    """A short, safe description of any value for a problem's message: a string, number or
    yes/no as written (cut at 40 characters), anything else by its kind; never ``repr`` of a
    huge integer (Python refuses to print one of over 4,300 digits)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**12:
        return "a number too large"
    if isinstance(value, (str, int, float, bool)) or value is None:
        return repr(value)[:40]
    return f"a {type(value).__name__}"


class Rejected(PbemError):
    """An input was rejected whole; carries every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))
