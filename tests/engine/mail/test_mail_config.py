"""ROOT/mail.yaml (pbem.mail.config): every key is known or refused with its name and the file.
A mistyped key used to be ignored, so ``securty: none`` fell back to starttls and failed later
with "does not offer STARTTLS"."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.mail import config
from pbem.mail.config import MailSettingsError
from pbem.mail.transports import FileTransport, SMTPTransport


def write(root: Path, text: str) -> Path:
    path = root / "mail.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_mistyped_smtp_key_is_refused_naming_the_key_and_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "smtp: {host: 127.0.0.1, port: 2525, securty: none}\n")
    with pytest.raises(MailSettingsError) as err:
        config.transport(tmp_path)
    assert str(path) in str(err.value) and "smtp.securty" in str(err.value)
    assert "security" in str(err.value)  # the known keys are listed


def test_a_mistyped_imap_key_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "imap: {host: 127.0.0.1, security: none, done-folder: x,\n"
                           "       credentials_env: [U, P]}\n")
    with pytest.raises(MailSettingsError, match=r"unknown key imap\.done-folder") as err:
        config.imap_source(tmp_path)
    assert str(path) in str(err.value)


def test_an_unknown_section_is_named(tmp_path: Path) -> None:
    write(tmp_path, "smpt: {host: smtp.example.org}\n")
    with pytest.raises(MailSettingsError, match="unknown key 'smpt'"):
        config.transport(tmp_path)


def test_every_documented_key_is_accepted(tmp_path: Path) -> None:
    """The README's full example (credentials from the environment, a private CA) loads."""
    from tests.support.mailservers import make_self_signed

    tls = make_self_signed(tmp_path)
    write(tmp_path, f"""\
smtp: {{host: 127.0.0.1, port: 2525, security: none,
       credentials_env: [PBEM_T_USER, PBEM_T_PASS], ca_file: {tls.cert}}}
imap: {{host: 127.0.0.1, port: 1143, security: starttls, credentials_env: [PBEM_T_USER,
       PBEM_T_PASS], ca_file: {tls.cert}, mailbox: INBOX, done_folder: null}}
""")
    env = pytest.MonkeyPatch()
    with env.context() as m:
        m.setenv("PBEM_T_USER", "gm")
        m.setenv("PBEM_T_PASS", "pw")
        smtp = config.transport(tmp_path)
        imap = config.imap_source(tmp_path)
    assert isinstance(smtp, SMTPTransport) and smtp.security == "none"
    assert imap.security == "starttls" and imap.done_folder is None


def test_without_smtp_mail_goes_to_files_and_starttls_is_the_default(tmp_path: Path) -> None:
    assert isinstance(config.transport(tmp_path), FileTransport)
    write(tmp_path, "smtp: {host: smtp.example.org}\n")
    smtp = config.transport(tmp_path)
    assert isinstance(smtp, SMTPTransport) and smtp.security == "starttls"


def test_the_readme_documents_every_key() -> None:
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    for keys in config.SECTION_KEYS.values():
        for key in keys:
            assert f"| `{key}` |" in readme, key
    for mode in ("starttls", "tls", "none"):
        assert f"`{mode}`" in readme
