"""The action phase's order (RULES.md T42-T47): turns in initiative order, round and round,
until everyone has passed; a turn is a tactical, a strategic or a pass action.

``start`` opens the phase (the first player in initiative order to act); ``act`` takes one
player's action and moves the turn on. A strategic action runs the card's primary (effect
primitives, ``effects.apply``) with the active player's choices, exhausts the card, then offers
the secondary to every other player clockwise from the active player's left (passed players
too); a player who follows pays the card's ``secondary_cost`` from his strategy pool. "You can't
pass until you've done your strategic action." The phase ends when everyone has passed
(``table.turn`` is None). A refused action changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pbem.errors import Problem
from pbem.game.chance import Chance

from . import effects
from .board import Board
from .table import Table, award, initiative
from .tactical import tactical_action
from .units import Catalog

Event = dict[str, Any]


@dataclass(frozen=True)
class Result:
    table: Table
    board: Board
    events: list[Event] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def centre_planets(catalog: Catalog) -> frozenset[str]:
    """The planets of the galaxy's centre system (the Custodians' planet, T46)."""
    centre = [s for s, t in catalog.galaxy.tiles.items() if t.at == (0, 0)]
    return frozenset(catalog.planets_in(centre[0])) if centre else frozenset()


def start(table: Table, pack: Mapping[str, Any]) -> Table:
    order = initiative(table, pack["strategy_cards"])
    return replace(table, turn=order[0] if order else None)


def next_turn(table: Table, pack: Mapping[str, Any], after: str) -> str | None:
    """The next player after ``after`` in initiative order who has not passed (None: all
    have)."""
    order = initiative(table, pack["strategy_cards"])
    i = order.index(after)
    for p in order[i + 1:] + order[:i + 1]:
        if not table.players[p].passed:
            return p
    return None


def act(table: Table, board: Board, pack: Mapping[str, Any], catalog: Catalog, player: str,
        action: object, *, secondaries: Mapping[str, Mapping[str, Any]] | None = None,
        standing: Mapping[str, object] | None = None, chance: Chance | None = None) -> Result:
    """One action of ``player``: ``{pass: true}``, ``{strategic: CARD, choices: [...]}`` or
    ``{tactical: ORDER, pay: {exhaust, trade_goods}, custodians: {exhaust, trade_goods}}``.
    ``secondaries`` maps the other players to ``{follow: bool, choices: [...]}``."""
    bad: list[Problem] = []
    if not isinstance(action, Mapping):
        return Result(table, board, problems=[Problem(
            "action-kind", "", "an action is pass: true, strategic: CARD or tactical: ORDER")])
    if table.ended:
        bad.append(Problem("game-over", "", "the game is over"))
    elif table.turn != player:
        bad.append(Problem("not-your-turn", "", f"it is {table.turn or 'nobody'}'s turn, "
                           f"not {player}'s"))
    if bad:
        return Result(table, board, problems=bad)
    seat = table.players[player]
    if action.get("pass") is True:
        unused = [c for c in seat.cards if c not in seat.used]
        if unused:
            return Result(table, board, problems=[Problem(
                "pass-strategic", "pass", f"you can't pass until you've done your strategic "
                f"action ({', '.join(unused)})")])
        t = table.with_seat(player, passed=True)
        events: list[Event] = [{"type": "pass", "player": player, "text": f"{player} passes."}]
        return _moved_on(t, board, pack, player, events)
    if "strategic" in action:
        return _strategic(table, board, pack, catalog, player, action, secondaries or {})
    if "tactical" in action:
        if chance is None:
            raise ValueError("a tactical action needs the chance to draw its dice from")
        return _tactical(table, board, pack, catalog, player, action, standing or {}, chance)
    return Result(table, board, problems=[Problem(
        "action-kind", "", "an action is pass: true, strategic: CARD or tactical: ORDER")])


def _moved_on(table: Table, board: Board, pack: Mapping[str, Any], player: str,
              events: list[Event]) -> Result:
    nxt = None if table.ended else next_turn(table, pack, player)
    if nxt is None:
        events.append({"type": "phase-end", "text": "Everyone has passed: the action phase "
                       "ends."})
    return Result(replace(table, turn=nxt), board, events)


def _strategic(table: Table, board: Board, pack: Mapping[str, Any], catalog: Catalog,
               player: str, action: Mapping[str, Any],
               secondaries: Mapping[str, Mapping[str, Any]]) -> Result:
    cid = action["strategic"]
    seat = table.players[player]
    if cid not in seat.cards or cid in seat.used:
        return Result(table, board, problems=[Problem(
            "strategic-card", "strategic", f"{cid} is not a readied strategy card of yours")])
    card = pack["strategy_cards"][cid]
    t, b, events, problems = effects.apply(card["primary"], table, board, pack, catalog,
                                           player, list(action.get("choices") or ()), "choices")
    if problems:
        return Result(table, board, problems=problems)
    events.insert(0, {"type": "strategic", "player": player, "card": cid,
                      "text": f"{player} plays {cid}'s primary ability."})
    t = t.with_seat(player, used=(*t.players[player].used, cid))
    i = t.seats.index(player)
    cost = int(card["secondary_cost"])
    for other in t.seats[i + 1:] + t.seats[:i]:
        answer = secondaries.get(other) or {}
        if t.ended or answer.get("follow") is not True:
            continue
        if b.pool(other, "strategy") < cost:
            events.append({"type": "secondary-skipped", "player": other, "text":
                           f"{other} may not follow {cid}: his strategy pool is empty."})
            continue
        d = b.edit()
        d.pools[other]["strategy"] -= cost
        t2, b2, ev2, pr2 = effects.apply(card["secondary"], t, d.freeze(), pack, catalog, other,
                                         list(answer.get("choices") or ()), f"{other}.choices")
        if pr2:   # his answer was refused: he does not follow (and pays nothing)
            events.append({"type": "secondary-skipped", "player": other, "to": [other],
                           "problems": [p.code for p in pr2],
                           "text": f"Your secondary of {cid} was refused: "
                           + "; ".join(p.message for p in pr2) + "."})
            continue
        events.append({"type": "secondary", "player": other, "card": cid, "cost": cost,
                       "text": f"{other} follows {cid}, spending {cost} strategy token(s)."})
        t, b = t2, b2
        events += ev2
    return _moved_on(t, b, pack, player, events)


def _pay_in_order(table: Table, board: Board, catalog: Catalog, player: str,
                  pay: Mapping[str, Any], spent: int) -> tuple[Table, Board]:
    """Pay ``spent`` from the planets named, in order, then from trade goods (T45)."""
    d = board.edit()
    left = spent
    for pid in pay.get("exhaust") or ():
        if left <= 0:
            break
        d.exhausted.add(pid)
        left -= catalog.planets[pid].resources
    seat = table.players[player]
    return table.with_seat(player, trade_goods=seat.trade_goods - max(0, left)), d.freeze()


def _budget(table: Table, board: Board, catalog: Catalog, player: str,
            pay: Mapping[str, Any], what: str, path: str, bad: list[Problem]) -> int:
    total = 0
    for pid in pay.get("exhaust") or ():
        if board.owner.get(pid) != player or pid in board.exhausted:
            bad.append(Problem("pay-planet", f"{path}.exhaust", f"{pid} is not a readied "
                               "planet of yours"))
        else:
            total += getattr(catalog.planets[pid], what)
    tg = pay.get("trade_goods") or 0
    if not isinstance(tg, int) or not 0 <= tg <= table.players[player].trade_goods:
        bad.append(Problem("pay-goods", f"{path}.trade_goods",
                           f"you have {table.players[player].trade_goods} trade goods"))
        tg = 0
    return total + tg


def _tactical(table: Table, board: Board, pack: Mapping[str, Any], catalog: Catalog,
              player: str, action: Mapping[str, Any], standing: Mapping[str, object],
              chance: Chance) -> Result:
    order = action["tactical"]
    bad: list[Problem] = []
    system = order.get("activate") if isinstance(order, Mapping) else None
    holder = table.locked.get(system) if isinstance(system, str) else None
    if holder is not None and holder != player:
        bad.append(Problem("activate-locked", "tactical.activate",
                           f"{holder} has locked {system} this round"))
    closed = centre_planets(catalog)
    t, events = table, []
    for key in ("pay", "custodians"):
        if action.get(key) is not None:
            bad += effects.payment_problems(action[key], key)
    if bad:
        return Result(table, board, problems=bad)
    taking = action.get("custodians")
    if taking is not None and not table.custodians_taken:
        cost = int(pack["rules"]["custodians_cost"])
        if _budget(table, board, catalog, player, taking, "influence", "custodians", bad) < cost:
            bad.append(Problem("custodians-cost", "custodians", f"the Custodians cost {cost} "
                               "influence"))
    pay = action.get("pay") or {}
    resources = _budget(table, board, catalog, player, pay, "resources", "pay", bad)
    if set(pay.get("exhaust") or ()) & set((taking or {}).get("exhaust") or ()):
        bad.append(Problem("pay-twice", "pay.exhaust", "a planet pays once"))
    if bad:
        return Result(table, board, problems=bad)
    given = board
    if taking is not None and not table.custodians_taken:
        d = board.edit()
        d.exhausted |= set(taking.get("exhaust") or ())
        board = d.freeze()
        t = t.with_seat(player, trade_goods=t.players[player].trade_goods
                        - int(taking.get("trade_goods") or 0))
        t = replace(t, custodians_taken=True)
        events.append({"type": "custodians", "player": player, "text": f"{player} pays the "
                       "Custodians: agenda phases begin after this round's status phase."})
        t = award(t, player, int(pack["rules"]["custodians_vp"]), "the Custodians", events,
                  int(pack["rules"]["victory_points"]))
        closed = frozenset()
    elif table.custodians_taken:
        closed = frozenset()
    out = tactical_action(board, catalog, player, order, standing, chance, resources, closed)
    if out.problems:
        return Result(table, given, problems=out.problems)
    t, b = _pay_in_order(t, out.board, catalog, player, pay, out.spent)
    return _moved_on(t, b, pack, player, events + out.events)
