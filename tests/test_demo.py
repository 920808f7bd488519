"""``make demo`` end to end (in a temporary directory): the scripted game is played by email,
exported and audited, and the last three lines name the game, the log and a report."""

from __future__ import annotations

import email
import subprocess
import sys
from email import policy
from pathlib import Path


def test_demo_plays_a_whole_game_and_the_audit_passes(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pbem.demo"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert "audit passed" in done.stdout
    game, log, report = lines[-3:]
    assert game.startswith("game: ") and log.startswith("log: ") and report.startswith("report: ")
    assert (Path(game[6:]) / "log.jsonl").exists()
    assert Path(log[5:]).stat().st_size > 0
    msg = email.message_from_bytes(Path(report[8:]).read_bytes(), policy=policy.default)
    text = msg.get_body(("plain",)).get_content()
    assert "ALGOL" in text and "ORDERS FOR TURN" in text
    story = (Path(game[6:]) / "log.jsonl").read_text()
    for happened in ('"type":"battle"', '"type":"home_captured"', '"type":"production"',
                     '"type":"elimination"', '"commitment":"'):
        assert happened in story, happened
    assert '"fleets":[{' in story and story.count('"warp":') > 10
