"""The newcomer's path: ``make test`` installs the mail server the tests need (Dovecot, through
apt-get when run as root) or fails with one sentence naming it, and a test needing a server that
is not there is an error, never a skip. Absence is simulated with ``PBEM_DOVECOT`` naming a
missing file and ``APT_GET=`` (no installer), not by uninstalling."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.mailservers import MISSING

REPO = Path(__file__).resolve().parents[2]


def make(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "--no-print-directory", "-C", str(REPO), *args],
                          env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=600, check=False)


def test_make_deps_finds_or_installs_dovecot() -> None:
    """The happy path on a machine with Dovecot (or root with apt-get): deps succeeds."""
    done = make("deps")
    assert done.returncode == 0, done.stderr
    assert Path(os.environ.get("PBEM_DOVECOT") or "/usr/sbin/dovecot").exists()


def test_make_deps_without_dovecot_and_no_installer_fails_with_one_sentence() -> None:
    done = make("deps", "PBEM_DOVECOT=/nonexistent/dovecot", "APT_GET=")
    assert done.returncode != 0
    assert done.stderr.splitlines()[0] == MISSING


def test_make_test_checks_the_servers_before_the_suite() -> None:
    """``make test`` runs deps (the Dovecot check) before pytest (a dry run lists the steps)."""
    done = make("-n", "test", "PBEM_DOVECOT=/nonexistent/dovecot", "APT_GET=")
    steps = done.stdout
    assert done.returncode == 0, done.stderr
    assert 0 <= steps.find("apt-get install dovecot-imapd") < steps.find("-m pytest"), steps


def test_a_test_needing_a_missing_dovecot_errors_and_is_never_skipped(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA",
         "tests/engine/mail/test_mail_imap.py::test_unacked_messages_stay_and_come_again"],
        cwd=REPO, env={**os.environ, "PBEM_DOVECOT": str(tmp_path / "no-dovecot")},
        capture_output=True, text=True, timeout=300, check=False)
    out = done.stdout + done.stderr
    assert done.returncode != 0, out
    assert "1 error" in out and "skipped" not in out, out
    assert MISSING in out
