"""The status phase (RULES.md T48-T53), as the seed orders it, and at its end the one-shot
faction traits and the laws in play (``standing``, T74, T76; a ``ready_planets`` one acts at
its start instead, before the scoring: T83): score objectives in initiative
order (up to 1 public and 1 status-phase secret each); the speaker reveals the next public
objective (the game ends when none is left); command tokens back; +2 tokens and
redistribution; ready planets; repair; strategy cards returned. Victory at the pack's VP target
ends the game at once, mid-phase (``table.award``).

Each player's choices: ``{public: OID, secret: OID, resources: PAY, influence: PAY,
pools: {tactic, fleet, strategy}}`` (PAY: ``{exhaust: [planets], trade_goods: n}`` for a spend
objective). A choice the board no longer allows is skipped with a reason sent to the player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from . import effects, standing
from .actions import Result
from .board import POOLS, Board
from .table import Table, initiative
from .units import Catalog

Event = dict[str, Any]


def ranking(table: Table, pack: Mapping[str, Any]) -> list[str]:
    """Most VP first; ties by initiative order (the earliest first)."""
    order = initiative(table, pack["strategy_cards"])
    return sorted(order, key=lambda p: (-table.players[p].vp, order.index(p)))


def status(table: Table, board: Board, pack: Mapping[str, Any], catalog: Catalog,
           choices: Mapping[str, Mapping[str, Any]], *, ready_first: bool = True) -> Result:
    """``ready_first``: a ``ready_planets`` trait or law acts at the start, before the
    scoring (T83, rules version 2); false: at the end with the other one-shots (version 1)."""
    events: list[Event] = []
    t, b = table, board
    if ready_first:
        t, b, events = standing.before_scoring(t, b, pack, catalog,
                                               initiative(table, pack["strategy_cards"]))
    for p in initiative(table, pack["strategy_cards"]):
        ch = choices.get(p) or {}
        for key, public in (("public", True), ("secret", False)):
            if t.ended or not ch.get(key):
                continue
            ctx = effects.Ctx(t, b.edit(), pack, catalog, p, [], [], f"{p}")
            effects.score(ctx, str(ch[key]), ch, public=public)
            if ctx.problems:
                events.append({"type": "not-scored", "player": p, "to": [p], "text":
                               f"You do not score {ch[key]}: "
                               + "; ".join(x.message for x in ctx.problems) + "."})
                continue
            t, b = ctx.table, ctx.d.freeze()
            events += ctx.events
    if t.ended:
        return Result(t, b, events)
    t = _reveal(t, pack, events)
    if t.ended:
        return Result(t, b, events)
    b = _tokens(b.tokens_back(), t, pack, choices, events)
    d = b.edit()
    d.exhausted = set()
    d.damaged = {}
    b = d.freeze()
    events.append({"type": "ready", "text": "Planets are readied and units repaired; the "
                   "strategy cards are returned."})
    players = {p: replace(s, cards=(), used=(), passed=False) for p, s in t.players.items()}
    t, b, more = standing.at_status(replace(t, players=players), b, pack, catalog,
                                    initiative(table, pack["strategy_cards"]),
                                    early=ready_first)
    events += more
    if t.ended:
        return Result(t, b, events)
    t = replace(t, locked={}, turn=None,
                round=t.round if t.custodians_taken else t.round + 1)
    return Result(t, b, events)


def _reveal(t: Table, pack: Mapping[str, Any], events: list[Event]) -> Table:
    if not t.public_deck:
        best = ranking(t, pack)[0]
        events.append({"type": "game-end", "player": best, "text": "No public objective is "
                       f"left to reveal: the game ends, and {best} wins with "
                       f"{t.players[best].vp} VP."})
        return replace(t, winner=best, ended=True)
    top = t.public_deck[0]
    events.append({"type": "reveal", "objective": top, "text": f"{t.speaker} reveals the "
                   f"public objective {top}."})
    return replace(t, publics=(*t.publics, top), public_deck=t.public_deck[1:])


def _tokens(b: Board, t: Table, pack: Mapping[str, Any],
            choices: Mapping[str, Mapping[str, Any]], events: list[Event]) -> Board:
    """+2 tokens each (never past 16 in all, T51) and every player's redistribution."""
    total = int(pack["rules"]["tokens"]["total"])
    d = b.edit()
    for p in t.seats:
        pools = d.pools.setdefault(p, {k: 0 for k in POOLS})
        gain = max(0, min(int(pack["rules"]["status_tokens"]), total - d.tokens_of(p)))
        pools["tactic"] = pools.get("tactic", 0) + gain
        want = (choices.get(p) or {}).get("pools")
        have = sum(pools.values())
        if isinstance(want, Mapping) and set(want) == set(POOLS) \
                and all(isinstance(v, int) and v >= 0 for v in want.values()) \
                and sum(want.values()) == have:
            d.pools[p] = {k: int(want[k]) for k in POOLS}
        elif want is not None:
            events.append({"type": "pools-kept", "player": p, "to": [p], "text":
                           f"Your split was not used: it must place all {have} of your "
                           "tokens in tactic, fleet and strategy."})
        events.append({"type": "tokens", "player": p, "count": gain,
                       "text": f"{p} gains {gain} command token(s)."})
    return d.freeze()
