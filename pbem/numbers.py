"""Whole numbers as people and files write them: ASCII digits, nothing else.

``str.isdigit()`` is true of ``'²'`` and ``'١'``; ``int()`` refuses the first (a traceback where
a check said "a number") and reads the second as 1, and it also takes ``' 7 '``, ``'+7'`` and
``'1_000'``. Every whole number pbem reads from a command line, a mail or a file it is handed
goes through :func:`digits` (or :func:`whole_arg`, its argparse type), so "is it a number" and
"which number" are one decision.
"""

from __future__ import annotations

import argparse

#: The longest number read (18 digits stay below 2**63): no count, length, index or turn pbem
#: keeps comes near it, and a longer one is refused before int() spends time on it.
MAX_DIGITS = 18


def digits(text: str, *, max_digits: int = MAX_DIGITS) -> int | None:
    """The number ``text`` writes in ASCII digits ``0-9`` only (no sign, space or ``_``), or
    None."""
    if 0 < len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None


def whole_arg(text: str) -> int:
    """argparse ``type=``: a whole number >= 0 in ASCII digits (argparse prints the error)."""
    value = digits(text)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a whole number (digits 0-9, at most {MAX_DIGITS})")
    return value
