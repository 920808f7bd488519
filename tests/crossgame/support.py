"""The cross-game suite's driver: one game of any kind played as its players and game master
would, with every mail kept beside the state it was sent from.

``play(game, where, smtp)`` runs, for the game's adapter row (tests/crossgame/adapters.py):

* ``pbem keygen`` for every player and ``pbem new`` (a subprocess, as the game master types it),
  with the referee's mail going out by SMTP to a real aiosmtpd on 127.0.0.1;
* every step: each due player saves the newest mail he got, starts his order file from it
  (``pbem orders new --view``), uses the game's edit command or writes a body, signs it with
  his key and vault and mails it; the referee reads the mail (``pbem ingest``) and runs the cron
  job (``pbem run``). Once per game, the first due player whose tool has something to write
  does all this as subprocesses, exactly as the README shows a player, with the saved ``.eml``
  as the view, and his mail goes through ``pbem ingest --stdin`` (a subprocess); the others use
  the same commands in this process (for speed), their mail through a Maildir;
* on the second step the game master extends the deadline (``pbem gm extend``); on the third
  one player sends nothing and the deadline passes; after ``steps`` steps (unless the game
  ended itself) the game master ends it (``pbem gm end``);
* a public export in the middle of the game (with the secrets of that moment), the full export
  at the end, ``pbem audit`` and ``pbem archive`` of both.

Every mail the SMTP server received is kept as a :class:`Mail` with the moment it was sent in:
its label, the state then and the referee's deadline then. The promises
(tests/crossgame/promises.py) read a :class:`Played` only.
"""

from __future__ import annotations

import contextlib
import email
import functools
import io
import json
import random
import subprocess
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import yaml

from pbem.cli.main import main as pbem_main
from pbem.game import registry
from pbem.store.gamedir import GameDir
from tests.crossgame.adapters import Adapter, adapter
from tests.support.run import pbem

REPO = Path(__file__).resolve().parents[2]
T0 = datetime(2026, 12, 1, 0, 0, tzinfo=UTC)
GM = "gm@example.org"
REFEREE = "referee@example.org"
EXTEND_STEP = 1   # the step whose deadline the game master extends
MISS_STEP = 2     # the step one player misses


