"""Shared pieces for the end-to-end ingest and mail tests (this module holds no tests).

A :class:`World` is a real pbem root: ``demo-1`` (Independents 4, played to turn 3 by real signed
orders, so turn 1 and 2 are over) and ``finished-1`` (ended by ``pbem gm end``). Players sign real
orders with their own keys. The corpus of ``tests/support/mail_corpus`` speaks of "Vega" and
"Altair" in "demo-1": :meth:`World.signer` maps them to ``algol`` and ``pavo`` and signs a real
departure for the game's current turn; its "old" order is the very text Algol had accepted in
turn 1 (a real replay).

Registered addresses are ``<power>@example.org``; the corpus mails come from
``vega@players.example`` (a stranger) or worse, so every reply that reaches a registered address
proves the reply went by the registration, not by the From line.

Building a world costs ~0.6 s, so tests build one per session (:func:`pristine`) and copy its root
(:meth:`World.clone`, a few ms) for each test that changes it.
"""

from __future__ import annotations

import email
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from datetime import datetime
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from pbem.cli.main import main as pbem_main
from pbem.host import accept, ingest
from pbem.mail.inbox import Inbox
from pbem.mail.outbox import Outbox
from pbem.mail.sources import MaildirSource
from tests.support.mail_corpus import OrderSpec
from tests.support.pbem_host import Host, at, iso
from tests.support.run import pbem

#: When the corpus arrives: turn 3 of demo-1 is open (its deadline is at(52)).
NOW = at(5)
REPO = Path(__file__).resolve().parents[2]
POWER_OF = {"Vega": "algol", "Altair": "pavo"}
HOME = {"algol": "Algol", "pavo": "Pavo", "antares": "Antares", "regulus": "Regulus"}


def registered(power: str) -> str:
    return f"{power}@example.org"


@dataclass
class World:
    tmp: Path
    demo: Host
    finished: Host
    #: The text Algol had accepted in turn 1 (sent again, it is a replay).
    old_algol: str
    signed: list[str] = field(default_factory=list)

    @property
    def root(self) -> Path:
        return self.demo.root

    # -- signing ------------------------------------------------------------------------------
    def sign(self, power: str, body: dict[str, Any] | None = None, *, game: str = "demo-1",
             turn: int | None = None, seq: int | None = None) -> str:
        host = self.demo if game == "demo-1" else self.finished
        if body is None:
            body = {"depart": host.depart(power, HOME[power], 5, "Hamal")}
        text = host.orders_text(power, body, turn=turn, seq=seq)
        self.signed.append(text)
        return text

    def signer(self, spec: OrderSpec) -> str:
        """The real signer for ``tests.support.mail_corpus.build``."""
        power = POWER_OF[spec.power]
        if spec.label == "old":
            return self.old_algol
        if spec.game == "finished-1":
            return self.sign(power, {}, game="finished-1", turn=spec.turn)
        assert spec.game == "demo-1" and spec.turn == self.demo.state()["turn"]
        return self.sign(power)

    # -- copies -------------------------------------------------------------------------------
    def clone(self, dest: Path) -> Path:
        """A copy of the root at ``dest`` (keys stay with the players, outside the root)."""
        shutil.copytree(self.root, dest, symlinks=True)
        return dest


def make_world(tmp: Path) -> World:
    demo = Host(tmp, game_id="demo-1")
    finished = Host(tmp, game_id="finished-1")
    old = ""
    for turn, (submit_at, run_at) in enumerate(((1, 2), (3, 4)), 1):
        for power in demo.powers:
            text = demo.orders_text(power, {})
            if turn == 1 and power == "algol":
                old = text
            verdict = accept.handle_block(demo.root, text, received=at(submit_at),
                                                 message_id=f"<{power}.{turn}@example.org>")
            assert verdict.verdict == "accepted", verdict.line()
        runs = demo.run(at(run_at))
        assert {r.game: r.status for r in runs}["demo-1"] == "resolved"
    assert demo.state()["turn"] == 3
    assert pbem_main(["gm", "end", str(finished.path), "--now", iso(at(4)),
                      "--reason", "test"]) == 0
    demo.run(at(4))  # deliver the end-of-game mail: every outbox starts empty
    for game in (demo.path, finished.path):
        assert not Outbox(game / "outbox").pending()
    return World(tmp, demo, finished, old)


