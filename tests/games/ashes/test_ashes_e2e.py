"""The Ashes of Empire end to end through the engine, with fair chance (docs/protocol.md, "Fair
chance"): ``pbem new --game ashes --variant rounds-3`` records the referee's commitments; every
player writes orders with pbem's own tool from the view.json of his last mail (``pbem orders
new`` with a vault, ``pbem orders ashes``, ``pbem orders sign``), mails them through ``pbem
ingest --stdin`` under a memory cap; ``pbem run`` shuffles and deals in the first step and rolls
real dice in battles, until a victory; ``pbem export`` + ``pbem audit`` then replay every die and
the shuffle. A lying referee who alters a battle die or the deal is named by the audit."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.audit import AuditFailure, audit_bytes
from pbem.store import chance, replay
from pbem.store.gamedir import GameDir
from tests.support.ashes_play import random_orders
from tests.support.lying import lying_referee
from tests.support.mail_player import MailPlayer
from tests.support.pbem_host import Host, at, iso
from tests.support.run import pbem

GAME_ID = "ashes-1"
SEED = 3  # the players' choices (not the dice: those come from the committed chance)
STEPS = 4  # the set-up (shuffle and deal) and three rounds: battles by then, almost always


class Player(MailPlayer):
    def mail_orders(self, body: dict[str, Any], when: float) -> str:  # type: ignore[override]
        flags = tool_flags(body)
        return super().mail_orders(when, ("ashes", *flags) if flags else ())


def tool_flags(body: dict[str, Any]) -> list[str]:
    """The ``pbem orders ashes`` options that write ``body`` (as a player would type them)."""
    pairs = lambda d: [f"{c}={n}" for c, n in d.items()]  # noqa: E731
    out: list[str] = []
    if body.get("place"):
        out += ["--place", *pairs(body["place"])]
    move = body.get("move") or {}
    if "exchange" in move:
        out += ["--exchange", move["exchange"]]
    elif "colonise" in move:
        out += ["--colonise", move["colonise"]]
        if move["ships"]:
            out += ["--ships", *pairs(move["ships"])]
    elif "conquer" in move:
        ships = move["ships"]
        out += ["--conquer", move["conquer"], "--from", move["from"], "--ships",
                *([str(ships)] if isinstance(ships, int) else pairs(ships))]
        if "survivors_to" in move:
            out += ["--survivors-to", move["survivors_to"]]
    elif "reorganise" in move:
        out += ["--reorganise", *pairs(move["reorganise"])]
    if body.get("retreat"):
        out += ["--retreat", *body["retreat"]]
    return out


class Played:
    def __init__(self, host: Host, players: dict[str, Player], export: Path, tmp: Path
                 ) -> None:
        self.host, self.players, self.export, self.tmp = host, players, export, tmp


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    tmp = tmp_path_factory.mktemp("ashes")
    host = Host(tmp, "rounds-3", game="ashes", game_id=GAME_ID)
    players = {p: Player(host, p, tmp / "players") for p in host.powers}
    rng = random.Random(SEED)
    host.run(at(0.1))  # the welcome mails, with the set-up step's view
    hour = 1.0
    for step in range(3 * STEPS):
        fought = any(e["type"] == "battle" for r in host.entries("resolve")
                     for e in r.body["events"])
        if step >= STEPS and fought:
            break  # the dice are fresh every run: play on (a little) until a battle was fought
        for power in host.plugin.powers_due(host.state()):
            view = players[power].newest_view()
            players[power].mail_orders(random_orders(view, rng), hour)
        hour += 1
        assert host.run(at(hour))[0].status in ("resolved", "over")
        if host.plugin.is_over(host.state()):
            break  # the dice come from the fair chance, fresh every run: a game may end early
    # the game master ends the game: the highest population total wins (a whole game by random
    # play takes 26 to 100 steps, too long for the suite; tests/games/ashes/test_ashes_properties.py
    # plays those to the end in process)
    if not host.plugin.is_over(host.state()):
        done = pbem("gm", "end", str(host.path), "--reason", "the test is over", "--now",
                    iso(at(hour + 1)))
        assert done.returncode == 0, done.stderr
    host.run(at(hour + 2))  # over: the referee's secret K is revealed
    out = tmp / f"{GAME_ID}.export"
    done = pbem("export", str(host.path), "-o", str(out))
    assert done.returncode == 0, done.stderr
    return Played(host, players, out, tmp)


def _events(game: Played, kind: str) -> list[dict[str, Any]]:
    return [e for r in game.host.entries("resolve") for e in r.body["events"]
            if e["type"] == kind]


def test_the_game_deals_fights_with_dice_and_ends_in_a_victory(game: Played) -> None:
    state = game.host.state()
    assert game.host.plugin.is_over(state) and state["result"]["winners"]
    setup, first = game.host.entries("resolve")[:2]
    assert "random" not in setup.body  # the set-up step draws nothing: every tip comes in
    assert "random" in first.body  # the deal drew on the committed chance
    assert None not in first.body["random"]["players"].values()  # from every player
    battles = _events(game, "battle")
    assert battles, "no battle was fought"
    draws = [d for e in _events(game, chance.EVENT) for d in e["draws"]]
    assert any(d["label"].startswith("battle:") for d in draws)
    assert any(d["label"] == "first-player" for d in draws)
    hands = [json.loads(v)["you"]["hand"] for p in game.players.values()
             for v in [p.work.joinpath("view.json").read_bytes()]]
    assert any(len(h) >= 1 for h in hands)  # (a player beaten early may hold none)


def test_the_export_passes_the_audit_replaying_every_die_and_the_shuffle(game: Played) -> None:
    done = pbem("audit", str(game.export))
    assert done.returncode == 0, done.stdout + done.stderr
    assert b"audit passed:" in done.stdout
    report = audit_bytes(game.export.read_bytes(), "ashes.export", [])
    assert report.tally.chance_secret and report.tally.hidden_unproven == 0


def test_the_replayed_game_gives_byte_identical_draws(game: Played) -> None:
    g = GameDir.open(game.host.path)
    k = replay.chance_key(g)
    again = replay.replay(game.host.plugin, g.log.entries, g.initial_state(game.host.plugin), k)
    assert canonical.encode(again) == canonical.encode(game.host.state())


def _fails(data: bytes) -> AuditFailure:
    with pytest.raises(AuditFailure) as info:
        audit_bytes(data, "ashes.export", [])
    return info.value


class _Export:
    """What ``lying_referee`` reads: the export's bytes and the host (for the referee key)."""

    def __init__(self, game: Played) -> None:
        self.export, self.host = game.export.read_bytes(), game.host


