"""A game's scripted demo run as ``make demo GAME=…`` runs it (``python -m pbem.cli.demo GAME``
in a directory of its own), checked the way every demo ends: exit 0, "audit passed", and the
last three lines naming the game, the revealed log and a report mail."""

from __future__ import annotations

import email
import json
import subprocess
import sys
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Demo:
    stdout: str
    game: Path  # the game's directory
    log: Path  # the revealed log it exported and audited
    report: Path  # the report mail it copied out (report.eml, report.html beside it)

    @property
    def lines(self) -> list[str]:
        return self.stdout.splitlines()

    def events(self) -> list[dict[str, Any]]:
        """Every event of every resolution in the game's log."""
        entries = [json.loads(x) for x in (self.game / "log.jsonl").read_text().splitlines()]
        return [e for x in entries if x["kind"] == "resolve" for e in x["body"]["events"]]

    def report_mail(self) -> EmailMessage:
        msg = email.message_from_bytes(self.report.read_bytes(), policy=policy.default)
        assert isinstance(msg, EmailMessage)
        return msg


def run_demo(game: str, cwd: Path, timeout: int = 600) -> Demo:
    done = subprocess.run([sys.executable, "-m", "pbem.cli.demo", game], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "audit passed" in done.stdout, done.stdout[-3000:]
    game_line, log, report = done.stdout.strip().splitlines()[-3:]
    assert game_line.startswith("game: ") and log.startswith("log: ") \
        and report.startswith("report: "), (game_line, log, report)
    return Demo(done.stdout, Path(game_line[6:]), Path(log[5:]),
                Path(report.removeprefix("report: ").split(" (")[0]))
