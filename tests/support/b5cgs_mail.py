"""A Babylon 5 CGS game played by email for the end-to-end and leak tests: ``pbem new --game
b5cgs`` with fair chance, every player writing orders with pbem's own tool from the view.json
of his last mail (``pbem orders new``, ``pbem orders b5`` with the demo's scripted choices,
``pbem orders sign`` with his vault), mailed through ``pbem ingest --stdin`` as a subprocess
under a memory cap, and the referee's ``pbem run`` after each mail. The game's first power runs
his commands as processes, as ``MailPlayer`` does, where a test is
about that path (``processes=True``, the end-to-end test's game: the path through the processes
is proven once for the game); elsewhere every player runs the same command lines in the test
process (``pbem_here``).

``play`` returns the host, the players and, for every step, the mails the players got and the
referee-only strings (``plugin.hidden``) of the state at that step, so a leak sweep can check
each mail against what was still secret when it was sent."""

from __future__ import annotations

import email
import importlib
import json
from dataclasses import dataclass, field
from email import policy
from pathlib import Path
from typing import Any

from pbem.game import registry
from tests.support.mail_player import MailPlayer
from tests.support.pbem_host import Host, at, iso
from tests.support.run import pbem, pbem_here

registry.load("b5cgs")  # imports the game's package under its directory name
demo = importlib.import_module("b5cgs.demo")


#: per mail file: (its To header, its view.json or None), read once for the process
_READ: dict[Path, tuple[str, bytes | None]] = {}


def _read(path: Path, raw: bytes) -> tuple[str, bytes | None]:
    """A delivered mail's To header and view.json attachment, read once per file with the
    standard library's lenient parser (``compat32``: it parses no header it is not asked for;
    ``policy.default`` parsing every header of every mail at every step was most of a game's
    set-up)."""
    if path not in _READ:
        msg = email.message_from_bytes(raw)
        found = [part.get_payload(decode=True) for part in msg.walk()
                 if part.get_filename() == "view.json"]
        view = found[0] if found and isinstance(found[0], bytes) else None
        _READ[path] = (str(msg["To"]), view)
    return _READ[path]


def mails_to(host: Host, powers: list[str]) -> dict[str, list[email.message.EmailMessage]]:
    """Every mail delivered so far to each of ``powers``, in name order, as ``host.sent(ADDRESS)``
    gives them for each, with each mail parsed once for them all."""
    folder = host.root / "sent-mail"
    out: dict[str, list[email.message.EmailMessage]] = {p: [] for p in powers}
    for name, raw in host.sent_files().items():
        to = _read(folder / name, raw)[0]
        readers = [p for p in powers if f"{p}@example.org" in to]
        if readers:
            msg = email.message_from_bytes(raw, policy=policy.default)
            for p in readers:
                out[p].append(msg)  # type: ignore[arg-type]
    return out


class Player(MailPlayer):
    def newest_view(self) -> dict[str, Any]:
        """MailPlayer's ``newest_view`` (the same view.json, the same report.eml), each mail
        read once for the process and only the newest one parsed whole."""
        folder = self.host.root / "sent-mail"
        mails = []
        for name, raw in self.host.sent_files().items():
            to, view = _read(folder / name, raw)
            if view is not None and self.address in to:
                mails.append((view, raw))
        newest, raw = max(mails, key=lambda vm: (
            json.loads(vm[0])["turn"], (json.loads(vm[0]).get("chance") or {}).get("step", 0)))
        mail = email.message_from_bytes(raw, policy=policy.default)
        (self.work / "view.json").write_bytes(newest)
        (self.work / "report.eml").write_bytes(mail.as_bytes())
        data: dict[str, Any] = json.loads(newest)
        return data

    def mail_orders(self, view: dict[str, Any], when: float) -> list[str]:  # type: ignore[override]
        """Write, check, sign and mail this step's orders; returns the tool's flags."""
        flags = demo.flags(view) if view["window"]["kind"] not in ("setup", "deal") else []
        super().mail_orders(when, ("b5", *flags) if flags else ())
        return flags


@dataclass
class Step:
    hidden: list[str]               # plugin.hidden of the state these mails were sent from
    mails: list[bytes]              # every mail to a player sent by this step's run
    state: dict[str, Any] = field(default_factory=dict)


@dataclass
class Played:
    host: Host
    players: dict[str, Player]
    steps: list[Step]
    tmp: Path
    flags: list[list[str]] = field(default_factory=list)
    exports: list[tuple[list[str], bytes]] = field(default_factory=list)


def play(tmp: Path, variant: str, game_id: str, turns: int, export_at: int | None = None,
         processes: bool = True) -> Played:
    """The set-up step and ``turns`` player turns, then the game master ends the game
    (``pbem gm end``, in this process). With ``export_at``: after that many steps, the running
    game is exported (in full and with ``--public``) and kept with the referee-only strings of
    that moment. ``processes``: see above."""
    host = Host(tmp, variant, game=demo.GAME, game_id=game_id)
    players = {p: Player(host, p, tmp / "players") for p in host.powers}
    run = pbem if processes else pbem_here
    for player in players.values():
        player.process = player.process and processes
    seen: dict[str, bytes] = {}
    steps: list[Step] = []
    played = Played(host, players, steps, tmp)

    def record() -> None:
        new = {k: v for k, v in host.sent_files().items() if k not in seen}
        seen.update(new)
        state = host.state()
        players_only = [v for v in new.values() if b"To: gm@" not in v]
        steps.append(Step(host.plugin.hidden(state), players_only, state))

    host.run(at(0.1))  # the welcome mails, with the set-up step's view
    record()
    hour = 1.0
    for _ in range(turns + 1):
        for power in host.plugin.powers_due(host.state()):
            view = players[power].newest_view()
            played.flags.append(players[power].mail_orders(view, hour))
        hour += 1
        assert host.run(at(hour))[0].status in ("resolved", "over")
        record()
        if export_at == len(steps) - 1:
            for extra in ([], ["--public"]):
                out = tmp / f"mid{len(extra)}.export"
                done = run("export", str(host.path), "-o", str(out), *extra)
                assert done.returncode == 0, done.stderr
                played.exports.append((host.plugin.hidden(host.state()), out.read_bytes()))
    done = pbem_here("gm", "end", str(host.path), "--reason", "the test is over", "--now",
                iso(at(hour + 1)))
    assert done.returncode == 0, done.stderr
    host.run(at(hour + 2))  # over: the pieces and the referee's secret K are revealed
    record()
    return played
