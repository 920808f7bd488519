"""A command imports only what it uses: ``pbem distance`` (a lookup) loads no template engine,
no mail package and no turn job, however many command groups pbem has (a process started per
use should not pay for the others). Run as a real process, the modules it loaded listed."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from pbem.cli.main import main
code = main(["distance", "vega", "mira"])
heavy = ("jinja2", "pbem.render.mails", "pbem.host.turnjob", "pbem.host.ingest",
         "email.generator", "pbem.cli.archive")
print(code, [m for m in heavy if m in sys.modules])
"""


def test_distance_imports_no_templates_mail_or_turn_job() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          check=True, timeout=120)
    lines = done.stdout.strip().splitlines()
    assert lines[0].isdigit()  # the distance itself, as the command prints it
    assert lines[-1] == "0 []", done.stdout


def test_help_still_lists_every_command() -> None:
    done = subprocess.run([sys.executable, "-m", "pbem", "--help"], capture_output=True,
                          text=True, check=True, timeout=120)
    for command in ("distance", "ingest", "run", "gm", "archive", "audit"):
        assert command in done.stdout


INGEST_PROBE = """
import sys
from pbem.cli.main import main
code = main(["ingest", sys.argv[1], "--stdin", "--now", "2026-12-01T05:00:00Z"])
heavy = ("jinja2", "markupsafe", "pbem.render.environment", "pbem.host.turnjob",
         "pbem.host.accept", "pbem.host.notify", "pbem.host.press", "pbem.game.registry",
         "smtplib", "imaplib", "concurrent.futures")
print(code, [m for m in heavy if m in sys.modules])
"""


def test_ingest_of_a_mail_that_needs_no_reply_imports_no_template_engine(tmp_path) -> None:
    """``pbem ingest --stdin`` of spam (quarantined unanswered) and of the same mail again (a
    duplicate): no rendered reply, no order block, so neither jinja2 nor the judging of orders
    (accept, the game plugins), the turn job, the mail transports or a thread pool is ever
    imported — a process per mail pays only for what that mail needs. A mail that does need a
    reply still gets one (the other tests)."""
    from tests.pbem_host import Host
    from tests.test_ingest_helpers import REPO, order_mail

    host = Host(tmp_path)
    spam = order_mail("cheap pills, no orders", msgid="<spam.1@elsewhere.example>",
                      sender="spammer@elsewhere.example")
    outcomes = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", INGEST_PROBE, str(host.root)], input=spam,
                              capture_output=True, cwd=REPO, check=True, timeout=120)
        lines = done.stdout.decode().strip().splitlines()
        assert lines[-1] == "0 []", done.stdout.decode() + done.stderr.decode()
        outcomes.append(lines[0])
    assert "1 quarantined" in outcomes[0] and "1 duplicate(s)" in outcomes[1], outcomes
