"""A game's scripted demo run as ``make demo GAME=…`` runs it (``python -m pbem.cli.demo GAME``
in a directory of its own), checked the way every demo ends: exit 0, "audit passed", and the
last three lines naming the game, the revealed log and a report mail.

:func:`shared_demo`: each game's demo played once per test session, shared by every xdist worker
(tests/support/sessionwide.made_once, as the installed wheel is) and by every file that
reads it (the game's own demo test, the cross-game pictures). A reader never writes in it: it
copies what it changes or builds beside it in its own directory."""

from __future__ import annotations

import email
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from tests.support.sessionwide import made_once


@dataclass(frozen=True)
class Demo:
    cwd: Path  # the directory it ran in (its demo-output/ holds the report copied out)
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
    return _read(cwd, done.stdout)


def shared_demo(game: str, base: Path, timeout: int = 600) -> Demo:
    """``game``'s demo under ``base`` (a directory every xdist worker sees), played by the first
    caller under a lock: a demo that failed is played again by the next caller, and fails it
    with the same message."""
    def play(where: Path) -> None:
        cwd = where / "run"
        shutil.rmtree(cwd, ignore_errors=True)  # what a failed demo left
        cwd.mkdir()
        (where / "stdout.txt").write_text(run_demo(game, cwd, timeout).stdout)

    where = made_once(base / "demos" / game, play)
    return _read(where / "run", (where / "stdout.txt").read_text())


def _read(cwd: Path, stdout: str) -> Demo:
    game_line, log, report = stdout.strip().splitlines()[-3:]
    return Demo(cwd, stdout, Path(game_line[6:]), Path(log[5:]),
                Path(report.removeprefix("report: ").split(" (")[0]))
