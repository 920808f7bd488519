"""TI4 end to end through the engine, with fair chance: ``pbem new --game ti4 --variant
small-3``; every player writes his orders from the view.json of his last mail, signs them with
his vault and mails them through ``pbem ingest --stdin``; ``pbem run`` takes every tip in the
set-up step, deals in the next (the secret shuffles of objectives, secrets and agendas; the
speaker in public), then runs the strategy phase, one action a step (a strategic action's
secondaries in their own step, unless standing answers cover them), and the status phase. A
standing file mailed once declines every secondary and queues a pass for its player. ``pbem
export`` + ``pbem audit`` replay the whole game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.store import replay
from pbem.store.gamedir import GameDir
from tests.support.run import pbem
from tests.support.ti4_mail import Played, small_3


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Played, Path]:
    """The game, shared with the leak tests (tests/support/ti4_mail.py): red is silent in
    every secondary step; blue mails a standing file."""
    return small_3(tmp_path_factory)


def _events(played: Played, kind: str) -> list[dict[str, Any]]:
    return [e for r in played.host.entries("resolve") for e in r.body["events"]
            if e["type"] == kind]


def test_a_game_by_mail_runs_from_set_up_through_a_status_phase(
        game: tuple[Played, Path]) -> None:
    played, _ = game
    kinds = [s.kind for s in played.steps]
    assert kinds[:4] == ["welcome", "setup", "deal", "strategy"], kinds
    assert "action" in kinds and "status" in kinds
    assert played.steps[-2].state["round"] == 2, "round 2 began after the status phase"
    assert played.host.plugin.is_over(played.host.state())  # the game master ended it
    setup, deal = played.host.entries("resolve")[:2]
    assert "random" not in setup.body  # the set-up step draws nothing
    assert None not in deal.body["random"]["players"].values()  # every player's chance
    picks = _events(played, "pick")
    assert len(picks) == 6, "3 players pick 2 cards each"
    assert len(_events(played, "card-goods")) == 2, "a trade good on each card nobody took"
    assert _events(played, "strategic") and _events(played, "pass")


def test_a_standing_file_declines_secondaries_and_passes_without_a_window(
        game: tuple[Played, Path]) -> None:
    """blue's standing file (turn: standing): never asked about a secondary, never due for
    his pass (it is taken for him as soon as he may pass)."""
    played, _ = game
    assert played.steps[-2].state["standing"]["blue"]["queued"] == ["pass"]
    queued = _events(played, "queued-pass")
    assert [e["player"] for e in queued] == ["blue"]
    follows = {e["player"] for e in _events(played, "secondary")}
    assert "blue" not in follows


def test_secret_kept_by_choice_by_mail(game: tuple[Played, Path]) -> None:
    """After the deal each player's view.json shows the two secrets he drew; red's signed
    keep: chose the second, the silent players keep their first; each is told alone."""
    played, _ = game
    dealt = next(s.state for s in played.steps if s.kind == "deal")
    drawn = dealt["drawn"]
    assert all(len(h) == 2 for h in drawn.values())
    after = next(s.state for s in played.steps if s.kind == "strategy")
    assert after["drawn"] == {}
    held = {p: seat["secrets"] for p, seat in after["table"]["players"].items()}
    assert held["red"][0] == drawn["red"][1] and held["blue"][0] == drawn["blue"][0]
    kept = _events(played, "secret-kept")
    assert sorted(e["_visible_to"][0] for e in kept) == ["blue", "green", "red"]


def test_silence_in_a_secondary_step_is_a_decline_not_a_missed_turn(
        game: tuple[Played, Path]) -> None:
    """red never answers a secondary: at the deadline he declines (the step is marked
    ``silence: default``, his file ``used`` null), with no missed turn and no Missed turn
    section (MISSED TURN) in his mail."""
    played, _ = game
    silent = [r for r in played.host.entries("resolve") if r.body.get("silence") == "default"]
    assert silent, "no secondary step waited for red"
    assert all(r.body["used"].get("red") is None for r in silent)
    assert "red" not in {e["player"] for e in _events(played, "secondary")}
    for msg in played.inbox.sent("red@example.org"):
        body = msg.get_body(("plain",))
        assert body is not None and "MISSED TURN" not in str(body.get_content())


def test_every_player_gets_his_own_report_and_nobody_anothers_secret(
        game: tuple[Played, Path]) -> None:
    played, _ = game
    for step in played.steps[1:-1]:
        for raw in step.mails:
            text = raw.decode("utf-8", "replace")
            assert "Traceback" not in text


def test_the_export_passes_the_audit(game: tuple[Played, Path]) -> None:
    _, export = game
    done = pbem("audit", str(export))
    assert done.returncode == 0, done.stdout + done.stderr
    assert b"audit passed:" in done.stdout


def test_the_replayed_game_gives_byte_identical_state(game: tuple[Played, Path]) -> None:
    played, _ = game
    g = GameDir.open(played.host.path)
    again = replay.replay(played.host.plugin, g.log.entries,
                          g.initial_state(played.host.plugin), replay.chance_key(g))
    assert canonical.encode(again) == canonical.encode(played.host.state())