def iso(hours: float) -> str:
    return (T0 + timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")


def utc_words(iso_time: str) -> str:
    """A deadline as every mail writes it (pbem.render.environment: ``Tue 3 Dec 2026 18:00
    UTC``)."""
    when = datetime.strptime(iso_time[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)
    return when.strftime("%a %-d %b %Y %H:%M UTC")


def here(*args: str | Path) -> str:
    """``pbem ARGS`` in this process (the same main; for speed); its stdout. A failure raises
    with the command and what it printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = pbem_main([str(a) for a in args])
    if code != 0:
        raise AssertionError(f"pbem {' '.join(map(str, args))} exited {code}: {err.getvalue()}")
    return out.getvalue()


def message(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def attachment(msg: EmailMessage, name: str) -> bytes | None:
    for part in msg.iter_attachments():
        if part.get_filename() == name:
            return bytes(part.get_payload(decode=True))
    return None


def parts(msg: EmailMessage) -> tuple[str, str]:
    """(the text part, the HTML part) of a mail; "" for a missing one."""
    text, html = msg.get_body(("plain",)), msg.get_body(("html",))
    return (str(text.get_content()) if text is not None else "",
            str(html.get_content()) if html is not None else "")


def everything(msg: EmailMessage) -> str:
    """Every header, part and attachment of a mail, decoded, as one string."""
    out = [f"{k}: {v}" for k, v in msg.items()]
    for part in msg.walk():
        if not part.is_multipart():
            content = part.get_content()
            out.append(content.decode("utf-8", "replace") if isinstance(content, bytes)
                       else str(content))
    return "\n".join(out)


def order_mail(signed: str, sender: str, msgid: str) -> bytes:
    """A player's mail with his signed block in the body, as a mail program sends it."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = REFEREE
    msg["Subject"] = "my orders"
    msg["Message-ID"] = msgid
    msg.set_content(f"Here are my orders.\n\n{signed}\n-- \nsent from my laptop\n")
    return msg.as_bytes()


@dataclass
class Mail:
    to: str                  # the envelope recipient
    raw: bytes
    moment: str              # what sent it: "welcome", "ingest 3", "run 3", "gm extend", ...
    step: int                # the step played when it was sent
    state: dict[str, Any]    # the game's state when it was sent
    deadline: str | None     # the referee's deadline then (ISO), None if none

    @functools.cached_property
    def msg(self) -> EmailMessage:
        return message(self.raw)

    @property
    def subject(self) -> str:
        return str(self.msg["Subject"])

    def has_view(self) -> bool:
        return attachment(self.msg, "view.json") is not None


@dataclass
class Played:
    game: str
    adapter: Adapter
    where: Path
    root: Path
    path: Path
    powers: list[str]
    mails: list[Mail] = field(default_factory=list)
    new: subprocess.CompletedProcess[bytes] | None = None
    #: the player's tool as a subprocess: (command, result) in order, by ``tool_power``
    tool: list[tuple[list[str], subprocess.CompletedProcess[bytes]]] = field(default_factory=list)
    tool_power: str | None = None
    tool_step: int | None = None
    tool_view: Path | None = None
    #: ``pbem ingest --stdin`` of his mail
    stdin: subprocess.CompletedProcess[bytes] | None = None
    extend: subprocess.CompletedProcess[bytes] | None = None
    missed: str | None = None          # the power that missed MISS_STEP
    missed_step: int | None = None
    ended_by_gm: bool = False
    public_export: Path | None = None
    public_secrets: dict[str, list[str]] = field(default_factory=dict)  # power -> its secrets
    public_hidden: list[str] = field(default_factory=list)
    export: Path | None = None
    audit: subprocess.CompletedProcess[bytes] | None = None
    archive: Path | None = None
    public_archive: Path | None = None
    steps: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def plugin(self) -> Any:
        return registry.load(self.game)

    def plugin_dir(self) -> Path:
        return registry.game_dir(self.game)

    @property
    def game_id(self) -> str:
        return self.path.name

    def address(self, power: str) -> str:
        return f"{power}@example.org"

    def key(self, power: str) -> Path:
        return self.where / "players" / power / "key.key"

    def vault(self, power: str) -> Path:
        return self.where / "players" / power / "vault.json"

    def state(self) -> dict[str, Any]:
        return dict(json.loads((self.path / "state.json").read_text())["state"])

    def to(self, power: str) -> list[Mail]:
        return [m for m in self.mails if m.to == self.address(power)]

    def to_players(self) -> list[Mail]:
        addresses = {self.address(p) for p in self.powers}
        return [m for m in self.mails if m.to in addresses]

    def to_gm(self) -> list[Mail]:
        return [m for m in self.mails if m.to == GM]


class Table:
    """Plays one game (see the module docstring)."""

    def __init__(self, game: str, where: Path, smtp_port: int) -> None:
        self.adapter = adapter(game)
        plugin = registry.load(game)
        self.root = where / "root"
        self.root.mkdir(parents=True)
        self.root.chmod(0o700)
        (self.root / "mail.yaml").write_text(yaml.safe_dump(
            {"smtp": {"host": "127.0.0.1", "port": smtp_port, "security": "none"}}))
        powers = list(plugin.variants()[self.adapter.variant].powers)
        self.p = Played(game, self.adapter, where, self.root, self.root / f"cg-{game}", powers)
        self.rng = random.Random(f"crossgame/{game}")
        self.hour = 0.0
        self.seq: dict[str, int] = {}
        self.maildir = where / "referee-maildir"
        for sub in ("new", "cur", "tmp"):
            (self.maildir / sub).mkdir(parents=True)

    # -- the moments that send mail ----------------------------------------------------------
    def record(self, received: list[Any], before: int, moment: str) -> None:
        state = self.p.state()
        deadline = GameDir.open(self.p.path).log.summary.deadline
        for got in received[before:]:
            for rcpt in got.rcpt_tos:
                self.p.mails.append(Mail(rcpt, got.content, moment, self.p.steps, state,
                                         deadline))

    # -- the players' side -------------------------------------------------------------------
    def newest(self, power: str) -> Mail:
        """The newest mail with a view.json this player got (his welcome or last report)."""
        mails = [m for m in self.p.to(power) if m.has_view()]
        assert mails, f"{self.p.game}: {power} got no mail with a view.json"
        return mails[-1]

    def write(self, power: str, view_file: Path, orders: Path, *, sub: bool
              ) -> list[tuple[list[str], Any]]:
        """``pbem orders new`` and the adapter's edits (and body) for ``power``; the commands
        run with their results (subprocess) or outputs (in process)."""
        run = (lambda *a: pbem(*a)) if sub else here
        vault = str(self.p.vault(power))
        done: list[tuple[list[str], Any]] = []
        cmd = ["orders", "new", "--view", str(view_file), "-o", str(orders), "--force",
               "--vault", vault]
        done.append((cmd, run(*cmd)))
        view = json.loads(attachment(message(view_file.read_bytes()), "view.json") or b"{}") \
            if view_file.suffix == ".eml" else json.loads(view_file.read_text())
        for edit in self.adapter.edits(view, vault):
            cmd = ["orders", edit[0], str(orders), *edit[1:], "--view", str(view_file)]
            done.append((cmd, run(*cmd)))
        body = self.adapter.body(view, self.rng)
        if body is not None:
            doc = yaml.safe_load(orders.read_text())
            doc["orders"] = {**(doc.get("orders") or {}), **body}
            orders.write_text(yaml.safe_dump(doc, sort_keys=False))
        return done

    def player_turn(self, power: str, smtp: Any) -> None:
        home = self.p.where / "players" / power
        mail = self.newest(power)
        saved = home / f"mail-{self.p.steps}.eml"
        saved.write_bytes(mail.raw)
        orders = home / f"orders-{self.p.steps}.yaml"
        signed = home / f"orders-{self.p.steps}.signed"
        key, vault = str(self.p.key(power)), str(self.p.vault(power))
        view = json.loads(attachment(mail.msg, "view.json") or b"{}")
        # A game without a tool: the player writes his orders by hand, and the first one runs
        # pbem's own commands as subprocesses all the same.
        use_tool = self.p.tool_power is None and (self.p.plugin.tool is None
                                                  or bool(self.adapter.edits(view, vault)))
        if use_tool:
            # Exactly as the README's Play section: the saved mail as the view.
            self.p.tool_power, self.p.tool_step, self.p.tool_view = power, self.p.steps, saved
            self.p.tool += self.write(power, saved, orders, sub=True)
            for cmd in (["orders", "check", str(orders), "--view", str(saved), "--vault", vault],
                        ["orders", "sign", str(orders), "--key", key, "--view", str(saved),
                         "--vault", vault, "-o", str(signed)]):
                self.p.tool.append((cmd, pbem(*cmd)))
            failed = [(c, r) for c, r in self.p.tool if r.returncode != 0]
            if failed:
                raise AssertionError(
                    f"{self.p.game}: the player's tool failed: pbem {' '.join(failed[0][0])}: "
                    f"{failed[0][1].stderr.decode()}")
            before = len(smtp.received)
            raw = order_mail(signed.read_text(), self.p.address(power),
                             f"<{power}.{self.p.steps}.tool@example.org>")
            self.p.stdin = pbem("ingest", self.root, "--stdin", "--now", iso(self.hour),
                                stdin=raw)
            self.record(smtp.received, before, f"ingest --stdin {self.p.steps}")
            return
        self.write(power, saved, orders, sub=False)
        here("orders", "sign", orders, "--key", key, "--view", saved, "--vault", vault,
             "-o", signed)
        n = len(list((self.maildir / "new").iterdir())) + len(list((self.maildir / "cur")
                                                                   .iterdir()))
        (self.maildir / "new" / f"{n:04d}.{power}.eml").write_bytes(order_mail(
            signed.read_text(), self.p.address(power), f"<{power}.{self.p.steps}@example.org>"))

    # -- the game -----------------------------------------------------------------------------
    def start(self, smtp: Any) -> None:
        args: list[str] = []
        for power in self.p.powers:
            home = self.p.where / "players" / power
            home.mkdir(parents=True)
            here("keygen", home / "key")
            args += ["--power", f"{power}={self.p.address(power)}:{home / 'key.pub'}"]
        self.p.new = pbem("new", self.p.path, "--game", self.p.game, "--variant",
                          self.adapter.variant, "--deadline", "48h", "--gm", GM,
                          "--from", f"Referee <{REFEREE}>", "--now", iso(0), *args)
        if self.p.new.returncode != 0:
            raise AssertionError(f"{self.p.game}: pbem new failed: {self.p.new.stderr.decode()}")
        before = len(smtp.received)
        self.hour = 0.1
        here("run", self.root, "--now", iso(self.hour))
        self.record(smtp.received, before, "welcome")

    def step(self, smtp: Any) -> None:
        plugin = self.p.plugin
        due = plugin.powers_due(self.p.state())
        self.hour += 1
        if self.p.steps == EXTEND_STEP:
            before = len(smtp.received)
            self.p.extend = pbem("gm", "extend", self.p.path, "--by", "24h",
                                 "--now", iso(self.hour))
            self.record(smtp.received, before, "gm extend")
        missing = due[-1] if self.p.steps == MISS_STEP else None
        for power in due:
            if power != missing:
                self.player_turn(power, smtp)
        before = len(smtp.received)
        here("ingest", self.root, "--maildir", self.maildir, "--now", iso(self.hour))
        self.record(smtp.received, before, f"ingest {self.p.steps}")
        if missing is not None:
            self.p.missed, self.p.missed_step = missing, self.p.steps
            self.hour += 24 * 4  # past the deadline (and its extension, and any grace)
        else:
            self.hour += 1
        before = len(smtp.received)
        here("run", self.root, "--now", iso(self.hour))
        self.record(smtp.received, before, f"run {self.p.steps}")
        self.p.steps += 1

    def public_export(self) -> None:
        out = self.p.where / "public.export.jsonl"
        here("export", self.p.path, "-o", out, "--public")
        state = self.p.state()
        self.p.public_export = out
        self.p.public_secrets = {p: list(self.p.plugin.secrets(state, p)) for p in self.p.powers}
        self.p.public_hidden = list(self.p.plugin.hidden(state))
        self.p.public_archive = self.p.where / "public-archive"
        here("archive", out, "-o", self.p.public_archive)

    def finish(self, smtp: Any) -> None:
        if not self.p.plugin.is_over(self.p.state()):
            self.p.ended_by_gm = True
            self.hour += 1
            before = len(smtp.received)
            here("gm", "end", self.p.path, "--reason", "the cross-game suite is over",
                 "--now", iso(self.hour))
            self.record(smtp.received, before, "gm end")
            self.hour += 1
            before = len(smtp.received)
            here("run", self.root, "--now", iso(self.hour))
            self.record(smtp.received, before, "run end")
        self.p.export = self.p.where / "full.export.jsonl"
        done = pbem("export", self.p.path, "-o", self.p.export)
        assert done.returncode == 0, f"{self.p.game}: pbem export: {done.stderr.decode()}"
        self.p.audit = pbem("audit", self.p.export)
        self.p.archive = self.p.where / "archive"
        here("archive", self.p.export, "-o", self.p.archive)


def play(game: str, where: Path, smtp: Any) -> Played:
    """One whole game of ``game`` (see the module docstring)."""
    table = Table(game, where, smtp.port)
    table.start(smtp)
    while table.p.steps < table.adapter.steps and not table.p.plugin.is_over(table.p.state()):
        table.step(smtp)
        if table.p.steps == MISS_STEP:
            table.public_export()
    if table.p.public_export is None:
        table.public_export()
    table.finish(smtp)
    return table.p
