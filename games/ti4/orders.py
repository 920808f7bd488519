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

from . import actions, agenda, combat, deals, effects, strategy, tactical, trades
from .board import POOLS, Board
from .keep import choice as keep_choice
from .keep import keep_problems
from .keep import rules as keep_rules
from .setup import catalog, core
from .view import table_of_view

SECTIONS = ("draft", "action", "secondary", "status", "agenda", "standing", "transactions",
            "keep")
#: The section each window asks for.
ASKED = {"strategy": "draft", "action": "action", "secondary": "secondary",
         "status": "status", "agenda": "agenda"}
STATUS_KEYS = ("public", "secret", "resources", "influence", "pools")
STANDING_KEYS = ("combat", "secondaries", "draft", "queued", "accept")


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
    for key in ASKED.values():
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
    if "transactions" in body:
        out += trades.order_problems(body["transactions"], view, me)
    if "keep" in body:
        out += keep_problems(body["keep"], list((view.get("you") or {}).get("drawn") or []),
                             keep_rules(view["pack"])[1])
    orders = {k: copy.deepcopy(body[k]) for k in SECTIONS if k in body}
    if "keep" in orders:
        orders["keep"] = keep_choice(orders["keep"])
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
            return out + _choices(value.get("choices"), "action.choices")
        primary = view["pack"]["strategy_cards"][card]["primary"]
        out += choice_problems(primary, value.get("choices"), view, "action.choices")
        if out:
            return out
        # the primary tried on the table and board the view shows (what it cannot show, the
        # decks' order, no choice reads): the rules' own verdict, with its paths
        _, _, _, found = effects.apply(primary, table_of_view(view),
                                       Board.from_data(view["board"]), core(view["pack"]),
                                       catalog(view), me, list(value.get("choices") or []),
                                       "action.choices")
        return found
    return _tactical(value, view, me)


def _choices(value: object, path: str) -> list[Problem]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(c, Mapping) for c in value):
        return [Problem("choices", path, "choices: is a list with one mapping per ability "
                        "(an empty mapping: the default)")]
    return []


#: What a choice may hold for each effect primitive (effects.py reads these keys).
CHOICE_KEYS: dict[str, tuple[str, ...]] = {
    "gain_tokens": ("pools",), "buy_tokens": ("tokens", "pools", "exhaust", "trade_goods"),
    "research": ("tech", "exhaust", "trade_goods"), "place_structure": ("planet",),
    "ready_planets": ("planets",), "choose_speaker": ("speaker",), "lock_system": ("system",),
    "recover_token": ("system",), "vp_if_control": ("planet",),
    "score_public_now": ("objective", "resources", "influence"),
    "produce_at_home": ("build", "exhaust", "trade_goods"),
}


def choice_problems(primitives: list[Mapping[str, Any]], value: object,
                    view: Mapping[str, Any], path: str) -> list[Problem]:
    """The choices for a list of effect primitives: one mapping per primitive, each with the
    keys its primitive reads, every id one the pack or the table knows, every count whole (no
    free text reaches the state)."""
    out = _choices(value, path)
    if out or value is None:
        return out
    assert isinstance(value, list)
    if len(value) > len(primitives):
        out.append(Problem("choices", f"{path}[{len(primitives)}]", f"the ability has "
                           f"{len(primitives)} part(s): one choice each"))
    pk = view["pack"]
    known = {"planet": pk["planets"], "system": pk["systems"], "tech": pk["technologies"],
             "objective": pk["objectives"],
             "speaker": (view.get("table") or {}).get("seats") or ()}
    for i, (effect, choice) in enumerate(zip(primitives, value, strict=False)):
        at = f"{path}[{i}]"
        allowed = CHOICE_KEYS.get(str(effect["do"]), ())
        for key in sorted(set(map(str, choice)) - set(allowed)):
            out.append(Problem("choice-key", f"{at}.{key}", f"{effect['do']} takes "
                               + (", ".join(allowed) or "no choice")))
        for key, v in choice.items():
            if key not in allowed:
                continue
            where = f"{at}.{key}"
            if key in known and v not in known[key]:
                out.append(Problem("choice-id", where, f"no {key} {v!r}"))
            elif key in ("tokens", "trade_goods") and (not isinstance(v, int)
                                                       or isinstance(v, bool) or v < 0):
                out.append(Problem("choice-count", where, f"{key}: a whole number"))
            elif key in ("exhaust", "planets") and (
                    not isinstance(v, list) or any(x not in pk["planets"] for x in v)):
                out.append(Problem("choice-id", where, f"{key}: a list of planet ids"))
            elif key == "pools" and (not isinstance(v, Mapping) or set(v) - set(POOLS) or not
                                     all(isinstance(n, int) and n >= 0 for n in v.values())):
                out.append(Problem("choice-count", where, "pools: maps tactic, fleet, strategy "
                                   "to whole numbers"))
            elif key == "build" and (not isinstance(v, Mapping) or set(v) - set(pk["units"])
                                     or not all(isinstance(n, int) and not isinstance(n, bool)
                                                and n > 0 for n in v.values())):
                out.append(Problem("choice-count", where, "build: maps a unit to how many"))
            elif key in ("resources", "influence"):
                out += effects.payment_problems(v, where)
    return out


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
    card = pending.get("card")
    return answer_problems(value, "secondary", view, card)


