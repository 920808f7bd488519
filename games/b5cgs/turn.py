"""The window and the resolution of one step: the set-up step, the deal, one player's
starting fleet (rules version 3), or one player's turn.

From rules version 3 every player places his starting fleet, in the order of play, one step
each, before anyone's first turn (C4.3 "Players, in the order of play, may then spend ...";
C4.4 "Begin Play"; ruling R7): ``place_fleet``. Turns are strictly sequential (A3.3: "Players
take turns sequentially, in clockwise rotation"): each step after that is one player's whole
turn, from one order file. Resolving a turn deep-copies the state once, then runs the phases in
order on that working copy, each returning its events (STATE.md): under rules versions 1 and 2
the starting fleet in the player's first turn (C4.3, setup.py), Record Keeping (D1,
economy.py), Allocate (D3, allocate.py), Move (D4, movement.py), Fire (D5, fire.py). The Vote
phase (D2) needs cards and is deferred.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Mapping
from typing import Any

from pbem.game.chance import NO_CHANCE, Chance
from pbem.game.events import private
from pbem.game.plugin import Window

from . import allocate, economy, fire, movement
from . import setup as setupmod
from .frozen import Frozen, freeze


def live(state: Mapping[str, Any]) -> list[str]:
    """Powers still in the game, in order of play (seat order before the set-up step)."""
    order = state["order"] or state["seats"]
    return [p for p in order if not state["powers"][p]["surrendered"]]


def title(state: Mapping[str, Any], power: str) -> str:
    return str(state["pack"]["empires"][state["powers"][power]["empire"]]["title"])


def window(state: Mapping[str, Any]) -> Window | None:
    if state["result"] is not None:
        return None
    if state["phase"] == "setup":  # draws nothing: every player commits his chance
        return Window("setup", "Set-up: every player commits his chance", tuple(live(state)))
    if state["phase"] == "deal":
        return Window("deal", "The deal: order of play, homeworlds and the face-down map",
                      tuple(live(state)), draws=True)
    p = state["current"]
    others = tuple(q for q in state["order"] if q != p and not state["powers"][q]["surrendered"])
    # D3.42: the others' standing contested-space answers, which they may change at any time;
    # listened to, their values enter the turn's seed (a Defense Grid roll's target among them).
    # A full report goes to the powers the step touched (the mover, the next mover, whoever
    # was fired on: fire.py's under_fire) and the others read it at their digest pace; silence
    # on one's own turn stays a missed turn (RULES.md, "Mail and standing answers").
    notify = "touched" if setupmod.rules_version(state) >= setupmod.MAIL_BY_TOUCH else "all"
    if state["phase"] == "fleet":  # C4.3, rules version 3: one placement a step
        return Window("fleet", f"Starting fleets: {title(state, p)} places (C4.3)", (p,),
                      listens=others, draws=True, notify=notify)
    return Window("turn", f"Round {state['round']}: {title(state, p)}'s turn", (p,),
                  listens=others, draws=True, notify=notify)


def default_orders() -> dict[str, Any]:
    """The standing orders (NMR): nothing bought, declared, built, moved or fired."""
    return {"start": [], "record": {}, "allocate": {}, "move": [], "fire": [],
            "contested": None}


def _stamp(st: Mapping[str, Any], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for e in events:
        e.setdefault("turn", st["turn"])
        e.setdefault("round", st["round"])
    return events


def plain_copy(data: Mapping[str, Any]) -> dict[str, Any]:
    """A deep copy of plain data (a state, a view) sharing nothing with it: a pickle round
    trip, the same result as ``copy.deepcopy`` at a third of its cost (a state's component
    tables are most of it)."""
    return pickle.loads(pickle.dumps(dict(data), pickle.HIGHEST_PROTOCOL))  # type: ignore[no-any-return]


def working_copy(state: Mapping[str, Any]) -> dict[str, Any]:
    """The state a step changes: a copy of every part but the component pack, which the new
    state shares with the old (``pack``: the dice, Empire Control Sheets, tokens and map
    pieces, three fifths of a state, which no rule changes: states are never changed once
    made, docs/plugins.md "The rules"), read-only (``shared_pack``)."""
    copied = plain_copy({k: v for k, v in state.items() if k != "pack"})
    return {k: shared_pack(state[k]) if k == "pack" else copied[k] for k in state}


#: The pack ``shared_pack`` was last handed (held: its id stays its own) and the read-only
#: copy it gave for it, which every state of an equal pack shares.
_PACK: list[Any] = [None, None]


def shared_pack(pack: Mapping[str, Any]) -> Any:
    """``pack`` read-only (``frozen.freeze``): one copy for every state whose pack equals it
    (every game of one component pack), made once per process, so the renderer encodes a
    state's pack (14 KB of its 21 KB) once per process, not once per resolution (its digest,
    state.json and the game master's state.json: pbem.render.cache.lasting_json). A pack that
    is read-only already is kept; another is compared with the copy by value, so a pack that
    differs (another pack, or one changed in place) gets its own. Equal is the same here:
    a pack is made from its source file by one normaliser (components.pack), and carries the
    digest of that file's canonical form, which tells 1 from 1.0 and from true."""
    if isinstance(pack, Frozen):
        return pack
    kept = _PACK
    if kept[0] is not pack:
        if kept[1] is None or kept[1] != pack:
            kept[1] = freeze(pack)
        kept[0] = pack
    return kept[1]


