"""The order file's check: ``normalize_orders(body, view)`` (STATE.md, "The order file").

Reads the view only. Every problem at once, each with the path of what it is about
(``action.tactical.move[0].path``, ``agenda.ballots[1].exhaust``); the rules core's own
checkers do the judging (``strategy.preference_problems``, ``tactical.parse_order`` and
``order_problems``, ``combat.parse_standing``, ``agenda.ballot_problems``,
``effects.payment_problems``). What only the referee can judge is judged at resolution and a
refusal told to the player alone.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem

from . import actions, agenda, combat, effects, strategy, tactical
from .board import POOLS, Board
from .setup import catalog
from .view import table_of_view

SECTIONS = ("draft", "action", "secondary", "status", "agenda", "standing")
#: The section each window asks for.
ASKED = {"strategy": "draft", "action": "action", "secondary": "secondary",
         "status": "status", "agenda": "agenda"}
STATUS_KEYS = ("public", "secret", "resources", "influence", "pools")
STANDING_KEYS = ("combat", "secondaries", "draft", "queued")


def _at(prefix: str, problems: list[Problem]) -> list[Problem]:
    """The core's problems, their paths put under ``prefix``."""
    return [Problem(p.code, f"{prefix}.{p.path}" if p.path else prefix, p.message)
            for p in problems]


def normalize_orders(body: Mapping[str, Any], view: Mapping[str, Any]
                     ) -> tuple[dict[str, Any], list[Problem]]:
    out: list[Problem] = []
    for key in sorted(set(map(str, body)) - set(SECTIONS)):
        out.append(Problem("unknown-section", key, f"no section {key}: (the sections are "
                           f"{', '.join(SECTIONS)})"))
    asked = ASKED.get(str(view.get("phase")))
    for key in SECTIONS[:-1]:
        if key in body and key != asked:
            out.append(Problem("section-not-now", key, f"{key}: is not asked for now "
                               + (f"(this step takes {asked}:)" if asked
                                  else "(no orders are taken yet)")))
    me = view.get("viewer")
    if asked is not None and asked in body and isinstance(me, str):
        check = {"draft": _draft, "action": _action, "secondary": _secondary,
                 "status": _status, "agenda": _agenda}[asked]
        out += check(body[asked], view, me)
    if "standing" in body:
        out += standing_problems(body["standing"], view)
    orders = {k: copy.deepcopy(body[k]) for k in SECTIONS if k in body}
    return orders, out


def _draft(value: object, view: Mapping[str, Any], me: str) -> list[Problem]:
    return strategy.preference_problems(view["pack"], {"draft": value})


def _action(value: object, view: Mapping[str, Any], me: str) -> list[Problem]:
    table = view["table"]
    if table["turn"] != me:
        return [Problem("not-your-turn", "action", f"it is {table['turn']}'s turn, not yours")]
    if not isinstance(value, Mapping) or len({"pass", "strategic", "tactical"} & set(value)) != 1:
        return [Problem("action-kind", "action", "an action is pass: true, strategic: CARD or "
                        "tactical: ORDER (one of them)")]
    seat = table["players"][me]
    if "pass" in value:
        out = [Problem("unknown-field", f"action.{k}", f"a pass has no {k}:")
               for k in sorted(set(value) - {"pass"})]
        if value["pass"] is not True:
            out.append(Problem("action-pass", "action.pass", "pass: true"))
        unused = [c for c in seat["cards"] if c not in seat["used"]]
        if unused:
            out.append(Problem("pass-strategic", "action.pass", "you can't pass until you've "
                               f"done your strategic action ({', '.join(unused)})"))
        return out
    if "strategic" in value:
        out = [Problem("unknown-field", f"action.{k}", f"a strategic action has no {k}:")
               for k in sorted(set(value) - {"strategic", "choices"})]
        card = value["strategic"]
        if card not in seat["cards"] or card in seat["used"]:
            out.append(Problem("strategic-card", "action.strategic",
                               f"{card} is not a readied strategy card of yours"))
        out += _choices(value.get("choices"), "action.choices")
        return out
    return _tactical(value, view, me)


def _choices(value: object, path: str) -> list[Problem]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(c, Mapping) for c in value):
        return [Problem("choices", path, "choices: is a list with one mapping per ability "
                        "(an empty mapping: the default)")]
    return []


