"""A player who plays by email with pbem's own tool, for the end-to-end tests of every game:
his key (made by tests.support.pbem_host.Host), his own vault (which keeps his fair-chance seed),
the view.json of the newest mail he got, ``pbem orders new`` / the game's ``pbem orders GAME`` /
``pbem orders sign``, and his mail fed to ``pbem ingest --stdin``.

The game's first power runs every command as a process, as a player and an MTA do (under the
memory cap); the others run the same command lines in the test process (tests.support.run:
``pbem_here``), which costs a tenth: the path through the processes is proven once per game.
A test whose promise is not about the processes (its game's process path is proven elsewhere)
passes ``process=False``: then every player runs in the test process.

``Inbox``: the game's delivered mail read once for all its players (``Host.sent`` reads and
parses every mail on each call); players given one read their newest view from it."""

from __future__ import annotations

import email
import json
import subprocess
from collections.abc import Sequence
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import yaml

from tests.support.ingest_helpers import order_mail
from tests.support.pbem_host import Host, at, attachment, iso
from tests.support.run import pbem, pbem_here


class Inbox:
    """Every mail the file transport has delivered so far, each read once, for all the players
    (``Host.sent_files`` and ``Host.sent`` read and parse every mail on each call, with
    ``email.policy.default``, whose header parsing is slow: a game by mail asked them once a
    player a step, and that was most of its cost). The parse here is ``email``'s default
    (compat32): a mail's recipient and its view.json, decoded, are all a player reads of it.
    A delivered mail never changes; new ones are read as they come."""

    def __init__(self, host: Host) -> None:
        self.folder = host.root / "sent-mail"
        self.raw: dict[str, bytes] = {}
        #: file name -> (its To header, its view.json's bytes and (turn, chance step), or None)
        self._read: dict[str, tuple[str, tuple[bytes, tuple[int, int]] | None]] = {}

    def files(self) -> dict[str, bytes]:
        """By file name, in name order: ``Host.sent_files()``."""
        names = sorted(p.name for p in self.folder.glob("*.eml")) \
            if self.folder.exists() else []
        for name in names:
            if name not in self.raw:
                self.raw[name] = (self.folder / name).read_bytes()
                self._read[name] = _read(self.raw[name])
        return {name: self.raw[name] for name in names}

    def sent(self, to: str) -> list[EmailMessage]:
        """The mails to ``to``, in name order, parsed with ``email.policy.default``:
        ``Host.sent(to)``, with only his mails parsed so."""
        return self.to_each([to])[to]

    def to_each(self, addresses: Sequence[str]) -> dict[str, list[EmailMessage]]:
        """:meth:`sent` for each of ``addresses``, each mail parsed once for them all."""
        out: dict[str, list[EmailMessage]] = {a: [] for a in addresses}
        for name, raw in self.files().items():
            readers = [a for a in addresses if a in self._read[name][0]]
            if readers:
                msg = email.message_from_bytes(raw, policy=policy.default)
                assert isinstance(msg, EmailMessage)
                for address in readers:
                    out[address].append(msg)
        return out

    def views(self, to: str) -> list[tuple[bytes, tuple[int, int], bytes]]:
        """Each mail to ``to`` with a view.json, in name order: (the view's bytes, its turn and
        chance step, the mail as delivered)."""
        out = []
        for name, raw in self.files().items():
            recipient, view = self._read[name]
            if to in recipient and view is not None:
                out.append((*view, raw))
        return out


def _read(raw: bytes) -> tuple[str, tuple[bytes, tuple[int, int]] | None]:
    msg = email.message_from_bytes(raw)
    for part in msg.walk():
        if part.get_filename() == "view.json":
            view = part.get_payload(decode=True)
            assert isinstance(view, bytes)
            data = json.loads(view)
            return str(msg["To"]), (view, (data["turn"],
                                           (data.get("chance") or {}).get("step", 0)))
    return str(msg["To"]), None


