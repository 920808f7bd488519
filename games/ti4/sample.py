"""Random legal play of TI4 (the ``sample_orders`` hook, docs/plugins.md): a body a player could
write from his own view alone, for the window open now: a ranked draft, a pass, a strategic
action or a tactical action (a move from a neighbouring system, a landing, some production), a
secondary followed or not, objectives tried in the status phase, ballots in the agenda phase,
and now and then standing answers. A tactical action is kept only if the referee's own check
(``orders.normalize_orders`` on that view) accepts it; otherwise the player passes or plays his
card. Used by the conformance test and the cross-game suite's random play."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from . import agenda, deals, orders
from .board import Board, planet, space
from .setup import catalog
from .units import Catalog
from .view import table_of_view

View = Mapping[str, Any]


def _ok(body: Mapping[str, Any], view: View) -> bool:
    return not orders.normalize_orders(body, view)[1]


def sample_orders(view: View, rng: random.Random) -> dict[str, Any] | None:
    me = view.get("viewer")
    if not isinstance(me, str) or me not in (view.get("due") or []):
        return None
    body: dict[str, Any] = {}
    phase = view["phase"]
    if phase == "strategy":
        cards = sorted(view["pack"]["strategy_cards"])
        rng.shuffle(cards)
        body["draft"] = cards[:rng.randint(0, len(cards))]
    elif phase == "action":
        body["action"] = _action(view, me, rng)
    elif phase == "secondary":
        body["secondary"] = {"follow": rng.random() < 0.5, "choices": []}
    elif phase == "status":
        body["status"] = _status(view, me, rng)
    elif phase == "agenda":
        body["agenda"] = _agenda(view, me, rng)
    body.update(_deals(view, me, rng))
    if rng.random() < 0.15 and phase != "setup":
        body["standing"] = _standing(view, rng)
    return body if _ok(body, view) else {k: v for k, v in body.items() if k != "standing"}


def _action(view: View, me: str, rng: random.Random) -> dict[str, Any]:
    seat = view["table"]["players"][me]
    unused = [c for c in seat["cards"] if c not in seat["used"]]
    if rng.random() < 0.6:
        tactical = _tactical(view, me, rng)
        if tactical is not None:
            return tactical
    if unused:
        card = rng.choice(unused)
        primary = view["pack"]["strategy_cards"][card]["primary"]
        action = {"strategic": card, "choices": [_choice(view, me, e, rng) for e in primary]}
        return action if _ok({"action": action}, view) else {"strategic": card, "choices": []}
    return {"pass": True}


def _choice(view: View, me: str, effect: Mapping[str, Any], rng: random.Random
            ) -> dict[str, Any]:
    """A random choice for one effect primitive (often none: its default); the rules may still
    refuse it at resolution, and the player then plays his default."""
    if rng.random() < 0.5:
        return {}
    board = view["board"]
    mine = sorted(p for p, o in board["owner"].items() if o == me)
    ready = [p for p in mine if p not in board["exhausted"]]
    do = effect["do"]
    if do == "choose_speaker":
        return {"speaker": rng.choice(view["table"]["seats"])}
    if do in ("lock_system", "recover_token"):
        held = sorted(s for s, who in board["tokens"].items() if me in who)
        pool = held if do == "recover_token" else sorted(catalog(view).galaxy.tiles)
        return {"system": rng.choice(pool)} if pool else {}
    if do == "gain_tokens":
        return {"pools": {rng.choice(["tactic", "fleet", "strategy"]): int(effect["count"])}}
    if do == "buy_tokens":
        return {"tokens": 1, "exhaust": ready}
    if do == "place_structure":
        return {"planet": rng.choice(mine)} if mine else {}
    if do == "ready_planets":
        spent = [p for p in mine if p in board["exhausted"]]
        return {"planets": spent[:int(effect["count"])]}
    if do == "research":
        techs = sorted(set(view["pack"]["technologies"])
                       - set(view["table"]["players"][me]["techs"]))
        return {"tech": rng.choice(techs), "exhaust": ready} if techs else {}
    return {}


def _tactical(view: View, me: str, rng: random.Random) -> dict[str, Any] | None:
    board = Board.from_data(view["board"])
    cat = catalog(view)
    if board.pool(me, "tactic") < 1:
        return None
    mine = {s for (kind, s), by in board.units.items()
            if kind == "space" and any(cat.unit(u, me).ship and n for u, n in
                                       by.get(me, {}).items())}
    docks = {cat.system_of(pid) for (kind, pid), by in board.units.items()
             if kind == "planet" and any(cat.unit(u, me).production is not None and n
                                         for u, n in by.get(me, {}).items())}
    targets = sorted({n for s in mine for n in cat.galaxy.adjacent(s)} | docks)
    targets = [t for t in targets if not board.holds_token(t, me)]
    rng.shuffle(targets)
    for active in targets[:4]:
        for _ in range(3):
            action = _plan(board, cat, me, active, sorted(mine), rng)
            if not view["table"]["custodians_taken"] and rng.random() < 0.5:
                _custodians(view, board, cat, me, action)
            if _ok({"action": action}, view):
                return action
    return None


def _custodians(view: View, board: Board, cat: Catalog, me: str,
                action: dict[str, Any]) -> None:
    """Pay the Custodians with this action (planets not paying its production), if he can."""
    cost = int(view["pack"]["rules"]["custodians_cost"])
    paying = set((action.get("pay") or {}).get("exhaust") or ())
    ready = sorted((p for p, o in board.owner.items()
                    if o == me and p not in board.exhausted and p not in paying),
                   key=lambda p: -cat.planets[p].influence)
    take, got = [], 0
    for pid in ready:
        if got >= cost:
            break
        take.append(pid)
        got += cat.planets[pid].influence
    goods = min(max(0, cost - got), int(view["table"]["players"][me]["trade_goods"]))
    if got + goods >= cost:
        action["custodians"] = {"exhaust": take, "trade_goods": goods}


def _plan(board: Board, cat: Catalog, me: str, active: str, mine: list[str],
          rng: random.Random) -> dict[str, Any]:
    order: dict[str, Any] = {"activate": active}
    moves = []
    ground: dict[str, int] = {}
    for start in mine:
        if start == active or active not in cat.galaxy.adjacent(start) \
                or board.holds_token(start, me) or rng.random() < 0.3:
            continue
        stack = board.stack(space(start), me)
        ships = {u: n for u, n in stack.items() if cat.unit(u, me).in_fleet
                 and (cat.unit(u, me).move or 0) >= 1}
        if not ships:
            continue
        move: dict[str, Any] = {"path": [start, active], "ships": ships}
        carry = {u: n for u, n in stack.items() if cat.unit(u, me).needs_capacity}
        if carry and rng.random() < 0.7:
            move["carry"] = carry
            ground.update({u: ground.get(u, 0) + n for u, n in carry.items()
                           if cat.unit(u, me).ground})
        lift = {}
        for pid in cat.planets_in(start):
            troops = {u: n for u, n in board.stack(planet(pid), me).items()
                      if cat.unit(u, me).ground}
            if troops and rng.random() < 0.5:
                lift[pid] = troops
                for u, n in troops.items():
                    ground[u] = ground.get(u, 0) + n
        if lift:
            move["lift"] = lift
        moves.append(move)
    if moves:
        order["move"] = moves
    foreign = [p for p in cat.planets_in(active) if board.owner.get(p) != me]
    if ground and foreign and rng.random() < 0.8:
        order["invade"] = {rng.choice(foreign): ground}
    action: dict[str, Any] = {"tactical": order}
    if rng.random() < 0.5:
        cheap = sorted(u for u, spec in cat.units.items()
                       if spec.ship and spec.cost is not None and spec.cost <= 2)
        if cheap:
            order["produce"] = {rng.choice(cheap): 1}
            ready = sorted(p for p, o in board.owner.items()
                           if o == me and p not in board.exhausted)
            action["pay"] = {"exhaust": ready}
    return action


def _status(view: View, me: str, rng: random.Random) -> dict[str, Any]:
    seat = view["table"]["players"][me]
    out: dict[str, Any] = {}
    open_ = [o for o in view["table"]["publics"] if o not in seat["scored"]]
    if open_ and rng.random() < 0.7:
        out["public"] = rng.choice(open_)
    secret = seat.get("secrets") or []
    if secret and rng.random() < 0.5:
        out["secret"] = rng.choice(secret)
    return out


def _agenda(view: View, me: str, rng: random.Random) -> dict[str, Any]:
    table = table_of_view(view)
    board = Board.from_data(view["board"])
    ready = sorted(p for p, o in board.owner.items() if o == me and p not in board.exhausted)
    rng.shuffle(ready)
    ballots = []
    for aid in view.get("agendas") or []:
        take = ready[:rng.randint(0, len(ready))]
        ready = ready[len(take):]
        outcome = rng.choice(agenda.outcomes(table, board, view["pack"], aid) or ["for"])
        ballots.append({"outcome": outcome, "exhaust": take})
    ties = [rng.choice(agenda.outcomes(table, board, view["pack"], a) or ["for"])
            for a in view.get("agendas") or []]
    return {"ballots": ballots, "ties": ties}


def _standing(view: View, rng: random.Random) -> dict[str, Any]:
    units = sorted(view["pack"]["units"])
    rng.shuffle(units)
    cards = sorted(view["pack"]["strategy_cards"])
    out: dict[str, Any] = {"combat": {"hits": ["sustain", *units[:3]],
                                      "retreat": {"at_most": rng.randint(0, 2)},
                                      "space_cannon": rng.random() < 0.8}}
    if rng.random() < 0.5:
        out["secondaries"] = {rng.choice(cards): {"follow": True, "choices": []},
                              "default": "decline"}
    if rng.random() < 0.3:
        out["queued"] = ["pass"]
    seats = list((view.get("table") or {}).get("seats") or [])
    others = [p for p in seats if p != view.get("viewer")]
    if others and rng.random() < 0.3:  # a standing accept of a gift of one trade good
        out["accept"] = [{"with": rng.choice(others), "get": {"trade_goods": 1}}]
    return out


def _deals(view: View, me: str, rng: random.Random) -> dict[str, Any]:
    """The secret kept after the deal (now and then not the first), and now and then a
    transaction: a trade good given to a neighbour in an action step or to anyone in the
    agenda step (RULES.md T77-T82)."""
    out: dict[str, Any] = {}
    drawn = (view.get("you") or {}).get("drawn")
    if drawn and rng.random() < 0.5:
        out["keep"] = [rng.choice(drawn)]
    table = view.get("table") or {}
    if view["phase"] not in ("action", "agenda") or not table or rng.random() >= 0.3:
        return out
    if int(table["players"][me]["trade_goods"]) < 1:
        return out
    if view["phase"] == "action":
        others = deals.neighbours(Board.from_data(view["board"]), catalog(view), me)
    else:
        others = [p for p in table["seats"] if p != me]
    if others:
        out["transactions"] = [{"with": rng.choice(others), "give": {"trade_goods": 1}}]
    return out
