"""An IMAP mailbox as a mail source, through the stdlib ``imaplib``.

Messages are fetched with ``BODY.PEEK[]`` (fetching does not mark them seen, so a crash before the
store changes nothing on the server). After the caller stored and handled one, ``ack`` moves it to
``done_folder`` (created if missing; MOVE when the server has it, else COPY + \\Deleted + EXPUNGE)
or, with ``done_folder=None``, sets the keyword ``$PbemHandled`` and leaves it in place; either
way it is not handed out again. The id is ``UIDVALIDITY:UID``, stable until the server renumbers
the mailbox (then everything is fetched again and the inbox store recognises the duplicates).

Network and server trouble raises :class:`TransientMailError`; a refused login raises
:class:`MailConfigError`.
"""

from __future__ import annotations

import contextlib
import imaplib
import re
import socket
import ssl
from collections.abc import Iterator
from typing import Any

from pbem.mail.errors import MailConfigError, TransientMailError
from pbem.mail.security import Credentials, check_security, client_context
from pbem.mail.sources import DEFAULT_MAX_BYTES, Incoming

HANDLED_KEYWORD = "$PbemHandled"
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")
_UIDVALIDITY = re.compile(rb"UIDVALIDITY (\d+)")

_TRANSIENT = (OSError, imaplib.IMAP4.abort, socket.timeout, ssl.SSLError, EOFError)


