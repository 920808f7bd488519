"""The toy game High Card (tests/toygame/highcard: a hidden hand, no map, one kind of step) played
end to end on the same path as 4000 A.D.: ``pbem new --game highcard``, welcome mails, the player's
tool (``pbem orders new|play|check|sign``), signed orders mailed through ``pbem ingest ROOT
--stdin`` (north's as a subprocess under a memory cap, south's in this process), the real cron
job (``pbem run``), receipts, turn reports, the gm summary, standing orders for a missed round,
the end-of-game mail, then ``pbem export`` and ``pbem audit``. The proof that the plugin contract
is complete: nothing in pbem/ knows this game."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pbem.audit import audit_path
from pbem.protocol.keys import PrivateKey
from tests.support.ingest_helpers import REPO, everything_in, order_mail
from tests.support.pbem_host import Host, at, attachment, iso
from tests.support.run import pbem, pbem_here


class Player:
    """One player of High Card with pbem's own tool: keeps the newest view.json it was sent."""

    def __init__(self, host: Host, power: str, work: Path) -> None:
        self.host, self.power, self.work = host, power, work / power
        self.work.mkdir(parents=True)
        self.key = work.parent / "keys" / f"{host.game_id}-{power}.key"
        self.address = f"{power}@example.org"
        #: the first power runs each command as a process, the other in this process
        #: (tests/support/mail_player.py says why)
        self.run = pbem if power == host.powers[0] else pbem_here

    def newest_view(self) -> dict[str, Any]:
        """The view.json of the latest step among the mails received (sent-mail files are not
        named in the order they were sent)."""
        views = [v for v in (attachment(m, "view.json") for m in self.host.sent(self.address))
                 if v is not None]
        assert views, f"no mail with a view.json for {self.power}"
        newest = max(views, key=lambda v: json.loads(v)["turn"])
        (self.work / "view.json").write_bytes(newest)
        data: dict[str, Any] = json.loads(newest)
        return data

    def mail_orders(self, card: str | None, seq: int, when: float) -> None:
        """pbem orders new, play (the game's own subcommand), check, sign; then the signed
        block is mailed to the referee through pbem ingest --stdin."""
        view = self.work / "view.json"
        orders = self.work / f"orders-{seq}.yaml"
        done = self.run("orders", "new", "--view", str(view), "--seq", str(seq), "-o", str(orders))
        assert done.returncode == 0, done.stderr
        assert b"your hand:" in orders.read_bytes()
        if card is not None:
            done = self.run("orders", "play", str(orders), "--card", card, "--view", str(view))
            assert done.returncode == 0, done.stderr
        done = self.run("orders", "check", str(orders), "--view", str(view))
        assert done.returncode == 0 and done.stdout == b"ok\n", done.stdout + done.stderr
        signed = self.run("orders", "sign", str(orders), "--key", str(self.key), "--view",
                          str(view))
        assert signed.returncode == 0, signed.stderr
        raw = order_mail(signed.stdout.decode(), sender=self.address,
                         msgid=f"<{self.power}.{seq}@example.org>")
        done = self.run("ingest", str(self.host.root), "--stdin", "--now", iso(at(when)), stdin=raw)
        assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Host, dict[str, Player], Path]:
    tmp = tmp_path_factory.mktemp("highcard")
    host = Host(tmp, "duel-2", game="highcard", game_id="hc-1")
    players = {p: Player(host, p, tmp / "players") for p in host.powers}
    host.run(at(0.1))  # delivers the welcome mails
    plays = [{"north": "ember-9", "south": "frost-2"},
             {"north": "ember-2", "south": "frost-9"},
             {"north": "ember-7", "south": "frost-5"}]
    hour = 1.0
    for seq, cards in enumerate(plays, 1):
        for power, card in cards.items():
            players[power].newest_view()
            players[power].mail_orders(card, seq, hour)
        hour += 1
        assert host.run(at(hour))[0].status == "resolved"
        hour += 1
    # Round 4: only north sends orders; at the deadline south plays its lowest card.
    players["north"].newest_view()
    players["north"].mail_orders(None, 4, hour)
    runs = host.run(at(hour + 49))
    assert runs[0].status in ("resolved", "over")
    export = tmp / "hc-1.export"
    done = pbem("export", str(host.path), "-o", str(export))
    assert done.returncode == 0, done.stderr
    return host, players, export


def test_the_game_ran_to_its_end_through_pbem(game) -> None:
    host, _, _ = game
    state = host.state()
    assert state["result"] is not None and state["turn"] == 5
    assert state["powers"]["north"]["score"] == 2 and state["powers"]["south"]["score"] == 2
    resolves = host.entries("resolve")
    assert len(resolves) == 4
    assert resolves[-1].body["used"]["south"] is None  # standing orders: its lowest card
    assert {"type": "played", "turn": 4, "power": "south", "card": "frost-7"} in \
        resolves[-1].body["events"]


