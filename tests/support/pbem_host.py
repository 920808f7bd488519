"""A real pbem root for tests: keys on disk, a game made by ``pbem new``, players who sign real
orders (with real commitments kept in a vault), the real acceptance path and the real cron job."""

from __future__ import annotations

import email
import hashlib
import json
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import yaml

from pbem.cli.main import main as pbem_main
from pbem.game import registry
from pbem.host import accept, turnjob
from pbem.mail.transports import FileTransport
from pbem.protocol.commitment import commit
from pbem.protocol.keys import PrivateKey
from pbem.protocol.orderdoc import sign_orders
from pbem.store import chance
from pbem.store.gamedir import GameDir
from pbem.store.log import GameLog
from tests.support.run import pbem_text

T0 = datetime(2026, 12, 1, 0, 0, tzinfo=UTC)
AD = registry.load("4000ad")


def instance_of(game: Path) -> str:
    """The game instance of the game at ``game`` (every order file carries it)."""
    return chance.instance(GameLog.load(game / "log.jsonl").genesis.body)


def attachment(msg: EmailMessage, name: str) -> bytes | None:
    for part in msg.iter_attachments():
        if part.get_filename() == name:
            content = part.get_content()
            return content if isinstance(content, bytes) else str(content).encode()
    return None


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def iso(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


class Host:
    def __init__(self, tmp: Path, variant: str = "independents-4", *, game_id: str = "g1",
                 extra: list[str] | None = None, game: str = "4000ad") -> None:
        self.tmp = tmp
        self.root = tmp / "root"
        self.game_id = game_id
        self.path = self.root / game_id
        self.plugin = registry.load(game)
        self.powers = list(self.plugin.variants()[variant].powers)
        self.keys: dict[str, PrivateKey] = {}
        keydir = tmp / "keys"
        keydir.mkdir(exist_ok=True)
        args = ["new", str(self.path), "--game", game, "--variant", variant,
                "--gm", "gm@example.org", "--from", "Referee <referee@example.org>",
                "--now", iso(T0),
                *(extra or ["--deadline", "48h"])]
        for power in self.powers:
            prefix = keydir / f"{game_id}-{power}"
            assert pbem_main(["keygen", str(prefix)]) == 0
            self.keys[power] = PrivateKey.load(prefix.with_suffix(".key"))
            args += ["--power", f"{power}={power}@example.org:{prefix}.pub"]
        assert pbem_main(args) == 0
        self._new_args = args
        self.vault: dict[tuple[str, str, int], tuple[str, str]] = {}
        self.seq: dict[str, int] = {}

    def recreate(self) -> None:
        """Delete the game and make it again under the same id, with the same players' keys
        (a new instance of the game: a new genesis nonce)."""
        shutil.rmtree(self.path)
        assert pbem_main(self._new_args) == 0
        self.seq = {}

    # -- reading the game ------------------------------------------------------------------------
    def game(self) -> GameDir:
        return GameDir.open(self.path)

    def state(self) -> dict[str, Any]:
        return json.loads((self.path / "state.json").read_text())["state"]

    def entries(self, kind: str | None = None) -> list[Any]:
        return [e for e in self.game().log.entries if kind is None or e.kind == kind]

    def sent_files(self) -> dict[str, bytes]:
        """Every mail the file transport has delivered so far, by file name, in name order."""
        folder = self.root / "sent-mail"
        return {p.name: p.read_bytes() for p in sorted(folder.glob("*.eml"))} \
            if folder.exists() else {}

    def sent(self, to: str | None = None) -> list[email.message.EmailMessage]:
        """Every mail sent so far (to ``to``), parsed. With ``to``, each mail's headers are read
        first and only the mails to ``to`` parsed whole (a mail's parts cost most)."""
        out = []
        headers = BytesParser(policy=policy.default)
        for raw in self.sent_files().values():
            if to is not None and to not in str(headers.parsebytes(raw, headersonly=True)["To"]):
                continue
            msg = email.message_from_bytes(raw, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            out.append(msg)
        return out

    # -- a player's side ---------------------------------------------------------------------------
    def orders_text(self, power: str, body: dict[str, Any], *, turn: int | None = None,
                    seq: int | None = None) -> str:
        state = self.state()
        self.seq[power] = self.seq.get(power, 0) + 1
        doc = {"pbem": 1, "game": self.game_id, "power": power,
               "turn": self.plugin.orders_turn(state) if turn is None else turn,
               "seq": self.seq[power] if seq is None else seq,
               "instance": instance_of(self.path), "orders": body}
        return sign_orders(yaml.safe_dump(doc, sort_keys=False), self.keys[power])

    def depart(self, power: str, origin: str, ships: int | str, dest: str,
               warp: int = 1) -> dict[str, Any]:
        turn = self.state()["turn"]
        nonce = hashlib.sha256(f"{power}/{warp}/{turn}".encode()).digest()
        star = AD.board.lookup(dest).name
        self.vault[(power, str(warp), turn)] = (star, nonce.hex())
        return {"warp": warp, "from": origin, "ships": ships,
                "commitment": commit(self.game_id, power, warp, turn, star, nonce)}

    def reveals(self, power: str) -> dict[str, Any]:
        out: dict[int, Any] = {}
        if self.plugin is not AD:
            return out
        for key, warp in self.state()["warps"][power].items():
            if warp and (power, key, warp["departed"]) in self.vault:
                star, nonce = self.vault[(power, key, warp["departed"])]
                if AD.board.distance(warp["from"], star) == warp["travelled"] + 1:
                    out[int(key)] = {"arrive": star, "nonce": nonce}
        return out

    def submit(self, power: str, body: dict[str, Any] | None = None, when: datetime = T0,
               **kw: Any) -> accept.Verdict:
        body = dict(body or {})
        due = self.reveals(power)
        if due:
            body.setdefault("warps", due)
        text = self.orders_text(power, body, **kw)
        return accept.handle_block(self.root, text, received=when,
                                   message_id=f"<{power}.{when.timestamp()}@example.org>")

    # -- the game master side ----------------------------------------------------------
    def run(self, when: datetime) -> list[turnjob.GameRun]:
        return turnjob.run_root(self.root, when, FileTransport(self.root / "sent-mail"))

    def run_cli(self, when: datetime, env: dict[str, str] | None = None,
                ) -> subprocess.CompletedProcess[str]:
        return pbem_text("run", self.root, "--now", iso(when), env=env)
