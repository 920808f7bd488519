"""The windows and the resolution of one step (STATE.md, "The windows" and "The round loop").

One step is one window: the set-up, the deal, a round's strategy phase, one action of the
player whose turn it is, the secondaries of a strategic action, the status phase, the agenda
phase. ``resolve`` works on a copy of the state's changing parts (the pack is never changed
and is shared), runs the rules core's phase function and moves the phase on. Between action
steps, a turn whose player has conceded, or has queued a pass and may pass, is taken for him in
the same step: no window opens for it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pbem.game.chance import NO_CHANCE, Chance
from pbem.game.plugin import Window

from . import actions, agenda, keep, setup, status, strategy, trades
from .step import Step
from .table import Table, initiative

Event = dict[str, Any]
State = dict[str, Any]
#: At most this many turns are taken for players in one step (queued passes, conceded
#: players): a bound, never reached in play (each player passes at most once a round).
MAX_AUTO = 64


# -- who and when ------------------------------------------------------------------------------
def live(state: Mapping[str, Any]) -> tuple[str, ...]:
    """The powers that have not conceded, in seat order."""
    return tuple(p for p in setup.seats(state) if p not in state["conceded"])


def _round(state: Mapping[str, Any]) -> str:
    return f"Round {state['round']}"


def window(state: Mapping[str, Any]) -> Window | None:
    if state["result"] is not None:
        return None
    phase, everyone = state["phase"], live(state)
    if phase == "setup":
        return Window("setup", "Set-up: every player commits his chance", everyone)
    if phase == "deal":
        return Window("deal", "The deal: objectives, secrets, agendas and the speaker",
                      everyone, draws=True)
    if phase in ("strategy", "status", "agenda"):
        return Window(phase, f"{_round(state)} — {phase}", everyone)
    if phase == "action":
        p = state["table"]["turn"]
        others = tuple(q for q in everyone if q != p)
        return Window("action", f"{_round(state)} — action ({p})", (p,), listens=others,
                      draws=True, notify="touched")
    if phase == "secondary":
        pending = state["pending"]
        # every other power is due, whether or not a standing answer covers the card, so that
        # the window never tells who has one; silence is his standing answer, else decline
        asked = tuple(q for q in everyone if q != pending["player"])
        return Window("secondary", f"{_round(state)} — secondary of {pending['card']} "
                      f"({pending['player']}'s)", asked, listens=(pending["player"],),
                      silence="default", notify="due", closes_when_answered=True)
    return None


def standing_secondary(state: Mapping[str, Any], power: str,
                       card: str) -> dict[str, Any] | None:
    """``power``'s standing answer to ``card``'s secondary (None: he has none; a conceded
    power declines)."""
    if power in state["conceded"]:
        return {"follow": False}
    secs = (state["standing"].get(power) or {}).get("secondaries") or {}
    if card in secs:
        return dict(secs[card])
    if secs.get("default") == "decline":
        return {"follow": False}
    return None


# -- defaults ----------------------------------------------------------------------------------
def may_pass(table: Table, player: str) -> bool:
    seat = table.players[player]
    return all(c in seat.used for c in seat.cards)


def default_action(state: Mapping[str, Any], table: Table, player: str) -> dict[str, Any]:
    """The queued pass if he may pass; else his first unused strategy card with no choices;
    else a pass."""
    seat = table.players[player]
    unused = [c for c in seat.cards if c not in seat.used]
    if unused:
        return {"strategic": unused[0], "choices": []}
    return {"pass": True}


def queued_pass(state: Mapping[str, Any], player: str) -> bool:
    return "pass" in ((state["standing"].get(player) or {}).get("queued") or [])


def default_orders(state: Mapping[str, Any], power: str) -> dict[str, Any]:
    """What a due power that sent nothing plays (STATE.md, "Defaults")."""
    phase = state["phase"]
    mine = state["standing"].get(power) or {}
    if state["result"] is not None:
        return {}
    if phase == "strategy":
        return {"draft": list(mine["draft"])} if mine.get("draft") else {}
    if phase == "action" and state["table"]["turn"] == power:
        return {"action": default_action(state, setup.table_of(state), power)}
    if phase == "secondary":
        card = state["pending"]["card"]
        return {"secondary": standing_secondary(state, power, card) or {"follow": False}}
    return {}


def resolve(state: Mapping[str, Any], orders: Mapping[str, Any],
            chance: Chance | None) -> tuple[State, list[Event]]:
    s = Step(state, chance if chance is not None else NO_CHANCE)
    if state["result"] is not None:
        return dict(state), []
    for p in setup.seats(state):
        body = orders.get(p) or {}
        if isinstance(body.get("standing"), Mapping):
            set_standing(s, p, body["standing"])
    phase = state["phase"]
    opened = window(state)
    keep.settle_due(s, orders, opened.due if opened is not None else ())
    if phase == "setup":
        s.st["phase"] = "deal"
    elif phase == "deal":
        s.events += setup.deal(s.st, s.chance)
        s.table, s.board = setup.table_of(s.st), setup.board_of(s.st)
        keep.dealt(s)
        s.phase("strategy")
    elif phase == "strategy":
        draft(s, orders)
    elif phase == "action":
        player = s.t.turn
        assert player is not None
        trades.action(s, player, orders)
        action = (orders.get(player) or {}).get("action")
        take_action(s, player, action if isinstance(action, Mapping) else None)
    elif phase == "secondary":
        secondaries(s, orders)
    elif phase == "status":
        status_phase(s, orders)
    elif phase == "agenda":
        trades.agenda(s, orders)
        agenda_step(s, orders)
    return s.done()


def set_standing(s: Step, power: str, answers: Mapping[str, Any]) -> None:
    """``power``'s standing answers replaced (told to him only when they change)."""
    new = copy.deepcopy(dict(answers))
    if s.st["standing"].get(power) == new:
        return
    s.st["standing"][power] = new
    s.events.append({"type": "standing", "player": power, "to": [power],
                     "text": "Your standing answers are now in force."})


