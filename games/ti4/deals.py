"""Transactions (RULES.md T77-T81): trade goods and commodities changing hands between two
players, both halves written down.

In an action step the active player's ``transactions:`` entries are matched against the
other party's standing ``accept:`` entries; in the agenda step each pair's two
``transactions:`` entries against each other. A half is ``{with: P, give: {trade_goods: n,
commodities: n}, get: {...}}`` from its writer's side: two halves match when each gives what
the other gets. A matched transaction is executed when both can pay; the commodities received
become trade goods. Otherwise nothing moves and each party alone is told why. Pure: the table
and board in, the new table and the events out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.errors import Problem

from .board import Board
from .table import Table
from .units import Catalog

GOODS = ("trade_goods", "commodities")
KEYS = ("with", "give", "get")
Event = dict[str, Any]


def systems_of(board: Board, cat: Catalog, player: str) -> set[str]:
    """The systems holding a unit (in space or on a planet) or a planet of ``player``."""
    out = {cat.system_of(pid) for pid, owner in board.owner.items() if owner == player}
    for kind, where in board.places():
        if board.stack((kind, where), player):
            out.add(where if kind == "space" else cat.system_of(where))
    return out


def neighbours(board: Board, cat: Catalog, player: str) -> list[str]:
    """The players with a unit or planet in a system where ``player`` has one, or in a system
    adjacent to one (T77), in no particular order but sorted."""
    mine = systems_of(board, cat, player)
    near = set(mine)
    for s in mine:
        near |= set(cat.galaxy.adjacent(s))
    others = {owner for owner in board.owner.values()} | {
        p for place in board.places() for p in board.players_at(place)}
    return sorted(q for q in others - {player} if systems_of(board, cat, q) & near)


def amounts(value: object) -> dict[str, int]:
    """``give:`` or ``get:`` as both goods (missing: 0)."""
    given = value if isinstance(value, Mapping) else {}
    return {k: int(given.get(k) or 0) for k in GOODS}


def entry_problems(value: object, path: str, me: str, seats: Sequence[str],
                   holdings: Mapping[str, int] | None) -> list[Problem]:
    """A list of halves: each with a seat not his own, each seat once, whole amounts, something
    moving, and (``holdings``: what he has, as his view shows it) no more given than he has."""
    if not isinstance(value, list) or not all(isinstance(e, Mapping) for e in value):
        return [Problem("transaction-shape", path, "a list of {with: POWER, give: {trade_goods: "
                        "N, commodities: N}, get: {...}}")]
    out: list[Problem] = []
    named: set[str] = set()
    for i, e in enumerate(value):
        at, before = f"{path}[{i}]", len(out)
        out += [Problem("unknown-field", f"{at}.{k}", f"a transaction has no {k}: (it has with, "
                        "give and get)") for k in sorted(set(map(str, e)) - set(KEYS))]
        who = e.get("with")
        if who not in seats or who == me:
            out.append(Problem("transaction-with", f"{at}.with",
                               f"{who!r} is not another player at the table"))
        elif who in named:
            out.append(Problem("transaction-twice", f"{at}.with", f"one transaction with {who}"
                               " at a time"))
        else:
            named.add(str(who))
        for side in ("give", "get"):
            part = e.get(side)
            if part is None:
                continue
            if not isinstance(part, Mapping):
                out.append(Problem("transaction-goods", f"{at}.{side}", f"{side}: maps "
                                   "trade_goods and commodities to whole numbers"))
                continue
            for k, n in part.items():
                if k not in GOODS:
                    out.append(Problem("transaction-goods", f"{at}.{side}.{k}", "only "
                                       "trade_goods and commodities change hands in v1"))
                elif not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    out.append(Problem("transaction-goods", f"{at}.{side}.{k}",
                                       f"{k}: a whole number"))
                elif side == "give" and holdings is not None and n > int(holdings.get(k, 0)):
                    out.append(Problem("transaction-pay", f"{at}.give.{k}",
                                       f"you have {holdings.get(k, 0)} {k.replace('_', ' ')}"))
        if len(out) == before and not any(amounts(e.get("give")).values()) \
                and not any(amounts(e.get("get")).values()):
            out.append(Problem("transaction-empty", at, "a transaction moves something"))
    return out


def _words(goods: Mapping[str, int]) -> str:
    parts = [f"{n} {k.replace('_', ' ')}" for k, n in goods.items() if n]
    return " and ".join(parts) or "nothing"


def _match(half: Mapping[str, Any], other: Mapping[str, Any] | None) -> bool:
    return other is not None and amounts(half.get("give")) == amounts(other.get("get")) \
        and amounts(half.get("get")) == amounts(other.get("give"))


def _failed(a: str, b: str, why_a: str, why_b: str) -> list[Event]:
    return [{"type": "transaction-failed", "player": a, "with": b, "to": [a],
             "text": f"Your transaction with {b} was not made: {why_a}."},
            {"type": "transaction-failed", "player": b, "with": a, "to": [b],
             "text": f"{a}'s transaction with you was not made: {why_b}."}]


def execute(table: Table, a: str, b: str, half: Mapping[str, Any], kind: str
            ) -> tuple[Table, list[Event]]:
    """``a`` gives ``half.give`` to ``b`` and gets ``half.get`` from him, when both can pay
    (T79); the commodities received become trade goods."""
    give, get = amounts(half.get("give")), amounts(half.get("get"))
    short = [(p, k, n) for p, goods in ((a, give), (b, get)) for k, n in goods.items()
             if n > getattr(table.players[p], k)]
    if short:
        p, k, n = short[0]
        why = f"{p} has {getattr(table.players[p], k)} {k.replace('_', ' ')}, not {n}"
        return table, _failed(a, b, why, why)
    sa, sb = table.players[a], table.players[b]
    table = table.with_seat(a, trade_goods=sa.trade_goods - give["trade_goods"] + sum(
        get.values()), commodities=sa.commodities - give["commodities"])
    sb = table.players[b]
    table = table.with_seat(b, trade_goods=sb.trade_goods - get["trade_goods"] + sum(
        give.values()), commodities=sb.commodities - get["commodities"])
    return table, [{"type": "transaction", "player": a, "with": b, "give": give, "get": get,
                    "kind": kind,
                    "text": f"{a} and {b} make a transaction: {a} gives {_words(give)} and "
                    f"gets {_words(get)} (commodities received become trade goods)."}]


def in_action(table: Table, board: Board, cat: Catalog, player: str, halves: object,
              accepts: Mapping[str, object]) -> tuple[Table, list[Event]]:
    """The active player's transactions at the start of his action step (T78): each with a
    neighbour, matched by that neighbour's standing ``accept:`` naming him."""
    events: list[Event] = []
    if not isinstance(halves, list):
        return table, events
    near = neighbours(board, cat, player)
    done: set[str] = set()
    for half in halves:
        if not isinstance(half, Mapping):
            continue
        q = str(half.get("with"))
        if q not in table.players or q == player or q in done:
            continue
        done.add(q)
        if q not in near:
            events += _failed(player, q, f"{q} is not your neighbour",
                              f"{player} is not your neighbour")
            continue
        mine = accepts.get(q)
        found = [e for e in mine if isinstance(e, Mapping) and e.get("with") == player] \
            if isinstance(mine, list) else []
        if not any(_match(half, e) for e in found):
            what = f"{q}'s standing answers hold no accept: of these terms"
            theirs = (f"{player} offered {_words(amounts(half.get('give')))} for "
                      f"{_words(amounts(half.get('get')))}; your standing answers hold no "
                      "accept: of these terms")
            events += _failed(player, q, what, theirs)
            continue
        table, more = execute(table, player, q, half, "action")
        events += more
    return table, events


