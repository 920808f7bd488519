"""Babylon 5 CGS end to end through the engine, with fair chance (docs/protocol.md, "Fair
chance"): ``pbem new --game b5cgs --variant basic-3`` records the referee's commitments; every
player writes orders with pbem's own tool from the view.json of his last mail (``pbem orders
new``, ``pbem orders b5``, ``pbem orders sign`` with his vault) and mails them through ``pbem
ingest --stdin`` under a memory cap; ``pbem run`` takes every tip in the set-up step (no
draw), deals the map pieces face down in the next (the one secret draw), rolls the first player
in public, then resolves one player's turn per step, rolling every die from the committed
chance. ``pbem export`` + ``pbem audit`` replay
every die and the deal; a lying referee who alters a die or the deal is named by the audit."""

from __future__ import annotations

import copy
import email
from email import policy
from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.audit import AuditFailure, audit_bytes
from pbem.store import chance, replay
from pbem.store.gamedir import GameDir
from tests.support.b5cgs_mail import Played, play
from tests.support.lying import lying_referee
from tests.support.run import pbem, pbem_here

GAME_ID = "b5-1"
TURNS = 12  # four rounds of three players: ships meet at Babylon 5 and fire


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Played, Path]:
    tmp = tmp_path_factory.mktemp("b5cgs")
    played = play(tmp, "basic-3", GAME_ID, TURNS)
    out = tmp / f"{GAME_ID}.export"
    done = pbem_here("export", str(played.host.path), "-o", str(out))  # the command line, here
    assert done.returncode == 0, done.stderr
    return played, out


def _events(played: Played, kind: str) -> list[dict[str, Any]]:
    return [e for r in played.host.entries("resolve") for e in r.body["events"]
            if e["type"] == kind]


def test_the_game_deals_plays_turns_with_dice_and_ends(game: tuple[Played, Path]) -> None:
    played, _ = game
    state = played.host.state()
    assert played.host.plugin.is_over(state)
    setup, first = played.host.entries("resolve")[:2]
    assert "random" not in setup.body  # the set-up step draws nothing: every tip comes in
    assert "random" in first.body  # the deal drew on the committed chance
    assert None not in first.body["random"]["players"].values()  # from every player
    draws = [d for e in _events(played, chance.EVENT) for d in e["draws"]]
    assert any(d["label"].startswith("first-player") for d in draws)
    assert _events(played, "placed") and _events(played, "moved")
    assert _events(played, "explored"), "no piece was exposed"
    # every roll the game reports is the public draw its step's chance block publishes
    # (labels are unique within a step, not across steps)
    rolls = 0
    for entry in played.host.entries("resolve"):
        events = entry.body["events"]
        published = {d["label"]: d["result"] for e in events if e["type"] == chance.EVENT
                     for d in e["draws"]}
        for r in (e for e in events if e["type"] == "roll"):
            assert published[r["label"]] == r["result"], r
            rolls += 1
    assert rolls
    assert any(f for f in played.flags if "--move" in f)


def test_every_report_lists_every_roll_of_its_step_and_the_map(
        game: tuple[Played, Path]) -> None:
    played, _ = game
    resolutions = played.host.entries("resolve")
    checked = 0
    for k, step in enumerate(played.steps[1:-1], start=1):
        rolls = [e for e in resolutions[k - 1].body["events"] if e["type"] == "roll"]
        reports = [m for m in map(_message, step.mails) if "resolved" in str(m["Subject"])]
        assert len(reports) == len(played.players)
        for msg in reports:
            text = _plain(msg)
            assert "THE MAP" in text and "SCORING BANKS" in text
            flat = " ".join(text.split())
            for r in rolls:
                assert f"[{r['label']}]" in flat, r["label"]
                after = flat.split(f"[{r['label']}]", 1)[1][:400]
                if r.get("powers"):  # one die per power: each power's die, named, not a sum
                    assert all(f" {v}" in after for v in r["result"]) and " = " not in \
                        after.split("for", 1)[0], after
                else:
                    assert " ".join(map(str, r["result"])) in after, after
                checked += 1
    assert checked, "no roll was reported"


def _message(raw: bytes) -> email.message.EmailMessage:
    return email.message_from_bytes(raw, policy=policy.default)  # type: ignore[return-value]


def _plain(msg: email.message.EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def test_the_export_passes_the_audit_replaying_every_die_and_the_deal(
        game: tuple[Played, Path]) -> None:
    _, export = game
    done = pbem("audit", str(export))
    assert done.returncode == 0, done.stdout + done.stderr
    assert b"audit passed:" in done.stdout
    report = audit_bytes(export.read_bytes(), "b5.export", [])
    assert report.tally.chance_secret and report.tally.hidden_unproven == 0


def test_the_replayed_game_gives_byte_identical_state(game: tuple[Played, Path]) -> None:
    played, _ = game
    g = GameDir.open(played.host.path)
    k = replay.chance_key(g)
    again = replay.replay(played.host.plugin, g.log.entries, g.initial_state(played.host.plugin),
                          k)
    assert canonical.encode(again) == canonical.encode(played.host.state())


def _fails(data: bytes) -> AuditFailure:
    with pytest.raises(AuditFailure) as info:
        audit_bytes(data, "b5.export", [])
    return info.value


class _Export:
    """What ``lying_referee`` reads: the export's bytes and the host (for the referee key)."""

    def __init__(self, played: Played, export: Path) -> None:
        self.export, self.host = export.read_bytes(), played.host


def test_an_altered_die_is_named(game: tuple[Played, Path]) -> None:
    played, export = game
    seq: list[int] = []

    def change(items: list[dict[str, Any]]) -> None:
        for n, item in enumerate(items):
            if item["kind"] != "resolve":
                continue
            for event in item["body"]["events"]:
                if event["type"] != chance.EVENT:
                    continue
                for draw in event["draws"]:
                    if draw["label"].startswith("first-player"):
                        draw["result"][0] = draw["result"][0] % 6 + 1
                        seq.append(n)
                        return

    failure = _fails(lying_referee(_Export(played, export), change))  # type: ignore[arg-type]
    assert seq and failure.seq == seq[0] and failure.field is not None
    assert failure.field.startswith("events")


def test_an_altered_deal_is_named(game: tuple[Played, Path]) -> None:
    """The referee deals the pieces it likes: the deal's recorded state digest is not
    what the committed shuffle gives."""
    played, export = game
    seq: list[int] = []
    plugin = played.host.plugin

    def change(items: list[dict[str, Any]]) -> None:
        r = [i for i in items if i["kind"] == "resolve"][1]  # the deal, after the set-up step
        seq.append(items.index(r))
        g = GameDir.open(played.host.path)
        first = [e for e in g.log.entries if e.kind == "resolve"][1]
        state = replay.replay(plugin, g.log.entries[:g.log.entries.index(first) + 1],
                              g.initial_state(plugin), replay.chance_key(g))
        state = copy.deepcopy(state)
        pieces = state["referee"]["pieces"]
        a, b = sorted(pieces)[:2]
        pieces[a], pieces[b] = pieces[b], pieces[a]
        r["body"]["state"] = canonical.digest(state)

    failure = _fails(lying_referee(_Export(played, export), change))  # type: ignore[arg-type]
    assert failure.seq == seq[0] and failure.field == "state"