class IMAPSource:
    """Fetch unhandled messages from ``mailbox`` on an IMAP server.

    ``security`` is "tls" (IMAPS, port 993), "starttls" (port 143 upgraded) or "none" (loopback
    only). ``ssl_context`` defaults to a verifying client context. Use as a context manager, or
    call ``close()``; the connection is opened on the first ``messages()``.
    """

    def __init__(
        self,
        host: str,
        port: int,
        credentials: Credentials,
        *,
        security: str = "tls",
        mailbox: str = "INBOX",
        done_folder: str | None = "pbem-handled",
        ssl_context: ssl.SSLContext | None = None,
        timeout: float = 30.0,
        max_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        self.host = host
        self.port = port
        self.credentials = credentials
        self.security = check_security(host, security, "IMAP")
        self.mailbox = mailbox
        self.done_folder = done_folder
        self.ssl_context = ssl_context
        self.timeout = timeout
        self.max_bytes = max_bytes
        self._conn: imaplib.IMAP4 | None = None
        self._uidvalidity: str | None = None
        self._can_move = False

    # -- connection ---------------------------------------------------------------------------

    def _connect(self) -> imaplib.IMAP4:
        if self._conn is not None:
            return self._conn
        context = self.ssl_context or client_context()
        try:
            if self.security == "tls":
                conn: imaplib.IMAP4 = imaplib.IMAP4_SSL(
                    self.host, self.port, ssl_context=context, timeout=self.timeout
                )
            else:
                conn = imaplib.IMAP4(self.host, self.port, timeout=self.timeout)
                if self.security == "starttls":
                    conn.starttls(ssl_context=context)
        except ssl.SSLCertVerificationError as exc:
            raise MailConfigError(
                f"IMAP {self.host}:{self.port}: certificate refused: {exc}"
            ) from exc
        except (*_TRANSIENT, imaplib.IMAP4.error) as exc:
            raise TransientMailError(
                f"IMAP {self.host}:{self.port}: cannot connect: {exc}"
            ) from exc
        try:
            conn.login(self.credentials.user, self.credentials.password)
        except imaplib.IMAP4.abort as exc:
            _shutdown(conn)
            raise TransientMailError(f"IMAP {self.host}: connection lost at login: {exc}") from exc
        except imaplib.IMAP4.error as exc:
            _shutdown(conn)
            raise MailConfigError(
                f"IMAP {self.host}: login refused for {self.credentials.user!r}: {_text(exc)}"
            ) from None
        except _TRANSIENT as exc:
            _shutdown(conn)
            raise TransientMailError(f"IMAP {self.host}: connection lost at login: {exc}") from exc
        try:
            # imaplib keeps the pre-login capabilities; ask again (MOVE is announced after login).
            typ, data = conn.capability()
            self._can_move = typ == "OK" and "MOVE" in _text(data).upper().split()
            if self.done_folder is not None:
                self._ensure_folder(conn, self.done_folder)
            typ, data = conn.select(_quote(self.mailbox))
            if typ != "OK":
                raise MailConfigError(f"IMAP: cannot open mailbox {self.mailbox!r}: {_text(data)}")
            typ, data = conn.response("UIDVALIDITY")
            self._uidvalidity = _text(data[0]) if data and data[0] else "0"
        except _TRANSIENT as exc:
            _shutdown(conn)
            raise TransientMailError(f"IMAP {self.host}: connection lost: {exc}") from exc
        self._conn = conn
        return conn

    def _ensure_folder(self, conn: imaplib.IMAP4, folder: str) -> None:
        typ, data = conn.list('""', _quote(folder))
        if typ == "OK" and any(item for item in data if item):
            return
        typ, data = conn.create(_quote(folder))
        if typ != "OK":
            raise MailConfigError(f"IMAP: cannot create folder {folder!r}: {_text(data)}")
        conn.subscribe(_quote(folder))

    # -- the Source protocol ------------------------------------------------------------------

    def messages(self) -> Iterator[Incoming]:
        conn = self._connect()
        criteria = "UNDELETED" if self.done_folder else f"UNDELETED UNKEYWORD {HANDLED_KEYWORD}"
        try:
            typ, data = conn.uid("SEARCH", criteria)
            if typ != "OK":
                raise TransientMailError(f"IMAP SEARCH failed: {_text(data)}")
            uids = [u.decode("ascii") for u in (data[0] or b"").split()]
            for uid in uids:
                fetched = self._fetch(conn, uid)
                if fetched is not None:
                    yield Incoming(f"imap:{self._uidvalidity}:{uid}", *fetched)
        except _TRANSIENT as exc:
            self._drop()
            raise TransientMailError(f"IMAP {self.host}: connection lost: {exc}") from exc

    def _fetch(self, conn: imaplib.IMAP4, uid: str) -> tuple[bytes, bool] | None:
        typ, data = conn.uid("FETCH", uid, "(RFC822.SIZE)")
        size_match = _SIZE.search(b" ".join(_flatten(data))) if typ == "OK" else None
        if size_match is None:
            return None  # expunged meanwhile
        size = int(size_match.group(1))
        truncated = size > self.max_bytes
        what = f"(BODY.PEEK[]<0.{self.max_bytes}>)" if truncated else "(BODY.PEEK[])"
        typ, data = conn.uid("FETCH", uid, what)
        if typ != "OK":
            raise TransientMailError(f"IMAP FETCH {uid} failed: {_text(data)}")
        for item in data:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
                return item[1], truncated
        return None

    def ack(self, message_id: str) -> None:
        try:
            _, validity, uid = message_id.split(":")
        except ValueError:
            raise KeyError(f"{message_id} is not an IMAP message id") from None
        if validity != self._uidvalidity:
            raise KeyError(f"{message_id} belongs to an older UIDVALIDITY; fetch again")
        conn = self._connect()
        try:
            if self.done_folder is None:
                _ok(conn.uid("STORE", uid, "+FLAGS.SILENT", f"({HANDLED_KEYWORD})"), "STORE")
            elif self._can_move:
                _ok(conn.uid("MOVE", uid, _quote(self.done_folder)), "MOVE")
            else:
                _ok(conn.uid("COPY", uid, _quote(self.done_folder)), "COPY")
                _ok(conn.uid("STORE", uid, "+FLAGS.SILENT", r"(\Deleted)"), "STORE")
                _ok(conn.expunge(), "EXPUNGE")
        except _TRANSIENT as exc:
            self._drop()
            raise TransientMailError(f"IMAP {self.host}: connection lost at ack: {exc}") from exc

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.logout()
            except (*_TRANSIENT, imaplib.IMAP4.error):
                _shutdown(conn)

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            _shutdown(conn)

    def __enter__(self) -> IMAPSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _quote(name: str) -> str:
    """An IMAP quoted string (mailbox names may hold spaces)."""
    if any(ch in name for ch in "\r\n\0"):
        raise MailConfigError(f"IMAP folder name {name!r} holds a line break")
    if not name.isascii():  # IMAP wants modified UTF-7 for those; keep configuration simple
        raise MailConfigError(f"IMAP folder name {name!r}: use ASCII letters only")
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _ok(result: tuple[str, Any], what: str) -> None:
    typ, data = result
    if typ != "OK":
        raise TransientMailError(f"IMAP {what} failed: {_text(data)}")


def _flatten(data: Any) -> list[bytes]:
    out: list[bytes] = []
    for item in data or ():
        if isinstance(item, tuple):
            out.extend(x for x in item if isinstance(x, bytes))
        elif isinstance(item, bytes):
            out.append(item)
    return out


def _text(value: object) -> str:
    if isinstance(value, list | tuple):
        return " ".join(_text(v) for v in value if v is not None)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _shutdown(conn: imaplib.IMAP4) -> None:
    with contextlib.suppress(OSError):
        conn.shutdown()
