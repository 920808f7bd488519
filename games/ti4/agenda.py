"""The agenda phase (RULES.md T54-T60), once the Custodians are taken: the top agendas of the
deck, two a phase, each voted from the speaker's left clockwise with the speaker last; a vote is
the total influence of the planets a player exhausts for it, all for one outcome; trade goods
are never votes; the most votes wins, the speaker settles a tie (or no votes); a law that
passes stays in play; after the second agenda every planet is readied.

Each player's ballots: one per agenda, ``{outcome: X, exhaust: [planets]}`` (missing or no
planets: he abstains). The speaker's ``ties``: one outcome per agenda, used only on a tie.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pbem.errors import Problem

from . import effects
from .actions import Result
from .board import Board
from .table import Table
from .units import Catalog

Event = dict[str, Any]


def vote_order(table: Table) -> list[str]:
    """From the speaker's left, clockwise; the speaker last."""
    order = table.speaker_order()
    return order[1:] + order[:1]


def outcomes(table: Table, board: Board, pack: Mapping[str, Any], aid: str) -> list[str]:
    kind = pack["agendas"][aid]["outcome"]
    if kind == "for_against":
        return ["for", "against"]
    if kind == "elect_player":
        return list(table.seats)
    return sorted(board.owner)       # elect_planet: a planet some player controls


def ballot_problems(table: Table, board: Board, pack: Mapping[str, Any],
                    ballots: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[Problem]:
    """Every problem of the players' ballots for this phase's agendas, at once."""
    out: list[Problem] = []
    agendas = table.agenda_deck[:int(pack["rules"]["agendas_per_phase"])]
    for p, mine in sorted(ballots.items()):
        used: set[str] = set()
        for k, ballot in enumerate(mine):
            path = f"{p}[{k}]"
            if k >= len(agendas):
                out.append(Problem("ballot-extra", path, "no agenda left for this ballot"))
                continue
            if "trade_goods" in ballot:
                out.append(Problem("vote-goods", f"{path}.trade_goods",
                                   "trade goods cannot be spent as votes"))
            planets = list(ballot.get("exhaust") or ())
            for pid in planets:
                if board.owner.get(pid) != p or pid in board.exhausted or pid in used:
                    out.append(Problem("vote-planet", f"{path}.exhaust", f"{pid} is not a "
                                       "readied planet of yours"))
                used.add(pid)
            if planets and ballot.get("outcome") not in outcomes(table, board, pack,
                                                                 agendas[k]):
                out.append(Problem("vote-outcome", f"{path}.outcome",
                                   f"{ballot.get('outcome')} is not an outcome of {agendas[k]}"))
    return out


def agenda_phase(table: Table, board: Board, pack: Mapping[str, Any], catalog: Catalog,
                 ballots: Mapping[str, Sequence[Mapping[str, Any]]],
                 ties: Sequence[str] = ()) -> Result:
    if not table.custodians_taken:
        return Result(table, board, problems=[Problem(
            "agenda-closed", "", "no agenda phase until the Custodians are taken")])
    problems = ballot_problems(table, board, pack, ballots)
    if problems:
        return Result(table, board, problems=problems)
    t, b = table, board
    events: list[Event] = []
    for k in range(int(pack["rules"]["agendas_per_phase"])):
        if t.ended or not t.agenda_deck:
            break
        aid = t.agenda_deck[0]
        t = replace(t, agenda_deck=t.agenda_deck[1:])
        events.append({"type": "agenda", "agenda": aid, "text": f"{t.speaker} reveals the "
                       f"agenda {aid}."})
        tally = {o: 0 for o in outcomes(t, b, pack, aid)}
        d = b.edit()
        for p in vote_order(t):
            mine = ballots.get(p) or ()
            ballot = mine[k] if k < len(mine) else {}
            planets = list(ballot.get("exhaust") or ())
            votes = sum(catalog.planets[x].influence for x in planets)
            d.exhausted |= set(planets)
            if votes:
                tally[ballot["outcome"]] += votes
                events.append({"type": "vote", "player": p, "agenda": aid, "votes": votes,
                               "outcome": ballot["outcome"], "text": f"{p} casts {votes} "
                               f"vote(s) for {ballot['outcome']}."})
            else:
                events.append({"type": "abstain", "player": p, "agenda": aid,
                               "text": f"{p} abstains."})
        b = d.freeze()
        top = max(tally.values()) if tally else 0
        leaders = [o for o, v in tally.items() if v == top]
        if not leaders:     # nothing to elect: the agenda is discarded
            continue
        won = leaders[0]
        if len(leaders) > 1:
            said = ties[k] if k < len(ties) else None
            won = said if said in leaders else leaders[0]
            events.append({"type": "tie", "agenda": aid, "outcome": won, "text":
                           f"A tie ({', '.join(leaders)}): the speaker {t.speaker} chooses "
                           f"{won}."})
        events.append({"type": "resolved", "agenda": aid, "outcome": won,
                       "text": f"{aid} resolves: {won}."})
        t, b, more = _resolve(t, b, pack, catalog, aid, won)
        events += more
    d = b.edit()
    d.exhausted = set()
    events.append({"type": "ready", "text": "After the agendas every planet is readied."})
    return Result(replace(t, round=t.round + 1), d.freeze(), events)


def _resolve(t: Table, b: Board, pack: Mapping[str, Any], catalog: Catalog, aid: str,
             won: str) -> tuple[Table, Board, list[Event]]:
    """The outcome's effects (for the elected player, the elected planet's owner, or every
    player in speaker order for For/Against); a law that passes stays (T59)."""
    spec = pack["agendas"][aid]
    kind = spec["outcome"]
    effs = spec["effects"].get("elected" if kind != "for_against" else won) or []
    if kind == "elect_player":
        whom, choice = [won], {}
    elif kind == "elect_planet":
        whom, choice = [b.owner[won]], {"planet": won}
    else:
        whom, choice = t.speaker_order(), {}
    events: list[Event] = []
    for p in whom:
        t2, b2, ev, pr = effects.apply(effs, t, b, pack, catalog, p, [choice] * len(effs),
                                       f"agenda.{aid}")
        if not pr:
            t, b = t2, b2
            events += ev
    if spec["kind"] == "law" and (kind != "for_against" or won == "for"):
        t = replace(t, laws={**t.laws, aid: won})
        events.append({"type": "law", "agenda": aid, "text": f"{aid} is now a law."})
    return t, b, events
