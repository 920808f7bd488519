"""TI4's pre-filled order form: what the reader may do now, as commented YAML he edits.

Per window kind (games/ti4/STATE.md, "The windows"): the strategy cards to rank; the action
phase's legal actions (pass only once every strategy card of his is used, his readied cards
with the choices their primary takes, the systems he may activate and what he has where); the
secondary offered, with what it costs and whether he can pay; the objectives he can score now
and the pools after the status phase's tokens; the agendas' outcomes and the planets that can
vote. Everything is read from his view alone, and every choice listed is one the referee will
accept as far as the view can tell (the rules' own predicates decide what is scorable). The
form loads as it is: a choice the reader would rather not make stays commented.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.protocol.orderfile import form_envelope

from . import formdeals, objectives
from .agenda import outcomes
from .board import POOLS, Board
from .galaxy import reach
from .movement import situation
from .setup import catalog
from .view import table_of_view

View = Mapping[str, Any]
WIDTH = 79

#: What each effect primitive's choice takes (one mapping per primitive, in the card's order).
CHOICES = {
    "gain_tokens": "{pools: {tactic: N, fleet: N, strategy: N}} where the tokens go "
                   "(the rest: tactic)",
    "buy_tokens": "{tokens: N, exhaust: [planets], trade_goods: N, pools: {...}} "
                  "influence paid",
    "research": "{tech: ID, exhaust: [planets], trade_goods: N} resources paid",
    "place_structure": "{planet: PLANET} one of yours",
    "ready_planets": "{planets: [PLANET, ...]}",
    "choose_speaker": "{speaker: POWER}",
    "lock_system": "{system: SYSTEM}",
    "recover_token": "{system: SYSTEM} holding your token",
    "score_public_now": "{objective: OID, resources: PAY, influence: PAY}",
    "produce_at_home": "{build: {UNIT: N}, exhaust: [planets], trade_goods: N}",
    "vp_if_control": "{planet: PLANET} (when the card names none)",
}


def kind(view: View) -> str:
    window = view.get("window") or {}
    return str(window.get("kind") or view.get("phase") or "")


def _flow(items: Sequence[str]) -> str:
    return "[" + ", ".join(items) + "]"


def _choice_lines(effects: Sequence[Mapping[str, Any]], indent: str) -> list[str]:
    out = []
    for i, e in enumerate(effects):
        what = CHOICES.get(str(e.get("do")), "{} (nothing to choose)")
        out.append(f"{indent}#   choices[{i}] {e.get('do')}: {what}")
    return out


def _mine(board: Board, me: str, *, ready: bool | None = None) -> list[str]:
    return sorted(p for p, o in board.owner.items() if o == me
                  and (ready is None or (p not in board.exhausted) == ready))


def _planets_line(view: View, board: Board, me: str) -> str:
    planets = view["pack"]["planets"]
    ready = [f"{p} {planets[p]['resources']}/{planets[p]['influence']}"
             for p in _mine(board, me, ready=True)]
    return "  # Your readied planets (resources/influence): " + (", ".join(ready) or "none")


def strategy_lines(view: View) -> list[str]:
    pack, table = view["pack"], view["table"]
    cards = pack["strategy_cards"]
    ranked = sorted(cards, key=lambda c: int(cards[c]["initiative"]))
    goods = table.get("card_goods") or {}
    standing = ((view.get("you") or {}).get("standing") or {}).get("draft")
    picks = pack["rules"]["picks"]
    n = picks.get(len(table["seats"]), picks.get(str(len(table["seats"]))))
    out = ["  # Rank the strategy cards, the one you want most first (move the lines): you",
           f"  # get {n} this round, picked in speaker order; a card nobody takes gains a "
           "trade good.", "  draft:"]
    first = [c for c in (standing or []) if c in cards] or ranked
    for c in first:
        tg = int(goods.get(c, 0))
        out.append(f"    - {c:<10} # initiative {cards[c]['initiative']}"
                   + (f", {tg} trade good(s) on it" if tg else ""))
    return out


def activatable(view: View, board: Board, me: str) -> list[str]:
    """The systems ``me`` may activate now: none holding his token, none another has
    locked; none at all with an empty tactic pool."""
    if board.pool(me, "tactic") <= 0:
        return []
    locked = view["table"].get("locked") or {}
    tiles = catalog(view).galaxy.tiles
    return sorted(s for s in tiles if not board.holds_token(s, me)
                  and locked.get(s, me) == me)


def fleets(view: View, board: Board, me: str, systems: Sequence[str]) -> list[str]:
    """Each of ``me``'s fleets, and the systems of ``systems`` each of its ships can move into
    as the active system (galaxy.reach: move values, anomalies, wormholes, his tokens and
    enemy ships on the way)."""
    cat = catalog(view)
    here = situation(board, cat, me)
    allowed = set(systems)
    out = []
    for kind_, where in board.places():
        stack = board.stack((kind_, where), me) if kind_ == "space" else {}
        if not stack:
            continue
        line = f"{where}: " + ", ".join(f"{n} {u}" for u, n in sorted(stack.items()))
        reaches = []
        for uid in sorted(stack):
            spec = cat.unit(uid, me)
            dests = [d for d in reach(cat.galaxy, where, spec.move, here) if d in allowed]
            if spec.ship and dests:
                reaches.append(f"{uid} (move {spec.move}) to {', '.join(dests)}")
        out.append(line + ("; " + "; ".join(reaches) if reaches else "; none can move"))
    return out


def action_lines(view: View) -> list[str]:
    me = str(view["viewer"])
    board = Board.from_data(view["board"])
    seat = view["table"]["players"][me]
    cards = view["pack"]["strategy_cards"]
    unused = [c for c in seat["cards"] if c not in seat["used"]]
    systems = activatable(view, board, me)
    out = ["  # Your turn in the action phase: one action (the one left uncommented)."]
    out.append(_planets_line(view, board, me) + f"; trade goods {seat['trade_goods']}.")
    if unused:
        out.append("  # STRATEGIC: play a readied card of yours: " + ", ".join(unused) + ".")
        for c in unused:
            out.append(f"  #   {c}: the choices its primary takes, in order:")
            out += _choice_lines(cards[c]["primary"], "  ")
    if systems:
        out.append(f"  # TACTICAL: activate one of these systems (tactic pool "
                   f"{board.pool(me, 'tactic')}):")
        out.append("  #   " + ", ".join(systems))
        out.append("  #   Your fleets, and where their ships can go:")
        out += [f"  #     {line}" for line in fleets(view, board, me, systems)] or [
            "  #     none"]
        out += ["  #   action:", "  #     tactical:", "  #       activate: SYSTEM",
                "  #       move: [{path: [FROM, SYSTEM], ships: {UNIT: N}}]",
                "  #       produce: {UNIT: N}",
                "  #     pay: {exhaust: [PLANET], trade_goods: 0}"]
        if not view["table"].get("custodians_taken"):
            rules = view["pack"]["rules"]
            out.append(f"  #     custodians: {{exhaust: [PLANET], trade_goods: 0}} to take the "
                       f"Custodians ({rules['custodians_cost']} influence, "
                       f"{rules['custodians_vp']} VP; agenda phases follow)")
    else:
        out.append("  # TACTICAL: none: " + ("your tactic pool is empty."
                                              if board.pool(me, "tactic") <= 0
                                              else "every system holds your token or is "
                                              "locked."))
    if unused:
        out.append("  # PASS: not yet: you can't pass until you've done your strategic "
                   f"action ({', '.join(unused)}).")
        out += ["  action:", f"    strategic: {unused[0]}",
                "    choices: " + _flow(["{}"] * len(cards[unused[0]]["primary"]))]
    else:
        out.append("  # PASS: allowed (your strategic action is done).")
        out += ["  action:", "    pass: true"]
    return out


def secondary_lines(view: View) -> list[str]:
    me = str(view["viewer"])
    pending = view.get("pending") or {}
    card = str(pending.get("card"))
    spec = view["pack"]["strategy_cards"].get(card) or {"secondary": [], "secondary_cost": 0}
    board = Board.from_data(view["board"])
    cost = int(spec.get("secondary_cost") or 0)
    have = board.pool(me, "strategy")
    out = [f"  # {str(pending.get('player')).capitalize()} played {card}. Its secondary costs "
           f"{cost} strategy token(s); you have {have}."]
    if have < cost:
        out += ["  # You cannot follow it: your strategy pool is too small.",
                "  secondary:", "    follow: false"]
        return out
    out.append("  # To follow it, write follow: true and fill the choices, in order:")
    out += _choice_lines(spec["secondary"], "  ")
    out += ["  secondary:", "    follow: false",
            "    choices: " + _flow(["{}"] * len(spec["secondary"]))]
    return out


def scorable(view: View) -> tuple[list[str], list[str], dict[str, str]]:
    """The public and the secret objectives the reader can score now, and why each other
    one he could aim at cannot be (the rules' predicates, on his view)."""
    me = str(view["viewer"])
    pack = view["pack"]
    table = table_of_view(view)
    board = Board.from_data(view["board"])
    cat = catalog(view)
    seat = table.players[me]
    home = objectives.holds_home(board, pack, table.factions[me], me)
    publics, secrets, why = [], [], {}
    for oid in table.publics:
        if oid in seat.scored:
            continue
        reason = "" if home else "you do not control every planet of your home system"
        reason = reason or objectives.meets(pack["objectives"][oid]["test"], board, pack,
                                            cat, table, me)
        if reason:
            why[oid] = reason
        else:
            publics.append(oid)
    for oid in (view.get("you") or {}).get("secrets") or []:
        spec = pack["objectives"][oid]
        if spec["phase"] != "status":
            why[oid] = f"scored in the {spec['phase']} phase, not now"
            continue
        reason = objectives.meets(spec["test"], board, pack, cat, table, me)
        if reason:
            why[oid] = reason
        else:
            secrets.append(oid)
    return publics, secrets, why


def _pools_after(view: View, board: Board, me: str) -> dict[str, int]:
    """His pools after the status phase's tokens: tokens on the board back to tactic, +2
    (never past the total) to tactic."""
    rules = view["pack"]["rules"]
    pools = {k: board.pool(me, k) for k in POOLS}
    back = sum(1 for holders in board.tokens.values() if me in holders)
    gain = max(0, min(int(rules["status_tokens"]), int(rules["tokens"]["total"])
                      - board.tokens_of(me)))
    pools["tactic"] += back + gain
    return pools


def status_lines(view: View) -> list[str]:
    me = str(view["viewer"])
    board = Board.from_data(view["board"])
    publics, secrets, why = scorable(view)
    objs = view["pack"]["objectives"]
    out = ["  # The status phase: score at most one public and one secret objective."]
    out.append("  # Scorable now: " + (", ".join(f"{o} ({objs[o]['vp']} VP)"
                                                 for o in publics + secrets) or "none") + ".")
    for oid, reason in sorted(why.items()):
        out.append(f"  #   not {oid}: {reason}")
    spend = [o for o in publics + secrets if objs[o]["test"]["test"] == "spend"]
    if spend:
        out.append("  # A spend objective is paid when scored: resources: {exhaust: [...], "
                   "trade_goods: N}, influence: likewise.")
    pools = _pools_after(view, board, me)
    out.append(f"  # Your tokens after this phase: {sum(pools.values())}; split them as you "
               "like (the sum must stay).")
    out.append("  status:")
    out.append(f"    public: {publics[0]}" if publics else "    # public: (none scorable)")
    out.append(f"    secret: {secrets[0]}" if secrets else "    # secret: (none scorable)")
    out.append("    pools: {" + ", ".join(f"{k}: {pools[k]}" for k in POOLS) + "}")
    return out


def agenda_lines(view: View) -> list[str]:
    me = str(view["viewer"])
    table = table_of_view(view)
    board = Board.from_data(view["board"])
    planets = view["pack"]["planets"]
    agendas = list(view.get("agendas") or [])
    ready = _mine(board, me, ready=True)
    out = ["  # The agenda phase: one ballot per agenda, in this order; your votes are the",
           "  # influence of the planets you exhaust (trade goods never vote; no planet "
           "twice).",
           "  # Planets that can vote: " + (", ".join(f"{p} ({planets[p]['influence']})"
                                                      for p in ready) or "none") + "."]
    ballots = []
    for i, aid in enumerate(agendas):
        spec = view["pack"]["agendas"][aid]
        choices = outcomes(table, board, view["pack"], aid)
        out.append(f"  #   ballots[{i}] {aid} ({spec['kind']}): outcomes " + ", ".join(choices))
        ballots.append(f"{{outcome: {choices[0]}, exhaust: []}}" if choices else "{}")
    if table.speaker == me:
        out.append("  # You are the speaker: ties: the outcome you choose on a tie, per "
                   "agenda.")
    out += ["  agenda:", "    ballots: " + _flow(ballots)]
    if table.speaker == me:
        out.append("    ties: " + _flow([outcomes(table, board, view["pack"], a)[0]
                                         for a in agendas if outcomes(table, board,
                                                                      view["pack"], a)]))
    return out


def orders_lines(view: View) -> list[str]:
    """The lines after the envelope."""
    k = kind(view)
    body = {"strategy": strategy_lines, "action": action_lines,
            "secondary": secondary_lines, "status": status_lines,
            "agenda": agenda_lines}.get(k)
    if body is None or not view.get("table"):
        return ["# Nothing to choose in this step: send the file as it is.", "orders: {}"]
    extra = formdeals.keep_lines(view) + formdeals.transaction_lines(view)
    return ["orders:", *_fit(body(view) + extra)]


def _fit(lines: Sequence[str]) -> list[str]:
    """Comment lines wrapped to 79 columns (a continuation indented under its text)."""
    out = []
    for line in lines:
        if len(line) <= WIDTH or "#" not in line:
            out.append(line)
            continue
        head = line[:line.index("#") + 1]
        text = line[len(head):]
        lead = len(text) - len(text.lstrip())
        out += textwrap.wrap(text.strip(), WIDTH, initial_indent=head + " " * lead,
                             subsequent_indent=head + " " * (lead + 4),
                             break_on_hyphens=False)
    return out


def order_form(view: View, seq: int) -> str:
    """The whole form ("" for a reader not due)."""
    if view.get("viewer") not in (view.get("due") or []):
        return ""
    return "\n".join([*form_envelope(view, seq), *orders_lines(view)])


def receipt_lines(orders: Mapping[str, Any], view: View) -> list[str]:
    """The accepted orders in words."""
    out = []
    for key, value in orders.items():
        if key == "draft":
            out.append("Strategy cards, most wanted first: " + ", ".join(map(str, value)) + ".")
        elif key == "action" and isinstance(value, Mapping):
            if value.get("pass"):
                out.append("Action: pass.")
            elif "strategic" in value:
                out.append(f"Action: the strategic action of {value['strategic']}.")
            elif "tactical" in value:
                t = value["tactical"] or {}
                out.append(f"Action: a tactical action, activating {t.get('activate')}.")
        elif key == "secondary" and isinstance(value, Mapping):
            out.append("Secondary: " + ("follow." if value.get("follow") else "decline."))
        elif key == "status" and isinstance(value, Mapping):
            scored = [str(value[k]) for k in ("public", "secret") if value.get(k)]
            out.append("Status: score " + (", ".join(scored) or "nothing") + ".")
        elif key == "agenda" and isinstance(value, Mapping):
            out.append("Agenda: " + "; ".join(
                f"{b.get('outcome')} with {', '.join(b.get('exhaust') or []) or 'no planet'}"
                for b in value.get("ballots") or []) + ".")
        elif key == "standing":
            out.append("Your standing answers, replaced whole.")
        elif key == "keep":
            out.append("Secret objective(s) kept: " + ", ".join(map(str, value)) + ".")
        elif key == "transactions" and isinstance(value, list):
            out += [f"Transaction with {h.get('with')}: give {h.get('give') or 'nothing'}, "
                    f"get {h.get('get') or 'nothing'}." for h in value
                    if isinstance(h, Mapping)]
        elif value not in (None, {}, []):
            out.append(f"{key}: {value}")
    return out or ["No orders: your standing answers and the defaults."]

