"""One message of the outbox as recorded on disk (:class:`Entry`), the retry schedule
(:class:`Backoff`), what a delivery run did (:class:`DeliveryReport`), and the envelope a message
is queued with (:func:`prepare`)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from pathlib import Path
from typing import Any

from pbem.mail.compose import Wire
from pbem.mail.outbox_batch import Batch
from pbem.record import Mutable, Record


class Backoff(Record):
    """Exponential backoff: ``first`` × ``factor`` ^ (attempts − 1), at most ``maximum``.

    With the defaults a message is retried after 1, 2, 4 … minutes, then every 6 hours, and
    given up (moved to failed/) after 16 attempts, about two days.
    """

    __slots__ = ("first", "factor", "maximum", "max_attempts")
    first: timedelta
    factor: float
    maximum: timedelta
    max_attempts: int

    def __init__(self,
                 first: timedelta = timedelta(minutes=1), factor: float = 2.0,
                 maximum: timedelta = timedelta(hours=6), max_attempts: int = 16) -> None:
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "factor", factor)
        object.__setattr__(self, "maximum", maximum)
        object.__setattr__(self, "max_attempts", max_attempts)

    def delay(self, attempts: int) -> timedelta:
        """Wait after the ``attempts``-th failed attempt (attempts ≥ 1)."""
        exponent = max(attempts - 1, 0)
        seconds = self.first.total_seconds() * self.factor ** min(exponent, 60)
        return timedelta(seconds=min(seconds, self.maximum.total_seconds()))


class Entry(Record):
    """One message in the outbox, as recorded on disk."""

    __slots__ = ("id", "state", "path", "sender", "recipients", "message_id", "attempts",
                 "next_try", "last_error", "reply", "code", "record", "batch")
    id: str
    state: str  # "pending" | "sent" | "failed"
    path: Path
    sender: str
    recipients: tuple[str, ...]
    message_id: str | None
    attempts: int
    next_try: datetime | None
    #: Pending: the last temporary failure.
    last_error: str | None
    #: Sent: the server's acceptance; failed: why it will not be sent (the server's reply).
    reply: str | None
    #: Failed: the SMTP code when there was one.
    code: int | None
    record: dict[str, Any]
    #: A message queued by ``queue_many``: the batch file that holds its bytes.
    batch: Path | None

    def __init__(self, id: str, state: str, path: Path, sender: str, recipients: tuple[str, ...],
                 message_id: str | None, attempts: int = 0, next_try: datetime | None = None,
                 last_error: str | None = None, reply: str | None = None, code: int | None = None,
                 record: dict[str, Any] | None = None, batch: Path | None = None) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "state", state)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "sender", sender)
        object.__setattr__(self, "recipients", recipients)
        object.__setattr__(self, "message_id", message_id)
        object.__setattr__(self, "attempts", attempts)
        object.__setattr__(self, "next_try", next_try)
        object.__setattr__(self, "last_error", last_error)
        object.__setattr__(self, "reply", reply)
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "record", {} if record is None else record)
        object.__setattr__(self, "batch", batch)

    def raw(self) -> bytes:
        """The exact bytes that are (or were) sent."""
        if self.batch is None:
            return self.path.read_bytes()
        return Batch.read(self.batch).raw(self.id)


class DeliveryReport(Mutable):
    """What one ``deliver`` run did, by message id."""

    __slots__ = ("sent", "deferred", "failed", "waiting", "refused")
    _fields = ("sent", "deferred", "failed", "waiting", "refused")
    sent: list[str]
    deferred: list[str]
    failed: list[str]
    #: Pending but not due yet.
    waiting: list[str]
    #: Sent, but the server refused some recipients: id -> {address: "code reply"}.
    refused: dict[str, dict[str, str]]

    def __init__(self, sent: list[str] | None = None, deferred: list[str] | None = None,
                 failed: list[str] | None = None, waiting: list[str] | None = None,
                 refused: dict[str, dict[str, str]] | None = None) -> None:
        self.sent = [] if sent is None else sent
        self.deferred = [] if deferred is None else deferred
        self.failed = [] if failed is None else failed
        self.waiting = [] if waiting is None else waiting
        self.refused = {} if refused is None else refused


#: Called at each step of a delivery with (stage, id); raising from it simulates a crash there.
#: Stages: "before-send", "accepted" (the server took it, nothing recorded yet), "recorded".
#: ``queue_many`` calls it with "batch-written" (the batch is fsynced under a temporary name)
#: and "batch-keyed" (the key is durable, the batch not yet renamed into pending/), and the
#: batch id.
StageHook = Callable[[str, str], None]


def prepare(
    msg: EmailMessage | Wire | bytes, sender: str | None, recipients: Iterable[str] | None
) -> tuple[bytes, str, list[str], str | None]:
    """(wire bytes, envelope sender, envelope recipients, Message-ID) for a message to queue."""
    if isinstance(msg, Wire):  # composed as bytes, envelope known: nothing to parse
        rcpts = list(dict.fromkeys(msg.recipients if recipients is None else recipients))
        if not rcpts:
            raise ValueError("a queued message needs at least one recipient")
        return msg.raw, sender or msg.sender, rcpts, msg.message_id
    bcc: list[str] = []
    if isinstance(msg, bytes):
        raw = msg
    else:
        bcc = [str(v) for v in msg.get_all("Bcc", [])]
        if bcc:
            msg = copy.deepcopy(msg)
            del msg["Bcc"]
        raw = msg.as_bytes(policy=policy.SMTP)
    headers = BytesHeaderParser(policy=policy.compat32).parsebytes(raw)

    def get_all(name: str) -> list[str]:
        return [str(v) for v in headers.get_all(name, [])]

    message_ids = get_all("Message-ID")
    if not message_ids:
        raise ValueError("a queued message needs a Message-ID (compose() sets one)")
    if sender is None:
        froms = [a for _, a in getaddresses(get_all("From")) if a]
        if len(froms) != 1:
            raise ValueError("a queued message needs one From address or an explicit sender")
        sender = froms[0]
    if recipients is None:
        listed = get_all("To") + get_all("Cc") + bcc + get_all("Bcc")
        recipients = [a for _, a in getaddresses(listed) if a]
    rcpts = list(dict.fromkeys(recipients))
    if not rcpts:
        raise ValueError("a queued message needs at least one recipient")
    return raw, sender, rcpts, message_ids[0].strip()


def pending_entry(ident: str, path: Path, state: dict[str, Any], *,
             batch: Path | None = None) -> Entry:
    """A pending message's Entry from its recorded retry state."""
    next_try = state.get("next_try")
    return Entry(
        id=ident,
        state="pending",
        path=path,
        sender=state["sender"],
        recipients=tuple(state["recipients"]),
        message_id=state.get("message_id"),
        attempts=int(state.get("attempts", 0)),
        next_try=datetime.fromisoformat(next_try) if next_try else None,
        last_error=state.get("last_error"),
        record=state,
        batch=batch,
    )


