"""The abandoned-seat promise, for every game (docs/operations.md, "Abandoned seats"): the game
master puts a seat on autopilot (``pbem gm autopilot``); every player is told; ``gm status``
shows the seat; its player takes it back by sending an order file, and his receipt says so;
``pbem audit`` re-counts the missed steps the entry records. (The cron job's own autopilot,
``abandoned: {after: N}``, is played through in tests/engine/host/test_seats.py.)

The game master's ``pbem gm autopilot`` and his first ``gm status`` run as processes, as he types
them; the player's tool and mail, the second status and the audit run the same command lines in
the test process (tests.support.run: ``pbem_here``; the player's processes are proven by
tests.support.mail_player's first power in every game's end-to-end files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.game import registry
from tests.crossgame.adapters import adapter
from tests.support.ingest_helpers import queued, registered, text_of
from tests.support.mail_player import MailPlayer
from tests.support.pbem_host import Host, at
from tests.support.run import pbem_here, pbem_ok

GAMES = registry.available()


def _flat(text: str) -> str:
    return " ".join(text.split())


def _ok_here(*args: str | Path) -> str:
    """``pbem ARGS`` in this process, which must succeed: its stdout and stderr."""
    done = pbem_here(*args)
    out = (done.stdout + done.stderr).decode()
    assert done.returncode == 0, out
    return out


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_on_autopilot_is_told_to_everyone_and_taken_back_by_orders(
        tmp_path: Path, game: str) -> None:
    host = Host(tmp_path, adapter(game).variant, game=game, game_id=f"seat-{game}")
    host.run(at(0.1))  # the welcome mails
    power = host.plugin.powers_due(host.state())[0]
    name = power.replace("_", " ").capitalize()
    out = pbem_ok("gm", "autopilot", host.path, power, "--now", "2026-12-01T01:00:00Z")
    assert out.startswith("autopilot: logged as entry"), out
    mails = [(str(m["To"]), _flat(text_of(m))) for _g, m in queued(host.root)]
    for other in host.powers:
        told = [text for to, text in mails
                if to == registered(other) and "on autopilot" in text]
        assert told and f"{name}'s seat on autopilot" in told[0], (game, other)
    status = pbem_ok("gm", "status", host.path)
    assert f"autopilot: {power} (since log entry" in status, status

    player = MailPlayer(host, power, tmp_path / "work", process=False)  # tool, vault and mail
    player.newest_view()
    player.mail_orders(2)
    receipts = [_flat(text_of(m)) for _g, m in queued(host.root)
                if str(m["To"]) == registered(power) and "Your seat was on autopilot"
                in _flat(text_of(m))]
    assert receipts and "these orders take it back" in receipts[0], game
    assert "autopilot:" not in _ok_here("gm", "status", host.path)
    _ok_here("audit", host.path)
