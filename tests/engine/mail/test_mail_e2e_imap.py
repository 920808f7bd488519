"""IMAP end to end: signed order mails APPENDed to a real Dovecot mailbox, ``ROOT/mail.yaml`` with
an imap section, the password in a 0600 file, ``pbem ingest ROOT --imap`` as a subprocess.

All three security modes go through the command line: loopback plaintext ("none"), STARTTLS and
IMAPS. mail.yaml has no setting for a private CA; the self-signed test certificate is trusted the
way an administrator would trust a private CA without code changes, with ``SSL_CERT_FILE`` (which
OpenSSL's default verify paths, hence ``ssl.create_default_context()``, honour). Without it the
certificate is refused.
"""

from __future__ import annotations

import imaplib
from pathlib import Path

import pytest

from pbem.mail.inbox import Inbox
from tests.support.ingest_helpers import (
    World,
    done_records,
    ingest_cli,
    order_mail,
    pristine,
    queued,
    registered,
)
from tests.support.mailservers import HOST, Dovecot


@pytest.fixture(scope="session")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return pristine(tmp_path_factory)


def append(server: Dovecot, user: str, *messages: bytes) -> None:
    conn = imaplib.IMAP4(HOST, server.port)
    conn.login(user, server.password)
    for raw in messages:
        typ, _ = conn.append("INBOX", None, None, raw)
        assert typ == "OK"
    conn.logout()


def message_ids(server: Dovecot, user: str, folder: str) -> list[str]:
    conn = imaplib.IMAP4(HOST, server.port)
    conn.login(user, server.password)
    typ, _ = conn.select(f'"{folder}"', readonly=True)
    found = []
    if typ == "OK":
        _, data = conn.uid("SEARCH", "UNDELETED")
        for uid in (data[0] or b"").split():
            _, parts = conn.uid("FETCH", uid, "(BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
            found.append(parts[0][1].decode().split(":", 1)[1].strip())
    conn.logout()
    return sorted(found)


def configure(root: Path, server: Dovecot, user: str, security: str, *,
              mode: int = 0o600) -> None:
    creds = root.parent / "imap-credentials"
    creds.write_text(f"{user}\n{server.password}\n", encoding="utf-8")
    creds.chmod(mode)
    port = server.tls_port if security == "tls" else server.port
    (root / "mail.yaml").write_text(
        "imap:\n"
        f"  host: {HOST}\n"
        f"  port: {port}\n"
        f"  security: {security}\n"
        f"  credentials_file: {creds}\n"
        "  mailbox: INBOX\n"
        "  done_folder: pbem-handled\n", encoding="utf-8")


@pytest.mark.parametrize("security", ["none", "starttls", "tls"])
def test_orders_from_imap_accepted_moved_to_the_done_folder_and_rerun_handles_nothing(
        security: str, world: World, dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.new_account()
    root = world.clone(tmp_path / "root")
    configure(root, dovecot, user, security)
    algol = order_mail(world.sign("algol"), msgid=f"<imap-algol-{security}@example.org>")
    pavo = order_mail(world.sign("pavo"), msgid=f"<imap-pavo-{security}@example.org>",
                      sender=registered("pavo"))
    junk = b"From: x@y.example\r\nSubject: hi\r\nMessage-ID: <junk@y.example>\r\n\r\nhello\r\n"
    append(dovecot, user, algol, pavo, junk)
    env = {"SSL_CERT_FILE": str(dovecot.tls.cert)}

    done = ingest_cli(root, "--imap", env=env)
    assert done.returncode == 0, done.stderr.decode() + dovecot.log()[-2000:]
    out = done.stdout.decode()
    assert out.startswith("3 message(s): 2 order block(s), 0 duplicate(s), 1 quarantined")
    assert "accepted: demo-1/algol turn 3" in out and "accepted: demo-1/pavo turn 3" in out
    assert sorted(str(m["To"]) for _, m in queued(root)) == [registered("algol"),
                                                              registered("pavo")]
    assert message_ids(dovecot, user, "INBOX") == []
    assert message_ids(dovecot, user, "pbem-handled") == sorted([
        f"<imap-algol-{security}@example.org>", f"<imap-pavo-{security}@example.org>",
        "<junk@y.example>"])
    assert len(done_records(root)) == 3 and len(Inbox(root).quarantined()) == 1

    again = ingest_cli(root, "--imap", env=env)
    assert again.returncode == 0, again.stderr.decode()
    assert again.stdout.decode().startswith("0 message(s)")
    assert len(queued(root)) == 2


def test_the_self_signed_certificate_is_refused_unless_trusted(
        world: World, dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.new_account()
    root = world.clone(tmp_path / "root")
    configure(root, dovecot, user, "tls")
    append(dovecot, user, order_mail(world.sign("algol"), msgid="<untrusted@example.org>"))
    done = ingest_cli(root, "--imap", env={"SSL_CERT_FILE": "/nonexistent"})
    assert done.returncode not in (0, 75)
    assert "certificate" in done.stderr.decode()
    assert message_ids(dovecot, user, "INBOX") == ["<untrusted@example.org>"]
    assert not done_records(root)


def test_credentials_file_readable_by_others_is_refused(
        world: World, dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.new_account()
    root = world.clone(tmp_path / "root")
    configure(root, dovecot, user, "none", mode=0o644)
    append(dovecot, user, order_mail(world.sign("algol"), msgid="<loose@example.org>"))
    done = ingest_cli(root, "--imap")
    assert done.returncode not in (0, 75)
    assert "chmod 600" in done.stderr.decode()
    assert dovecot.password not in done.stderr.decode() + done.stdout.decode()
    assert message_ids(dovecot, user, "INBOX") == ["<loose@example.org>"]


def test_password_in_mail_yaml_is_refused(world: World, tmp_path: Path) -> None:
    root = world.clone(tmp_path / "root")
    (root / "mail.yaml").write_text(
        f"imap:\n  host: {HOST}\n  port: 1\n  security: none\n  password: hunter2\n",
        encoding="utf-8")
    done = ingest_cli(root, "--imap")
    assert done.returncode not in (0, 75)
    assert "never put a password" in done.stderr.decode()


def test_unreachable_imap_server_exits_75(world: World, tmp_path: Path) -> None:
    from tests.support.mailservers import free_port

    root = world.clone(tmp_path / "root")
    creds = tmp_path / "creds"
    creds.write_text("u\np\n")
    creds.chmod(0o600)
    (root / "mail.yaml").write_text(
        f"imap:\n  host: {HOST}\n  port: {free_port()}\n  security: none\n"
        f"  credentials_file: {creds}\n", encoding="utf-8")
    done = ingest_cli(root, "--imap")
    assert done.returncode == 75, done.stderr.decode()
    assert "try again later" in done.stderr.decode()


def test_mail_yaml_ca_file_trusts_a_private_ca_without_the_environment(
        world: World, dovecot: Dovecot, tmp_path: Path) -> None:
    user = dovecot.new_account()
    root = world.clone(tmp_path / "root")
    configure(root, dovecot, user, "tls")
    with open(root / "mail.yaml", "a", encoding="utf-8") as fh:
        fh.write(f"  ca_file: {dovecot.tls.cert}\n")
    append(dovecot, user, order_mail(world.sign("algol"), msgid="<imap-ca-file@example.org>"))
    done = ingest_cli(root, "--imap", env={"SSL_CERT_FILE": "/nonexistent"})
    assert done.returncode == 0, done.stderr.decode()
    assert "accepted: demo-1/algol" in done.stdout.decode()
