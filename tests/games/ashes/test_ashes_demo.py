"""``make demo GAME=ashes`` end to end (in a temporary directory): three players play The Ashes
of Empire by email, with battles rolled from the committed chance; the export passes the audit
and the last three lines name the game, the log and a report."""

from __future__ import annotations

import email
import json
import subprocess
import sys
from email import policy
from pathlib import Path


def test_the_ashes_demo_plays_by_email_to_a_victory_and_the_audit_passes(tmp_path: Path
                                                                         ) -> None:
    done = subprocess.run([sys.executable, "-m", "pbem.cli.demo", "ashes"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "audit passed" in done.stdout
    game, log, report = done.stdout.strip().splitlines()[-3:]
    assert game.startswith("game: ") and log.startswith("log: ") and report.startswith("report: ")
    entries = [json.loads(x) for x in (Path(game[6:]) / "log.jsonl").read_text().splitlines()]
    events = [e for x in entries if x["kind"] == "resolve" for e in x["body"]["events"]]
    assert any(e["type"] == "battle" for e in events)
    assert Path(log[5:]).stat().st_size > 0
    mail = Path(report.removeprefix("report: ").split(" (")[0])
    msg = email.message_from_bytes(mail.read_bytes(), policy=policy.default)
    assert "red@" in str(msg["To"]) and "resolved" in str(msg["Subject"])
    for power in ("red", "blue", "green"):
        assert any(ln.startswith(f"{power}$ pbem orders sign ") for ln in done.stdout.splitlines())


def test_an_unknown_demo_game_is_a_one_line_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pbem.cli.demo", "chess"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0 and "no demo for game 'chess'" in done.stderr
