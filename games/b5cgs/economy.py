"""The four Scoring Banks (B3.1) and the Record Keeping phase (D1): victory checks, surrender,
generating economy, bonuses and penalties.

Banks are never stored: Gross, Total Upkeep and Net are computed from the tokens every time
(B3.11-B3.13), so they cannot drift from the map; only the Economy Reserve (B3.14) is kept, in
``powers[p].reserve``, and it never goes below 0 (D1.2 note, D1.45, D1.95). ``banks`` works on a
state and on a player's view alike (both carry ``pack``, ``tokens`` and ``powers[p].reserve``).

Record Keeping runs in the rulebook's order (X10): a pending victory declaration is confirmed or
lapses; a new declaration (D1.11, D1.13 as an option) from the 4th turn on; surrender (D1.12);
generate economy (D1.2); collect bonuses (D1.3: freighters docked to Babylon 5); pay penalties
(D1.4: map pieces per ship, tokens that steal while docked to a base), each stopping at 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem
from pbem.game.checker import unknown_keys

from . import board

#: D1.1: "No player may attempt any of the victory conditions on or before his 3rd turn".
FIRST_VICTORY_TURN = 4
#: D1.13: 6 or more map pieces occupied only by your units (the standard minimum 5, plus 1).
TERRITORIAL_PIECES = 6
VICTORIES = ("economic", "territorial")
RECORD_KEYS = ("declare", "surrender")
Event = dict[str, Any]


def _spec(st: Mapping[str, Any], tok: Mapping[str, Any]) -> Mapping[str, Any]:
    return board.spec(st, tok["type"])


def banks(st: Mapping[str, Any], power: str) -> dict[str, int]:
    """Gross Economy, Total Upkeep, Net Economy and Economy Reserve of ``power`` (B3.1)."""
    gross = upkeep = 0
    for tok in st["tokens"].values():
        if tok.get("owner") != power:
            continue
        spec = _spec(st, tok)
        on_map = tok.get("hex") is not None
        if on_map and spec["kind"] == "base":
            gross += int(spec.get("economy") or 0)          # B3.11
        if on_map or tok.get("scrap"):
            upkeep += int(spec.get("upkeep") or 0)          # B3.12: map and Scrap Yard
    reserve = int(st["powers"][power].get("reserve") or 0)
    return {"gross": gross, "upkeep": upkeep, "net": gross - upkeep, "reserve": reserve}


def active_powers(st: Mapping[str, Any]) -> list[str]:
    return [p for p in st["seats"] if not st["powers"][p].get("surrendered")]


def opponents(st: Mapping[str, Any], power: str) -> list[str]:
    return [p for p in active_powers(st) if p != power]


def this_turn(st: Mapping[str, Any], power: str) -> int:
    """Which of ``power``'s turns is being played: ``turns`` counts the turns already taken
    (STATE.md), so the current one is the next."""
    return int(st["powers"][power].get("turns") or 0) + 1


def economic_qualifies(st: Mapping[str, Any], power: str) -> bool:
    """D1.11: at least twice the Gross Economy of each opponent (not combined)."""
    mine = banks(st, power)["gross"]
    others = opponents(st, power)
    return bool(others) and all(mine >= 2 * banks(st, p)["gross"] for p in others)


def held_pieces(st: Mapping[str, Any], power: str) -> int:
    """D1.13: map pieces occupied by one or more of ``power``'s units and by no opponent's."""
    where = board.slot_of_hex(st)
    holders: dict[int, set[str]] = {}
    for tok in st["tokens"].values():
        if board.is_unit(st, tok) and tok["hex"] in where:
            holders.setdefault(where[tok["hex"]], set()).add(tok["owner"])
    return sum(1 for owners in holders.values() if owners == {power})


def territorial_qualifies(st: Mapping[str, Any], power: str) -> bool:
    """D1.13: Gross above each opponent's and 6 or more map pieces held alone."""
    mine = banks(st, power)["gross"]
    others = opponents(st, power)
    return (bool(others) and all(mine > banks(st, p)["gross"] for p in others)
            and held_pieces(st, power) >= TERRITORIAL_PIECES)


