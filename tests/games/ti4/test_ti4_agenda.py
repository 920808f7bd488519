"""The agenda phase (games/ti4/agenda.py; RULES.md T54-T60), named after the seed's rules, on
a real 4-player stand-in game (seats red, blue, green, yellow clockwise; red speaks)."""

from __future__ import annotations

from typing import Any

from games.ti4.agenda import agenda_phase, vote_order
from games.ti4.board import Board
from games.ti4.table import Table
from tests.support.ti4_table import table_game


def ready(deck: list[str], taken: bool = True) -> tuple[dict[str, Any], Any, Board, Table]:
    data, cat, board, t = table_game(4)
    return data, cat, board, Table.from_data({**t.to_data(), "agenda_deck": deck,
                                              "custodians_taken": taken})


def votes(events: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(e["player"], e.get("votes", 0)) for e in events if e["type"] in ("vote", "abstain")]


def test_no_agenda_phase_before_the_custodians_are_taken() -> None:
    """"There is no agenda phase until the custodians token is removed.\""""
    data, cat, board, t = ready(["a-tariff", "a-bounty"], taken=False)
    r = agenda_phase(t, board, data, cat, {})
    assert [p.code for p in r.problems] == ["agenda-closed"] and r.table is t


def test_agenda_vote_order() -> None:
    """"Voting starts with the player to the speaker's left and goes clockwise; the speaker
    votes last.\""""
    data, cat, board, t = ready(["a-tariff", "a-bounty"])
    assert vote_order(t) == ["blue", "green", "yellow", "red"]
    r = agenda_phase(t, board, data, cat, {})
    assert [p for p, _ in votes(r.events)] == ["blue", "green", "yellow", "red"] * 2


def test_votes_are_exhausted_influence() -> None:
    """"Exhaust any number of your planets and cast votes equal to their total influence ...
    for one outcome"; a planet exhausted for the first agenda cannot vote on the second; "after
    the second agenda, each player readies all their exhausted planets.\""""
    data, cat, board, t = ready(["a-tariff", "a-bounty"])
    ballots = {"yellow": [{"outcome": "against", "exhaust": ["drummond"]}],
               "green": [{"outcome": "for", "exhaust": ["cassiel"]},
                         {"outcome": "green", "exhaust": ["cassiel-b"]}]}
    r = agenda_phase(t, board, data, cat, ballots)
    assert not r.problems
    inf = {p: cat.planets[p].influence for p in ("drummond", "cassiel", "cassiel-b")}
    assert ("yellow", inf["drummond"]) in votes(r.events)[:4]
    assert ("green", inf["cassiel-b"]) in votes(r.events)[4:]
    assert not r.board.exhausted
    again = {"green": [{"outcome": "for", "exhaust": ["cassiel"]},
                       {"outcome": "green", "exhaust": ["cassiel"]}]}
    assert [p.code for p in agenda_phase(t, board, data, cat, again).problems] \
        == ["vote-planet"]


def test_trade_goods_refused_as_votes() -> None:
    """"Trade goods cannot be spent as votes.\""""
    data, cat, board, t = ready(["a-tariff", "a-bounty"])
    t = t.with_seat("blue", trade_goods=5)
    r = agenda_phase(t, board, data, cat, {"blue": [{"outcome": "for", "trade_goods": 5}]})
    assert [(p.code, p.path) for p in r.problems] == [("vote-goods", "blue[0].trade_goods")]
    assert r.table is t


def test_speaker_breaks_ties() -> None:
    """"On a tie, or if nobody votes, the speaker chooses the outcome (this is not a vote).\""""
    data, cat, board, t = ready(["a-tariff", "a-bounty"])
    ballots = {"blue": [{"outcome": "for", "exhaust": ["brannock"]}],
               "green": [{"outcome": "against", "exhaust": ["cassiel"]}]}
    assert cat.planets["brannock"].influence == cat.planets["cassiel"].influence
    r = agenda_phase(t, board, data, cat, ballots, ties=["against", "yellow"])
    resolved = [(e["agenda"], e["outcome"]) for e in r.events if e["type"] == "resolved"]
    assert resolved == [("a-tariff", "against"), ("a-bounty", "yellow")]
    assert r.table.players["yellow"].trade_goods == 3 and "a-tariff" not in r.table.laws


def test_a_law_that_passes_stays_and_outcomes_resolve() -> None:
    """"A law that passes (For or any Elect) stays in play; directives and Against results on
    laws are discarded"; an outcome for every player resolves in speaker order."""
    data, cat, board, t = ready(["a-tariff", "a-bounty"])
    r = agenda_phase(t, board, data, cat, {"red": [{"outcome": "for", "exhaust": ["aurel"]},
                                                   {"outcome": "blue",
                                                    "exhaust": ["aurel-minor"]}]})
    assert r.table.laws == {"a-tariff": "for"}
    assert [r.table.players[p].trade_goods for p in ("red", "blue", "green", "yellow")] \
        == [1, 4, 1, 1]
    assert r.table.agenda_deck == () and r.table.round == 2
