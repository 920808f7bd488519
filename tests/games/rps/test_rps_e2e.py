"""Rock, paper, scissors (tests/games/rps: one module, no templates, no tool) played end to end
by mail: ``pbem new --game rps``, the generic welcome, ``pbem orders new|check|sign`` on each
power's view.json, signed mails through ``pbem ingest ROOT --stdin`` and ``pbem run`` (both
subprocesses), receipts, the generic turn reports read back, a missed round on standing orders,
the last mail, ``pbem export`` and ``pbem audit`` with the game's own count."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from tests.support.ingest_helpers import REPO, everything_in, order_mail
from tests.support.pbem_host import Host, at, iso


def pbem(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "pbem", *args], input=stdin,
                          capture_output=True, cwd=REPO, check=False, env=dict(os.environ),
                          timeout=120)


def view_of(msg: EmailMessage) -> bytes | None:
    for part in msg.iter_attachments():
        if part.get_filename() == "view.json":
            content = part.get_content()
            return content if isinstance(content, bytes) else str(content).encode()
    return None


def mail_throw(host: Host, power: str, throw: str, seq: int, when: float, work: Path) -> None:
    """The newest view.json from the power's mail; pbem orders new; the throw written into the
    file by hand (the game has no tool); check; sign; mailed through pbem ingest."""
    views = [v for v in map(view_of, host.sent(f"{power}@example.org")) if v is not None]
    view = work / f"{power}-view.json"
    view.write_bytes(max(views, key=lambda v: json.loads(v)["turn"]))
    orders = work / f"{power}-{seq}.yaml"
    done = pbem("orders", "new", "--view", str(view), "--seq", str(seq), "-o", str(orders))
    assert done.returncode == 0, done.stderr
    text = orders.read_text()
    assert "orders: {}" in text, text
    orders.write_text(text.replace("orders: {}", f"orders:\n  throw: {throw}"))
    done = pbem("orders", "check", str(orders), "--view", str(view))
    assert done.returncode == 0 and done.stdout == b"ok\n", done.stdout + done.stderr
    key = host.tmp / "keys" / f"{host.game_id}-{power}.key"
    signed = pbem("orders", "sign", str(orders), "--key", str(key), "--view", str(view))
    assert signed.returncode == 0, signed.stderr
    raw = order_mail(signed.stdout.decode(), sender=f"{power}@example.org",
                     msgid=f"<{power}.{seq}@example.org>")
    done = pbem("ingest", str(host.root), "--stdin", "--now", iso(at(when)), stdin=raw)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Host, Path]:
    tmp = tmp_path_factory.mktemp("rps")
    host = Host(tmp, "best-of-3", game="rps", game_id="rps-1")
    assert host.run_cli(at(0.1)).returncode == 0  # the welcome mails
    # Round 1: red's rock beats blue's scissors. Round 2: blue sends nothing; at the deadline
    # its standing orders (no throw) lose to red's paper, and red has won two of three.
    mail_throw(host, "red", "rock", 1, 1.0, tmp)
    mail_throw(host, "blue", "scissors", 1, 1.5, tmp)
    done = host.run_cli(at(2.0))
    assert done.returncode == 0, done.stderr
    mail_throw(host, "red", "paper", 2, 3.0, tmp)
    done = host.run_cli(at(60.0))
    assert done.returncode == 0, done.stderr
    export = tmp / "rps-1.export"
    done = pbem("export", str(host.path), "-o", str(export))
    assert done.returncode == 0, done.stderr
    return host, export


def test_the_game_ran_to_its_end_on_the_defaults(game: Any) -> None:
    host, _ = game
    state = host.state()
    assert state["result"] == {"reason": "2 rounds played", "turn": 3, "winners": ["red"]}
    resolves = host.entries("resolve")
    assert len(resolves) == 2 and resolves[-1].body["used"]["blue"] is None


def test_the_generic_mails_reached_the_players(game: Any) -> None:
    host, _ = game
    blue = host.sent("blue@example.org")
    subjects = [str(m["Subject"]) for m in blue]
    assert any("Welcome to" in s for s in subjects)
    assert sum("Orders received" in s for s in subjects) == 1
    report = next(m for m in blue if "Turn 1 report for Blue" in str(m["Subject"]))
    text = everything_in(report)
    assert "Red threw rock; Blue threw scissors." in text and "Red won round 1." in text
    assert "throw: rock   # rock, paper or scissors" in text  # the pre-filled form
    assert view_of(report) is not None and "map.svg" not in text
    last = next(m for m in blue if "Turn 2 report" in str(m["Subject"]))
    assert "Blue threw nothing" in everything_in(last)
    assert any("The game is over" in s for s in subjects)
    assert any("GM summary" in str(m["Subject"]) for m in host.sent("gm@example.org"))


def test_the_export_passes_the_audit_with_the_games_count(game: Any) -> None:
    _, export = game
    done = pbem("audit", str(export))
    assert done.returncode == 0, done.stderr
    assert b"audit passed" in done.stdout and b"2 rounds" in done.stdout, done.stdout
