"""Where incoming mail comes from: one message on stdin, a Maildir, an mbox file (IMAP: imap.py).

Every source has the same two-step protocol so a crash between fetch and store never loses mail::

    for incoming in source.messages():
        stored = inbox.store(incoming.raw)   # durable first
        ...act, inbox.done(...)...
        source.ack(incoming.id)              # only now does the source forget it

``ack`` is what makes a source not hand the message out again: Maildir moves it to cur/ with the
``S`` flag, mbox records its id in a state file (the user's mbox is never rewritten), IMAP moves or
flags it. A message that was never acked is delivered again on the next run; the inbox recognises
it (``Stored.handled``), so acking a duplicate is the right thing to do.

Every source caps what it reads (``max_bytes``, 32 MiB by default, three times the parse cap): a
longer message is handed out truncated with ``truncated=True``; its size puts it over the parse cap
so it ends up in quarantine, and the original stays where it was.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import BinaryIO, Protocol

from pbem.mail import _files
from pbem.mail.errors import MailConfigError, TransientMailError
from pbem.record import Record

DEFAULT_MAX_BYTES = 32 * 1024 * 1024


class Incoming(Record):
    """One message from a source: an id stable across runs, and its raw bytes."""

    __slots__ = ("id", "raw", "truncated")
    id: str
    raw: bytes
    #: True when the message was longer than the source's ``max_bytes`` and was cut there.
    truncated: bool

    def __init__(self, id: str, raw: bytes, truncated: bool = False) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "raw", raw)
        object.__setattr__(self, "truncated", truncated)


class Source(Protocol):
    """What ingest needs from any mail source."""

    def messages(self) -> Iterator[Incoming]:
        """Every message not acknowledged yet, oldest first."""
        ...

    def ack(self, message_id: str) -> None:
        """The message is stored and handled: do not hand it out again."""
        ...

    def close(self) -> None: ...


class StdinSource:
    """Exactly one message read from a binary stream (an MTA pipe: ``|pbem ingest ROOT``).

    A read error raises :class:`TransientMailError` (the CLI exits 75 so the MTA retries). An
    over-long message is read up to ``max_bytes`` and the rest is drained, so the MTA does not see
    a broken pipe; the stored copy is marked truncated and quarantined. ``ack`` does nothing: the
    MTA forgets the message when the process exits 0.
    """

    def __init__(self, stream: BinaryIO | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES):
        self.stream = stream if stream is not None else sys.stdin.buffer
        self.max_bytes = max_bytes

    def messages(self) -> Iterator[Incoming]:
        try:
            raw = self.stream.read(self.max_bytes + 1)
            truncated = len(raw) > self.max_bytes
            if truncated:
                raw = raw[: self.max_bytes]
                while self.stream.read(1024 * 1024):
                    pass
        except OSError as exc:
            raise TransientMailError(f"cannot read the message from standard input: {exc}") from exc
        if not raw:
            return
        digest = hashlib.sha256(raw).hexdigest()[:32]
        yield Incoming(f"stdin:{digest}", raw, truncated)

    def ack(self, message_id: str) -> None:
        """Nothing to do: exiting 0 is the acknowledgement to the MTA."""

    def close(self) -> None:
        """The stream belongs to the caller."""

    def __enter__(self) -> StdinSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_MAILDIR_INFO = re.compile(r"^(?P<base>[^:]+)(?::2,(?P<flags>[A-Za-z]*))?$")


class MaildirSource:
    """Messages in ``new/`` and in ``cur/`` without the ``S`` (seen) flag.

    The id is the Maildir unique name (the file name before ``:2,``), which survives the move from
    new/ to cur/. ``ack`` renames the file to ``cur/<name>:2,<flags + S>``; the bytes are never
    touched. Another program (a mail client) that sets ``S`` makes us skip that message, so point
    pbem at a Maildir of its own.
    """

    def __init__(self, path: Path | str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.path = Path(path)
        self.max_bytes = max_bytes
        if not (self.path / "new").is_dir() or not (self.path / "cur").is_dir():
            raise MailConfigError(f"{self.path} is not a Maildir (it needs new/ and cur/)")
        self._locations: dict[str, Path] = {}

    def messages(self) -> Iterator[Incoming]:
        for sub in ("new", "cur"):
            try:
                names = sorted(os.listdir(self.path / sub))
            except OSError as exc:
                raise TransientMailError(f"cannot list {self.path / sub}: {exc.strerror}") from exc
            for name in names:
                match = _MAILDIR_INFO.match(name)
                if name.startswith(".") or match is None:
                    continue
                if sub == "cur" and "S" in (match.group("flags") or ""):
                    continue
                file = self.path / sub / name
                try:
                    raw, truncated = _read_capped(file, self.max_bytes)
                except FileNotFoundError:
                    continue  # moved by someone else meanwhile
                except OSError as exc:
                    raise TransientMailError(f"cannot read {file}: {exc.strerror}") from exc
                base = match.group("base")
                self._locations[base] = file
                yield Incoming(f"maildir:{base}", raw, truncated)

    def ack(self, message_id: str) -> None:
        self.ack_many([message_id])

    def ack_many(self, message_ids: Sequence[str]) -> None:
        """Acknowledge handed-out messages: each renamed from ``new/`` to ``cur/`` with the
        Seen flag, then one fsync of ``cur/`` and of each directory a message left (not two per
        message)."""
        left: set[Path] = set()
        for message_id in message_ids:
            base = message_id.removeprefix("maildir:")
            file = self._locations.pop(base, None)
            if file is None:
                raise KeyError(f"{message_id} was not handed out by this source")
            match = _MAILDIR_INFO.match(file.name)
            flags = set(match.group("flags") or "") if match else set()
            try:
                os.replace(file, self.path / "cur" / f"{base}:2,{''.join(sorted(flags | {'S'}))}")
            except FileNotFoundError:
                # Another ingest on the same Maildir acknowledged it first (both stored it: the
                # inbox recognises the duplicate). Gone from new/ is what ack means.
                if file.exists():
                    raise
                continue
            left.add(file.parent)
        if left:
            _files.fsync_dir(self.path / "cur")
            for directory in left - {self.path / "cur"}:
                _files.fsync_dir(directory)

    def close(self) -> None:
        self._locations.clear()

    def __enter__(self) -> MaildirSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class MboxSource:
    """Messages of an mbox file, read-only; handled ones are remembered in ``state_path``.

    The id of a message is the SHA-256 of its bytes, so it does not change when more mail is
    appended to the mbox. ``state_path`` is an append-only list of handled ids (one per line,
    fsynced); put it beside the inbox store, e.g. ``ROOT/inbox/mbox-<name>.handled``.
    """

    def __init__(
        self,
        path: Path | str,
        state_path: Path | str,
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        self.path = Path(path)
        self.state_path = Path(state_path)
        self.max_bytes = max_bytes
        if not self.path.is_file():
            raise MailConfigError(f"{self.path} is not an mbox file")
        self._handled = self._load_state()

    def _load_state(self) -> set[str]:
        try:
            lines = self.state_path.read_text(encoding="ascii").split()
        except FileNotFoundError:
            return set()
        return {line for line in lines if line.startswith("mbox:")}

    def messages(self) -> Iterator[Incoming]:
        try:
            import mailbox  # (an mbox source only: a pipe delivery needs none of it)

            box = mailbox.mbox(self.path, create=False)
            keys = box.keys()
        except OSError as exc:
            raise TransientMailError(f"cannot read {self.path}: {exc}") from exc
        try:
            for key in keys:
                raw = box.get_bytes(key)
                ident = "mbox:" + hashlib.sha256(raw).hexdigest()
                if ident in self._handled:
                    continue
                truncated = len(raw) > self.max_bytes
                yield Incoming(ident, raw[: self.max_bytes] if truncated else raw, truncated)
        finally:
            box.close()

    def ack(self, message_id: str) -> None:
        if message_id in self._handled:
            return
        self.state_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        _files.append_line(self.state_path, message_id)
        self._handled.add(message_id)

    def close(self) -> None:
        """Nothing held open between calls."""

    def __enter__(self) -> MboxSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _read_capped(path: Path, max_bytes: int) -> tuple[bytes, bool]:
    with open(path, "rb") as f:
        raw = f.read(max_bytes + 1)
    if len(raw) > max_bytes:
        return raw[:max_bytes], True
    return raw, False
