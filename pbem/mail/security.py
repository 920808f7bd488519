"""Connection security and credentials shared by the IMAP source and the SMTP transport.

Passwords come from a file or the environment, never from the command line (where every user of the
machine can read them in the process list). A plaintext connection ("none") is allowed only to a
loopback address: it exists for tests and for a local MTA.
"""

from __future__ import annotations

import ipaddress
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pbem import lazy
from pbem.mail.errors import MailConfigError

if TYPE_CHECKING:
    import ssl
else:
    ssl = lazy.module("ssl")  # (only where a connection is made)

#: "tls": implicit TLS from the first byte (IMAPS 993, SMTPS 465); "starttls": upgrade a plain
#: connection (IMAP 143, submission 587); "none": no encryption, loopback only.
Security = Literal["tls", "starttls", "none"]
SECURITY_MODES: tuple[Security, ...] = ("tls", "starttls", "none")


@dataclass(frozen=True, slots=True)
class Credentials:
    """A user name and password. ``repr`` never shows the password."""

    user: str
    password: str = field(repr=False)

    @classmethod
    def from_file(cls, path: Path | str) -> Credentials:
        """Read "user" on the first line and "password" on the second.

        The file must not be readable by group or others (like ssh keys), so a password file left
        world-readable is refused rather than silently used.
        """
        path = Path(path)
        try:
            mode = path.stat().st_mode
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise MailConfigError(
                f"cannot read the credentials file {path}: {exc.strerror}"
            ) from None
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise MailConfigError(
                f"the credentials file {path} is readable by others; run: chmod 600 {path}"
            )
        lines = text.splitlines()
        if len(lines) < 2 or not lines[0].strip() or not lines[1]:
            raise MailConfigError(
                f"the credentials file {path} must hold the user on line 1 "
                "and the password on line 2"
            )
        return cls(lines[0].strip(), lines[1])

    @classmethod
    def from_env(
        cls,
        user_var: str,
        password_var: str,
        environ: Mapping[str, str] | None = None,
    ) -> Credentials:
        """Read the user and password from two environment variables."""
        env = os.environ if environ is None else environ
        user, password = env.get(user_var), env.get(password_var)
        if not user or not password:
            missing = [v for v, val in ((user_var, user), (password_var, password)) if not val]
            raise MailConfigError(f"environment variable(s) not set: {', '.join(missing)}")
        return cls(user, password)


def is_loopback(host: str) -> bool:
    """True for localhost, 127.0.0.0/8 and ::1."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_security(host: str, security: str, what: str) -> Security:
    """Validate ``security`` and refuse plaintext to anything but loopback."""
    if security not in SECURITY_MODES:
        raise MailConfigError(
            f"{what}: security must be one of {', '.join(SECURITY_MODES)}, not {security!r}"
        )
    if security == "none" and not is_loopback(host):
        raise MailConfigError(
            f"{what}: refusing an unencrypted connection to {host}; use tls or starttls"
        )
    return security  # type: ignore[return-value]


def client_context(cafile: Path | str | None = None) -> ssl.SSLContext:
    """A verifying TLS client context; ``cafile`` adds a private CA (tests, self-hosted servers)."""
    context = ssl.create_default_context(cafile=os.fspath(cafile) if cafile else None)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context
