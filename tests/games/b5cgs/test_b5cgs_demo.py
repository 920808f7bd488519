"""``make demo GAME=b5cgs`` end to end (in a temporary directory): three players play Babylon 5
CGS by email (keys, vaults, signed orders through a Maildir, the referee's ingest and run), the
deal and every die from the committed chance; the export passes the audit, and the last three
lines name the game, the log and a report.

The demo is games/b5cgs/demo.py's ``main()``; ``python -m pbem.cli.demo b5cgs`` (what ``make
demo GAME=b5cgs`` runs) loads the game and calls it."""

from __future__ import annotations

import email
import json
import subprocess
import sys
from email import policy
from pathlib import Path


def test_the_b5_demo_plays_by_email_explores_fights_and_the_audit_passes(tmp_path: Path
                                                                         ) -> None:
    done = subprocess.run([sys.executable, "-m", "pbem.cli.demo", "b5cgs"], cwd=tmp_path,
                          capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "audit passed" in done.stdout
    game, log, report = done.stdout.strip().splitlines()[-3:]
    assert game.startswith("game: ") and log.startswith("log: ") and report.startswith("report: ")
    entries = [json.loads(x) for x in (Path(game[6:]) / "log.jsonl").read_text().splitlines()]
    events = [e for x in entries if x["kind"] == "resolve" for e in x["body"]["events"]]
    kinds = {e["type"] for e in events}
    assert {"placed", "built", "moved", "explored", "roll", "volley"} <= kinds, kinds
    assert Path(log[5:]).stat().st_size > 0
    mail = Path(report.removeprefix("report: ").split(" (")[0])
    msg = email.message_from_bytes(mail.read_bytes(), policy=policy.default)
    assert "resolved" in str(msg["Subject"])
    body = msg.get_body(("plain",))
    assert body is not None
    text = body.get_content()
    assert "THE MAP" in text and "SCORING BANKS" in text and "THREATS IN RANGE" in text
    assert (mail.parent / "map.svg").read_text().startswith("<?xml")
    for power in ("earth-alliance", "minbari", "valdri"):
        assert any(ln.startswith(f"{power}$ pbem orders sign ") for ln in done.stdout.splitlines())
        assert any(ln.startswith(f"{power}$ pbem orders b5 ") for ln in done.stdout.splitlines())