def test_welcome_receipts_reports_and_the_end_reached_the_players(game) -> None:
    host, _, _ = game
    north = host.sent("north@example.org")
    subjects = [str(m["Subject"]) for m in north]
    assert any("Welcome to" in s for s in subjects)
    assert sum("Orders received" in s for s in subjects) == 4
    assert sum("Round" in s and "report" in s for s in subjects) == 4
    assert any("The game is over" in s for s in subjects)
    welcome = next(m for m in north if "Welcome to" in str(m["Subject"]))
    assert "your hand is ember-2, ember-5, ember-7, ember-9" in everything_in(welcome)
    assert attachment(welcome, "map.svg") is None  # no map: the game declares none
    end = next(m for m in north if "The game is over" in str(m["Subject"]))
    assert "The kitty was kitty-6" in everything_in(end)
    gm = host.sent("gm@example.org")
    assert any("GM summary" in str(m["Subject"]) for m in gm)


def test_no_report_shows_the_other_players_hand(game) -> None:
    host, _, _ = game
    for msg in host.sent("north@example.org"):
        blob = everything_in(msg)
        if "Round 1 report" in str(msg["Subject"]):
            # after round 1 south still holds these; north must not see them
            for card in ("frost-5", "frost-7", "frost-9"):
                assert card not in blob, card
        assert "kitty-6" not in blob or "game is over" in str(msg["Subject"]).lower()


def test_the_export_passes_the_audit_with_the_games_own_counts(game) -> None:
    host, _, export = game
    done = pbem("audit", str(export))
    assert done.returncode == 0, done.stderr
    assert b"audit passed" in done.stdout and b"4 rounds" in done.stdout
    report = audit_path(export)
    assert report.tally.counts == {"rounds": 4}
    assert report.tally.over and report.tally.plugin == "highcard"


def test_a_game_missing_part_of_the_contract_fails_at_load(tmp_path: Path) -> None:
    """A copy of High Card without a presenter method (one the base has no default for, since
    it is set to None) and with a map but no map template is refused when loaded, with one
    sentence naming both, not when its first report is due."""
    root = tmp_path / "games"
    broken = root / "brokencard"
    shutil.copytree(Path(__file__).resolve().parents[2] / "toygame" / "highcard", broken,
                    ignore=shutil.ignore_patterns("__pycache__"))
    (broken / "game.yaml").write_text("id: brokencard\ntitle: Broken\n")
    present = broken / "present.py"
    present.write_text(present.read_text().replace(
        "PRESENTER = HandPresenter()",
        "HandPresenter.game_end = None  # type: ignore\nHandPresenter.map_kind = 'cards'\n"
        "PRESENTER = HandPresenter()"))
    env = {**os.environ, "PBEM_GAMES_DIR": str(root)}
    key = PrivateKey.generate().public.text()
    done = subprocess.run([sys.executable, "-m", "pbem", "new", str(tmp_path / "g" / "b-1"),
                           "--game", "brokencard", "--variant", "duel-2",
                           "--power", f"north=n@example.org:{key}",
                           "--power", f"south=s@example.org:{key}"],
                          capture_output=True, text=True, env=env, check=False, timeout=120)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1, done.stderr
    assert "brokencard" in done.stderr and "presenter.game_end" in done.stderr
    assert "map.svg" in done.stderr
    assert not (tmp_path / "g" / "b-1").exists()


def test_a_game_whose_code_fails_is_named_and_other_games_keep_working(tmp_path: Path) -> None:
    root = tmp_path / "games"
    broken = root / "crashcard"
    shutil.copytree(Path(__file__).resolve().parents[2] / "toygame" / "highcard", broken,
                    ignore=shutil.ignore_patterns("__pycache__"))
    (broken / "game.yaml").write_text("id: crashcard\n")
    (broken / "rules.py").write_text("raise RuntimeError('deliberately broken')\n")
    env = {**os.environ, "PBEM_GAMES_DIR": os.pathsep.join([str(REPO / "games"), str(root)])}
    key = PrivateKey.generate().public.text()
    done = subprocess.run([sys.executable, "-m", "pbem", "new", str(tmp_path / "g" / "c-1"),
                           "--game", "crashcard", "--variant", "duel-2",
                           "--power", f"north=n@example.org:{key}"],
                          capture_output=True, text=True, env=env, check=False, timeout=120)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "crashcard" in done.stderr and "deliberately broken" in done.stderr
    other = subprocess.run([sys.executable, "-m", "pbem", "distance", "Vega", "Mira"],
                           capture_output=True, text=True, env=env, check=False, timeout=120)
    assert other.returncode == 0 and other.stdout == "5\n", other.stderr


def test_the_archive_of_the_toy_game_shows_its_public_steps(game, tmp_path: Path) -> None:
    """The web archive is game-agnostic: a game without archive hooks (no map) gets tables of
    its public view, a page per step, and the export embedded for in-page verification."""
    _, _, export = game
    site = tmp_path / "site"
    done = pbem("archive", str(export), "-o", str(site))
    assert done.returncode == 0, done.stderr
    pages = sorted(site.glob("step-*.html"))
    assert len(pages) >= 2
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "High Card" in index or "highcard" in index
    assert (site / "export.jsonl").read_bytes() == export.read_bytes()
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "<main" in html and "http://" not in html and "https://" not in html