# -- phases ------------------------------------------------------------------------------------
def draft(s: Step, orders: Mapping[str, Any]) -> None:
    prefs: dict[str, list[str]] = {}
    for p in setup.seats(s.st):
        ranked = (orders.get(p) or {}).get("draft") if p not in s.st["conceded"] else None
        if ranked is None:
            ranked = (s.st["standing"].get(p) or {}).get("draft") or []
        bad = strategy.preference_problems(s.pk, {p: ranked})
        if bad:
            s.refused(p, "draft", bad, "the lowest cards left are yours")
            ranked = []
        prefs[p] = list(ranked)
    s.table, events = strategy.draft(s.t, s.pk, prefs)
    s.events += events
    s.table = actions.start(s.t, s.pk)
    s.phase("action")
    auto(s)


def take_action(s: Step, player: str, action: Mapping[str, Any] | None) -> None:
    """``player``'s action (None: his default), then the phase moved on."""
    cat = s.catalog()
    if action is None:
        action = default_action(s.st, s.t, player)
    standing = {p: a["combat"] for p, a in sorted(s.st["standing"].items())
                if isinstance(a, Mapping) and a.get("combat") is not None}
    r = actions.act(s.t, s.b, s.pk, cat, player, action, secondaries={}, standing=standing,
                    chance=s.chance)
    if r.problems:
        fallback = default_action(s.st, s.t, player)
        s.refused(player, "action", r.problems, "your default action is taken instead")
        r = actions.act(s.t, s.b, s.pk, cat, player, fallback, secondaries={},
                        standing=standing, chance=s.chance)
        action = fallback
        if r.problems:   # nothing he may do: his cards are spent and he passes
            forfeit(s, player)
            return
    if "strategic" in action:
        answers = {q: standing_secondary(s.st, q, str(action["strategic"]))
                   for q in setup.seats(s.st) if q != player}
        if any(a is None for a in answers.values()):
            s.st["pending"] = {"player": player, "card": action["strategic"],
                               "choices": copy.deepcopy(list(action.get("choices") or []))}
            s.st["phase"] = "secondary"
            s.events.append({"type": "secondary-open", "player": player,
                             "card": action["strategic"],
                             "text": f"{player} plays {action['strategic']}: the others may "
                             "follow its secondary."})
            return
        if any((a or {}).get("follow") for a in answers.values()):
            r = actions.act(s.t, s.b, s.pk, cat, player, action,
                            secondaries={q: a for q, a in answers.items() if a},
                            standing=standing, chance=s.chance)
    s.table, s.board = r.table, r.board
    s.events += r.events
    after_action(s)


def forfeit(s: Step, player: str) -> None:
    seat = s.t.players[player]
    s.table = s.t.with_seat(player, used=seat.cards, passed=True)
    s.events.append({"type": "pass", "player": player,
                     "text": f"{player} can do nothing more and passes."})
    s.table = replace(s.t, turn=actions.next_turn(s.t, s.pk, player))
    after_action(s)


def secondaries(s: Step, orders: Mapping[str, Any]) -> None:
    pending = s.st["pending"]
    player, card = pending["player"], pending["card"]
    answers: dict[str, Mapping[str, Any]] = {}
    for q in setup.seats(s.st):
        if q == player:
            continue
        sent = (orders.get(q) or {}).get("secondary") if q not in s.st["conceded"] else None
        answer = sent if isinstance(sent, Mapping) else standing_secondary(s.st, q, card)
        answers[q] = dict(answer or {"follow": False})
    s.st["pending"] = None
    s.st["phase"] = "action"
    cat = s.catalog()
    action = {"strategic": card, "choices": pending["choices"]}
    r = actions.act(s.t, s.b, s.pk, cat, player, action, secondaries=answers)
    if r.problems:
        s.refused(player, "action", r.problems, "your default action is taken instead")
        take_action(s, player, None)
        return
    s.table, s.board = r.table, r.board
    s.events += r.events
    after_action(s)


