"""Real mail servers for the mail tests: aiosmtpd (SMTP) in-process, Dovecot (IMAP) as a process.

Its fixtures are offered to every test by tests/conftest.py (``pytest_plugins``): a test names
them as arguments and imports nothing. Facts these rely on (found setting them up): aiosmtpd
cannot bind port 0, a failed AUTH must return ``AuthResult(success=False, handled=False)``,
implicit TLS offers AUTH only with ``auth_require_tls=False``; Dovecot needs a 755 base directory
and refuses uid 0.

Fixtures:

- ``tls_files`` (session): a self-signed certificate for 127.0.0.1/localhost, made with
  ``cryptography``; ``.context()`` is a client context trusting it.
- ``smtp_servers`` (function): a factory, ``smtp_servers.start(security, auth=...)`` → a running
  :class:`SMTPServer` whose handler records every envelope and can be told to answer 421/451/550.
  AUTH without TLS makes aiosmtpd warn on each connection; tests that do it on purpose add
  ``pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")``.
- ``dovecot`` (session): a private Dovecot with IMAP (plain + STARTTLS) and IMAPS ports;
  ``dovecot.new_account()`` gives each test its own empty mailbox. Without Dovecot (or with
  ``PBEM_DOVECOT`` naming a missing file) every test using it errors with :data:`MISSING`.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

#: The Dovecot binary; ``PBEM_DOVECOT`` points at another one (or at a missing file, to see what
#: a machine without Dovecot gets: an error, never a skip). ``make test`` passes its own setting.
DOVECOT = os.environ.get("PBEM_DOVECOT") or "/usr/sbin/dovecot"
#: What a test needing Dovecot reports when it is not there (the Makefile's ``deps`` says the same).
MISSING = "make test needs Dovecot (Debian: apt-get install dovecot-imapd) for the IMAP tests"
#: IMAP accounts prepared in the private Dovecot's passwd-file (one per test that needs one).
ACCOUNTS = 64
HOST = "127.0.0.1"


def free_port() -> int:
    """A TCP port that was free a moment ago (aiosmtpd cannot bind port 0 itself)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


# -- TLS ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TLSFiles:
    cert: Path
    key: Path

    def context(self) -> ssl.SSLContext:
        """A verifying client context that trusts only this certificate."""
        from pbem.mail.security import client_context

        return client_context(cafile=self.cert)

    def server_context(self) -> ssl.SSLContext:
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ctx.load_cert_chain(self.cert, self.key)
        return ctx


def make_self_signed(directory: Path) -> TLSFiles:
    """A 2-day self-signed certificate for CN=localhost, SAN 127.0.0.1 and localhost."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=2))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address(HOST))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    os.chmod(cert_path, 0o644)
    os.chmod(key_path, 0o600)
    return TLSFiles(cert_path, key_path)


@pytest.fixture(scope="session")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> TLSFiles:
    return make_self_signed(tmp_path_factory.mktemp("tls"))


# -- SMTP (aiosmtpd) ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReceivedMail:
    mail_from: str
    rcpt_tos: tuple[str, ...]
    content: bytes


@dataclass
class RecordingHandler:
    """Records every accepted message; ``fail_data`` / ``fail_rcpt`` queue replies to give instead.

    ``fail_data.append("451 4.3.0 try again later")`` makes the next DATA fail with 451;
    ``fail_rcpt["x@example.test"] = "550 5.1.1 no such user"`` refuses that recipient always.
    """

    received: list[ReceivedMail] = field(default_factory=list)
    fail_data: list[str] = field(default_factory=list)
    fail_rcpt: dict[str, str] = field(default_factory=dict)

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]
    ) -> str:
        if address in self.fail_rcpt:
            return self.fail_rcpt[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.fail_data:
            return self.fail_data.pop(0)
        content = envelope.original_content or envelope.content
        self.received.append(
            ReceivedMail(envelope.mail_from, tuple(envelope.rcpt_tos), bytes(content))
        )
        return "250 2.0.0 OK queued"


@dataclass
class SMTPServer:
    host: str
    port: int
    security: str
    handler: RecordingHandler
    controller: Controller
    user: str | None = None
    password: str | None = None
    logins: list[str] = field(default_factory=list)

    @property
    def received(self) -> list[ReceivedMail]:
        return self.handler.received


class SMTPServers:
    """Starts aiosmtpd controllers on 127.0.0.1 and stops them all at teardown."""

    def __init__(self, tls: TLSFiles) -> None:
        self.tls = tls
        self.running: list[SMTPServer] = []

    def start(
        self, security: str = "none", *, user: str | None = None, password: str | None = None
    ) -> SMTPServer:
        handler = RecordingHandler()
        kwargs: dict[str, Any] = {"hostname": HOST, "port": free_port(), "ready_timeout": 5.0}
        logins: list[str] = []
        if security == "starttls":
            kwargs.update(tls_context=self.tls.server_context(), require_starttls=True)
        elif security == "tls":
            kwargs.update(ssl_context=self.tls.server_context(), auth_require_tls=False)
        elif security != "none":
            raise ValueError(security)
        if user is not None:

            def authenticator(
                server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any
            ) -> AuthResult:
                ok = (
                    isinstance(auth_data, LoginPassword)
                    and auth_data.login.decode() == user
                    and auth_data.password.decode() == password
                )
                if ok:
                    logins.append(user)
                    return AuthResult(success=True)
                return AuthResult(success=False, handled=False)

            kwargs.update(authenticator=authenticator, auth_required=True)
            if security == "none":
                kwargs.update(auth_require_tls=False)
        controller = Controller(handler, **kwargs)
        controller.start()
        server = SMTPServer(
            HOST, kwargs["port"], security, handler, controller, user, password, logins
        )
        self.running.append(server)
        return server

    def stop_all(self) -> None:
        while self.running:
            self.running.pop().controller.stop()


@pytest.fixture
def smtp_servers(tls_files: TLSFiles) -> Iterator[SMTPServers]:
    servers = SMTPServers(tls_files)
    try:
        yield servers
    finally:
        servers.stop_all()


# -- IMAP (Dovecot) -------------------------------------------------------------------------------


@dataclass
class Dovecot:
    """A private Dovecot 2.3: ``port`` speaks IMAP (STARTTLS offered), ``tls_port`` IMAPS."""

    directory: Path
    port: int
    tls_port: int
    tls: TLSFiles
    process: subprocess.Popen[bytes]
    password: str = "secret-pw"
    _accounts: int = 0

    def new_account(self) -> str:
        """A user with an empty mailbox, not used by any other test.

        The accounts are written to the passwd-file before Dovecot starts (adding lines later
        relies on Dovecot noticing the change, which was not reliable within a second).
        """
        self._accounts += 1
        if self._accounts > ACCOUNTS:
            raise RuntimeError(f"raise tests.support.mailservers.ACCOUNTS (now {ACCOUNTS})")
        return account(self._accounts)

    def log(self) -> str:
        try:
            return (self.directory / "dovecot.log").read_text(errors="replace")
        except OSError:
            return ""


def account(n: int) -> str:
    return f"game{n}@example.test"


def _dovecot_config(d: Path, port: int, tls_port: int, tls: TLSFiles) -> str:
    if os.geteuid() == 0:
        ids = "uid=nobody gid=nogroup"
        users = ""
    else:  # an unprivileged Dovecot runs everything as the invoking user
        import getpass

        me = getpass.getuser()
        ids = f"uid={os.getuid()} gid={os.getgid()}"
        users = f"default_internal_user = {me}\ndefault_login_user = {me}\n"
    return f"""\
