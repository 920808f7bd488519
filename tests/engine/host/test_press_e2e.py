"""Press end to end in a Wild Alliance game (4000 A.D., variant ``wild-4``): players mail signed
press blocks (through a real Maildir and ``pbem ingest``), the referee relays them at once, and
``pbem run`` delivers every mail to a real SMTP server (aiosmtpd on 127.0.0.1). Each message
carries a distinctive marker, so the leak tests can grep every delivered mail and the public
export for text that must not be there.

The powers of wild-4, in turn order: pavo, antares, regulus, algol (A, B, C, D below).

The processes: the ``pbem run`` that relays the press of the main test, every ``pbem press
verify`` (what a player reads, and its exit code) and the audit of the public export run as
processes; the other runs (the welcome mails, the turns) and the full export's audit run the same
command lines in the test process (tests.support.run: ``pbem_here``).
"""

from __future__ import annotations

import email
import json
import subprocess
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.cli.main import main as pbem_main
from pbem.mail.outbox import Outbox
from pbem.protocol.pressdoc import sign_press
from pbem.store import replay
from tests.support.ingest_helpers import (
    deliver,
    everything_in,
    ingest_maildir,
    maildir,
    order_mail,
    registered,
)
from tests.support.mailservers import SMTPServer, SMTPServers
from tests.support.pbem_host import Host, at, iso
from tests.support.run import pbem_here, pbem_text

pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")

USER, PASSWORD = "referee@example.org", "s3cret-smtp"
A, B, C, D = "pavo", "antares", "regulus", "algol"
PRIVATE = "MARK-PRIVATE-A2B-7f3c91"
SEVERAL = "MARK-SEVERAL-A2CD-2b8e40"
WHITE = "MARK-WHITE-B2ALL-9d1a77"
GREY = "MARK-GREY-C2ALL-4e6f02"
D2A = "MARK-PRIVATE-D2A-c35b18"
REJECTED = "MARK-REJECTED-D-a0b1c2"
SECRET = (PRIVATE, SEVERAL, GREY, D2A)


def configure(root: Path, server: SMTPServer) -> None:
    creds = root.parent / "smtp-credentials"
    creds.write_text(f"{USER}\n{PASSWORD}\n", encoding="utf-8")
    creds.chmod(0o600)
    (root / "mail.yaml").write_text(
        f"smtp:\n  host: {server.host}\n  port: {server.port}\n  security: {server.security}\n"
        f"  credentials_file: {creds}\n", encoding="utf-8")


def pbem(*args: str, cert: Path) -> subprocess.CompletedProcess[str]:
    return pbem_text(*args, env={"SSL_CERT_FILE": str(cert)})


def press_text(host: Host, power: str, messages: list[dict[str, Any]],
               turn: int | None = None) -> str:
    doc = {"pbem": 1, "game": host.game_id, "power": power,
           "turn": host.state()["turn"] if turn is None else turn, "press": messages}
    return sign_press(yaml.safe_dump(doc, sort_keys=False), host.keys[power])


