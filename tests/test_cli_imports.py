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
