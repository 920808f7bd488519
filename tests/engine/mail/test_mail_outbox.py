"""The transactional outbox with the file transport and real aiosmtpd servers.

No mocks: the SMTP tests talk to aiosmtpd on 127.0.0.1 (plain, STARTTLS, implicit TLS, AUTH),
and the crash tests raise from the outbox's own stage hook, which is how a crash at that point
looks to the files on disk.
"""

from __future__ import annotations

import email
from datetime import UTC, datetime, timedelta
from email import policy
from pathlib import Path

import pytest

from pbem.mail.compose import compose, to_bytes
from pbem.mail.errors import MailConfigError
from pbem.mail.outbox import Backoff, Outbox
from pbem.mail.security import Credentials
from pbem.mail.transports import FileTransport, SMTPTransport
from tests.support.crash import Crash, crash_at
from tests.support.mailservers import HOST, SMTPServers, free_port

# aiosmtpd warns on each connection when AUTH is offered without TLS; these tests do it on purpose.
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
REFEREE = "referee@pbem.example"


def report(n: int, to: str = "vega@players.example") -> email.message.EmailMessage:
    return compose(
        sender=REFEREE,
        to=to,
        subject=f"Turn {n} report",
        text=f"Report {n} ✓",
        html=f"<p>Report {n}</p>",
        date=NOW,
        domain="pbem.example",
        auto_submitted="auto-generated",
        game="demo-1",
    )


def smtp(server, tls_files, **kw) -> SMTPTransport:
    return SMTPTransport(
        server.host,
        server.port,
        security=server.security,
        ssl_context=tls_files.context(),
        timeout=5,
        local_hostname="pbem.test",
        **kw,
    )


# -- queue and the file transport --------------------------------------------------------------


