"""What acts on its own at the end of each status phase (after the split of the tokens and the
readying) (RULES.md T74, T76): every player's one-shot faction traits, in initiative order,
then every law in play, in the order of their ids; but a ``ready_planets`` acts at the start of
the phase, before the scoring, in the same order (T83, rules version 2). Each acts once a phase
with the automatic choice (``traits.auto_choice``); one that the board no longer allows is
skipped with a reason. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import effects, traits
from .board import Board
from .table import Table
from .units import Catalog

Event = dict[str, Any]


def before_scoring(table: Table, board: Board, pack: Mapping[str, Any], catalog: Catalog,
                   order: Sequence[str]) -> tuple[Table, Board, list[Event]]:
    """The one-shots that act at the start of the status phase, before the scoring
    (``traits.BEFORE_SCORING``: ``ready_planets``, which the phase's own readying would leave
    nothing to do at its end; RULES.md T83): each player's traits in ``order``, then the laws."""
    return _run(table, board, pack, catalog, order, lambda e: e["do"] in traits.BEFORE_SCORING)


def at_status(table: Table, board: Board, pack: Mapping[str, Any], catalog: Catalog,
              order: Sequence[str], *, early: bool = False) -> tuple[Table, Board, list[Event]]:
    """The traits of each player in ``order`` (the phase's initiative order), then the laws
    (``early``: but the one-shots that acted before the scoring)."""
    return _run(table, board, pack, catalog, order,
                lambda e: not (early and e["do"] in traits.BEFORE_SCORING))


def _run(table: Table, board: Board, pack: Mapping[str, Any], catalog: Catalog,
         order: Sequence[str], keep: Callable[[Mapping[str, Any]], bool]
         ) -> tuple[Table, Board, list[Event]]:
    t, b = table, board
    events: list[Event] = []
    for p in order:
        effs = [(i, e) for i, e in enumerate(traits.one_shots(pack, t.factions[p])) if keep(e)]
        if effs and not t.ended:
            t, b = _act(t, b, pack, catalog, p, effs, {}, f"trait.{p}", events)
    for aid, won in sorted(table.laws.items()):
        for p, all_effs, choice in law_acts(t, b, pack, aid, won):
            again = [(i, e) for i, e in enumerate(all_effs)
                     if e.get("do") not in traits.ONCE and keep(e)]
            if again and not t.ended:
                t, b = _act(t, b, pack, catalog, p, again, choice, f"law.{aid}", events)
    return t, b, events


def law_acts(table: Table, board: Board, pack: Mapping[str, Any], aid: str, won: str) \
        -> list[tuple[str, Sequence[Mapping[str, Any]], Mapping[str, Any]]]:
    """Who a law in play acts for, with its effects and fixed choice (T76): the elected player;
    the player who now controls the elected planet (nobody if none does); or, for a law passed
    For, every player in speaker order."""
    spec = pack["agendas"][aid]
    kind = spec["outcome"]
    effs = spec["effects"].get("elected" if kind != "for_against" else won) or []
    if kind == "elect_player":
        return [(won, effs, {})] if won in table.seats else []
    if kind == "elect_planet":
        owner = board.owner.get(won)
        return [(owner, effs, {"planet": won})] if owner else []
    return [(p, effs, {}) for p in table.speaker_order()]


def _act(t: Table, b: Board, pack: Mapping[str, Any], catalog: Catalog, p: str,
         effs: Sequence[tuple[int, Mapping[str, Any]]], fixed: Mapping[str, Any], path: str,
         events: list[Event]) -> tuple[Table, Board]:
    for i, e in effs:
        choice = {**traits.auto_choice(e, t, b, pack, p), **fixed}
        t2, b2, ev, pr = effects.apply([e], t, b, pack, catalog, p, [choice], f"{path}[{i}]")
        if pr:
            events.append({"type": "not-applied", "player": p, "to": [p], "text":
                           f"{path} does not act for you: "
                           + "; ".join(x.message for x in pr) + "."})
            continue
        t, b = t2, b2
        events += ev
    return t, b