def in_agenda(table: Table, halves: Mapping[str, object]) -> tuple[Table, list[Event]]:
    """The agenda step's transactions (T80): any pair, once, each party's half in his file;
    pairs taken in speaker order (the first party's, then the second's)."""
    events: list[Event] = []
    order = table.speaker_order()
    written: dict[tuple[str, str], Mapping[str, Any]] = {}
    for p in order:
        mine = halves.get(p)
        for half in mine if isinstance(mine, list) else []:
            if isinstance(half, Mapping) and half.get("with") in table.players \
                    and half.get("with") != p:
                written.setdefault((p, str(half["with"])), half)
    seen: set[frozenset[str]] = set()
    for (a, b), half in written.items():
        pair = frozenset((a, b))
        if pair in seen:
            continue
        seen.add(pair)
        first, second = sorted((a, b), key=order.index)
        ours, theirs = written.get((first, second)), written.get((second, first))
        if ours is None or theirs is None:
            lone = a
            other = b
            events += _failed(lone, other, f"{other} wrote no transaction with you",
                              f"{lone} proposed {_words(amounts(half.get('give')))} for "
                              f"{_words(amounts(half.get('get')))}; you wrote no transaction "
                              f"with {lone}")
        elif not _match(ours, theirs):
            events += _failed(first, second, f"{second}'s half does not match yours",
                              f"{first}'s half does not match yours")
        else:
            table, more = execute(table, first, second, ours, "agenda")
            events += more
    return table, events
