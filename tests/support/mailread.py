"""Mail read exactly as ``email.policy.default`` reads it, each distinct header parsed once.

``policy.default`` parses a header's value again on every ``msg[name]`` and every
``get_content_type``, ``get_body`` and ``iter_attachments`` look-up; a test that reads thousands
of sent mails spends much of its time there, parsing the same few ``Content-Type`` and
``Content-Transfer-Encoding`` lines again and again. ``HEADERS_ONCE`` is ``policy.default`` whose
fetched header objects are kept by (name, value): the same object a fresh parse would give (a
header object is a read-only ``str``), made once per process.
"""

from __future__ import annotations

import email
from email.message import EmailMessage
from email.policy import EmailPolicy
from typing import Any

#: Distinct headers kept at most (a test's mails repeat a few hundred; past this the cache starts
#: again, so a long run's memory stays flat).
LIMIT = 20_000
_PARSED: dict[tuple[str, str], Any] = {}


class HeadersOnce(EmailPolicy):
    """``policy.default`` with each distinct fetched header parsed once per process."""

    def header_fetch_parse(self, name: str, value: str) -> Any:
        if hasattr(value, "name"):
            return value  # already a header object (as policy.default returns it)
        key = (name, value)
        hit = _PARSED.get(key)
        if hit is None:
            if len(_PARSED) >= LIMIT:
                _PARSED.clear()
            hit = _PARSED[key] = super().header_fetch_parse(name, value)
        return hit


HEADERS_ONCE = HeadersOnce()


def read_mail(raw: bytes) -> EmailMessage:
    """``email.message_from_bytes(raw, policy=policy.default)``, with HEADERS_ONCE."""
    msg = email.message_from_bytes(raw, policy=HEADERS_ONCE)
    assert isinstance(msg, EmailMessage)
    return msg
