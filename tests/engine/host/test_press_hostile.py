"""Hostile press, sent as an attacker sends it: real mails through ``pbem ingest ROOT --stdin``
as a subprocess under a memory cap. A forged or altered press block relays nothing, logs nothing
and never echoes its text to anyone; an oversized one is refused within its budget."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.protocol.keys import PrivateKey
from pbem.protocol.pressdoc import sign_press
from pbem.store import replay
from tests.support.ingest_helpers import REPO, everything_in, queued, registered
from tests.support.pbem_host import Host, at, iso

MEMORY_CAP = 1024 * 1024 * 1024
MARKER = "ATTACKER-PRESS-5e2a"
A, B = "pavo", "antares"


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def pipe(root: Path, raw: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "pbem", "ingest", str(root), "--stdin",
                           "--now", iso(at(1))], input=raw, capture_output=True, cwd=REPO,
                          check=False, timeout=300, preexec_fn=_cap, env=dict(os.environ))


def mail(sender: str, body: str, msgid: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "referee@example.org"
    msg["Subject"] = "press"
    msg["Message-ID"] = msgid
    msg.set_content(body)
    return msg.as_bytes()


def press_yaml(host: Host, power: str, messages: list[dict[str, object]]) -> str:
    return yaml.safe_dump({"pbem": 1, "game": host.game_id, "power": power, "turn": 1,
                           "press": messages}, sort_keys=False)


@pytest.fixture
def host(tmp_path: Path) -> Host:
    h = Host(tmp_path, "wild-4", game_id="wild-1", extra=["--deadline", "48h", "--press", "grey"])
    h.run(at(0.5))  # deliver the welcome mails: the outbox starts empty
    return h


def nothing_relayed(host: Host) -> None:
    """Nothing logged or relayed, no attacker text in any mail; the claimed power (only) is
    told that a block in its name was refused, in our words."""
    assert not host.entries(replay.PRESS)
    mails = queued(host.root)
    for _game, msg in mails:
        assert MARKER not in everything_in(msg)
        assert "Press from" not in str(msg["Subject"])
    assert [str(m["To"]) for _g, m in mails] == [registered(A)]
    assert "rejected" in str(mails[0][1]["Subject"]).lower()


def test_forged_press_from_a_stranger_key_relays_nothing(host: Host) -> None:
    stranger = PrivateKey(Ed25519PrivateKey.from_private_bytes(bytes([9]) * 32))
    block = sign_press(press_yaml(host, A, [{"to": B, "text": f"Betray {MARKER}"}]), stranger)
    done = pipe(host.root, mail(registered(A), block, "<forged-1@evil.example>"))
    assert done.returncode == 0, done.stderr
    nothing_relayed(host)


def test_altered_press_of_a_real_player_relays_nothing(host: Host) -> None:
    block = sign_press(press_yaml(host, A, [{"to": B, "text": "Hello"}]), host.keys[A])
    altered = block.replace("Hello", f"Attack now {MARKER}")
    done = pipe(host.root, mail("mallory@evil.example", altered, "<forged-2@evil.example>"))
    assert done.returncode == 0, done.stderr
    nothing_relayed(host)


def test_oversized_press_is_refused_within_the_budget(host: Host) -> None:
    many = [{"to": B, "text": f"{MARKER} {i}"} for i in range(3000)]  # > 64 KiB of YAML
    block = sign_press(press_yaml(host, A, many), host.keys[A], check=False)
    done = pipe(host.root, mail(registered(A), block, "<big-1@example.org>"))
    assert done.returncode == 0, done.stderr
    nothing_relayed(host)