def finished_entry(ident: str, state: str, path: Path, record: dict[str, Any],
                   batch: Path | None = None) -> Entry:
    """A sent or failed message's Entry from its outcome record."""
    return Entry(
        id=ident,
        state=state,
        path=path,
        sender=record.get("sender", ""),
        recipients=tuple(record.get("recipients", ())),
        message_id=record.get("message_id"),
        attempts=int(record.get("attempts", 0)),
        last_error=record.get("last_error"),
        reply=record.get("reply"),
        code=record.get("code"),
        record=record,
        batch=batch,
    )



def queued_record(ident: str, msg: EmailMessage | Wire | bytes, key: str | None,
                  sender: str | None = None,
                  recipients: Iterable[str] | None = None) -> tuple[dict[str, Any], bytes]:
    """(record, bytes) of a message as queued, a member of its batch (in the batch's header):
    the one definition of what a queued message records."""
    raw, env_sender, env_recipients, message_id = prepare(msg, sender, recipients)
    return {"id": ident, "sender": env_sender, "recipients": env_recipients,
            "message_id": message_id, "key": key}, raw


def sent_record(entry: Entry, now: datetime, reply: str,
                refused: dict[str, str]) -> dict[str, Any]:
    """What a message accepted by the server records in its batch (one line appended to the
    batch file)."""
    return {"id": entry.id, "sent_at": now.isoformat(), "attempts": entry.attempts + 1,
            "reply": reply, "refused": refused}