def _tactical(value: Mapping[str, Any], view: Mapping[str, Any], me: str) -> list[Problem]:
    out = [Problem("unknown-field", f"action.{k}", f"a tactical action has no {k}:")
           for k in sorted(set(value) - {"tactical", "pay", "custodians"})]
    for key in ("pay", "custodians"):
        if value.get(key) is not None:
            out += effects.payment_problems(value[key], f"action.{key}")
    parsed: list[Problem] = []
    order = tactical.parse_order(value["tactical"], parsed)
    out += _at("action.tactical", parsed)
    if order is None or parsed or out:
        return out
    board = Board.from_data(view["board"])
    cat = catalog(view)
    table = view["table"]
    holder = table["locked"].get(order.activate)
    if holder is not None and holder != me:
        out.append(Problem("activate-locked", "action.tactical.activate",
                           f"{holder} has locked {order.activate} this round"))
    pay = value.get("pay") or {}
    resources = 0
    for pid in pay.get("exhaust") or ():
        if board.owner.get(pid) != me or pid in board.exhausted:
            out.append(Problem("pay-planet", "action.pay.exhaust",
                               f"{pid} is not a readied planet of yours"))
        else:
            resources += cat.planets[pid].resources
    tg = int(pay.get("trade_goods") or 0)
    if tg > int(table["players"][me]["trade_goods"]):
        out.append(Problem("pay-goods", "action.pay.trade_goods",
                           f"you have {table['players'][me]['trade_goods']} trade goods"))
    taking = value.get("custodians") is not None and not table["custodians_taken"]
    if taking:
        out += _custodians(value["custodians"], view, me, board, cat,
                           set(pay.get("exhaust") or ()))
    closed = frozenset() if table["custodians_taken"] or taking \
        else actions.centre_planets(cat)
    out += _at("action.tactical", tactical.order_problems(board, cat, me, order,
                                                          resources + tg, closed))
    return out


def _custodians(value: Mapping[str, Any], view: Mapping[str, Any], me: str, board: Board,
                cat: Any, paying: set[str]) -> list[Problem]:
    """The Custodians' price: readied planets of his (not paying the production too) and trade
    goods worth the pack's ``custodians_cost`` in influence."""
    out = []
    influence = 0
    for pid in value.get("exhaust") or ():
        if board.owner.get(pid) != me or pid in board.exhausted:
            out.append(Problem("pay-planet", "action.custodians.exhaust",
                               f"{pid} is not a readied planet of yours"))
        elif pid in paying:
            out.append(Problem("pay-twice", "action.custodians.exhaust",
                               f"{pid} pays the production already: a planet pays once"))
        else:
            influence += cat.planets[pid].influence
    tg = int(value.get("trade_goods") or 0)
    cost = int(view["pack"]["rules"]["custodians_cost"])
    if not out and influence + tg < cost:
        out.append(Problem("custodians-cost", "action.custodians", f"the Custodians cost "
                           f"{cost} influence; the planets and trade goods named give "
                           f"{influence + tg}"))
    return out


def _secondary(value: object, view: Mapping[str, Any], me: str) -> list[Problem]:
    pending = view.get("pending") or {}
    if pending.get("player") == me:
        return [Problem("secondary-own", "secondary", "you played the card: its secondary is "
                        "for the others")]
    return answer_problems(value, "secondary")


def answer_problems(value: object, path: str) -> list[Problem]:
    """A secondary's answer: ``{follow: true|false, choices: [...]}``."""
    if not isinstance(value, Mapping):
        return [Problem("secondary-shape", path, "a secondary answer is {follow: true|false, "
                        "choices: [...]}")]
    out = [Problem("unknown-field", f"{path}.{k}", f"a secondary answer has no {k}:")
           for k in sorted(set(map(str, value)) - {"follow", "choices"})]
    if not isinstance(value.get("follow"), bool):
        out.append(Problem("secondary-follow", f"{path}.follow", "follow: true or false"))
    return out + _choices(value.get("choices"), f"{path}.choices")