def test_queue_stores_exact_bytes_before_any_send(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    msg = report(1)
    ident = outbox.queue(msg)
    assert outbox.state(ident) == "pending"
    assert outbox.raw(ident) == to_bytes(msg)
    (entry,) = outbox.pending()
    assert entry.sender == REFEREE and entry.recipients == ("vega@players.example",)
    assert entry.message_id == msg["Message-ID"]


def test_file_transport_delivery(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    ids = [outbox.queue(report(n)) for n in range(3)]
    result = outbox.deliver(FileTransport(tmp_path / "mail"), NOW)
    assert result.sent == ids and outbox.pending() == []
    files = sorted((tmp_path / "mail").glob("*.eml"))
    assert sorted(f.read_bytes() for f in files) == sorted(outbox.raw(i) for i in ids)
    assert [e.id for e in outbox.sent()] == ids
    assert outbox.deliver(FileTransport(tmp_path / "mail"), NOW).sent == []


def test_queue_with_a_key_is_idempotent(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    first = outbox.queue(report(1), key="receipt:abc")
    second = outbox.queue(report(1), key="receipt:abc")  # a rerun composes a fresh Message-ID
    assert first == second and len(outbox.pending()) == 1
    outbox.deliver(FileTransport(tmp_path / "mail"), NOW)
    assert outbox.queue(report(1), key="receipt:abc") == first  # also once sent


def test_bcc_is_in_the_envelope_but_not_in_the_bytes(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    msg = report(1)
    msg["Bcc"] = "gm@pbem.example"
    ident = outbox.queue(msg)
    assert b"Bcc" not in outbox.raw(ident) and b"gm@pbem.example" not in outbox.raw(ident)
    assert outbox.pending()[0].recipients == ("vega@players.example", "gm@pbem.example")


def test_queue_refuses_messages_without_message_id(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="Message-ID"):
        Outbox(tmp_path).queue(b"From: a@b.example\r\nTo: c@d.example\r\n\r\nx\r\n")


# -- crash windows -----------------------------------------------------------------------------


def test_crash_before_send_sends_once_later(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    ident = outbox.queue(report(1))
    transport = FileTransport(tmp_path / "mail")
    with pytest.raises(Crash):
        outbox.deliver(transport, NOW, on_stage=crash_at("before-send"))
    assert list((tmp_path / "mail").iterdir()) == []
    assert Outbox(tmp_path / "outbox").deliver(transport, NOW).sent == [ident]


def test_crash_after_record_never_resends(
    tmp_path: Path,
    smtp_servers: SMTPServers,
    tls_files,
) -> None:
    server = smtp_servers.start("none")
    outbox = Outbox(tmp_path / "outbox")
    ident = outbox.queue(report(1))
    with smtp(server, tls_files) as transport, pytest.raises(Crash):
        outbox.deliver(transport, NOW, on_stage=crash_at("recorded"))
    assert outbox.state(ident) == "sent"  # recorded
    with smtp(server, tls_files) as transport:
        result = Outbox(tmp_path / "outbox").deliver(transport, NOW)
    assert result.sent == [] and outbox.state(ident) == "sent"
    assert len(server.received) == 1


def test_crash_between_acceptance_and_record_resends_identical_bytes(
    tmp_path: Path,
    smtp_servers: SMTPServers,
    tls_files,
) -> None:
    """The one unavoidable duplicate: same bytes, same Message-ID."""
    server = smtp_servers.start("none")
    outbox = Outbox(tmp_path / "outbox")
    ident = outbox.queue(report(1))
    with smtp(server, tls_files) as transport, pytest.raises(Crash):
        outbox.deliver(transport, NOW, on_stage=crash_at("accepted"))
    assert outbox.state(ident) == "pending"
    with smtp(server, tls_files) as transport:
        assert Outbox(tmp_path / "outbox").deliver(transport, NOW).sent == [ident]
    first, second = server.received
    assert first.content == second.content == outbox.raw(ident)
    ids = [
        email.message_from_bytes(m.content, policy=policy.default)["Message-ID"]
        for m in (first, second)
    ]
    assert ids[0] == ids[1] == outbox.sent()[0].message_id


# -- SMTP: security modes and AUTH -------------------------------------------------------------


@pytest.mark.parametrize("security", ["none", "starttls", "tls"])
def test_smtp_delivery_with_auth(
    security: str,
    tmp_path: Path,
    smtp_servers: SMTPServers,
    tls_files,
) -> None:
    server = smtp_servers.start(security, user="referee", password="pw")
    outbox = Outbox(tmp_path / "outbox")
    ids = [outbox.queue(report(n)) for n in range(2)]
    with smtp(server, tls_files, credentials=Credentials("referee", "pw")) as transport:
        result = outbox.deliver(transport, NOW)
    assert result.sent == ids
    assert server.logins == ["referee"]  # one connection for the whole run
    assert [m.content for m in server.received] == [outbox.raw(i) for i in ids]
    assert server.received[0].mail_from == REFEREE
    assert server.received[0].rcpt_tos == ("vega@players.example",)


def test_smtp_without_auth(tmp_path: Path, smtp_servers: SMTPServers, tls_files) -> None:
    server = smtp_servers.start("starttls")
    outbox = Outbox(tmp_path / "outbox")
    outbox.queue(report(1))
    with smtp(server, tls_files) as transport:
        assert len(outbox.deliver(transport, NOW).sent) == 1
    assert len(server.received) == 1


def test_wrong_password_stops_the_run_and_keeps_everything_pending(
    tmp_path: Path,
    smtp_servers: SMTPServers,
    tls_files,
) -> None:
    server = smtp_servers.start("tls", user="referee", password="pw")
    outbox = Outbox(tmp_path / "outbox")
    outbox.queue(report(1))
    with (
        smtp(server, tls_files, credentials=Credentials("referee", "nope")) as transport,
        pytest.raises(MailConfigError, match="login refused"),
    ):
        outbox.deliver(transport, NOW)
    (entry,) = outbox.pending()
    assert entry.attempts == 0 and server.received == []


def test_starttls_required_but_not_offered_is_a_config_error(
    tmp_path: Path,
    smtp_servers: SMTPServers,
    tls_files,
) -> None:
    server = smtp_servers.start("none")
    outbox = Outbox(tmp_path / "outbox")
    outbox.queue(report(1))
    transport = SMTPTransport(HOST, server.port, security="starttls", timeout=5)
    with pytest.raises(MailConfigError, match="STARTTLS"):
        outbox.deliver(transport, NOW)


def test_untrusted_certificate_is_a_config_error(
    tmp_path: Path,
    smtp_servers: SMTPServers,
) -> None:
    server = smtp_servers.start("tls")
    outbox = Outbox(tmp_path / "outbox")
    outbox.queue(report(1))
    with pytest.raises(MailConfigError, match="certificate"):
        outbox.deliver(SMTPTransport(HOST, server.port, security="tls", timeout=5), NOW)


# -- retry and failure -------------------------------------------------------------------------


@pytest.mark.parametrize("reply", ["451 4.3.0 try again later", "421 4.3.2 shutting down"])
def test_4xx_stays_pending_with_backoff_then_goes_out(
    reply: str,
    tmp_path: Path,
    smtp_servers: SMTPServers,
    tls_files,
) -> None:
    server = smtp_servers.start("none")
    server.handler.fail_data.extend([reply, reply])
    outbox = Outbox(tmp_path / "outbox")
    ident = outbox.queue(report(1))
    with smtp(server, tls_files) as transport:
        assert outbox.deliver(transport, NOW).deferred == [ident]
        (entry,) = outbox.pending()
        assert entry.attempts == 1 and entry.next_try == NOW + timedelta(minutes=1)
        assert entry.last_error == reply
        assert outbox.deliver(transport, NOW + timedelta(seconds=59)).waiting == [ident]
        later = NOW + timedelta(minutes=1)
        assert outbox.deliver(transport, later).deferred == [ident]
        assert outbox.pending()[0].next_try == later + timedelta(minutes=2)
        assert outbox.deliver(transport, later + timedelta(minutes=2)).sent == [ident]
    assert len(server.received) == 1 and server.received[0].content == outbox.raw(ident)


def test_connection_refused_is_retried(tmp_path: Path) -> None:
    outbox = Outbox(tmp_path / "outbox")
    ident = outbox.queue(report(1))
    transport = SMTPTransport(HOST, free_port(), security="none", timeout=2)
    result = outbox.deliver(transport, NOW)
    assert result.deferred == [ident]
    assert "Connection refused" in (outbox.pending()[0].last_error or "")


def test_5xx_goes_to_failed_with_the_reply(
    tmp_path: Path,
    smtp_servers: SMTPServers,
    tls_files,
) -> None:
    server = smtp_servers.start("none")
    server.handler.fail_data.append("554 5.7.1 message rejected as spam")
    server.handler.fail_rcpt["nobody@players.example"] = "550 5.1.1 no such user"
    outbox = Outbox(tmp_path / "outbox")
    spam = outbox.queue(report(1))
    unknown = outbox.queue(report(2, to="nobody@players.example"))
    fine = outbox.queue(report(3))
    with smtp(server, tls_files) as transport:
        result = outbox.deliver(transport, NOW)
    assert result.failed == [spam, unknown] and result.sent == [fine]
    failed = {e.id: e for e in outbox.failed()}
    assert failed[spam].code == 554 and "rejected as spam" in (failed[spam].reply or "")
    assert "no such user" in (failed[unknown].reply or "")
    assert failed[unknown].recipients == ("nobody@players.example",)
    assert outbox.raw(spam) == (tmp_path / "outbox" / "failed" / f"{spam}.eml").read_bytes()
    # The game master fixes the cause and retries: the same bytes go out (queued anew, once).
    again = outbox.retry_failed(spam)
    assert outbox.retry_failed(spam) == again and {e.id for e in outbox.failed()} == {unknown}
    with smtp(server, tls_files) as transport:
        assert outbox.deliver(transport, NOW).sent == [again]
    assert server.received[-1].content == outbox.raw(spam) == outbox.raw(again)
    assert outbox.state(again) == "sent" and outbox.pending() == []


def test_partly_refused_recipients_are_reported(
    tmp_path: Path,
    smtp_servers: SMTPServers,
    tls_files,
) -> None:
    server = smtp_servers.start("none")
    server.handler.fail_rcpt["gone@players.example"] = "550 5.1.1 gone"
    outbox = Outbox(tmp_path / "outbox")
    ident = outbox.queue(report(1, to="vega@players.example, gone@players.example"))
    with smtp(server, tls_files) as transport:
        result = outbox.deliver(transport, NOW)
    assert result.sent == [ident]
    assert result.refused == {ident: {"gone@players.example": "550 5.1.1 gone"}}
    assert server.received[0].rcpt_tos == ("vega@players.example",)


def test_backoff_schedule_and_giving_up(tmp_path: Path) -> None:
    backoff = Backoff()
    assert [backoff.delay(n) for n in (1, 2, 3, 9, 10, 100)] == [
        timedelta(minutes=1),
        timedelta(minutes=2),
        timedelta(minutes=4),
        timedelta(minutes=256),
        timedelta(hours=6),
        timedelta(hours=6),
    ]
    outbox = Outbox(tmp_path / "outbox", backoff=Backoff(max_attempts=3))
    ident = outbox.queue(report(1))
    transport = SMTPTransport(HOST, free_port(), security="none", timeout=2)
    now = NOW
    for _ in range(2):
        assert outbox.deliver(transport, now).deferred == [ident]
        now = outbox.pending()[0].next_try or now
    assert outbox.deliver(transport, now).failed == [ident]
    (failed,) = outbox.failed()
    assert failed.attempts == 3 and "gave up after 3 attempts" in (failed.reply or "")
