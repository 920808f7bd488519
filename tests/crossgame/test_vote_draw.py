"""The players' vote promise, for every game: a unanimous draw vote, mailed by every player as a
signed vote block through ``pbem ingest --stdin``, ends the game; every player is told; ``pbem
audit`` replays the end and finds the votes it needed (docs/operations.md, "Votes").

The first player's vote is piped to a ``pbem ingest --stdin`` process, as an MTA runs it, and
the audit is the process a player runs; the other votes run the same command line in the test
process (tests.support.run: ``pbem_here``): the process path is proven once per game."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.game import registry
from tests.crossgame.adapters import adapter
from tests.support.ingest_helpers import queued, registered
from tests.support.pbem_host import Host
from tests.support.run import pbem_ok
from tests.support.votes import gm_ops, mail_vote

GAMES = registry.available()


@pytest.mark.parametrize("game", GAMES)
def test_a_unanimous_draw_vote_ends_the_game(tmp_path: Path, game: str) -> None:
    host = Host(tmp_path, adapter(game).variant, game=game, game_id=f"vote-{game}")
    for power in host.powers:
        assert not host.plugin.is_over(host.state()), f"{game}: over before {power} voted"
        mail_vote(host, power, "draw", 1, process=power == host.powers[0])
    assert host.plugin.is_over(host.state()), f"{game}: a unanimous draw vote did not end it"
    assert gm_ops(host) == ["vote"] * len(host.powers) + ["end"], game
    told = {str(msg["To"]) for _g, msg in queued(host.root) if "vote:" in str(msg["Subject"])}
    assert {registered(p) for p in host.powers} <= told, game
    pbem_ok("audit", host.path)