def test_an_altered_battle_die_is_named(game: Played) -> None:
    seq: list[int] = []

    def change(items: list[dict[str, Any]]) -> None:
        for n, item in enumerate(items):
            if item["kind"] != "resolve":
                continue
            for event in item["body"]["events"]:
                if event["type"] != chance.EVENT:
                    continue
                for draw in event["draws"]:
                    if draw["label"].startswith("battle:"):
                        draw["result"][0] = draw["result"][0] % 6 + 1
                        seq.append(n)
                        return

    failure = _fails(lying_referee(_Export(game), change))  # type: ignore[arg-type]
    assert seq and failure.seq == seq[0] and failure.field is not None
    assert failure.field.startswith("events")


def test_an_altered_deal_is_named(game: Played) -> None:
    """The referee deals the hands it likes: the deal's recorded state digest is not
    what the committed shuffle gives."""
    seq: list[int] = []
    plugin = game.host.plugin

    def change(items: list[dict[str, Any]]) -> None:
        r = [i for i in items if i["kind"] == "resolve"][1]  # the deal, after the set-up step
        seq.append(items.index(r))
        g = GameDir.open(game.host.path)
        first = [e for e in g.log.entries if e.kind == "resolve"][1]
        state = replay.replay(plugin, g.log.entries[:g.log.entries.index(first) + 1],
                              g.initial_state(plugin), replay.chance_key(g))
        powers = state["powers"]
        a, b = sorted(powers)[:2]
        powers[a]["hand"], powers[b]["hand"] = powers[b]["hand"], powers[a]["hand"]
        r["body"]["state"] = canonical.digest(state)

    failure = _fails(lying_referee(_Export(game), change))  # type: ignore[arg-type]
    assert failure.seq == seq[0] and failure.field == "state"