def answer_problems(value: object, path: str, view: Mapping[str, Any],
                    card: object) -> list[Problem]:
    """A secondary's answer: ``{follow: true|false, choices: [...]}``, the choices those of
    ``card``'s secondary."""
    if not isinstance(value, Mapping):
        return [Problem("secondary-shape", path, "a secondary answer is {follow: true|false, "
                        "choices: [...]}")]
    out = [Problem("unknown-field", f"{path}.{k}", f"a secondary answer has no {k}:")
           for k in sorted(set(map(str, value)) - {"follow", "choices"})]
    if not isinstance(value.get("follow"), bool):
        out.append(Problem("secondary-follow", f"{path}.follow", "follow: true or false"))
    cards = view["pack"]["strategy_cards"]
    if card not in cards:
        return out + _choices(value.get("choices"), f"{path}.choices")
    return out + choice_problems(cards[card]["secondary"], value.get("choices"), view,
                                 f"{path}.choices")


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
    table, board = table_of_view(view), Board.from_data(view["board"])
    agendas = list(view.get("agendas") or [])
    for i, (aid, b) in enumerate(zip(agendas, ballots, strict=False)):
        if (b.get("outcome") is not None or b.get("exhaust")) and b.get("outcome") not in \
                agenda.outcomes(table, board, view["pack"], aid):
            out.append(Problem("vote-outcome", f"agenda.ballots[{i}].outcome",
                               f"{b.get('outcome')} is not an outcome of {aid}"))
        for k in sorted(set(map(str, b)) - {"outcome", "exhaust", "trade_goods"}):
            out.append(Problem("unknown-field", f"agenda.ballots[{i}].{k}",
                               f"a ballot has no {k}:"))
    for i, (aid, tie) in enumerate(zip(agendas, ties, strict=False)):
        if tie not in agenda.outcomes(table, board, view["pack"], aid):
            out.append(Problem("agenda-ties", f"agenda.ties[{i}]",
                               f"{tie} is not an outcome of {aid}"))
    if len(ties) > len(agendas):
        out.append(Problem("agenda-ties", f"agenda.ties[{len(agendas)}]",
                           "one tie choice per agenda"))
    found = agenda.ballot_problems(table, board, view["pack"], {me: ballots})
    return out + [Problem(p.code, "agenda.ballots" + p.path[len(me):], p.message)
                  for p in found if p.code != "vote-outcome"]


def standing_problems(value: object, view: Mapping[str, Any]) -> list[Problem]:
    """A standing section: ``{combat, secondaries, draft, queued, accept}``, each optional."""
    if not isinstance(value, Mapping):
        return [Problem("standing-shape", "standing", "standing: maps combat, secondaries, "
                        "draft, queued and accept")]
    out = [Problem("unknown-field", f"standing.{k}", f"standing: has no {k}:")
           for k in sorted(set(map(str, value)) - set(STANDING_KEYS))]
    if value.get("combat") is not None:
        found: list[Problem] = []
        st = combat.parse_standing(value["combat"], "standing.combat", found)
        out += found
        if not found:
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
                    out += answer_problems(answer, path, view, card)
    if value.get("draft") is not None:
        out += strategy.preference_problems(view["pack"], {"standing.draft": value["draft"]})
    if value.get("accept") is not None:
        me = view.get("viewer")
        out += deals.entry_problems(value["accept"], "standing.accept", str(me),
                                    list(view.get("powers") or ()), None)
    queued = value.get("queued")
    if queued is not None and (not isinstance(queued, list) or set(queued) - {"pass"}):
        out.append(Problem("standing-queued", "standing.queued", "queued: is [pass] or []"))
    return out
