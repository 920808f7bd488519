"""The strategy phase: strategy cards picked by ranked preferences in speaker order (RULES.md
T33-T35).

Every player files a ranked list of cards at once; the table then picks for them in speaker
order, one card a turn, as many passes as the pack's ``rules.picks`` for the player count (3-4
players pick 2, 5-8 pick 1). A pick takes the first card of the player's list still on the table;
when the list is spent, the lowest initiative left (a ruling); when one card is left it is taken
without asking (the forced last pick). The trade goods lying on a card go to whoever takes it;
then one trade good goes on each card nobody took.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pbem.errors import Problem

from .table import Table

Event = dict[str, Any]


def picks_per_player(pack: Mapping[str, Any], players: int) -> int:
    """3-4 players pick 2, 5-8 pick 1 (the pack's ``rules.picks``)."""
    return int(pack["rules"]["picks"][players])


def preference_problems(pack: Mapping[str, Any], prefs: Mapping[str, object]) -> list[Problem]:
    """Every problem of the players' ranked lists (each a list of distinct card ids)."""
    out: list[Problem] = []
    cards = pack["strategy_cards"]
    for player, ranked in sorted(prefs.items()):
        if not isinstance(ranked, list) or not all(isinstance(c, str) for c in ranked):
            out.append(Problem("draft-list", player, "a ranked list of strategy card ids"))
            continue
        for i, cid in enumerate(ranked):
            if cid not in cards:
                out.append(Problem("draft-card", f"{player}[{i}]", f"no strategy card {cid}"))
            elif cid in ranked[:i]:
                out.append(Problem("draft-twice", f"{player}[{i}]", f"{cid} is listed twice"))
    return out


def draft(table: Table, pack: Mapping[str, Any],
          prefs: Mapping[str, Sequence[str]]) -> tuple[Table, list[Event]]:
    """The strategy phase resolved from every player's ranked list (a missing list is empty)."""
    cards = pack["strategy_cards"]
    left = sorted(cards, key=lambda c: int(cards[c]["initiative"]))
    goods = dict(table.card_goods)
    order = table.speaker_order()
    held: dict[str, list[str]] = {p: [] for p in order}
    events: list[Event] = []
    gained: dict[str, int] = {p: 0 for p in order}
    for _ in range(picks_per_player(pack, len(order))):
        for player in order:
            if len(left) == 1:
                cid, how = left[0], "forced"
            else:
                wanted = [c for c in prefs.get(player, ()) if c in left]
                cid, how = (wanted[0], "ranked") if wanted else (left[0], "lowest")
            left.remove(cid)
            held[player].append(cid)
            tg = goods.pop(cid, 0)
            gained[player] += tg
            extra = f" and the {tg} trade good(s) on it" if tg else ""
            why = {"ranked": "", "lowest": " (his list was spent: the lowest initiative left)",
                   "forced": " (the last card: taken without asking)"}[how]
            events.append({"type": "pick", "player": player, "card": cid, "how": how,
                           "trade_goods": tg,
                           "text": f"{player} takes {cid}{extra}{why}."})
    for cid in left:
        goods[cid] = goods.get(cid, 0) + 1
        events.append({"type": "card-goods", "card": cid, "trade_goods": goods[cid],
                       "text": f"Nobody took {cid}: it now holds {goods[cid]} trade good(s)."})
    players = dict(table.players)
    for p in order:
        s = players[p]
        players[p] = replace(s, cards=tuple(held[p]), used=(), passed=False,
                             trade_goods=s.trade_goods + gained[p])
    return replace(table, players=players, card_goods=goods), events