def qualifies(st: Mapping[str, Any], power: str, victory: str) -> bool:
    if victory == "economic":
        return economic_qualifies(st, power)
    return territorial_qualifies(st, power)


def why_not_declare(st: Mapping[str, Any], power: str, victory: str) -> str | None:
    """The reason ``power`` may not declare ``victory`` now, or None (D1.1, D1.11, D1.13)."""
    if victory == "territorial" and not st["options"].get("territorial"):
        return "Territorial Victory is an optional rule (D1.13) not used in this game"
    turn = this_turn(st, power)
    if turn < FIRST_VICTORY_TURN:
        return (f"no victory may be attempted on or before a player's 3rd turn (D1.1); "
                f"this is turn {turn}")
    if not qualifies(st, power, victory):
        if victory == "economic":
            return ("Economic Victory needs at least twice the Gross Economy of each opponent "
                    "(D1.11)")
        return ("Territorial Victory needs the largest Gross Economy and 6 or more map pieces "
                "occupied by your units alone (D1.13)")
    return None


def change_reserve(st: dict[str, Any], power: str, amount: int, why: str) -> Event:
    """Add ``amount`` (negative: pay) to the Reserve, never below 0 (D1.45, D1.95); the event
    says what was actually paid or gained."""
    me = st["powers"][power]
    before = int(me["reserve"])
    me["reserve"] = max(0, before + amount)
    return {"type": "economy", "power": power, "reserve": me["reserve"],
            "change": me["reserve"] - before, "why": why}


def record_keeping(st: dict[str, Any], power: str, section: Mapping[str, Any] | None,
                   chance: Any) -> list[Event]:
    """D1 for the current player; mutates ``st``. Returns at once when the game ends."""
    section = section if isinstance(section, Mapping) else {}
    events: list[Event] = []
    me = st["powers"][power]
    declared = me.get("declared")
    if declared:                                           # D1.11 / D1.13: the next turn
        victory = declared["victory"]
        me["declared"] = None
        if qualifies(st, power, victory):
            return events + win(st, [power], victory)
        events.append({"type": "declaration_lapsed", "power": power, "victory": victory})
    victory = section.get("declare")
    if victory in VICTORIES:
        reason = why_not_declare(st, power, victory)
        if reason:
            events.append({"type": "declaration_refused", "power": power, "victory": victory,
                           "reason": reason})
        else:
            me["declared"] = {"victory": victory, "round": st.get("round")}
            events.append({"type": "declared", "power": power, "victory": victory})
    if section.get("surrender") is True:
        net = banks(st, power)["net"]
        if net < 0:                                        # D1.12
            return events + surrender(st, power)
        events.append({"type": "surrender_refused", "power": power,
                       "reason": f"only a negative Net Economy allows surrender (D1.12); "
                                 f"yours is {net}"})
    net = banks(st, power)["net"]                          # D1.2
    events.append(change_reserve(st, power, net, f"Net Economy {net} (D1.2)"))
    events += bonuses(st, power)                           # D1.3
    events += penalties(st, power)                         # D1.4
    return events


def win(st: dict[str, Any], winners: list[str], reason: str) -> list[Event]:
    """End the game by turn.finish: the result, the victory event and every face-down piece
    revealed."""
    from . import turn  # turn imports this module lazily: no cycle at import time
    events: list[Event] = []
    turn.finish(st, events, winners, reason)
    return events


def surrender(st: dict[str, Any], power: str) -> list[Event]:
    """D1.12: the player leaves the game. turn.py removes his units and war tokens at the end
    of the turn (his map element tokens stay) and ends the game if one player is left."""
    st["powers"][power]["surrendered"] = True
    st["powers"][power]["declared"] = None
    return [{"type": "surrenders", "power": power,
             "net": banks(st, power)["net"]}]


def ships_of(st: Mapping[str, Any], power: str) -> list[tuple[str, Mapping[str, Any]]]:
    return board.units_of(st, power, "ship")


