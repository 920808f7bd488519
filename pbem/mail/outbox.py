"""The transactional outbox: a message is on disk before any attempt to send it, and marked sent
only after the server accepted it.

Layout under the outbox directory::

    pending/<id>.eml   the exact bytes that will be sent (with their Message-ID)
    pending/<id>.json  envelope, attempts, next try, last error
    sent/<id>.eml      ... moved here after acceptance, with sent/<id>.json (the server's reply)
    failed/<id>.eml    ... or here after a 5xx / giving up, with failed/<id>.json (the reason)
    keys/<sha256>      idempotency key -> id (``queue(msg, key=...)``)

Crash safety. ``queue`` writes the key, the state and then the bytes, each durably; a message is
pending once its .eml exists. ``deliver`` writes ``sent/<id>.json`` right after the server accepted
the message, then moves the .eml; a crash after that record finishes the move on the next run
without sending. The only crash that resends is one between the server's acceptance and that record
— and the resend is the same file: byte-identical, same Message-ID, so the receiving side can drop
the duplicate.

Retry. A :class:`~pbem.mail.transports.TemporaryFailure` (4xx, refused connection, timeout) keeps
the message pending with ``next_try = now + backoff(attempts)``; after ``max_attempts`` it goes to
failed/. The caller passes ``now``; nothing here reads a clock, except that ids begin with the
wall-clock time so they sort in queueing order.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import os
import re
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from pathlib import Path
from typing import Any

from pbem.mail import _files
from pbem.mail.errors import MailConfigError
from pbem.mail.transports import PermanentFailure, TemporaryFailure, Transport

_ID = re.compile(r"^[0-9]{20}-[0-9a-f]{8}$")


@dataclass(frozen=True, slots=True)
class Backoff:
    """Exponential backoff: ``first`` × ``factor`` ^ (attempts − 1), at most ``maximum``.

    With the defaults a message is retried after 1, 2, 4 … minutes, then every 6 hours, and
    given up (moved to failed/) after 16 attempts, about two days.
    """

    first: timedelta = timedelta(minutes=1)
    factor: float = 2.0
    maximum: timedelta = timedelta(hours=6)
    max_attempts: int = 16

    def delay(self, attempts: int) -> timedelta:
        """Wait after the ``attempts``-th failed attempt (attempts ≥ 1)."""
        exponent = max(attempts - 1, 0)
        seconds = self.first.total_seconds() * self.factor ** min(exponent, 60)
        return timedelta(seconds=min(seconds, self.maximum.total_seconds()))


@dataclass(frozen=True, slots=True)
class Entry:
    """One message in the outbox, as recorded on disk."""

    id: str
    state: str  # "pending" | "sent" | "failed"
    path: Path
    sender: str
    recipients: tuple[str, ...]
    message_id: str | None
    attempts: int = 0
    next_try: datetime | None = None
    #: Pending: the last temporary failure.
    last_error: str | None = None
    #: Sent: the server's acceptance; failed: why it will not be sent (the server's reply).
    reply: str | None = None
    #: Failed: the SMTP code when there was one.
    code: int | None = None
    record: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class DeliveryReport:
    """What one ``deliver`` run did, by message id."""

    sent: list[str] = field(default_factory=list)
    deferred: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    #: Pending but not due yet.
    waiting: list[str] = field(default_factory=list)
    #: Sent, but the server refused some recipients: id -> {address: "code reply"}.
    refused: dict[str, dict[str, str]] = field(default_factory=dict)


#: Called at each step of a delivery with (stage, id); raising from it simulates a crash there.
#: Stages: "before-send", "accepted" (the server took it, nothing recorded yet), "recorded".
StageHook = Callable[[str, str], None]


class Outbox:
    """The outbox under ``directory`` (e.g. ROOT/outbox)."""

    def __init__(self, directory: Path | str, *, backoff: Backoff | None = None) -> None:
        self.directory = Path(directory)
        self.backoff = backoff or Backoff()
        self.pending_dir = self.directory / "pending"
        self.sent_dir = self.directory / "sent"
        self.failed_dir = self.directory / "failed"
        self.keys_dir = self.directory / "keys"
        for d in (self.pending_dir, self.sent_dir, self.failed_dir, self.keys_dir):
            d.mkdir(parents=True, exist_ok=True)

    # -- queueing -----------------------------------------------------------------------------

    def queue(
        self,
        msg: EmailMessage | bytes,
        *,
        sender: str | None = None,
        recipients: Iterable[str] | None = None,
        key: str | None = None,
    ) -> str:
        """Store ``msg`` durably as pending and return its id; nothing is sent here.

        The envelope defaults to the From address and the To/Cc/Bcc addresses (Bcc is removed
        from the stored bytes). ``key`` makes queueing idempotent: a second call with the same key
        returns the first id and queues nothing (use e.g. ``"receipt:" + inbox sha256`` so a
        rerun after a crash does not send a second receipt).
        """
        key_path = self.keys_dir / hashlib.sha256(key.encode()).hexdigest() if key else None
        if key_path is not None and key_path.exists():
            existing = key_path.read_text(encoding="ascii").strip()
            if _ID.match(existing) and self.state(existing) is not None:
                return existing
        raw, env_sender, env_recipients, message_id = _prepare(msg, sender, recipients)
        ident = f"{time.time_ns():020d}-{secrets.token_hex(4)}"
        if key_path is not None:
            _files.write_durably(key_path, (ident + "\n").encode("ascii"))
        state = {
            "id": ident,
            "sender": env_sender,
            "recipients": env_recipients,
            "message_id": message_id,
            "attempts": 0,
            "next_try": None,
            "last_error": None,
            "key": key,
        }
        _files.write_json(self.pending_dir / f"{ident}.json", state, sync_dir=False)
        _files.write_durably(self.pending_dir / f"{ident}.eml", raw, mode=0o600)
        return ident

    # -- looking -------------------------------------------------------------------------------

    def state(self, ident: str) -> str | None:
        """ "pending", "sent", "failed", or None for an unknown id."""
        if (self.sent_dir / f"{ident}.json").exists():
            return "sent"
        if (self.failed_dir / f"{ident}.json").exists():
            return "failed"
        if (self.pending_dir / f"{ident}.eml").exists():
            return "pending"
        return None

    def raw(self, ident: str) -> bytes:
        """The stored bytes of a message, wherever it is now."""
        for d in (self.pending_dir, self.sent_dir, self.failed_dir):
            with contextlib.suppress(FileNotFoundError):
                return (d / f"{ident}.eml").read_bytes()
        raise KeyError(ident)

    def pending(self) -> list[Entry]:
        """Messages not yet accepted, in queueing order."""
        entries = []
        for path in sorted(self.pending_dir.glob("*.eml")):
            ident = path.stem
            if not _ID.match(ident):
                continue
            entries.append(self._pending_entry(ident, path))
        return entries

    def failed(self) -> list[Entry]:
        """Messages that will not be sent, with the server's reply: for the game master."""
        return self._finished(self.failed_dir, "failed")

    def sent(self) -> list[Entry]:
        return self._finished(self.sent_dir, "sent")

    def _finished(self, directory: Path, state: str) -> list[Entry]:
        entries = []
        for path in sorted(directory.glob("*.json")):
            record = _files.read_json(path)
            entries.append(
                Entry(
                    id=path.stem,
                    state=state,
                    path=directory / f"{path.stem}.eml",
                    sender=record.get("sender", ""),
                    recipients=tuple(record.get("recipients", ())),
                    message_id=record.get("message_id"),
                    attempts=int(record.get("attempts", 0)),
                    last_error=record.get("last_error"),
                    reply=record.get("reply"),
                    code=record.get("code"),
                    record=record,
                )
            )
        return entries

    def _pending_entry(self, ident: str, path: Path) -> Entry:
        try:
            state = _files.read_json(self.pending_dir / f"{ident}.json")
        except (FileNotFoundError, ValueError):
            # The state file is written before the .eml, so this is only a hand-made entry:
            # rebuild the envelope from the headers.
            _, sender, recipients, message_id = _prepare(path.read_bytes(), None, None)
            state = {"sender": sender, "recipients": recipients, "message_id": message_id}
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
        )

    # -- delivering ----------------------------------------------------------------------------

    def deliver(
        self,
        transport: Transport,
        now: datetime,
        *,
        limit: int | None = None,
        on_stage: StageHook | None = None,
    ) -> DeliveryReport:
        """Send every pending message that is due at ``now``; record each outcome durably.

        Raises :class:`MailConfigError` (e.g. a refused SMTP login) with every message still
        pending and no attempt counted. ``on_stage`` is for tests: see :data:`StageHook`.
        """
        if now.tzinfo is None:
            raise ValueError("deliver() needs a timezone-aware now")
        report = DeliveryReport()
        self._finish_interrupted()
        hook = on_stage or (lambda stage, ident: None)
        for entry in self.pending():
            if entry.next_try is not None and entry.next_try > now:
                report.waiting.append(entry.id)
                continue
            if limit is not None and len(report.sent) + len(report.deferred) >= limit:
                report.waiting.append(entry.id)
                continue
            raw = entry.path.read_bytes()
            hook("before-send", entry.id)
            try:
                accepted = transport.send(raw, entry.sender, entry.recipients)
            except MailConfigError:
                raise
            except PermanentFailure as exc:
                self._fail(entry, now, exc.reply, exc.code)
                report.failed.append(entry.id)
                continue
            except TemporaryFailure as exc:
                if self._defer(entry, now, exc.reply, exc.code):
                    report.deferred.append(entry.id)
                else:
                    report.failed.append(entry.id)
                continue
            hook("accepted", entry.id)
            refused = {a: f"{c} {t}" for a, (c, t) in accepted.refused.items()}
            record = {
                **entry.record,
                "id": entry.id,
                "sent_at": now.isoformat(),
                "attempts": entry.attempts + 1,
                "reply": accepted.reply,
                "refused": refused,
            }
            _files.write_json(self.sent_dir / f"{entry.id}.json", record)
            hook("recorded", entry.id)
            self._move(entry.id, self.sent_dir)
            report.sent.append(entry.id)
            if refused:
                report.refused[entry.id] = refused
        return report

    def _defer(self, entry: Entry, now: datetime, reply: str, code: int | None) -> bool:
        """Count a temporary failure; False if that was the last allowed attempt (now failed)."""
        attempts = entry.attempts + 1
        error = f"{code} {reply}" if code else reply
        if attempts >= self.backoff.max_attempts:
            self._fail(entry, now, f"gave up after {attempts} attempts; last: {error}", code)
            return False
        state = {
            **entry.record,
            "attempts": attempts,
            "next_try": (now + self.backoff.delay(attempts)).isoformat(),
            "last_error": error,
            "last_try": now.isoformat(),
        }
        _files.write_json(self.pending_dir / f"{entry.id}.json", state)
        return True

    def _fail(self, entry: Entry, now: datetime, reply: str, code: int | None) -> None:
        record = {
            **entry.record,
            "id": entry.id,
            "failed_at": now.isoformat(),
            "attempts": entry.attempts + 1,
            "code": code,
            "reply": reply,
        }
        _files.write_json(self.failed_dir / f"{entry.id}.json", record)
        self._move(entry.id, self.failed_dir)

    def _move(self, ident: str, target: Path) -> None:
        """Move the .eml of a recorded message out of pending/ and drop its pending state.

        No fsync: the outcome record is already durable, and a move lost in a crash is finished
        by :meth:`_finish_interrupted` on the next run (never resent).
        """
        source = self.pending_dir / f"{ident}.eml"
        if source.exists():
            os.replace(source, target / f"{ident}.eml")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.pending_dir / f"{ident}.json")

    def _finish_interrupted(self) -> None:
        """Complete moves that a crash interrupted after the outcome was recorded."""
        for path in list(self.pending_dir.glob("*.eml")) + list(self.pending_dir.glob("*.json")):
            ident = path.stem
            if (self.sent_dir / f"{ident}.json").exists():
                self._move(ident, self.sent_dir)
            elif (self.failed_dir / f"{ident}.json").exists():
                self._move(ident, self.failed_dir)

    def retry_failed(self, ident: str) -> None:
        """Put a failed message back in pending/ (after the game master fixed the cause)."""
        record = _files.read_json(self.failed_dir / f"{ident}.json")
        state = {k: record.get(k) for k in ("sender", "recipients", "message_id", "key")}
        state.update(id=ident, attempts=0, next_try=None, last_error=None)
        _files.write_json(self.pending_dir / f"{ident}.json", state)
        _files.move_durably(self.failed_dir / f"{ident}.eml", self.pending_dir / f"{ident}.eml")
        os.unlink(self.failed_dir / f"{ident}.json")


def _prepare(
    msg: EmailMessage | bytes, sender: str | None, recipients: Iterable[str] | None
) -> tuple[bytes, str, list[str], str | None]:
    """(wire bytes, envelope sender, envelope recipients, Message-ID) for a message to queue."""
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
