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


def show_value(value: object, limit: int = 40) -> str:
    """A short, safe description of any value for a problem's message: a string, number or
    yes/no as written (cut at ``limit`` characters with "…"), a list or mapping by its kind,
    anything else by its type; never ``str`` of a huge integer (Python refuses to print one of
    over 4,300 digits: issue 11, the poison order)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, (str, int, float, bool)) or value is None:
        text = repr(value)
        return text if len(text) <= limit else text[: limit - 1] + "…"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"


class Rejected(PbemError):
    """An input was rejected whole; carries every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))