def after_action(s: Step) -> None:
    if s.t.ended:
        return
    if s.t.turn is None:
        s.phase("status")
        return
    auto(s)


def auto(s: Step) -> None:
    """Turns taken for their players with no window: a conceded player's default action, a
    queued pass that is legal now."""
    for _ in range(MAX_AUTO):
        if s.st["phase"] != "action" or s.t.ended or s.t.turn is None:
            return
        p = s.t.turn
        if p in s.st["conceded"]:
            take_action(s, p, None)
        elif queued_pass(s.st, p) and may_pass(s.t, p):
            s.events.append({"type": "queued-pass", "player": p,
                             "text": f"{p} had queued a pass."})
            take_action(s, p, {"pass": True})
        else:
            return


def status_phase(s: Step, orders: Mapping[str, Any]) -> None:
    choices = {p: dict((orders.get(p) or {}).get("status") or {})
               for p in setup.seats(s.st) if p not in s.st["conceded"]}
    r = status.status(s.t, s.b, s.pk, s.catalog(), choices,
                      ready_first=setup.rules_version(s.st) >= 2)
    s.table, s.board = r.table, r.board
    s.events += r.events
    if s.t.ended:
        return
    s.phase("agenda" if s.t.custodians_taken else "strategy")


def agenda_step(s: Step, orders: Mapping[str, Any]) -> None:
    ballots: dict[str, list[Mapping[str, Any]]] = {}
    for p in setup.seats(s.st):
        mine = (orders.get(p) or {}).get("agenda") or {}
        cast = list(mine.get("ballots") or []) if p not in s.st["conceded"] else []
        bad = agenda.ballot_problems(s.t, s.b, s.pk, {p: cast})
        if bad:
            s.refused(p, "agenda ballots", bad, "you abstain")
            cast = []
        ballots[p] = cast
    ties = list(((orders.get(s.t.speaker) or {}).get("agenda") or {}).get("ties") or [])
    r = agenda.agenda_phase(s.t, s.b, s.pk, s.catalog(), ballots, ties)
    s.table, s.board = r.table, r.board
    s.events += r.events
    if not s.t.ended:
        s.phase("strategy")


# -- endings -----------------------------------------------------------------------------------
def ranking(state: Mapping[str, Any]) -> list[str]:
    """Most VP first, ties by initiative (the status phase's order)."""
    if not state["table"]:
        return list(live(state))
    return status.ranking(setup.table_of(state), setup.core(state["pack"]))


def winners(state: Mapping[str, Any]) -> list[str]:
    """Who wins an ending by agreement: the most VP, ties by initiative order (one winner);
    before the deal, nobody."""
    if not state["table"]:
        return []
    order = [p for p in ranking(state) if p not in state["conceded"]]
    return order[:1]


def concede(state: Mapping[str, Any], power: str) -> tuple[State, list[Event]]:
    """``power`` concedes: he stays seated and plays his defaults, never due again; the last
    player left wins."""
    s = Step(state, NO_CHANCE)
    if state["result"] is not None or power in state["conceded"]:
        return dict(state), []
    s.st["conceded"].append(power)
    s.events.append({"type": "conceded", "player": power, "text": f"{power} concedes: his "
                     "turns are played on his defaults."})
    left = live(s.st)
    if len(left) <= 1:
        return end(s, f"{power} conceded", list(left))
    if state["phase"] == "action" and s.table is not None and s.t.turn == power:
        auto(s)
    elif state["phase"] == "secondary" and s.table is not None \
            and state["pending"]["player"] == power:
        secondaries(s, {})
    return s.done(step=False)


def end(s: Step, reason: str, who: list[str]) -> tuple[State, list[Event]]:
    st, events = s.done(step=False)  # an ending is not a step
    if st["result"] is not None:
        return st, events
    st["phase"] = "over"
    st["result"] = {"reason": reason, "turn": st["turn"], "winners": sorted(who)}
    events.append({"type": "game_over", "turn": st["turn"], "reason": reason,
                   "winners": sorted(who)})
    return st, events


def end_game(state: Mapping[str, Any], reason: str) -> tuple[State, list[Event]]:
    if state["result"] is not None:
        return dict(state), []
    return end(Step(state, NO_CHANCE), reason, winners(state))


__all__ = ["window", "resolve", "default_orders", "concede", "end_game", "initiative"]