base_dir = {d}/run
state_dir = {d}/state
protocols = imap
listen = {HOST}
log_path = {d}/dovecot.log
info_log_path = {d}/dovecot.log
ssl = yes
ssl_cert = <{tls.cert}
ssl_key = <{tls.key}
ssl_min_protocol = TLSv1.2
auth_mechanisms = plain login
auth_failure_delay = 0
{users}passdb {{
  driver = passwd-file
  args = {d}/passwd
}}
userdb {{
  driver = static
  args = {ids} home={d}/home/%u
}}
mail_location = maildir:~/Maildir
service imap-login {{
  inet_listener imap {{
    address = {HOST}
    port = {port}
  }}
  inet_listener imaps {{
    address = {HOST}
    port = {tls_port}
    ssl = yes
  }}
}}
"""


def _wait_for_port(port: int, process: subprocess.Popen[bytes], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        try:
            with socket.create_connection((HOST, port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.02)
    return False


@pytest.fixture(scope="session")
def dovecot(tls_files: TLSFiles) -> Iterator[Dovecot]:
    """A private Dovecot for the whole session. A missing Dovecot is an error of every test that
    needs it, never a skip: a suite that passes without testing IMAP would say something false."""
    if not os.path.exists(DOVECOT):
        pytest.fail(f"{MISSING} ({DOVECOT} is missing)", pytrace=False)
    d = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    os.chmod(d, 0o755)
    for sub in ("run", "state", "home"):
        (d / sub).mkdir()
    if os.geteuid() == 0:
        shutil.chown(d / "home", "nobody", "nogroup")
    password = "secret-pw"
    (d / "passwd").write_text(
        "".join(f"{account(i)}:{{PLAIN}}{password}\n" for i in range(1, ACCOUNTS + 1)),
        encoding="utf-8",
    )
    os.chmod(d / "passwd", 0o644)
    port, tls_port = free_port(), free_port()
    (d / "dovecot.conf").write_text(_dovecot_config(d, port, tls_port, tls_files))
    process = subprocess.Popen(
        [DOVECOT, "-F", "-c", str(d / "dovecot.conf")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    server = Dovecot(d, port, tls_port, tls_files, process, password)
    try:
        if not (_wait_for_port(port, process, 10) and _wait_for_port(tls_port, process, 5)):
            output = b""
            if process.poll() is not None and process.stdout is not None:
                output = process.stdout.read()
            pytest.fail(f"Dovecot did not start: {output.decode(errors='replace')}\n{server.log()}")
        yield server
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
        shutil.rmtree(d, ignore_errors=True)