_PRISTINE: dict[Path, World] = {}


def pristine(tmp_path_factory: Any) -> World:
    """The session's world (built once; never change its root — clone it)."""
    if not _PRISTINE:
        world = make_world(tmp_path_factory.mktemp("world"))
        _PRISTINE[world.tmp] = world
    return next(iter(_PRISTINE.values()))


# -- mail in ----------------------------------------------------------------------------------


def maildir(path: Path) -> Path:
    for sub in ("new", "cur", "tmp"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    return path


def deliver(box: Path, name: str, raw: bytes) -> Path:
    target = maildir(box) / "new" / f"{name}.host"
    target.write_bytes(raw)
    return target


def order_mail(text: str, *, msgid: str, sender: str = "algol@example.org",
               subject: str = "orders", extra: dict[str, str] | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "referee@example.org"
    msg["Subject"] = subject
    msg["Date"] = "Tue, 01 Dec 2026 05:00:00 +0000"
    msg["Message-ID"] = msgid
    for k, v in (extra or {}).items():
        msg[k] = v
    msg.set_content(f"My orders:\n\n{text}\n-- \nme\n")
    return msg.as_bytes()


def ingest_cli(root: Path, *args: str, now: datetime = NOW, stdin: bytes | None = None,
               subprocess_: bool = True, env: dict[str, str] | None = None,
               ) -> subprocess.CompletedProcess[bytes]:
    """``pbem ingest ROOT ARGS --now NOW`` as a subprocess."""
    return pbem("ingest", root, *args, "--now", iso(now), stdin=stdin, env=env, capped=False)


def ingest_maildir(root: Path, box: Path, now: datetime = NOW) -> ingest.IngestReport:
    """The same as ``pbem ingest ROOT --maildir BOX`` in this process (for speed)."""
    source = MaildirSource(box)
    try:
        return ingest.ingest(root, source, now)
    finally:
        source.close()


# -- mail out ---------------------------------------------------------------------------------


def parse(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def queued(root: Path) -> list[tuple[str, EmailMessage]]:
    """(game, message) for every message waiting in any game's outbox (the world starts with
    none: everything before was delivered)."""
    out = []
    for game in sorted(p for p in root.iterdir() if (p / "outbox").is_dir()):
        box = Outbox(game / "outbox")
        for entry in box.pending():
            out.append((game.name, parse(box.raw(entry.id))))
    return out


def queued_to(root: Path, power: str) -> list[EmailMessage]:
    """The messages waiting in any game's outbox for ``power``'s registered address."""
    return [msg for _g, msg in queued(root) if str(msg["To"]) == registered(power)]


def texts_to(root: Path, power: str) -> list[str]:
    """The text parts of :func:`queued_to`."""
    return [text_of(msg) for msg in queued_to(root, power)]


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def everything_in(msg: EmailMessage) -> str:
    """Every header, text, HTML and attachment of ``msg``, decoded, as one string."""
    parts = [f"{k}: {v}" for k, v in msg.items()]
    for part in msg.walk():
        if part.is_multipart():
            continue
        content = part.get_content()
        parts.append(content.decode("utf-8", "replace") if isinstance(content, bytes)
                     else str(content))
    return "\n".join(parts)


def done_records(root: Path) -> dict[str, dict[str, Any]]:
    """sha256 -> the inbox's done record."""
    return dict(Inbox(root).records())


def tree(path: Path) -> dict[str, int]:
    """Every file under ``path`` (relative name -> size), symlinks as size -1."""
    out = {}
    for dirpath, _dirs, files in os.walk(path):
        for name in files:
            p = Path(dirpath) / name
            out[str(p.relative_to(path))] = -1 if p.is_symlink() else p.stat().st_size
    return out
