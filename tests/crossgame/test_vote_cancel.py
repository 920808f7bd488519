"""The cancel promise, for every game: a unanimous cancel vote, mailed by every player as a signed
vote block through ``pbem ingest --stdin``, ends the game with no winner and the result
"cancelled"; every player and the game master are told; ``pbem audit`` replays the act and
finds the votes it needed. The rule is the game's config (``votes: {cancel: majority}``), and
the game master can cancel a game directly (``pbem gm cancel``) (docs/operations.md, "Votes").

The processes, once per game and path: the first player's vote is piped to ``pbem ingest
--stdin`` as an MTA runs it, and the game master's ``pbem gm cancel``, ``gm status`` and
``audit`` are the commands he types; the other votes, and the status and audit after a vote,
run the same command lines in the test process (tests.support.run: ``pbem_here``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.game import registry
from tests.crossgame.adapters import adapter
from tests.support.ingest_helpers import queued, registered, text_of
from tests.support.pbem_host import Host
from tests.support.run import pbem_here, pbem_ok
from tests.support.votes import gm_ops, mail_vote

GAMES = registry.available()
GM = "gm@example.org"


def _queued(host: Host) -> list[tuple[str, str, str]]:
    """(to, subject, text) of every mail waiting in the outbox, each parsed once."""
    return [(str(msg["To"]), str(msg["Subject"]), text_of(msg)) for _g, msg in queued(host.root)]


def _told(mails: list[tuple[str, str, str]], subject: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for to, title, text in mails:
        if subject in title:
            out.setdefault(to, []).append(text)
    return out


def _ok_here(*args: str | Path) -> str:
    """``pbem ARGS`` in this process, which must succeed: its stdout and stderr."""
    done = pbem_here(*args)
    out = (done.stdout + done.stderr).decode()
    assert done.returncode == 0, out
    return out


def _cancelled(host: Host, game: str, *, process: bool = False) -> None:
    state = host.state()
    assert host.plugin.is_over(state), f"{game}: the cancel did not end the game"
    result = state["result"]
    assert result["winners"] == [] and result["reason"] == "cancelled", (game, result)
    ok = pbem_ok if process else _ok_here
    status = "\n".join(ok("gm", "status", host.path).splitlines())
    assert "over: nobody won (cancelled)" in status, status
    ok("audit", host.path)


@pytest.mark.parametrize("game", GAMES)
def test_a_unanimous_cancel_vote_ends_the_game_with_no_winner(tmp_path: Path, game: str) -> None:
    host = Host(tmp_path, adapter(game).variant, game=game, game_id=f"cancel-{game}")
    for power in host.powers:
        assert not host.plugin.is_over(host.state()), f"{game}: over before {power} voted"
        mail_vote(host, power, "cancel", 1, process=power == host.powers[0])
    assert gm_ops(host) == ["vote"] * len(host.powers) + ["cancel"], game
    act = host.entries("gm")[-1].body
    assert act["vote"] == "cancel" and act["rule"] == "unanimous", act
    assert len(act["votes"]) == len(host.powers), act
    _cancelled(host, game)
    mails = _queued(host)
    votes = _told(mails, "vote:")
    assert {registered(p) for p in host.powers} | {GM} <= set(votes), (game, sorted(votes))
    last = [texts[-1] for texts in votes.values()]
    assert all("The vote carried" in t and "(cancel)" in t for t in last), last
    # every player's game-end mail says nobody won
    for power in host.powers:
        ends = [t for to, title, t in mails
                if to == registered(power) and "cancel" in t and "vote" not in title]
        assert ends, f"{game}: {power} was not told the game was cancelled"


@pytest.mark.parametrize("game", GAMES)
def test_the_game_master_cancels_a_game(tmp_path: Path, game: str) -> None:
    host = Host(tmp_path, adapter(game).variant, game=game, game_id=f"gmcancel-{game}")
    out = pbem_ok("gm", "cancel", host.path, "--reason", "the club closed")
    assert out.startswith("cancel: logged as entry"), out
    _cancelled(host, game, process=True)
    told = _told(_queued(host), "")
    assert {registered(p) for p in host.powers} <= set(told), (game, sorted(told))
    texts = [" ".join(t.split()) for p in host.powers for t in told[registered(p)]]
    assert any("cancelled the game" in t and "the club closed" in t for t in texts), texts


def test_a_majority_cancel_when_the_config_says_so(tmp_path: Path) -> None:
    game = GAMES[0]
    host = Host(tmp_path, adapter(game).variant, game=game, game_id="cancel-majority")
    with (host.path / "config.yaml").open("a", encoding="utf-8") as f:
        f.write("votes: {cancel: majority}\n")
    need = len(host.powers) // 2 + 1
    for i, power in enumerate(host.powers[:need]):
        assert not host.plugin.is_over(host.state()), f"over after {i} votes"
        mail_vote(host, power, "cancel", 1, process=False)
    act = host.entries("gm")[-1].body
    assert act["op"] == "cancel" and act["rule"] == "majority", act
    _cancelled(host, game)
