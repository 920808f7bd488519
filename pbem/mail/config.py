"""How a pbem root sends and fetches mail: ``ROOT/mail.yaml`` (optional).

Without the file pbem uses its embedded default: outgoing mail is written as one .eml per message
to ``ROOT/sent-mail/`` (a file outbox), and mail comes in through ``pbem ingest`` with --stdin,
--maildir or --mbox. Example::

  smtp:
    host: smtp.example.org
    port: 587
    security: starttls          # starttls | tls | none (none: loopback only)
    credentials_file: /home/gm/.pbem-smtp   # user on line 1, password on line 2, mode 0600
    # or: credentials_env: [PBEM_SMTP_USER, PBEM_SMTP_PASSWORD]
    # ca_file: /etc/pbem/my-ca.pem           # trust a private CA (a self-hosted server)
  imap:
    host: imap.example.org
    port: 993
    security: tls
    credentials_file: /home/gm/.pbem-imap
    mailbox: INBOX
    done_folder: pbem-handled   # handled mail is moved here (null: left in place, flagged)
  keep_mail_days: 30            # sent and handled mail pruned after this (never: kept)

Passwords are never taken from the command line or this file. Every key is checked: an unknown
one (a typo such as ``securty``) is refused with its name and the file, since ignoring it would
silently fall back to a default (starttls) and fail later with a misleading reason.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.mail.imap import IMAPSource
from pbem.mail.security import Credentials, client_context
from pbem.mail.transports import FileTransport, SMTPTransport, Transport
from pbem.protocol import safeyaml

NAME = "mail.yaml"
#: The root's retention setting (pbem.host.retention).
KEEP = "keep_mail_days"
#: Days sent and handled mail is kept when mail.yaml says nothing.
DEFAULT_KEEP_DAYS = 30
_COMMON = ("host", "port", "security", "credentials_file", "credentials_env", "ca_file")
SECTION_KEYS = {"smtp": _COMMON, "imap": (*_COMMON, "mailbox", "done_folder")}


class MailSettingsError(PbemError):
    pass


def _load(root: Path) -> dict[str, Any]:
    path = root / NAME
    if not path.exists():
        return {}
    data, problems = safeyaml.scan(path.read_text(encoding="utf-8"))
    if problems:
        raise MailSettingsError(f"{path}: " + "; ".join(str(p) for p in problems))
    if not isinstance(data, dict):
        raise MailSettingsError(f"{path}: expected a mapping with smtp and/or imap")
    for key, section in data.items():
        if key == KEEP:
            continue  # checked by keep_mail_days
        if key not in SECTION_KEYS:
            raise MailSettingsError(f"{path}: unknown key {key!r} (known: smtp, imap, {KEEP})")
        if section is None:
            continue
        if not isinstance(section, dict):
            raise MailSettingsError(f"{path}: {key} must be a mapping of settings")
        known = SECTION_KEYS[key]
        for name in section:
            if name not in known and name != "password":  # password: refused below, by name
                raise MailSettingsError(
                    f"{path}: unknown key {key}.{name} (known: {', '.join(known)})")
    return data


def _credentials(section: dict[str, Any], where: str) -> Credentials | None:
    if "credentials_file" in section:
        return Credentials.from_file(Path(str(section["credentials_file"])).expanduser())
    if "credentials_env" in section:
        names = section["credentials_env"]
        if not (isinstance(names, list) and len(names) == 2):
            raise MailSettingsError(f"{where}.credentials_env: give [USER_VAR, PASSWORD_VAR]")
        return Credentials.from_env(str(names[0]), str(names[1]))
    if "password" in section:
        raise MailSettingsError(f"{where}.password: never put a password in {NAME}; use "
                                "credentials_file or credentials_env")
    return None


def _tls(section: dict[str, Any]) -> Any:
    """A verifying TLS context, trusting ``ca_file`` too when given (None: the system's)."""
    ca = section.get("ca_file")
    return client_context(Path(str(ca)).expanduser()) if ca else None


def keep_mail_days(root: Path) -> int | None:
    """How many days sent and handled mail is kept (pbem.host.retention): ``keep_mail_days``,
    a whole number of days from 1, or ``never`` (None: nothing is pruned); default 30."""
    value = _load(root).get(KEEP, DEFAULT_KEEP_DAYS)
    if value == "never":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise MailSettingsError(f"{root / NAME}: {KEEP} must be a whole number of days from 1, "
                                f"or never (not {value!r})")
    return value


def transport(root: Path) -> Transport:
    smtp = _load(root).get("smtp")
    if not smtp:
        return FileTransport(root / "sent-mail")
    try:
        return SMTPTransport(
            str(smtp["host"]), int(smtp.get("port", 587)),
            security=str(smtp.get("security", "starttls")),
            credentials=_credentials(smtp, "smtp"),
            ssl_context=_tls(smtp),
        )
    except KeyError as exc:
        raise MailSettingsError(f"{root / NAME}: smtp.{exc.args[0]} is missing") from None


def imap_source(root: Path) -> IMAPSource:
    imap = _load(root).get("imap")
    if not imap:
        raise MailSettingsError(f"{root / NAME}: no imap section")
    creds = _credentials(imap, "imap")
    if creds is None:
        raise MailSettingsError(f"{root / NAME}: imap needs credentials_file or credentials_env")
    return IMAPSource(
        str(imap["host"]), int(imap.get("port", 993)), creds,
        security=str(imap.get("security", "tls")),
        mailbox=str(imap.get("mailbox", "INBOX")),
        done_folder=imap.get("done_folder", "pbem-handled"),
        ssl_context=_tls(imap),
    )