def _status(value: object, view: Mapping[str, Any], me: str) -> list[Problem]:
    if not isinstance(value, Mapping):
        return [Problem("status-shape", "status", "status: maps public, secret, resources, "
                        "influence and pools")]
    out = [Problem("unknown-field", f"status.{k}", f"status: has no {k}:")
           for k in sorted(set(map(str, value)) - set(STATUS_KEYS))]
    objectives = view["pack"]["objectives"]
    for key in ("public", "secret"):
        oid = value.get(key)
        if oid is not None and oid not in objectives:
            out.append(Problem("status-objective", f"status.{key}", f"no objective {oid}"))
    for key in ("resources", "influence"):
        if value.get(key) is not None:
            out += effects.payment_problems(value[key], f"status.{key}")
    pools = value.get("pools")
    if pools is not None and (not isinstance(pools, Mapping) or set(pools) != set(POOLS)
                              or not all(isinstance(v, int) and not isinstance(v, bool)
                                         and v >= 0 for v in pools.values())):
        out.append(Problem("status-pools", "status.pools", "pools: gives tactic, fleet and "
                           "strategy, whole numbers"))
    return out


def _agenda(value: object, view: Mapping[str, Any], me: str) -> list[Problem]:
    if not isinstance(value, Mapping):
        return [Problem("agenda-shape", "agenda", "agenda: is {ballots: [...], ties: [...]}")]
    out = [Problem("unknown-field", f"agenda.{k}", f"agenda: has no {k}:")
           for k in sorted(set(map(str, value)) - {"ballots", "ties"})]
    ballots = value.get("ballots") or []
    if not isinstance(ballots, list) or not all(isinstance(b, Mapping) for b in ballots):
        return out + [Problem("agenda-ballots", "agenda.ballots", "ballots: is a list of "
                              "{outcome, exhaust: [planets]}, one per agenda")]
    for i, b in enumerate(ballots):
        planets = b.get("exhaust") or []
        if not isinstance(planets, list) or not all(isinstance(p, str) for p in planets):
            out.append(Problem("agenda-ballots", f"agenda.ballots[{i}].exhaust",
                               "exhaust: is a list of planet ids"))
    ties = value.get("ties") or []
    if not isinstance(ties, list) or not all(isinstance(t, str) for t in ties):
        out.append(Problem("agenda-ties", "agenda.ties", "ties: is a list of outcomes, one per "
                           "agenda"))
    if out:
        return out
    found = agenda.ballot_problems(table_of_view(view), Board.from_data(view["board"]),
                                   view["pack"], {me: ballots})
    return [Problem(p.code, "agenda.ballots" + p.path[len(me):], p.message) for p in found]


def standing_problems(value: object, view: Mapping[str, Any]) -> list[Problem]:
    """A standing section: ``{combat, secondaries, draft, queued}``, each optional."""
    if not isinstance(value, Mapping):
        return [Problem("standing-shape", "standing", "standing: maps combat, secondaries, "
                        "draft and queued")]
    out = [Problem("unknown-field", f"standing.{k}", f"standing: has no {k}:")
           for k in sorted(set(map(str, value)) - set(STANDING_KEYS))]
    if value.get("combat") is not None:
        found: list[Problem] = []
        st = combat.parse_standing(value["combat"], "standing.combat", found)
        out += found
        if not found and view.get("board") is not None:
            out += combat.standing_problems(st, catalog(view), "standing.combat")
    secs = value.get("secondaries")
    if secs is not None:
        if not isinstance(secs, Mapping):
            out.append(Problem("standing-secondaries", "standing.secondaries",
                               "secondaries: maps a strategy card to {follow, choices}, and "
                               "default: decline"))
        else:
            for card, answer in secs.items():
                path = f"standing.secondaries.{card}"
                if card == "default":
                    if answer != "decline":
                        out.append(Problem("standing-default", path, "default: decline (or "
                                           "leave it out)"))
                elif card not in view["pack"]["strategy_cards"]:
                    out.append(Problem("draft-card", path, f"no strategy card {card}"))
                else:
                    out += answer_problems(answer, path)
    if value.get("draft") is not None:
        out += strategy.preference_problems(view["pack"], {"standing.draft": value["draft"]})
    queued = value.get("queued")
    if queued is not None and (not isinstance(queued, list) or set(queued) - {"pass"}):
        out.append(Problem("standing-queued", "standing.queued", "queued: is [pass] or []"))
    return out
