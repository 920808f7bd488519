"""A mail a player saved (``report.eml``) read for what the commands take from it: the texts
that hold the referee's signed checkpoint (the report's text part or its ``checkpoint.txt``)."""

from __future__ import annotations

import email
from email import policy

from pbem.store.checkpoint import TAG


def is_mail(raw: bytes) -> bool:
    """Whether ``raw`` looks like a saved mail (a header name first), not JSON or a bare
    checkpoint."""
    head = raw.lstrip()[:64]
    return head[:1].isalpha() and not head.startswith(TAG.encode()) and b":" in head


def checkpoint_texts(raw: bytes) -> list[str]:
    """Every decoded text part of the mail ``raw`` that holds a checkpoint line, in order."""
    msg = email.message_from_bytes(raw, policy=policy.default)
    out = []
    for part in msg.walk():
        if part.get_content_maintype() != "text":
            continue
        payload = part.get_payload(decode=True)
        text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
        if TAG in text:
            out.append(text)
    return out
