"""TI4's events in sentences, one per event type the rules core emits (grep ``"type":`` and
``event(`` in games/ti4/), from the event's own fields; an event of a type not here, or one
missing a field its sentence needs, falls back to the event's ``text`` (the rules core writes
one on every event). Dice are not sentences: ``roll_line`` lists a roll under its label (the
stream it was drawn from, which ``pbem dice verify`` rechecks) with its count, die and faces.

Powers are named by their seat, capitalised ("Red"); cards, objectives, agendas, planets and
systems by their ids in the pack, as order files write them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.game.events import visible_to

Event = Mapping[str, Any]


def who(p: object) -> str:
    text = str(p)
    return text[:1].upper() + text[1:]


def units(counts: object) -> str:
    """``{"frigate": 2, "wing": 1}`` -> ``2 frigate, 1 wing`` (``nothing`` when empty)."""
    if not isinstance(counts, Mapping) or not counts:
        return "nothing"
    return ", ".join(f"{n} {u}" for u, n in sorted(counts.items()) if n) or "nothing"


def _pick(e: Event) -> str:
    goods = int(e.get("trade_goods") or 0)
    extra = f" and the {goods} trade good(s) on it" if goods else ""
    why = {"lowest": " (the rest of his list was taken: the lowest initiative left)",
           "forced": " (the last card, taken without asking)"}.get(str(e.get("how")), "")
    return f"{who(e['player'])} takes the {e['card']} strategy card{extra}{why}."


def _hits(e: Event) -> str:
    lost, hurt = e.get("destroyed") or {}, e.get("damaged") or {}
    parts = []
    if lost:
        parts.append(f"destroyed {units(lost)}")
    if hurt:
        parts.append(f"damaged {units(hurt)}")
    n = int(e["hits"])
    return (f"{who(e['player'])} takes {n} hit{'s' if n != 1 else ''} at {e['place']}: "
            + ("; ".join(parts) if parts else "nothing left to take them") + ".")


def _move(e: Event) -> str:
    path = list(e["path"])
    cargo = e.get("cargo") or {}
    return (f"{who(e['player'])} moves {units(e['ships'])} from {path[0]} to {path[-1]}"
            + (f" by {' - '.join(path)}" if len(path) > 2 else "")
            + (f", carrying {units(cargo)}" if cargo else "") + ".")


def _combat_end(e: Event) -> str:
    won = e.get("winner")
    return (f"The space combat in {e['system']} ends: "
            + (f"{who(won)} holds the system." if won else "no winner."))


def _ground_end(e: Event) -> str:
    left = list(e.get("left") or [])
    how = (f"{who(left[0])} holds {e['planet']}" if len(left) == 1 else
           "both sides are destroyed" if not left else "no side holds it alone")
    n = int(e.get("rounds") or 0)
    return f"The ground combat on {e['planet']} ends after {n} round{'s' * (n != 1)}: {how}."


def _control(e: Event) -> str:
    before = e.get("previous")
    return (f"{who(e['player'])} takes control of {e['planet']}"
            + (f" from {who(before)}" if before else "") + "; it is exhausted.")


def _vp(e: Event) -> str:
    text = str(e.get("text") or "")
    why = text[text.find("(") + 1:text.find(")")] if "(" in text and ")" in text else ""
    return (f"{who(e['player'])} gains {e['vp']} VP" + (f" ({why})" if why else "")
            + f", {e['total']} in all.")


def _said(e: Event) -> str:
    """The rules core's own sentence, its first word capitalised: for an event whose only
    field beyond its actor is the sentence (``trade-goods``, ``ready``, ``lock``, ...)."""
    text = str(e["text"])
    return text[:1].upper() + text[1:]


def _goods(g: object) -> str:
    """``{"trade_goods": 2, "commodities": 1}`` -> ``2 trade goods and 1 commodity``."""
    parts = []
    for k, one, many in (("trade_goods", "trade good", "trade goods"),
                         ("commodities", "commodity", "commodities")):
        n = int((g or {}).get(k) or 0) if isinstance(g, Mapping) else 0
        if n:
            parts.append(f"{n} {one if n == 1 else many}")
    return " and ".join(parts) or "nothing"


def _transaction(e: Event) -> str:
    a, b = who(e["player"]), who(e["with"])
    when = " in the agenda phase" if e.get("kind") == "agenda" else ""
    return (f"{a} and {b} make a transaction{when}: {a} gives {_goods(e['give'])} and gets "
            f"{_goods(e['get'])} (commodities received become trade goods).")


def _phase(e: Event) -> str:
    agendas = list(e.get("agendas") or [])
    return (f"Round {e['round']}: the {e['phase']} phase begins"
            + (f"; the agendas voted on are {', '.join(agendas)}" if agendas else "") + ".")


def _deal(e: Event) -> str:
    who_plays = ", ".join(f"{who(p)} plays {f}" for p, f in sorted(e["factions"].items()))
    return f"The galaxy is set up: {who_plays}. {who(e['speaker'])} is the speaker."


def _refused(e: Event) -> str:
    problems = "; ".join(f"{p['path'] or 'the section'}: {p['message']}"
                         for p in e.get("problems") or [])
    text = str(e.get("text") or "")
    instead = text[text.rfind("): ") + 3:] if "): " in text else "your default was used."
    return f"Your {e['section']} was refused ({problems}): {instead}"


def _draws(e: Event) -> str:
    """The engine's list of a step's public draws (pbem.store.chance.public_event)."""
    return (f"Public draws of step {e.get('step')}: " + "; ".join(
        f"{d.get('label')} {d.get('result')}" for d in e.get("draws") or []) + ".")


SENTENCES: dict[str, Callable[[Event], str]] = {
    # the engine's (every drawing step's public draws)
    "chance": _draws,
    # the plugin's own (games/ti4/turn.py, setup.py)
    "deal": _deal,
    "phase": _phase,
    "refused": _refused,
    "standing": lambda e: "Your standing answers are now in force.",
    "queued-pass": lambda e: f"{who(e['player'])} passes, as he had queued.",
    "conceded": _said,
    "secondary-open": lambda e: (f"{who(e['player'])} plays {e['card']}: the others may "
                                 "follow its secondary."),
    "game_over": lambda e: f"The game is over: {e['reason']}",
    # the secret kept at set-up (games/ti4/keep.py), transactions (deals.py)
    "secrets-drawn": lambda e: (f"You draw the secret objectives {', '.join(e['drawn'])}: "
                                f"keep {e['kept']} of them (keep: in your next orders; "
                                "silence keeps the first)."),
    "secret-kept": _said,
    "transaction": _transaction,
    "transaction-failed": _said,
    # strategy phase
    "pick": _pick,
    "card-goods": lambda e: (f"Nobody took the {e['card']} card: it now holds "
                             f"{e['trade_goods']} trade good(s)."),
    # action phase
    "pass": lambda e: f"{who(e['player'])} passes.",
    "phase-end": lambda e: "Everyone has passed: the action phase ends.",
    "strategic": lambda e: f"{who(e['player'])} plays the primary ability of {e['card']}.",
    "secondary": lambda e: (f"{who(e['player'])} follows {e['card']}, spending "
                            f"{e['cost']} strategy token(s)."),
    "custodians": lambda e: (f"{who(e['player'])} pays the Custodians: agenda phases begin "
                             "after this round's status phase."),
    "activate": lambda e: f"{who(e['player'])} activates {e['system']}.",
    "move": _move,
    "rift": lambda e: (f"{who(e['player'])} loses {e['count']} {e['unit']} leaving a "
                       "gravity rift."),
    "space-combat": lambda e: (f"Space combat in {e['system']}: {who(e['attacker'])} attacks "
                               f"{who(e['defender'])}."),
    "hits": _hits,
    "retreat-announced": lambda e: (f"{who(e['player'])} announces a retreat from "
                                    f"{e['system']} (round {e['round']})."),
    "retreat": lambda e: (f"{who(e['player'])} retreats {units(e['units'])} from "
                          f"{e['system']} to {e['dest']}."),
    "retreat-skipped": lambda e: (f"{who(e['player'])} cannot retreat from {e['system']}: no "
                                  "adjacent system has his units or planets and no enemy "
                                  "ships; his ships fight on."),
    "fleet-excess": lambda e: (f"{who(e['player'])} loses {units(e['units'])} in "
                               f"{e['system']}, beyond his fleet pool."),
    "excess": lambda e: (f"{who(e['player'])} loses {units(e['units'])} in {e['system']}, "
                         "beyond capacity."),
    "stalemate": lambda e: f"The space combat in {e['system']} stops with both sides in place.",
    "space-combat-end": _combat_end,
    "invasion-skipped": lambda e: (f"No invasion in {e['system']}: enemy ships are still "
                                   "there."),
    "shield": lambda e: f"A planetary shield covers {e['planet']}.",
    "landing": lambda e: (f"{who(e['player'])} lands {units(e['units'])} on "
                          f"{e['planet']}."),
    "ground-combat": lambda e: (f"Ground combat on {e['planet']}: {who(e['attacker'])} "
                                f"against {who(e['defender'])}."),
    "ground-combat-end": _ground_end,
    "control": _control,
    "production": lambda e: (f"{who(e['player'])} builds {units(e['units'])} in "
                             f"{e['system']}."),
    "not-built": _said,
    "not-applied": _said,
    "spent": lambda e: f"You spent {e['spent']} resources on production.",
    # effects of cards, technologies and agendas
    "secondary-skipped": _said,
    "trade-goods": _said,
    "commodities": _said,
    "ready": _said,
    "speaker": _said,
    "lock": _said,
    "recover": _said,
    "research": _said,
    "place": _said,
    "secret-returned": _said,
    "not-scored": _said,
    "pools-kept": _said,
    "peek": lambda e: ("You look at the top of the agenda deck: "
                       + (", ".join(e["agendas"]) or "it is empty") + "."),
    "secret-drawn": lambda e: f"You draw the secret objective {e['objective']}.",
    # status phase
    "reveal": lambda e: f"The public objective {e['objective']} is revealed.",
    "tokens": _said,  # the status phase's and the effects' (the latter say what was lost)
    "vp": _vp,
    "victory": lambda e: f"{who(e['player'])} reaches the victory points and wins at once.",
    "game-end": lambda e: (f"No public objective is left to reveal: the game ends, and "
                           f"{who(e['player'])} wins."),
    # agenda phase
    "agenda": lambda e: f"The agenda {e['agenda']} is revealed.",
    "vote": lambda e: (f"{who(e['player'])} casts {e['votes']} vote(s) for {e['outcome']} "
                       f"on {e['agenda']}."),
    "abstain": lambda e: f"{who(e['player'])} abstains on {e['agenda']}.",
    "tie": lambda e: f"A tie on {e['agenda']}: the speaker chooses {e['outcome']}.",
    "resolved": lambda e: f"The agenda {e['agenda']} resolves: {e['outcome']}.",
    "law": lambda e: f"The agenda {e['agenda']} is now a law.",
}


def sentence(event: Event) -> str:
    """The event in words (its ``text`` where no sentence fits it)."""
    kind = event.get("type")
    if kind == "roll":
        return roll_line(event)
    make = SENTENCES.get(str(kind))
    if make is not None:
        try:
            return make(event)
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # a field missing or of another shape: the rules core's own words
    text = str(event.get("text") or "")
    if text:
        return text[:1].upper() + text[1:]  # the rules core's words ("red passes.")
    return f"{kind}: " + ", ".join(f"{k} {v}" for k, v in sorted(event.items())
                                   if k != "type" and not str(k).startswith("_")) + "."


def roll_line(e: Event) -> str:
    """``combat:S07:r1:red:frigate  2 d10 (space combat round 1): 7, 3``."""
    result = ", ".join(str(x) for x in e.get("result") or [])
    count = e.get("count") or len(e.get("result") or [])
    why = f" ({e['why']})" if e.get("why") else ""
    return f"{e.get('label')}  {count} {e.get('die', 'd10')}{why}: {result}"


def rolls(events: Sequence[Event]) -> list[dict[str, Any]]:
    """Every roll of ``events``: label, count, die, why, result, and its line."""
    return [{"label": str(e.get("label")), "count": e.get("count"), "die": e.get("die", "d10"),
             "why": e.get("why", ""), "result": list(e.get("result") or []),
             "line": roll_line(e)} for e in events if e.get("type") == "roll"]


def told(events: Sequence[Event], *, gm: bool = False) -> list[str]:
    """The events in sentences, the dice left to ``rolls``; ``gm``: private ones marked with
    whom they were for."""
    out = []
    for e in events:
        if e.get("type") in ("roll", "chance"):
            continue
        line = sentence(e)
        private = visible_to(e) or e.get("to")  # the engine's addressing, or the core's
        if gm and private:
            line = f"[only {', '.join(who(p) for p in private)}] {line}"
        elif private:
            line = f"{line} (only you)"
        out.append(line)
    return out
