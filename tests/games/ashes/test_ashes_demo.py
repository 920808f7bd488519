"""``make demo GAME=ashes`` end to end (in a temporary directory): three players play The Ashes
of Empire by email, with battles rolled from the committed chance; the export passes the audit
and the last three lines name the game, the log and a report."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.support.demos import Demo


def test_the_ashes_demo_plays_by_email_to_a_victory_and_the_audit_passes(
        demos: Callable[[str], Demo]) -> None:
    done = demos("ashes")
    events = done.events()
    assert any(e["type"] == "battle" for e in events)
    assert done.log.stat().st_size > 0
    msg = done.report_mail()
    assert "red@" in str(msg["To"]) and "resolved" in str(msg["Subject"])
    for power in ("red", "blue", "green"):
        assert any(ln.startswith(f"{power}$ pbem orders sign ") for ln in done.lines)


def test_an_unknown_demo_game_is_a_one_line_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pbem.cli.demo", "chess"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0 and "no demo for game 'chess'" in done.stderr
