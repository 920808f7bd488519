"""Work measured by counting, not by the clock: how many Python and C function calls a call makes.

A count is deterministic (the same code and input give the same number on any machine, however
loaded), so a test can say "linear, not quadratic" or "the bomb is not expanded" by comparing the
counts of two inputs, where a timing assertion would be flaky on a busy machine.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")


def calls(fn: Callable[[], T]) -> tuple[T, int]:
    """(what ``fn()`` returns, how many function calls it made, Python and C alike)."""
    count = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = fn()
    finally:
        sys.setprofile(previous)
    return result, count
