"""``make demo`` end to end (in a temporary directory): the scripted game is played by email,
exported and audited, and the last three lines name the game, the log and a report. Then every
mail the game sent is searched for other players' secrets."""

from __future__ import annotations

import email
import json
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from email import policy
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def demo(demos):
    """The session's 4000 A.D. demo (tests/conftest.py): its directory and what it printed."""
    played = demos("4000ad")
    return played.cwd, played.stdout


def test_demo_plays_a_whole_game_and_the_audit_passes(demo):
    cwd, stdout = demo
    lines = stdout.strip().splitlines()
    game, log, report = lines[-3:]  # (run_demo checked "audit passed" and these three lines)
    assert (Path(game[6:]) / "log.jsonl").exists()
    assert Path(log[5:]).stat().st_size > 0
    msg = email.message_from_bytes(report_path(report).read_bytes(), policy=policy.default)
    text = msg.get_body(("plain",)).get_content()
    assert "ALGOL" in text and "ORDERS FOR TURN" in text
    entries = [json.loads(x) for x in (Path(game[6:]) / "log.jsonl").read_text().splitlines()]
    events = [e for x in entries if x["kind"] == "resolve" for e in x["body"]["events"]]
    kinds = {e["type"] for e in events}
    assert {"departure", "arrival", "battle", "production", "home_captured",
            "elimination"} <= kinds
    combined = [e for e in events if e["type"] == "battle" and len(e["fleets"]) == 2]
    assert combined and combined[0]["winner"] == "attacker", "two fleets came out together"


def report_path(line: str) -> Path:
    """``report: PATH (Algol's last report; open report.html beside it in a browser)``."""
    return Path(line.removeprefix("report: ").split(" (")[0])


def test_the_report_is_copied_out_with_an_html_copy_beside_it(demo):
    cwd, stdout = demo
    report = report_path(stdout.strip().splitlines()[-1])
    assert report == (cwd / "demo-output" / "report.eml").resolve()
    assert "open report.html beside it in a browser" in stdout.strip().splitlines()[-1]
    html = report.parent / "report.html"
    root = ET.parse(html).getroot()  # the HTML part is XHTML: it must parse as XML
    assert root.tag == "{http://www.w3.org/1999/xhtml}html"
    title = root.find(".//{http://www.w3.org/1999/xhtml}title")
    msg = email.message_from_bytes(report.read_bytes(), policy=policy.default)
    assert title is not None and title.text == str(msg["Subject"])
    assert "report" in str(msg["Subject"]).lower() and "algol@" in str(msg["To"])


def test_every_players_commands_are_printed_as_they_run(demo):
    cwd, stdout = demo
    lines = stdout.splitlines()
    for power in ("pavo", "antares", "regulus", "algol"):
        for step in ("keygen", "orders new", "orders reveal", "orders depart", "orders check",
                     "orders sign"):
            assert any(ln.startswith(f"{power}$ pbem {step} ") for ln in lines), (power, step)
        assert any(ln.startswith(f"{power}$ export PBEM_VAULT=") for ln in lines)
        assert any(ln.startswith(f"{power}: mailed ") and "referee@example.org" in ln
                   for ln in lines), power
    for step in ("new", "ingest", "run", "gm end", "export", "audit"):
        assert any(ln.startswith(f"referee$ pbem {step} ") for ln in lines), step


def test_a_printed_command_runs_as_printed(demo):
    """Copied from the output and run in the same directory, a player's check passes."""
    cwd, stdout = demo
    [*_, last] = [ln for ln in stdout.splitlines() if ln.startswith("algol$ pbem orders check ")]
    args = shlex.split(last.removeprefix("algol$ pbem "))
    done = subprocess.run([sys.executable, "-m", "pbem", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr


def all_text(msg: email.message.EmailMessage) -> str:
    """Every part of a mail, attachments included, decoded."""
    out = [str(msg["Subject"])]
    for part in msg.walk():
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True) or b""
        out.append(payload.decode("utf-8", "replace"))
    return "\n".join(out)


def test_no_mail_carries_another_players_nonce_or_escrow(demo):
    cwd, _ = demo
    out = cwd / "demo-output"
    secrets: dict[str, list[str]] = {}
    for vault in (out / "players").glob("*/vault.json"):
        power = vault.parent.name
        data = json.loads(vault.read_text())["games"]["andromeda-7"][power]["departures"]
        secrets[power] = [d["nonce"] for d in data]
    assert sum(len(v) for v in secrets.values()) >= 7  # every committed departure
    mails = [email.message_from_bytes(p.read_bytes(), policy=policy.default)
             for p in (out / "games" / "sent-mail").glob("*.eml")]
    checked = 0
    for msg in mails:
        to = str(msg["To"])
        if "gm@" in to or "over" in str(msg["Subject"]).lower():
            continue  # the game master's summary and the end-of-game reveal show everything
        reader = to.split("@")[0].split("<")[-1]
        text = all_text(msg)
        for power, nonces in secrets.items():
            if power == reader:
                continue
            for nonce in nonces:
                assert nonce not in text and nonce[:16] not in text, (msg["Subject"], power)
        checked += 1
    assert checked >= 30