def resolve(state: Mapping[str, Any], orders: Mapping[str, Any], chance: Chance | None
            ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    st: dict[str, Any] = working_copy(state)
    chance = chance if chance is not None else NO_CHANCE
    if st["result"] is not None:
        return st, []
    if st["phase"] == "setup":
        st["phase"] = "deal"  # every tip is in: the next step deals
        events = []
    elif st["phase"] == "deal":
        events = setupmod.setup_step(st, chance)
    else:
        power = st["current"]
        events = []
        for other in st["order"]:  # answers sent while it was not their turn (Window.listens)
            if other != power and other in orders:
                events += set_answer(st, other, orders[other].get("contested"))
        if st["phase"] == "fleet":
            events += place_fleet(st, power, orders.get(power) or default_orders(), chance)
        else:
            events += run_turn(st, power, orders.get(power) or default_orders(), chance)
            if st["result"] is None:
                advance(st, power)
    _stamp(st, events)
    st["turn"] += 1
    return st, events


def place_fleet(st: dict[str, Any], power: str, orders: Mapping[str, Any], chance: Chance
                ) -> list[dict[str, Any]]:
    """Rules version 3: ``power``'s starting-fleet step (C4.3 "Players, in the order of play,
    may then spend any or all of their starting Economy Reserve to place additional units";
    ruling R7), on the working copy ``st``; after the last player, play begins (C4.4 "Proceed
    to D - Turn Sequence and start with the player who had the highest roll")."""
    events: list[dict[str, Any]] = [{"type": "fleet_begins", "power": power}]
    events += set_answer(st, power, orders.get("contested"))
    events += setupmod.starting_fleet(st, power, orders.get("start") or [], chance)
    events += next_placer(st, power)
    return events


def next_placer(st: dict[str, Any], power: str) -> list[dict[str, Any]]:
    """After ``power``'s starting-fleet step: the next player in the order of play who is still
    in the game places his, or, after the last, play begins with the first (C4.4)."""
    order = st["order"]
    rest = [p for p in order[order.index(power) + 1:] if not st["powers"][p]["surrendered"]]
    if rest:
        st["current"] = rest[0]
        return []
    left = live(st)
    if not left:
        return []
    st["phase"], st["round"], st["current"] = "play", 1, left[0]
    return [{"type": "play_begins", "power": left[0]}]


def run_turn(st: dict[str, Any], power: str, orders: Mapping[str, Any], chance: Chance
             ) -> list[dict[str, Any]]:
    """One player's turn on the working copy ``st``."""
    me = st["powers"][power]
    events: list[dict[str, Any]] = [{"type": "turn_begins", "power": power,
                                     "round": st["round"]}]
    events += set_answer(st, power, orders.get("contested"))
    if me["turns"] == 0 and setupmod.rules_version(st) < setupmod.FLEETS_BEFORE_PLAY:
        events += setupmod.starting_fleet(st, power, orders.get("start") or [], chance)
    events += economy.record_keeping(st, power, orders.get("record") or {}, chance)
    if st["result"] is None and not me["surrendered"]:
        events += allocate.allocate(st, power, orders.get("allocate") or {}, chance)
        events += movement.move_phase(st, power, orders.get("move") or [], chance)
        events += fire.fire(st, power, orders.get("fire") or [], chance)
    me["turns"] += 1
    st["flags"] = {"moved": [], "fired": [], "targeted": []}
    events.append({"type": "turn_ends", "power": power})
    if me["surrendered"]:
        events += _remove_power(st, power)
    _last_standing(st, events)
    return events


def set_answer(st: dict[str, Any], power: str, answer: Mapping[str, Any] | None
               ) -> list[dict[str, Any]]:
    """``power``'s standing contested-space answer (D3.42, ruling R12), private to him; an
    answer he already had changes nothing and says nothing (a standing file repeats it at
    every step, and an event addressed to him would mail him each step's report)."""
    if answer is None or (setupmod.rules_version(st) >= setupmod.MAIL_BY_TOUCH
                          and st["powers"][power].get("contested") == dict(answer)):
        return []
    st["powers"][power]["contested"] = copy.deepcopy(dict(answer))
    return [private({"type": "contested_answer", "power": power,
                     "answer": copy.deepcopy(dict(answer))}, power)]


def advance(st: dict[str, Any], power: str) -> None:
    """The next player in the order of play (skipping those who surrendered); a new round
    when the order wraps around."""
    order = st["order"]
    i = order.index(power)
    for k in range(1, len(order) + 1):
        nxt = order[(i + k) % len(order)]
        if not st["powers"][nxt]["surrendered"]:
            if i + k >= len(order):
                st["round"] += 1
            st["current"] = nxt
            return


def _remove_power(st: dict[str, Any], power: str) -> list[dict[str, Any]]:
    """D1.12: the surrendering player's units and war tokens leave play (his map pieces stay)."""
    gone = sorted(t for t, tok in st["tokens"].items()
                  if tok["owner"] == power and st["pack"]["tokens"][tok["type"]]["kind"] in
                  ("ship", "base"))
    for t in gone:
        del st["tokens"][t]
    st["powers"][power]["war_tokens"] = []
    for other in st["powers"].values():
        if power in other["war_tokens"]:
            other["war_tokens"].remove(power)
    st["powers"][power]["surrendered"] = True
    return [{"type": "surrendered", "power": power, "removed": gone}]


def _last_standing(st: dict[str, Any], events: list[dict[str, Any]]) -> None:
    left = live(st)
    if st["result"] is None and len(left) == 1:
        finish(st, events, left, "last-standing")


def finish(st: dict[str, Any], events: list[dict[str, Any]], winners: list[str],
           reason: str) -> None:
    """End the game: the result, and every face-down piece revealed."""
    st["result"] = {"winners": sorted(winners), "reason": reason, "round": st["round"]}
    st["phase"] = "over"
    events.append({"type": "victory", "winners": sorted(winners), "reason": reason})
    events.append({"type": "revealed",
                   "pieces": {s: setupmod.piece_name(p)
                              for s, p in sorted(st["referee"]["pieces"].items())},
                   "aside": [setupmod.piece_name(p) for p in st["referee"]["aside"]]})


def concede(state: Mapping[str, Any], power: str) -> tuple[dict[str, Any], list[Any]]:
    """A player concedes (game-master operation): as a surrender (D1.12)."""
    st: dict[str, Any] = copy.deepcopy(dict(state))
    me = st["powers"].get(power)
    if me is None or me["surrendered"] or st["result"] is not None:
        return st, []
    events = _remove_power(st, power)
    events[0]["type"] = "conceded"
    if st["phase"] == "play" and st["current"] == power:
        advance(st, power)
    elif st["phase"] == "fleet" and st["current"] == power:
        events += next_placer(st, power)
    _last_standing(st, events)
    return st, _stamp(st, events)


def end_game(state: Mapping[str, Any], reason: str) -> tuple[dict[str, Any], list[Any]]:
    """End by agreement: the highest Gross Economy wins (ruling R13)."""
    st: dict[str, Any] = copy.deepcopy(dict(state))
    if st["result"] is not None:
        return st, []
    events: list[dict[str, Any]] = []
    left = live(st)
    winners = left
    if st["phase"] in ("play", "fleet"):
        gross = {p: int(economy.banks(st, p)["gross"]) for p in left}
        best = max(gross.values(), default=0)
        winners = [p for p in left if gross[p] == best]
    finish(st, events, winners, "agreement")
    st["result"] = {**dict(st["result"] or {}), "note": reason}
    return st, _stamp(st, events)