class Game:
    """A wild-4 game with grey press and an address roster, mailing through one SMTP server."""

    def __init__(self, tmp: Path, servers: SMTPServers, press: str = "grey") -> None:
        self.host = Host(tmp, "wild-4", game_id="wild-1",
                         extra=["--deadline", "48h", "--press", press, "--roster", "addresses"])
        self.server = servers.start("starttls", user=USER, password=PASSWORD)
        self.cert = servers.tls.cert
        configure(self.host.root, self.server)
        self.box = maildir(tmp / "Maildir")
        self.count = 0

    def mail(self, power: str, *blocks: str) -> None:
        self.count += 1
        deliver(self.box, f"m{self.count}", order_mail(
            "\n".join(blocks), msgid=f"<press-{self.count}@example.org>",
            sender=registered(power), subject="press"))

    def ingest(self, hours: float) -> list[str]:
        report = ingest_maildir(self.host.root, self.box, at(hours))
        return [v.verdict for v in report.verdicts]

    def run(self, hours: float, *, process: bool = False) -> str:
        """``pbem run`` at ``hours`` (a process, or the same command line in this process):
        its output."""
        args = ("run", str(self.host.root), "--now", iso(at(hours)))
        if process:
            done = pbem(*args, cert=self.cert)
            assert done.returncode == 0, done.stdout + done.stderr
            return done.stdout
        here = pbem_here(*args, env={"SSL_CERT_FILE": str(self.cert)})
        assert here.returncode == 0, here.stdout + here.stderr
        return here.stdout.decode()

    def delivered(self, start: int = 0) -> list[tuple[str, EmailMessage]]:
        """(recipient, message) for every mail the SMTP server got (from index ``start``)."""
        out = []
        for got in self.server.received[start:]:
            msg = email.message_from_bytes(got.content, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            for rcpt in got.rcpt_tos:
                out.append((rcpt, msg))
        return out


def holders(mails: list[tuple[str, EmailMessage]], marker: str) -> set[str]:
    """The recipients of every mail that holds ``marker`` anywhere (headers, parts, files)."""
    return {rcpt for rcpt, msg in mails if marker in everything_in(msg)}


def subjects(mails: list[tuple[str, EmailMessage]], rcpt: str) -> list[str]:
    return [str(msg["Subject"]) for to, msg in mails if to == rcpt]


@pytest.fixture
def game(tmp_path: Path, smtp_servers: SMTPServers) -> Game:
    g = Game(tmp_path, smtp_servers)
    g.run(0.1)  # the welcome mails
    return g


def test_welcome_lists_the_powers_and_the_players_addresses(game: Game) -> None:
    mails = game.delivered()
    assert sorted(rcpt for rcpt, _ in mails) == sorted(registered(p) for p in game.host.powers)
    for rcpt, msg in mails:
        body = msg.get_body(("plain",))
        assert body is not None
        text = str(body.get_content())
        assert "THE POWERS" in text and "pbem press sign" in text
        for power in game.host.powers:  # roster: addresses
            assert f"{power.capitalize():<10}{registered(power)}" in text, (rcpt, text)


def test_press_relayed_at_once_to_its_recipients_only_and_never_leaks(game: Game,
                                                                     tmp_path: Path) -> None:
    h = game.host
    game.mail(A, press_text(h, A, [{"to": B, "text": f"Ally with me against Algol. {PRIVATE}"},
                                   {"to": [C, D], "text": f"Two of you, hear me. {SEVERAL}"}]))
    game.mail(B, press_text(h, B, [{"to": "all", "text": f"Peace to everybody. {WHITE}"}]))
    game.mail(C, press_text(h, C, [{"to": "all", "anonymous": True,
                                    "text": f"Someone is lying. {GREY}"}]))
    game.mail(D, press_text(h, D, [{"to": [A, "sirius"], "text": f"Lost. {REJECTED}"}]))
    game.mail(D, press_text(h, D, [{"to": A, "text": f"Just you. {D2A}"}]))
    verdicts = game.ingest(1)
    assert sorted(verdicts) == ["press", "press", "press", "press", "press-rejected"]
    # Relayed during ingest: queued before any turn job runs; press is no orders.
    assert not h.entries(replay.ORDERS) and len(h.entries(replay.PRESS)) == 4
    before = len(game.server.received)
    out = game.run(1.1, process=True)
    assert "resolved" not in out, out  # every power mailed press, early is on: still no turn
    assert h.state()["turn"] == 1
    mails = game.delivered(before)
    a, b, c, d = (registered(p) for p in (A, B, C, D))

    # A private message from A to B reaches B (and A's receipt) only.
    assert holders(mails, PRIVATE) == {a, b}
    [relay] = [m for to, m in mails if to == b and "Press from Pavo" in str(m["Subject"])]
    assert PRIVATE in everything_in(relay) and "to Antares" in everything_in(relay)
    # A message to several: C and D, and the sender's receipt.
    assert holders(mails, SEVERAL) == {a, c, d}
    # White press to all: every other power, named sender; B's receipt.
    assert holders(mails, WHITE) == {a, b, c, d}
    assert sum("Press from Antares" in s for s in subjects(mails, a) + subjects(mails, c)
               + subjects(mails, d)) == 3
    # Grey press hides the sender: the relays name no sender, not even in files or headers.
    grey = [(to, m) for to, m in mails if GREY in everything_in(m) and to != c]
    assert sorted(to for to, _ in grey) == sorted([a, b, d])
    for _to, m in grey:
        whole = everything_in(m)
        assert "(anonymous)" in str(m["Subject"]) and "from=anonymous" in whole
        assert "regulus" not in whole.lower() and c not in whole
    # The rejection names the problem and its path; nothing of that file was relayed.
    [rejection] = [m for to, m in mails if to == d and "Press rejected" in str(m["Subject"])]
    assert "press[0].to[1]: no power 'sirius'" in " ".join(everything_in(rejection).split())
    assert holders(mails, REJECTED) == set()
    # Receipts list who each message went to.
    [receipt] = [m for to, m in mails if to == a and "Press relayed" in str(m["Subject"])]
    text = " ".join(everything_in(receipt).split())
    assert "to Antares:" in text and "to Regulus, Algol:" in text
    # D's message to A reached A only.
    assert holders(mails, D2A) == {a, d}

    # A recipient can check a relay came through the referee.
    saved = tmp_path / "relay.eml"
    saved.write_bytes(relay.as_bytes())
    check = pbem("press", "verify", str(saved), "--referee-key", str(h.root / "referee.pub"),
                 cert=game.cert)
    assert check.returncode == 0 and "from pavo to antares" in check.stdout, check.stderr
    # It prints the text the referee relayed and says that both bodies show it.
    assert PRIVATE in check.stdout
    assert "plain-text body shows this text" in check.stdout
    assert "HTML body shows this text" in check.stdout
    # A forwarder edits what the third player reads (the visible text, not the attachment):
    # the signature still holds, but verify says the body differs and exits 1.
    for kind in ("plain", "html"):
        edited = email.message_from_bytes(relay.as_bytes(), policy=policy.default)
        body = edited.get_body(preferencelist=(kind,))
        assert body is not None
        shown = body.get_content()
        assert PRIVATE in shown
        body.set_content(shown.replace(PRIVATE, "Attack Algol at once."), subtype=kind)
        path = tmp_path / f"edited-{kind}.eml"
        path.write_bytes(edited.as_bytes())
        told = pbem("press", "verify", str(path), "--referee-key",
                    str(h.root / "referee.pub"), cert=game.cert)
        assert told.returncode == 1, told.stdout + told.stderr
        assert PRIVATE in told.stdout and "DIFFERENT text" in told.stdout
        other = "HTML" if kind == "plain" else "plain-text"
        assert f"{other} body shows this text" in told.stdout
    copy = email.message_from_bytes(relay.as_bytes(), policy=policy.default)
    for part in copy.walk():
        if part.get_filename() == "press-message.txt":
            part.set_content(f"Ally with HIM against Algol. {PRIVATE}\n",
                             disposition="attachment", filename="press-message.txt")
    forged = tmp_path / "forged.eml"
    forged.write_bytes(copy.as_bytes())
    assert pbem("press", "verify", str(forged), "--referee-key", str(h.root / "referee.pub"),
                cert=game.cert).returncode == 1

    # The turn resolves on orders; no report, GM summary or receipt carries any press text.
    start = len(game.server.received)
    for power in h.powers:
        assert h.submit(power, {}, when=at(2)).verdict == "accepted"
    done = game.run(2.1)
    assert "resolved" in done
    after = game.delivered(start)
    assert any("Turn 1 report" in str(m["Subject"]) for _, m in after)
    [summary] = [m for to, m in after if to == "gm@example.org" and "GM summary" in
                 str(m["Subject"])]
    assert "press sent (messages; content never shown)" in " ".join(
        everything_in(summary).split())
    for marker in (*SECRET, WHITE, REJECTED):
        assert holders(after, marker) == set(), marker

    # The public export keeps white press to all and withholds the rest; both exports audit.
    public, full = tmp_path / "public.jsonl", tmp_path / "full.jsonl"
    assert pbem_main(["export", str(h.path), "--public", "-o", str(public)]) == 0
    assert pbem_main(["export", str(h.path), "-o", str(full)]) == 0
    data = public.read_text(encoding="utf-8")
    assert WHITE in data
    for marker in (*SECRET, REJECTED):
        assert marker not in data, marker
    kinds = [json.loads(line).get("kind") for line in data.splitlines()[1:]]
    assert kinds.count("press") == 4
    audit = pbem("audit", str(public), cert=game.cert)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    audited = pbem_here("audit", str(full))
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert SECRET[0] in full.read_text(encoding="utf-8")  # the history is complete


def test_press_only_mail_keeps_the_orders_and_a_mail_with_both_relays_both(game: Game) -> None:
    h = game.host
    assert h.submit(A, {}, when=at(1)).verdict == "accepted"
    standing = h.game().log.summary.standing_orders()[A]
    game.mail(A, press_text(h, A, [{"to": B, "text": f"Only press. {PRIVATE}"}]))
    game.mail(B, h.orders_text(B, {}), press_text(h, B, [{"to": A, "text": f"Both. {D2A}"}]))
    assert sorted(game.ingest(1.5)) == ["accepted", "press", "press"]
    now = h.game().log.summary.standing_orders()
    assert now[A] == standing and set(now) == {A, B}
    before = len(game.server.received)
    game.run(1.6)
    mails = game.delivered(before)
    assert holders(mails, PRIVATE) == {registered(A), registered(B)}
    assert holders(mails, D2A) == {registered(A), registered(B)}
    assert any("Orders received: Antares" in s for s in subjects(mails, registered(B)))


def test_press_rate_limit_rejects_with_a_clear_reason(game: Game) -> None:
    h = game.host
    batch = [{"to": B, "text": f"message {i}"} for i in range(20)]
    game.mail(A, press_text(h, A, batch))
    game.mail(A, press_text(h, A, [{"to": C, "text": f"over the cap {i}"} for i in range(11)]))
    game.mail(A, press_text(h, A, [{"to": D, "text": f"up to the cap {i}"} for i in range(10)]))
    assert game.ingest(1) == ["press", "press-rejected", "press"]
    before = len(game.server.received)
    game.run(1.1)
    mails = game.delivered(before)
    [rejection] = [m for to, m in mails if to == registered(A) and "Press rejected" in
                   str(m["Subject"])]
    text = " ".join(everything_in(rejection).split())
    assert "pavo has sent 20 press message(s) in turn 1" in text
    assert "cap of 30 per power per turn" in text
    assert not any("over the cap" in everything_in(m) for to, m in mails if to != registered(A))
    assert sum(1 for to, m in mails if to == registered(B)) == 20
    assert sum(1 for to, m in mails if to == registered(D)) == 10


def test_the_same_press_mail_twice_is_relayed_once(game: Game) -> None:
    h = game.host
    block = press_text(h, A, [{"to": B, "text": "once"}])
    game.mail(A, block)
    game.mail(A, block)
    assert game.ingest(1) == ["press", "press-duplicate"]
    assert len(h.entries(replay.PRESS)) == 1
    assert len([e for e in Outbox(h.path / "outbox").pending()
                if e.recipients == (registered(B),)]) == 1


def test_white_only_game_refuses_grey_press(tmp_path: Path,
                                            smtp_servers: SMTPServers) -> None:
    g = Game(tmp_path, smtp_servers, press="white")
    g.mail(A, press_text(g.host, A, [{"to": "all", "anonymous": True, "text": "who am I"}]))
    assert g.ingest(1) == ["press-rejected"]
    assert not g.host.entries(replay.PRESS)
    g.run(1.1)
    [rejection] = [m for to, m in g.delivered() if "Press rejected" in str(m["Subject"])]
    assert "press[0].anonymous: this game allows only white press" in " ".join(
        everything_in(rejection).split())