class MailPlayer:
    def __init__(self, host: Host, power: str, work: Path, *, process: bool | None = None,
                 inbox: Inbox | None = None) -> None:
        self.host, self.power, self.work = host, power, work / power
        self.inbox = inbox  # where he reads his mail (None: Host.sent)
        self.work.mkdir(parents=True)
        self.key = work.parent / "keys" / f"{host.game_id}-{power}.key"
        self.vault = self.work / "vault.json"
        self.address = f"{power}@example.org"
        self.seq = 0
        #: whether his commands run as processes (by default the game's first power's) or in
        #: this process
        self.process = power == host.powers[0] if process is None else process

    def pbem(self, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        """``pbem ARGS`` as this player (or his MTA) runs it."""
        return pbem(*args, stdin=stdin) if self.process else pbem_here(*args, stdin=stdin)

    def newest_view(self) -> dict[str, Any]:
        """The view.json of the newest mail he got (saved as his view.json, and the mail itself
        as report.eml: the README's signing line passes the mail, whose signed checkpoint lets
        the tool reveal a step after missed ones). From his ``Inbox``, if he has one: the mail
        saved as it was delivered."""
        if self.inbox is not None:
            views = self.inbox.views(self.address)
            assert views, f"no view.json in {self.power}'s mail"
            view, _, raw = max(views, key=lambda v: v[1])  # the first such, in name order
            (self.work / "view.json").write_bytes(view)
            (self.work / "report.eml").write_bytes(raw)
            loaded: dict[str, Any] = json.loads(view)
            return loaded
        mails = [(v, m) for v, m in ((attachment(m, "view.json"), m)
                                     for m in self.host.sent(self.address)) if v is not None]
        newest, mail = max(mails, key=lambda vm: (
            json.loads(vm[0])["turn"], (json.loads(vm[0]).get("chance") or {}).get("step", 0)))
        (self.work / "view.json").write_bytes(newest)
        (self.work / "report.eml").write_bytes(mail.as_bytes())
        data: dict[str, Any] = json.loads(newest)
        return data

    def sign(self, tool: Sequence[str] = (), body: dict[str, Any] | None = None
             ) -> subprocess.CompletedProcess[bytes]:
        """Write this seq's orders from his saved view.json (``pbem orders new``), then the
        game's ``pbem orders TOOL[0] FILE TOOL[1:] --view`` or ``body`` put in as the orders,
        and sign them with his vault; the signing's result (its stdout: the signed text)."""
        view, orders = self.work / "view.json", self.work / f"orders-{self.seq}.yaml"
        vault = ["--vault", str(self.vault)]
        done = self.pbem("orders", "new", "--view", str(view), "--seq", str(self.seq), "-o",
                    str(orders), "--force", *vault)
        assert done.returncode == 0, done.stderr
        if tool:
            done = self.pbem("orders", tool[0], str(orders), *tool[1:], "--view", str(view))
            assert done.returncode == 0, (tool, done.stderr)
        if body is not None:
            doc = yaml.safe_load(orders.read_text())
            doc["orders"] = body
            orders.write_text(yaml.safe_dump(doc, sort_keys=False))
        mail = self.work / "report.eml"
        return self.pbem("orders", "sign", str(orders), "--key", str(self.key), "--view",
                    str(mail if mail.exists() else view), *vault)

    def mail_orders(self, hour: float, tool: Sequence[str] = (),
                    body: dict[str, Any] | None = None, seq: int | None = None) -> str:
        """Write, sign and mail orders at ``hour`` (with the next seq, or ``seq``); the signed
        text."""
        if seq is not None:
            self.seq = seq
        signed = self.sign(tool, body)
        assert signed.returncode == 0, signed.stderr
        self.deliver(signed.stdout.decode(), hour)
        return signed.stdout.decode()

    def deliver(self, signed: str, hour: float) -> None:
        """His mail with ``signed`` in it, through ``pbem ingest --stdin`` at ``hour``."""
        raw = order_mail(signed, sender=self.address,
                         msgid=f"<{self.power}.{self.seq}@example.org>")
        done = self.pbem("ingest", str(self.host.root), "--stdin", "--now", iso(at(hour)),
                         stdin=raw)
        assert done.returncode == 0, done.stderr
        self.seq += 1
