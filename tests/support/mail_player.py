"""A player who plays by email with pbem's own tool, for the end-to-end tests of every game:
his key (made by tests.support.pbem_host.Host), his own vault (which keeps his fair-chance seed),
the view.json of the newest mail he got, ``pbem orders new`` / the game's ``pbem orders GAME`` /
``pbem orders sign``, and his mail fed to ``pbem ingest --stdin``.

The game's first power runs every command as a process, as a player and an MTA do (under the
memory cap); the others run the same command lines in the test process (tests.support.run:
``pbem_here``), which costs a tenth: the path through the processes is proven once per game.
A test whose promise is not about the processes (its game's process path is proven elsewhere)
passes ``process=False``: then every player runs in the test process."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from tests.support.ingest_helpers import order_mail
from tests.support.pbem_host import Host, at, attachment, iso
from tests.support.run import pbem, pbem_here


class MailPlayer:
    def __init__(self, host: Host, power: str, work: Path, *, process: bool | None = None
                 ) -> None:
        self.host, self.power, self.work = host, power, work / power
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
        the tool reveal a step after missed ones)."""
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
