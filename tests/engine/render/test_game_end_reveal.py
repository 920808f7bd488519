"""The end-of-game mail of a game played for real (tests/engine/audit/test_audit_game.py: pbem new,
signed orders with commitments, an escrow opened by the cron job, concessions ending it): each
opened destination is shown with its own departure, the turn it left and where from, as the log
holds them (the presenter's reveal over the log the engine wrote), not the arrival turn and
``?``."""

from __future__ import annotations

import json

import pytest

from tests.support.ingest_helpers import everything_in
from tests.support.pbem_host import Host, attachment
from tests.support.played import played


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Host:
    return played(tmp_path_factory).host


def test_the_reveal_names_each_departure_turn_and_origin(host: Host) -> None:
    ends = [m for m in host.sent("algol@example.org")
            if str(m["Subject"]).startswith(f"[{host.game_id}] The game is over")]
    assert len(ends) == 1
    text = " ".join(everything_in(ends[0]).split())
    for line in ("Algol warp 1, turn 1: Algol -> Schedar", "Regulus warp 1, turn 1: Regulus -> "
                 "Schedar", "Pavo warp 1, turn 1: Pavo -> Spica"):
        assert line in text, line
    assert "? ->" not in text
    reveal = json.loads(attachment(ends[0], "reveal.json") or b"[]")
    for row in reveal:
        assert row["turn"] == 1 and row["arrived"] == 2, row
        assert row["commitment"] and row["origin"] in ("Algol", "Regulus", "Pavo")
    assert [r["escrow"] for r in reveal if r["power"] == "pavo"] == [True]
