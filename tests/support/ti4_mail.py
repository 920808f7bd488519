"""A TI4 game played by email for the end-to-end, leak and transaction tests: ``pbem new --game
ti4`` with fair chance; every player writes his orders from the view.json of his last mail
(``pbem orders new``, the body put in the file, ``pbem orders sign`` with his vault) and mails
them through ``pbem ingest --stdin``; the referee's ``pbem run`` after each round of mails. A
standing file (``turn: standing``) is written and signed the same way. The first power's
commands are processes for his first orders of each kind of window, the rest run the same
command lines in this process (``Player``); each mail is read once for all the players
(``Inbox``).

By default the players play a short, scripted game (``body_for``): ranked drafts (red keeping
the second secret objective he drew, the others silent, so keeping the first), each strategic
action with no choices, one tactical action a round when the sample finds one, a pass once the
cards are played; blue mails a standing file that declines every secondary and queues his pass,
so his secondaries and passes take no window. A test may give its own ``orders`` and
``standing``. ``play`` returns, for every step, the mails the players got and the referee-only
strings of the state (``plugin.hidden``) and the others' secrets at that step, for the leak
sweep."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.game import registry
from tests.support.mail_player import Inbox, MailPlayer
from tests.support.pbem_host import Host, at, iso
from tests.support.run import pbem_here

registry.load("ti4")  # imports the game's package under its directory name
sample = importlib.import_module("ti4.sample")

#: blue's standing answers, mailed once as a standing file
STANDING = {"secondaries": {"default": "decline"}, "queued": ["pass"],
            "combat": {"hits": ["wing", "sustain", "frigate"], "retreat": {"at_most": 0}}}
STANDINGS = {"blue": STANDING}


@dataclass
class Step:
    kind: str                       # the window resolved by this step's run
    hidden: list[str]               # plugin.hidden of the state the mails were sent from
    secrets: dict[str, list[str]]   # each power's plugin.secrets then
    mails: list[bytes]              # every mail to a player sent by this step's run
    state: dict[str, Any] = field(default_factory=dict)


@dataclass
class Played:
    host: Host
    players: dict[str, Player]
    steps: list[Step]
    inbox: Inbox
    exports: list[tuple[list[str], bytes]] = field(default_factory=list)


def body_for(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The scripted player's orders for the window open in ``view``."""
    me, phase = view["viewer"], view["phase"]
    if phase == "strategy":
        cards = sorted(view["pack"]["strategy_cards"],
                       key=lambda c: view["pack"]["strategy_cards"][c]["initiative"])
        body: dict[str, Any] = {"draft": cards[::-1] if me == "red" else cards[1:]}
        drawn = (view.get("you") or {}).get("drawn")
        if drawn and me == "red":  # red keeps the second secret he drew; the others are silent
            body["keep"] = [drawn[-1]]
        return body
    if phase == "action":
        seat = view["table"]["players"][me]
        unused = [c for c in seat["cards"] if c not in seat["used"]]
        tactical = sample._tactical(view, me, rng) if me == "red" and rng.random() < 0.5 \
            else None
        if tactical is not None:
            return {"action": tactical}
        return {"action": {"strategic": unused[0], "choices": []} if unused else {"pass": True}}
    if phase == "secondary":
        return {"secondary": {"follow": me == "green", "choices": []}}
    if phase == "status":
        seat = view["table"]["players"][me]
        return {"status": {"secret": seat["secrets"][0]} if seat.get("secrets") else {}}
    return {}


Orders = Callable[[dict[str, Any], random.Random], dict[str, Any]]


class Player(MailPlayer):
    """A ``MailPlayer`` who reads his mails from the game's ``Inbox``. The game's first power
    (``MailPlayer.process``) runs his commands as processes for his first orders of each kind
    of window (set-up, strategy, action, status, ...: ``window``), as a player and an MTA do,
    and in this process (``pbem_here``) after that: the same command lines, whose path through
    the processes is then proven for every kind of orders a game by mail sends. With
    ``process`` False every command runs in this process, the first power's too."""

    def __init__(self, host: Host, power: str, work: Path, inbox: Inbox,
                 process: bool = True) -> None:
        super().__init__(host, power, work, inbox=inbox, process=None if process else False)
        self.first = self.process
        self.kinds: set[str] = set()

    def window(self, kind: str) -> None:
        """He is about to write orders for a window of ``kind``."""
        self.process = self.first and kind not in self.kinds
        self.kinds.add(kind)



