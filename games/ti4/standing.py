"""What acts on its own at the end of each status phase (after the split of the tokens and the
readying) (RULES.md T74, T76): every player's
one-shot faction traits, in initiative order, then every law in play, in the order of their
ids. Each acts once a phase with the automatic choice (``traits.auto_choice``); one that the
board no longer allows is skipped with a reason. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import effects, traits
from .board import Board
from .table import Table
from .units import Catalog

Event = dict[str, Any]


def at_status(table: Table, board: Board, pack: Mapping[str, Any], catalog: Catalog,
              order: Sequence[str]) -> tuple[Table, Board, list[Event]]:
    """The traits of each player in ``order`` (the phase's initiative order), then the laws."""
    t, b = table, board
    events: list[Event] = []
    for p in order:
        effs: Sequence[Mapping[str, Any]] = traits.one_shots(pack, t.factions[p])
        if effs and not t.ended:
            t, b = _act(t, b, pack, catalog, p, effs, {}, f"trait.{p}", events)
    for aid, won in sorted(table.laws.items()):
        for p, effs, choice in law_acts(t, b, pack, aid, won):
            again = [e for e in effs if e.get("do") not in traits.ONCE]
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
         effs: Sequence[Mapping[str, Any]], fixed: Mapping[str, Any], path: str,
         events: list[Event]) -> tuple[Table, Board]:
    for i, e in enumerate(effs):
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
