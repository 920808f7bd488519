"""Mails each player gets in one round of a six-player TI4 game (``large-6``), many-window
policies on (issue 32's mail count).

The game is played through the real path, as bench/bench_windows.py plays the relay toy: every
file signed with the power's key, given the player's fair-chance contribution as ``pbem orders
sign`` adds it (pbem.cli.entropy, his own vault), judged by ``pbem.host.accept.handle_block``
(what ``pbem ingest`` calls); the turn job ``turnjob.run_root`` resolves and mails through the
file transport, twice: every power's digest pace ``every-step`` (every step's report to
everyone, as before the window policies), then ``when-due`` (the policies on). With his
set-up file each player sends his standing answers: decline every secondary he is not asked
about (two follow one card each) and ``queued: [pass]``, so a strategic action resolves in its
own step (no secondary window opens: every other power is answered) and passes are taken for
him.

Round 1 (from the strategy window to the next strategy window: the draft, six strategic
actions, the queued passes, the status phase) is counted: per player, the reports and digests
he was mailed, the receipts, and all mails; and the round's windows. The floor of the reports
per player is one a window (the mail a player would get with every step's report).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

VARIANT = "large-6"
T0 = datetime(2026, 12, 1, tzinfo=UTC)
DRAFT = ["command", "counsel", "commerce", "warfare", "industry", "research", "blockade",
         "dominion"]
#: Each power's standing answers (STATE.md's standing section).
FOLLOWS = {"red": "counsel", "green": "commerce"}


def standing(power: str) -> dict[str, Any]:
    secondaries: dict[str, Any] = {"default": "decline"}
    if power in FOLLOWS:
        secondaries[FOLLOWS[power]] = {"follow": True, "choices": []}
    return {"combat": {"hits": ["wing", "sustain"]}, "secondaries": secondaries,
            "draft": DRAFT, "queued": ["pass"]}


@dataclass
class Round:
    windows: int = 0
    reports: dict[str, int] = field(default_factory=dict)   # reports and digests
    receipts: dict[str, int] = field(default_factory=dict)
    mails: dict[str, int] = field(default_factory=dict)     # every mail to the player
    phases: list[str] = field(default_factory=list)         # each window of the round


class Table:
    """A six-player game on a fresh root, played by signed files and the turn job."""

    def __init__(self, work: Path, pace: str = "when-due") -> None:
        from pbem.game import registry
        from pbem.mail.transports import FileTransport
        from pbem.protocol.keys import PrivateKey
        from pbem.store.gameconfig import GameConfig
        from pbem.store.gamedir import GameDir

        self.plugin = registry.load("ti4")
        self.powers = list(self.plugin.variants()[VARIANT].powers)
        self.keys = {p: PrivateKey.generate() for p in self.powers}
        self.work = work
        self.root = work / "root"
        config = GameConfig.from_data({
            "game_id": "ti4-m", "game": "ti4", "variant": VARIANT, "gm": "gm@example.org",
            "from": "referee@example.org", "schedule": {"period": "48h"},
            "powers": {p: {"email": f"{p}@example.org", "digest": pace}
                       for p in self.powers}})
        self.game = GameDir.create(self.root, config, {p: k.public for p, k in
                                                       self.keys.items()}, self.plugin, T0)
        self.sent = work / "sent"
        self.transport = FileTransport(self.sent)
        self.seen: set[str] = set()
        self.newest: dict[str, tuple[tuple[int, int], bytes]] = {}
        self.seq = dict.fromkeys(self.powers, 0)
        self.now = T0
        self.run()

    def state(self) -> dict[str, Any]:
        return dict(json.loads((self.game.path / "state.json").read_text())["state"])

    def run(self) -> list[tuple[str, str]]:
        """One run of the turn job; the (to, subject) of every mail it sent."""
        from pbem.host import turnjob

        self.now += timedelta(minutes=10)
        turnjob.run_root(self.root, self.now, self.transport)
        out = []
        for path in sorted(self.sent.iterdir()):
            if not path.is_file() or path.name in self.seen:
                continue
            self.seen.add(path.name)
            raw = path.read_bytes()
            msg = BytesParser(policy=policy.default).parsebytes(raw)
            out.append((str(msg["To"]).split("@")[0], str(msg["Subject"])))
            for part in msg.iter_attachments():
                if part.get_filename() == "view.json":
                    view = json.loads(bytes(part.get_payload(decode=True)))
                    key = (int(view["turn"]), int((view.get("chance") or {}).get("step", 0)))
                    old = self.newest.get(view["viewer"])
                    if old is None or key >= old[0]:
                        self.newest[view["viewer"]] = (key, raw)
        return out

    def send(self, power: str, body: Mapping[str, Any]) -> None:
        from pbem.cli import entropy
        from pbem.host import accept
        from pbem.protocol import orderfile
        from pbem.protocol.orderdoc import sign_orders
        from pbem.protocol.vault import Vault

        saved = self.work / f"{power}-newest.eml"
        saved.write_bytes(self.newest[power][1])
        view = orderfile.load_view(saved)
        _, problems = self.plugin.normalize_orders(dict(body), view)
        assert not problems, (power, [str(p) for p in problems], body)
        doc = {"pbem": 1, "game": view["game_id"], "power": power, "turn": view["turn"],
               "seq": self.seq[power], "instance": view["instance"], "orders": dict(body)}
        self.seq[power] += 1
        text = orderfile.render(doc, [])
        asked = entropy.asked_by_view(view, saved)
        if asked is not None:
            vault = Vault.load(self.work / f"{power}-vault.json")
            text = entropy.with_entropy(text, asked, vault)
            vault.save()
        verdict = accept.handle_block(self.root, sign_orders(text, self.keys[power]),
                                      received=self.now + timedelta(minutes=1),
                                      message_id=f"<{power}.{self.seq[power]}@example.org>")
        assert verdict.verdict == "accepted", (power, verdict.verdict,
                                               [str(p) for p in verdict.problems])

    def view(self, power: str) -> dict[str, Any]:
        from pbem.protocol import orderfile

        saved = self.work / f"{power}-newest.eml"
        saved.write_bytes(self.newest[power][1])
        return dict(orderfile.load_view(saved))

    def step(self, bodies: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, str]]:
        for power, body in bodies.items():
            self.send(power, body)
        return self.run()


def orders_for(view: Mapping[str, Any], power: str) -> dict[str, Any]:
    """A due power's file: his first card's strategic action with default choices, else a
    pass; the status phase keeps the pools; nothing else asked in round 1."""
    phase = view["phase"]
    if phase == "strategy":
        return {"draft": DRAFT}
    if phase == "action":
        seat = view["table"]["players"][power]
        unused = [c for c in seat["cards"] if c not in seat["used"]]
        return {"action": {"strategic": unused[0], "choices": []} if unused
                else {"pass": True}}
    if phase == "status":
        return {"status": {}}
    return {}


def play(work: Path, pace: str = "when-due") -> Round:
    """Set-up and deal, then round 1 counted mail by mail; ``pace`` is every power's digest
    pace (``every-step``: every step's report to everyone, as before the window policies)."""
    table = Table(work, pace)
    table.step({p: {"standing": standing(p)} for p in table.powers})   # set-up
    table.step({p: {} for p in table.powers})                          # the deal
    out = Round(reports=dict.fromkeys(table.powers, 0), receipts=dict.fromkeys(table.powers, 0),
                mails=dict.fromkeys(table.powers, 0))
    assert table.state()["phase"] == "strategy", table.state()["phase"]
    while True:
        state = table.state()
        if out.windows and state["phase"] in ("strategy", "over"):
            break
        due = table.plugin.powers_due(state)
        out.phases.append(state["phase"])
        out.windows += 1
        mails = table.step({p: orders_for(table.view(p), p) for p in due})
        if table.state()["turn"] == state["turn"]:  # waiting for the deadline
            table.now += timedelta(hours=49)
            mails += table.run()
        for to, subject in mails:
            if to not in out.mails:
                continue
            out.mails[to] += 1
            if "Orders received" in subject:
                out.receipts[to] += 1
            elif "report" in subject.lower():
                out.reports[to] += 1
    return out


def measure() -> None:
    from bench.report import line

    work = Path(tempfile.mkdtemp(prefix="pbem-bench-ti4-mail-"))
    try:
        every = play(work / "every-step", "every-step")
        got = play(work / "when-due")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    n = len(got.mails)
    what = (f"ti4 mail: six-player large-6 round 1 ({got.windows} windows: "
            f"{', '.join(got.phases)}), standing answers")
    line(f"{what}, every-step digests: reports and digests per player (floor: one a window)",
         sum(every.reports.values()) / n, "mails", every.windows)
    line(f"{what}, when-due digests: reports and digests per player (floor: one a window)",
         sum(got.reports.values()) / n, "mails", got.windows)
    line(f"{what}, when-due digests: every mail per player, receipts included (floor: one a "
         "window)", sum(got.mails.values()) / n, "mails", got.windows)
    print("ti4 mail per player: " + ", ".join(
        f"{p} {got.reports[p]} reports + {got.receipts[p]} receipts = {got.mails[p]}"
        for p in got.mails), flush=True)


def run() -> None:
    measure()


if __name__ == "__main__":
    measure()
