"""The two ways chance input goes wrong: malformed (``ChanceError``) or not verifying
(``ChanceMismatch``). Both are one plain sentence naming the value and where it came from."""

from __future__ import annotations

from pbem.errors import PbemError


class ChanceError(PbemError):
    """A chance input is malformed: a bad label, a bound below 1, a non-hex value, a bad block."""


class ChanceMismatch(PbemError):
    """A revealed value, a secret or a published draw does not match what it must match."""
