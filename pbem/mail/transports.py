"""How the outbox hands a message over: to a directory of .eml files, or to an SMTP server.

A transport's ``send`` either returns :class:`Accepted` (the server took responsibility for the
message) or raises :class:`TemporaryFailure` (4xx, connection refused, timeout: try later) or
:class:`PermanentFailure` (5xx: do not retry, show the game master). A wrong configuration (bad
password, certificate not trusted, no STARTTLS offered) raises
:class:`~pbem.mail.errors.MailConfigError`, which stops the delivery run with every message left
pending: it is nobody's message's fault.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeGuard, runtime_checkable

from pbem import atomic, lazy, staged
from pbem.mail import _files
from pbem.mail.errors import MailConfigError, MailError
from pbem.mail.security import Credentials, check_security, client_context
from pbem.record import Record

if TYPE_CHECKING:
    import smtplib
    import ssl
else:  # loaded when a mail is sent over SMTP: queueing one (ingest's receipt) needs neither
    smtplib = lazy.module("smtplib")
    ssl = lazy.module("ssl")


class Accepted(Record):
    """The server accepted the message for at least one recipient."""

    __slots__ = ("reply", "refused")
    reply: str
    #: Recipients the server refused while accepting the others: address -> (code, reply).
    refused: dict[str, tuple[int, str]]

    def __init__(self, reply: str, refused: dict[str, tuple[int, str]] | None = None) -> None:
        object.__setattr__(self, "reply", reply)
        object.__setattr__(self, "refused", {} if refused is None else refused)


class SendError(MailError):
    """A message was not accepted; ``code`` is the SMTP reply code when there was one."""

    def __init__(self, reply: str, code: int | None = None) -> None:
        self.code = code
        self.reply = reply
        super().__init__(f"{code} {reply}" if code else reply)


class TemporaryFailure(SendError):
    """Try again later (4xx, connection refused or lost, timeout)."""


class PermanentFailure(SendError):
    """Do not retry (5xx): the message goes to failed/ with this reply."""


class Transport(Protocol):
    """Something that accepts the exact bytes of a message for an envelope."""

    def send(self, raw: bytes, sender: str, recipients: Sequence[str]) -> Accepted: ...

    def close(self) -> None: ...


@runtime_checkable
class StagingTransport(Transport, Protocol):
    """A transport that can accept several messages and make them durable together:
    ``stage`` hands one over (it may not survive a power failure yet, and no name shows it),
    ``commit`` makes every message staged since the last commit durable at once and returns
    their acceptances, in the order staged. The outbox records staged messages as sent only
    after ``commit`` returned, so "recorded" still implies "delivered". ``stage`` raises as
    ``send`` does for a message it cannot take; ``commit`` raises :class:`TemporaryFailure`
    for all of them.

    A staging transport must be idempotent: the same bytes staged and committed again leave
    one copy (the file transport: the same file under the same name). The outbox relies on it
    to write its sent records without a sync of their own (pbem.mail.outbox_batch): a record a
    power cut loses sends the message to the transport once more, which changes nothing."""

    def stage(self, raw: bytes, sender: str, recipients: Sequence[str]) -> None: ...

    def commit(self) -> list[Accepted]: ...


_STAGES: dict[type, bool] = {}


def stages(transport: Transport) -> TypeGuard[StagingTransport]:
    """``isinstance(transport, StagingTransport)``, asked once per class (the check of a
    runtime protocol walks its members every time)."""
    kind = type(transport)
    known = _STAGES.get(kind)
    if known is None:
        known = _STAGES[kind] = isinstance(transport, StagingTransport)
    return known


class FileTransport:
    """Writes each message as ``<sha256 prefix>.eml`` into ``directory`` (the embedded default).

    Sending the same bytes twice writes the same file, so a resend after a crash is harmless.
    ``send`` makes each file durable on its own (file and directory fsynced); ``stage`` writes
    the message to a temporary file (``.staged.eml.tmp-PID-HEX``: no name shows it, and the
    next holder of the lock sweeps it after a crash) and leaves the rest to ``commit``, once
    for every message staged since (pbem.mail.outbox delivers a batch so): a group of files
    (pbem.staged.Group, ingest's too) whose fsyncs are issued together, each file's name — the
    SHA-256 of its bytes — computed while they run, each renamed into place once all are
    durable; then one fsync of the directory.
    """

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._tmp = f"{self.directory}/staged.eml"  # the form of each temporary file's name
        self._group = staged.Group()
        self._placed: list[Accepted] = []  # put in place by an early flush, not committed
        #: an early flush failed: the next commit fails (what was staged before is dropped)
        self._broken: TemporaryFailure | None = None

    def send(self, raw: bytes, sender: str, recipients: Sequence[str]) -> Accepted:
        self.stage(raw, sender, recipients)
        return self.commit()[-1]

    @staticmethod
    def name_of(raw: bytes) -> str:
        """The file a message is written to (the same bytes, the same name)."""
        return hashlib.sha256(raw).hexdigest()[:24] + ".eml"

    def stage(self, raw: bytes, sender: str, recipients: Sequence[str]) -> None:
        if len(self._group) >= staged.MANY_OPEN:  # file descriptors are finite
            try:
                self._flush()
            except TemporaryFailure as exc:
                self._broken = exc
                raise
        try:
            self._group.add(self._tmp, raw, named=self.name_of)
        except atomic.StorageError as exc:
            raise TemporaryFailure(str(exc)) from None

    def commit(self) -> list[Accepted]:
        """Make every message staged since the last commit durable and put it in place (their
        fsyncs together), then fsync the directory once; their acceptances, in order."""
        placed, self._placed = self._placed, []
        broken, self._broken = self._broken, None
        try:
            self._flush(placed)
            if broken is not None:
                raise broken
            if placed:
                _files.fsync_dir(self.directory)
        except OSError as exc:
            raise TemporaryFailure(f"cannot sync {self.directory}: {exc.strerror}") from exc
        return placed

    def _flush(self, placed: list[Accepted] | None = None) -> None:
        """Every staged file fsynced (together; its name computed meanwhile), then each
        renamed into place, in order (pbem.staged.Group), its acceptance added to ``placed``
        (the early flush's list by default). On a failure none of the rest is put in place
        (nor acknowledged: the outbox hands them over again)."""
        try:
            names = self._group.flush()
        except atomic.StorageError as exc:
            raise TemporaryFailure(str(exc)) from None
        (self._placed if placed is None else placed).extend(
            Accepted(f"written to {path.rpartition('/')[2]}") for path in names)

    def close(self) -> None:
        """Nothing to close."""

    def __enter__(self) -> FileTransport:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SMTPTransport:
    """Submission to an SMTP server with smtplib; one connection reused for a delivery run.

    ``security``: "tls" (SMTP_SSL, port 465), "starttls" (port 587; refused if the server does not
    offer it) or "none" (loopback only). With ``credentials`` the transport logs in after TLS.
    """

    def __init__(
        self,
        host: str,
        port: int,
        *,
        security: str = "starttls",
        credentials: Credentials | None = None,
        ssl_context: ssl.SSLContext | None = None,
        timeout: float = 30.0,
        local_hostname: str | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.security = check_security(host, security, "SMTP")
        self.credentials = credentials
        self.ssl_context = ssl_context
        self.timeout = timeout
        self.local_hostname = local_hostname
        self._smtp: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        if self._smtp is not None:
            return self._smtp
        where = f"SMTP {self.host}:{self.port}"
        context = self.ssl_context or client_context()
        smtp: smtplib.SMTP | None = None
        try:
            if self.security == "tls":
                smtp = smtplib.SMTP_SSL(
                    self.host,
                    self.port,
                    local_hostname=self.local_hostname,
                    timeout=self.timeout,
                    context=context,
                )
            else:
                smtp = smtplib.SMTP(
                    self.host, self.port, local_hostname=self.local_hostname, timeout=self.timeout
                )
            smtp.ehlo()
            if self.security == "starttls":
                if not smtp.has_extn("starttls"):
                    raise MailConfigError(f"{where} does not offer STARTTLS")
                smtp.starttls(context=context)
                smtp.ehlo()
            if self.credentials is not None:
                smtp.login(self.credentials.user, self.credentials.password)
        except MailConfigError:
            _quit(smtp)
            raise
        except smtplib.SMTPAuthenticationError as exc:
            _quit(smtp)
            raise MailConfigError(
                f"{where}: login refused for {self.credentials.user if self.credentials else ''!r}"
                f" ({exc.smtp_code} {_reply(exc.smtp_error)})"
            ) from None
        except smtplib.SMTPNotSupportedError as exc:
            _quit(smtp)
            raise MailConfigError(f"{where}: {exc}") from None
        except ssl.SSLCertVerificationError as exc:
            _quit(smtp)
            raise MailConfigError(f"{where}: certificate refused: {exc.verify_message}") from None
        except smtplib.SMTPResponseException as exc:
            _quit(smtp)
            raise TemporaryFailure(f"{where}: {_reply(exc.smtp_error)}", exc.smtp_code) from None
        except (OSError, smtplib.SMTPException) as exc:
            _quit(smtp)
            raise TemporaryFailure(f"{where}: {exc or type(exc).__name__}") from None
        self._smtp = smtp
        return smtp

    def send(self, raw: bytes, sender: str, recipients: Sequence[str]) -> Accepted:
        smtp = self._connect()
        try:
            refused = smtp.sendmail(sender, list(recipients), raw)
        except smtplib.SMTPRecipientsRefused as exc:
            self._drop()
            codes = {addr: (code, _reply(text)) for addr, (code, text) in exc.recipients.items()}
            detail = "; ".join(f"{a}: {c} {t}" for a, (c, t) in codes.items())
            if all(500 <= c <= 599 for c, _ in codes.values()):
                raise PermanentFailure(f"every recipient refused: {detail}", 550) from None
            raise TemporaryFailure(f"recipients refused: {detail}", 450) from None
        except smtplib.SMTPResponseException as exc:
            self._drop()
            error = _classify(exc.smtp_code)
            raise error(_reply(exc.smtp_error), exc.smtp_code) from None
        except (OSError, smtplib.SMTPException) as exc:
            self._drop()
            raise TemporaryFailure(f"connection to {self.host}:{self.port} failed: {exc}") from None
        codes = {addr: (code, _reply(text)) for addr, (code, text) in refused.items()}
        return Accepted("250 accepted", codes)

    def close(self) -> None:
        smtp, self._smtp = self._smtp, None
        _quit(smtp)

    def _drop(self) -> None:
        """After any failure start the next message on a fresh connection (421 closes it)."""
        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            with contextlib.suppress(OSError):
                smtp.close()

    def __enter__(self) -> SMTPTransport:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _classify(code: int) -> type[SendError]:
    return PermanentFailure if 500 <= code <= 599 else TemporaryFailure


def _reply(value: bytes | str) -> str:
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return " ".join(text.split())


def _quit(smtp: smtplib.SMTP | None) -> None:
    if smtp is None:
        return
    try:
        smtp.quit()
    except (OSError, smtplib.SMTPException):
        with contextlib.suppress(OSError):
            smtp.close()
