"""Why mail has not gone out, in lines for the game master (``pbem gm status``, ``pbem run``).

The SMTP server's reply is recorded with each message in the outbox (``pending/<id>.json``, the
retry state of a temporary failure that will be retried, ``failed/<id>.json`` for a refusal); an
operator should not have to open those files to learn that the server said "451 try again
later".
"""

from __future__ import annotations

from pbem.mail.outbox import Outbox
from pbem.schedule import to_iso


def lines(outbox: Outbox) -> list[str]:
    """One line per message that is being retried or will not be sent, with the server's reply."""
    out: list[str] = []
    for entry in outbox.pending():
        if not entry.last_error:
            continue
        when = f", next try {to_iso(entry.next_try)}" if entry.next_try else ""
        out.append(f"  deferred: {', '.join(entry.recipients)} (attempt {entry.attempts}{when}): "
                   f"{entry.last_error}")
    for entry in outbox.failed():
        why = entry.reply or entry.last_error or "no reason recorded"
        code = f"{entry.code} " if entry.code and not why.startswith(str(entry.code)) else ""
        out.append(f"  failed: {', '.join(entry.recipients)}: {code}{why}")
    return out