def bonuses(st: dict[str, Any], power: str) -> list[Event]:
    """D1.31: each of your ships with a docked-to-Babylon-5 bonus that is docked to it."""
    events = []
    for t, tok in ships_of(st, power):
        bonus = int((_spec(st, tok).get("special") or {}).get("docked_b5_bonus") or 0)
        if bonus and (at := board.docked_to(st, t)) is not None and board.is_b5(st, at):
            events.append(change_reserve(st, power, bonus,
                                         f"{t} docked to Babylon 5: bonus {bonus} (D1.31)"))
    return events


def penalties(st: dict[str, Any], power: str) -> list[Event]:
    """D1.41: map pieces with a penalty per ship; D1.44/X2: opponent tokens that steal while
    docked to your bases (the thief gains what was actually paid). Each stops at 0 (D1.45)."""
    events: list[Event] = []
    where = board.slot_of_hex(st)
    per_slot: dict[int, int] = {}
    for _t, tok in ships_of(st, power):
        slot = where.get(tok["hex"])
        if slot is not None:
            per_slot[slot] = per_slot.get(slot, 0) + 1
    for slot, n in sorted(per_slot.items()):
        s = st["map"]["slots"][slot]
        if not s.get("exposed") or not s.get("piece"):
            continue
        rate = int(st["pack"]["pieces"][s["piece"]].get("penalty_per_ship") or 0)
        if rate:
            events.append(change_reserve(
                st, power, -rate * n,
                f"{n} ship(s) on piece:{s['piece']}: penalty {rate * n} (D1.41)"))
    my_bases = {tok["hex"] for tok in st["tokens"].values()
                if tok.get("owner") == power and tok.get("hex") is not None
                and _spec(st, tok)["kind"] == "base"}
    for thief in opponents(st, power):
        for t, tok in ships_of(st, thief):
            steal = int((_spec(st, tok).get("special") or {}).get("steal") or 0)
            if steal and board.docked_to(st, t) in my_bases:
                ev = change_reserve(st, power, -steal,
                                    f"{t} of {thief} docked to your base steals {steal} (X2)")
                events.append(ev)
                if ev["change"]:
                    events.append(change_reserve(st, thief, -ev["change"],
                                                 f"{t} stole from {power} (X2)"))
    return events


def check_record(section: object, view: Mapping[str, Any]
                 ) -> tuple[dict[str, Any], list[Problem]]:
    """The ``record`` section against the player's view: ``declare`` (economic|territorial)
    and ``surrender`` (true only with a negative Net Economy)."""
    out: dict[str, Any] = {"declare": None, "surrender": False}
    if section is None:
        return out, []
    if not isinstance(section, Mapping):
        return out, [Problem("shape", "record", "record is a mapping (declare:, surrender:)")]
    problems = unknown_keys(section, RECORD_KEYS, "record", code="unknown-field",
                            say=lambda k, hint: f"record takes {', '.join(RECORD_KEYS)}{hint}")
    power = view.get("viewer")
    declare = section.get("declare")
    if declare is not None:
        if declare not in VICTORIES:
            problems.append(Problem("declare", "record.declare",
                                    "declare economic or territorial (or leave it out)"))
        elif isinstance(power, str) and power in view.get("powers", {}):
            reason = why_not_declare(view, power, declare)
            if reason:
                problems.append(Problem("declare", "record.declare", reason))
            else:
                out["declare"] = declare
    surrender_ = section.get("surrender", False)
    if not isinstance(surrender_, bool):
        problems.append(Problem("surrender", "record.surrender", "surrender is true or false"))
    elif surrender_ and isinstance(power, str) and power in view.get("powers", {}):
        net = banks(view, power)["net"]
        if net >= 0:
            problems.append(Problem("surrender", "record.surrender",
                                    f"only a negative Net Economy allows surrender (D1.12); "
                                    f"yours is {net}"))
        else:
            out["surrender"] = True
    if problems:
        return {"declare": None, "surrender": False}, problems
    return out, []
