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

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.game import registry
from tests.support.mail_player import Inbox, MailPlayer
from tests.support.pbem_host import Host, at, iso
from tests.support.run import pbem, pbem_here

registry.load("b5cgs")  # imports the game's package under its directory name
demo = importlib.import_module("b5cgs.demo")


class Player(MailPlayer):
    """A player of the B5 demo's scripted choices, reading his mail from the game's ``Inbox``."""

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
    inbox = Inbox(host)
    players = {p: Player(host, p, tmp / "players", inbox=inbox,
                         process=None if processes else False) for p in host.powers}
    run = pbem if processes else pbem_here
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
