"""The IMAP source against a real Dovecot: fetch with PEEK, ack moves or flags, reruns see none."""

from __future__ import annotations

import imaplib

import pytest

from pbem.mail.errors import MailConfigError, TransientMailError
from pbem.mail.imap import HANDLED_KEYWORD, IMAPSource
from pbem.mail.inbox import Inbox
from pbem.mail.security import Credentials
from tests.support.mailservers import HOST, Dovecot, free_port


def message(n: int, size: int = 0) -> bytes:
    return (
        f"From: p{n}@players.example\r\nTo: game@example.test\r\nSubject: m{n}\r\n"
        f"Message-ID: <m{n}@players.example>\r\n\r\nbody {n}\r\n"
    ).encode() + b"x" * size


def append(server: Dovecot, user: str, *messages: bytes) -> None:
    conn = imaplib.IMAP4(HOST, server.port)
    conn.login(user, server.password)
    for raw in messages:
        typ, _ = conn.append("INBOX", None, None, raw)
        assert typ == "OK"
    conn.logout()


def folder_contents(server: Dovecot, user: str, folder: str) -> list[tuple[bytes, bytes]]:
    """(flags, bytes) of every message in ``folder``."""
    conn = imaplib.IMAP4(HOST, server.port)
    conn.login(user, server.password)
    typ, _ = conn.select(f'"{folder}"', readonly=True)
    if typ != "OK":
        conn.logout()
        return []
    _, data = conn.uid("SEARCH", "ALL")
    found = []
    for uid in (data[0] or b"").split():
        _, parts = conn.uid("FETCH", uid, "(FLAGS BODY.PEEK[])")
        found.append((parts[0][0], parts[0][1]))
    conn.logout()
    return found


def source(server: Dovecot, user: str, security: str = "none", **kw: object) -> IMAPSource:
    port = server.tls_port if security == "tls" else server.port
    return IMAPSource(
        HOST,
        port,
        Credentials(user, server.password),
        security=security,
        ssl_context=server.tls.context(),
        timeout=10,
        **kw,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("security", ["none", "starttls", "tls"])
def test_ingest_ack_moves_to_folder_and_rerun_sees_nothing(
    dovecot: Dovecot,
    security: str,
    tmp_path,
) -> None:
    user = dovecot.new_account()
    append(dovecot, user, message(1), message(2))
    inbox = Inbox(tmp_path)
    with source(dovecot, user, security, done_folder="pbem handled") as src:
        got = list(src.messages())
        assert [i.raw for i in got] == [message(1), message(2)]
        assert all(i.id.startswith("imap:") for i in got)
        for incoming in got:
            stored = inbox.store(incoming.raw)
            inbox.done(stored, "accepted")
            src.ack(incoming.id)
    assert folder_contents(dovecot, user, "INBOX") == []
    moved = folder_contents(dovecot, user, "pbem handled")
    assert [raw for _, raw in moved] == [message(1), message(2)]
    assert all(b"\\Seen" not in flags for flags, _ in moved)  # fetched with BODY.PEEK[]
    with source(dovecot, user, security, done_folder="pbem handled") as src:
        assert list(src.messages()) == []


def test_unacked_messages_stay_and_come_again(dovecot: Dovecot) -> None:
    user = dovecot.new_account()
    append(dovecot, user, message(1))
    with source(dovecot, user) as src:
        (incoming,) = list(src.messages())  # "crash" before the store: no ack
    with source(dovecot, user) as src:
        (again,) = list(src.messages())
        assert again.id == incoming.id and again.raw == incoming.raw
        src.ack(again.id)
    assert folder_contents(dovecot, user, "INBOX") == []


def test_flag_mode_keeps_mail_in_place(dovecot: Dovecot) -> None:
    user = dovecot.new_account()
    append(dovecot, user, message(1), message(2))
    with source(dovecot, user, done_folder=None) as src:
        first, _second = list(src.messages())
        src.ack(first.id)
    with source(dovecot, user, done_folder=None) as src:
        assert [i.raw for i in src.messages()] == [message(2)]
    flags = [f for f, _ in folder_contents(dovecot, user, "INBOX")]
    assert HANDLED_KEYWORD.encode() in flags[0] and HANDLED_KEYWORD.encode() not in flags[1]


def test_copy_and_expunge_when_the_server_has_no_move(dovecot: Dovecot) -> None:
    user = dovecot.new_account()
    append(dovecot, user, message(1))
    with source(dovecot, user, done_folder="Done") as src:
        (incoming,) = list(src.messages())
        src._can_move = False  # what a server without RFC 6851 MOVE gets
        src.ack(incoming.id)
    assert folder_contents(dovecot, user, "INBOX") == []
    assert [raw for _, raw in folder_contents(dovecot, user, "Done")] == [message(1)]


def test_oversize_message_is_fetched_truncated(dovecot: Dovecot) -> None:
    user = dovecot.new_account()
    append(dovecot, user, message(1, size=50_000))
    with source(dovecot, user, max_bytes=10_000) as src:
        (incoming,) = list(src.messages())
    assert incoming.truncated and len(incoming.raw) == 10_000


def test_wrong_password_is_a_config_error(dovecot: Dovecot) -> None:
    user = dovecot.new_account()
    src = IMAPSource(HOST, dovecot.port, Credentials(user, "wrong"), security="none", timeout=10)
    with pytest.raises(MailConfigError, match="login refused"), src:
        list(src.messages())


def test_untrusted_certificate_is_a_config_error(dovecot: Dovecot) -> None:
    user = dovecot.new_account()
    src = IMAPSource(HOST, dovecot.tls_port, Credentials(user, dovecot.password), security="tls")
    with pytest.raises(MailConfigError, match="certificate"), src:
        list(src.messages())


def test_no_server_is_transient() -> None:
    src = IMAPSource(HOST, free_port(), Credentials("u", "p"), security="none", timeout=2)
    with pytest.raises(TransientMailError), src:
        list(src.messages())
