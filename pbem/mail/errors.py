"""Errors of the mail layer, split by what the caller should do about them.

- :class:`TransientMailError`: try again later (a server is down, a timeout). ``pbem ingest``
  reading from an MTA pipe exits with :data:`EX_TEMPFAIL` so the MTA keeps the message and retries.
- :class:`MailConfigError`: the configuration is wrong (bad password, plaintext login to a remote
  host, unreadable credentials file); retrying will not help until a person fixes it.
- :class:`MessageRefused` (and its :class:`MessageTooBig`): one message is refused whole (over a
  size or structure cap, or the parser gave up); it is quarantined, not retried.
"""

from __future__ import annotations

from pbem.errors import PbemError, Problem

#: sysexits.h EX_TEMPFAIL: an MTA delivering through a pipe keeps the message and retries later.
EX_TEMPFAIL = 75


class MailError(PbemError):
    """Base of the mail layer's errors."""


class TransientMailError(MailError):
    """A temporary failure: the same operation may succeed later (exit 75 in an MTA pipe)."""

    exit_code = EX_TEMPFAIL


class MailConfigError(MailError):
    """The mail configuration is wrong; a person must fix it before retrying makes sense."""


class MessageRefused(MailError):
    """A message cannot be read at all; carries the :class:`Problem` saying why."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        super().__init__(str(problem))


class MessageTooBig(MessageRefused):
    """A message or its structure is over a cap (size, number of parts, nesting)."""