def play(tmp: Path, variant: str, game_id: str, until: Callable[[dict[str, Any]], bool],
         limit: int = 40, export_at: int | None = None, seed: int = 7,
         silent: str | None = None, orders: Orders = body_for,
         standing: Mapping[str, Mapping[str, Any]] | None = None,
         processes: bool = True) -> Played:
    """From set-up until ``until(state)`` (or ``limit`` steps), then the game master ends the
    game (``pbem gm end``; it and the exports run in this process: the command lines about
    the process are the players' and the audit's). With ``export_at``: after that many steps
    the running game is exported (in full and with ``--public``), kept with the
    referee-only strings of that moment. With ``silent``: that power never answers a
    secondary (the step then waits for its deadline). ``orders``
    writes each due player's body from his view (default: ``body_for``); ``standing``: the
    standing answers each power mails once, as a standing file, when the first strategy step
    is open (default: blue's ``STANDING``). With ``processes`` False, the first power's
    commands run in this process too (``Player``)."""
    host = Host(tmp, variant, game="ti4", game_id=game_id)
    inbox = Inbox(host)
    players = {p: Player(host, p, tmp / "players", inbox, processes) for p in host.powers}
    rng = random.Random(seed)
    seen: dict[str, bytes] = {}
    played = Played(host, players, [], inbox)

    def record(kind: str) -> None:
        new = {k: v for k, v in inbox.files().items() if k not in seen}
        seen.update(new)
        state = host.state()
        secrets = {p: host.plugin.secrets(state, p) for p in host.powers}
        played.steps.append(Step(kind, host.plugin.hidden(state), secrets,
                                 [v for v in new.values() if b"To: gm@" not in v], state))

    host.run(at(0.1))
    record("welcome")
    hour = 1.0
    for _ in range(limit):
        state = host.state()
        if host.plugin.is_over(state) or until(state):
            break
        window = host.plugin.window(state)
        assert window is not None
        for power, answers in (STANDINGS if standing is None else standing).items():
            if state["phase"] == "strategy" and not state["standing"][power]:
                players[power].window("standing")
                standing_file(players[power], answers, hour)
        for power in window.due:
            if window.kind == "secondary" and power == silent:
                continue
            players[power].window(window.kind)
            view = players[power].newest_view()
            body = orders(view, rng) if window.kind not in ("setup", "deal") else None
            players[power].mail_orders(hour, body=body)
        hour += 1
        runs = host.run(at(hour))
        if runs[0].status not in ("resolved", "over"):  # a silent power: wait for the deadline
            hour += 48
            runs = host.run(at(hour))
        assert runs[0].status in ("resolved", "over"), runs[0]
        record(window.kind)
        if export_at == len(played.steps) - 1:
            for extra in ([], ["--public"]):
                out = tmp / f"mid{len(extra)}.export"
                done = pbem_here("export", str(host.path), "-o", str(out), *extra)
                assert done.returncode == 0, done.stderr
                played.exports.append((host.plugin.hidden(host.state()), out.read_bytes()))
    done = pbem_here("gm", "end", str(host.path), "--reason", "the test is over", "--now",
                iso(at(hour + 1)))
    assert done.returncode == 0, done.stderr
    host.run(at(hour + 2))
    record("end")
    return played


def standing_file(player: MailPlayer, answers: Mapping[str, Any], hour: float) -> None:
    """``player`` mails his standing answers (a file that says ``turn: standing``), written
    with ``pbem orders new`` from his newest view, signed with ``pbem orders sign``."""
    view = player.newest_view()
    work = player.work / f"standing-{player.seq}.yaml"
    done = player.pbem("orders", "new", "--view", str(player.work / "view.json"), "--seq",
                       str(player.seq), "-o", str(work), "--force", "--vault",
                       str(player.vault))
    assert done.returncode == 0, done.stderr
    doc = yaml.safe_load(work.read_text())
    doc.update(turn="standing", orders={"standing": dict(answers)})
    work.write_text(yaml.safe_dump(doc, sort_keys=False))
    signed = player.pbem("orders", "sign", str(work), "--key", str(player.key), "--view",
                         str(player.work / "view.json"), "--vault", str(player.vault))
    assert signed.returncode == 0, signed.stderr
    assert view["viewer"] == player.power
    player.deliver(signed.stdout.decode(), hour)


#: the step after which the shared three-player game's running game is exported
EXPORT_AT = 6
_SHARED: dict[str, tuple[Played, Path]] = {}


def _round_two_begun(state: dict[str, Any]) -> bool:
    """Round 1's status phase is over: round 2's strategy phase is open."""
    return state["round"] >= 2 and state["phase"] == "strategy"


def small_3(tmp_path_factory: pytest.TempPathFactory) -> tuple[Played, Path]:
    """The three-player game the end-to-end and the leak tests read (tests/games/ti4/
    test_ti4_plugin_e2e.py and test_ti4_plugin_leaks.py), played once per process: set-up
    through round 1's status phase, red silent in every secondary step (it waits for its
    deadline), the running game exported after step ``EXPORT_AT`` (in full and with
    ``--public``), and the finished game exported in full (the path returned). The two files
    are one scheduling unit (tests/support/schedule.py), so one worker plays it for both. A
    test that writes to the game copies it first."""
    if "game" not in _SHARED:
        tmp = tmp_path_factory.mktemp("ti4")
        played = play(tmp, "small-3", "ti4-1", _round_two_begun, silent="red",
                      export_at=EXPORT_AT)
        out = tmp / "ti4-1.export"
        done = pbem_here("export", str(played.host.path), "-o", str(out))
        assert done.returncode == 0, done.stderr
        _SHARED["game"] = played, out
    return _SHARED["game"]
