"""Events in plain sentences, for reports, the referee's summary and the last mail.

Tokens are named with the view the report is made from (its title, owner and id: "Earth
Alliance's Hyperion Cr. (t7)"); a token the view no longer holds (destroyed, set aside) by its
id. Map pieces are named by the events themselves (``piece:<id>``, only once exposed). An event
type this module does not know is still shown, with its fields, so nothing is ever dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.game.events import game_fields, visible_to

from . import mapmodel

PIECE = "piece:"


def power_title(view: Mapping[str, Any], p: Any) -> str:
    info = view["powers"].get(str(p)) if isinstance(p, str) else None
    return str(info.get("title") or p) if info else str(p)


def token(view: Mapping[str, Any], tid: Any, kind: Any = None) -> str:
    t = view["tokens"].get(str(tid)) if tid is not None else None
    if t is None:
        title = view["pack"]["tokens"].get(str(kind), {}).get("title") if kind else None
        return f"{title} ({tid})" if title else str(tid)
    info = mapmodel.token_type(view, t)
    return f"{power_title(view, t['owner'])}'s {info.get('title') or t['type']} ({tid})"


def piece(name: Any) -> str:
    text = str(name)
    return text[len(PIECE):] if text.startswith(PIECE) else text


def cause(view: Mapping[str, Any], text: Any) -> str:
    """A damage cause as players read it: a power named by its title ("volley 1 of Earth
    Alliance", the event says ``earth-alliance``)."""
    out = str(text)
    for p in view["powers"]:
        if out.endswith(f" of {p}"):
            return out[: -len(p)] + power_title(view, p)
    return out


def dice(values: Sequence[int]) -> str:
    return f"{' '.join(map(str, values))} = {sum(values)}" if values else "none"


def roll_line(e: Mapping[str, Any], view: Mapping[str, Any] | None = None) -> str:
    """A roll as its event says it; a roll of one die per power (``powers``: the order of
    play) names each power's die instead of adding them up."""
    faces = " ".join(str(f) for f in e.get("faces", []))
    result = list(e.get("result", []))
    return (f"[{e.get('label')}] {e.get('count', len(result))} x {e.get('die')} "
            f"(faces {faces}): {roll_result(e, view)}"
            + (f" for {e['for']}" if e.get("for") else ""))


def roll_result(e: Mapping[str, Any], view: Mapping[str, Any] | None = None) -> str:
    """A roll's result: "3 5 = 8", or "Earth Alliance 5, Minbari 2" for one die per power."""
    result = list(e.get("result", []))
    powers = e.get("powers")
    if isinstance(powers, list) and len(powers) == len(result):
        return ", ".join(f"{power_title(view, p) if view else p} {r}"
                         for p, r in zip(powers, result, strict=True))
    return dice(result)


def slot_order(slot: Any) -> tuple[int, str]:
    """Slots in number order (1, 2, …, 11, 12), whatever their keys' type."""
    text = str(slot)
    return (int(text), text) if text.isascii() and text.isdigit() else (10**9, text)


def _fields(e: Mapping[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in game_fields(e).items()
                     if k not in ("type", "turn", "round"))


#: Each event type's sentence, from the event, the view, the power's title and the token's
#: name (``sentence`` works them out once per event).
_TEXTS: dict[str, Callable[[Mapping[str, Any], Mapping[str, Any], str, str], str]] = {
    "roll": lambda e, view, who, tok: "Roll " + roll_line(e, view) + ".",
    "order_of_play": lambda e, view, who, tok: (
        "Order of play: " + ", ".join(power_title(view, p) for p in e["order"]) + "."
    ),
    "homeworld": lambda e, view, who, tok: (
        f"{who}'s homeworld {piece(e['piece'])} is in position {e.get('position', e.get('slot'))}."
    ),
    "placed": lambda e, view, who, tok: (
        f"{who} placed {tok} at {e['hex']}"
        + (f" facing {e['facing']}" if e.get("facing") else "")
        + "."
    ),
    "economy": lambda e, view, who, tok: (
        f"{who}'s Economy Reserve is now {e['reserve']}"
        + (f" ({e['why']})" if e.get("why") else "")
        + "."
    ),
    "dealt": lambda e, view, who, tok: (
        f"{len(e.get('slots', []))} map pieces were dealt face down"
        + (f" ({e['why']})" if e.get("why") else "")
        + "."
    ),
    "turn_begins": lambda e, view, who, tok: f"Round {e.get('round')}: {who}'s turn.",
    "fleet_begins": lambda e, view, who, tok: f"Starting fleets (C4.3): {who} places.",
    "play_begins": lambda e, view, who, tok: (
        f"Every starting fleet is placed: play begins with round 1, {who} first (C4.4)."
    ),
    "turn_ends": lambda e, view, who, tok: f"{who}'s turn ends.",
    "moved": lambda e, view, who, tok: (
        f"{tok} moved ({e.get('how')}) from {e['from']} to {e['to']}, facing {e.get('facing')}."
    ),
    "jumped": lambda e, view, who, tok: (
        f"{tok} jumped ({e.get('via')}) from {e['from']} to {e['to']}"
        + (f" with the fleet of {e['fleet_of']}" if e.get("fleet_of") else "")
        + "."
    ),
    "explored": lambda e, view, who, tok: (
        f"{tok} exposed the piece in slot {e.get('slot')}: "
        f"{piece(e['piece'])} (flip {e.get('flip')})."
    ),
    "activated": lambda e, view, who, tok: (
        f"{tok} entered {e.get('hex')}: {e.get('element')} "
        f"{e.get('indicator')}"
        + (" (doubled: a jump)" if e.get("doubled") else "")
        + f", {e.get('damage')} damage."
    ),
    "mine_removed": lambda e, view, who, tok: f"The mine at {e.get('hex')} is gone.",
    "swept": lambda e, view, who, tok: (
        f"{tok} swept the mine at {e.get('hex')} (Defense Grid {e.get('dg')})."
    ),
    "move_void": lambda e, view, who, tok: (
        f"{who}'s move entry {e.get('entry')} was void: {e.get('reason')}."
    ),
    "damage": lambda e, view, who, tok: (
        f"{tok} took {e.get('points')} damage ({cause(view, e.get('cause'))}): "
        + {"none": "no effect", "crippled": "crippled", "destroyed": "destroyed"}.get(
            str(e.get("result")), str(e.get("result"))
        )
        + "."
    ),
    "contested_answer": lambda e, view, who, tok: (
        "Your standing answer to contested-space requests was changed."
    ),
    "start_void": lambda e, view, who, tok: (
        f"{who}'s starting purchase {int(e['entry']) + 1} was void: {e.get('reason')}."
    ),
    "built": lambda e, view, who, tok: (
        f"{who} built {tok} at {e['hex']}"
        + (f" facing {e['facing']}" if e.get("facing") else "")
        + f" for {e.get('cost')}"
        + (" (from the Scrap Yard)" if e.get("from_scrap") else "")
        + "."
    ),
    "repaired": lambda e, view, who, tok: f"{who} repaired {tok} for {e.get('cost')}.",
    "mine_laid": lambda e, view, who, tok: f"{who} laid {tok} at {e.get('hex')}.",
    "allocate_void": lambda e, view, who, tok: (
        f"{who}'s allocation {e.get('entry')} was void: {e.get('reason')}."
    ),
    "move_skipped": lambda e, view, who, tok: (
        f"{who}'s move entry {int(e['entry']) + 1} ({tok}) was skipped: {e.get('why')}."
    ),
    "declared": lambda e, view, who, tok: (
        f"{who} declared an attempt at {e.get('victory')} victory."
    ),
    "declaration_refused": lambda e, view, who, tok: (
        f"{who}'s {e.get('victory')} victory declaration was refused: {e.get('reason')}."
    ),
    "declaration_lapsed": lambda e, view, who, tok: (
        f"{who}'s {e.get('victory')} victory attempt lapsed."
    ),
    "surrenders": lambda e, view, who, tok: f"{who} surrenders (Net Economy {e.get('net')}).",
    "surrender_refused": lambda e, view, who, tok: f"{who} may not surrender: {e.get('reason')}.",
    "surrendered": lambda e, view, who, tok: (
        f"{who} left the game; removed: "
        + (", ".join(map(str, e.get("removed") or [])) or "nothing")
        + "."
    ),
    "volley": lambda e, view, who, tok: (
        f"{who} fired volley {int(e['volley']) + 1} at "
        + token(view, e.get("target"), e.get("target_type"))
        + f" with {', '.join(map(str, e.get('with') or []))}"
        + (
            f" (passed over {', '.join(map(str, e['passed_over']))})"
            if e.get("passed_over")
            else ""
        )
        + "."
    ),
    "under_fire": lambda e, view, who, tok: (
        f"{who}'s {token(view, e.get('target'))} is under fire from "
        f"{power_title(view, e.get('by'))}: this report came at once."
    ),
    "volley_total": lambda e, view, who, tok: (
        f"Volley {int(e['volley']) + 1} at "
        f"{token(view, e.get('target'))}: "
        f"{e.get('total')} points, Defense Grid {e.get('dg')}, "
        f"{e.get('damage')} damage."
    ),
    "volley_void": lambda e, view, who, tok: (
        f"{who}'s volley {int(e['volley']) + 1} found no target "
        f"(tried {', '.join(map(str, e.get('tried') or []))})."
    ),
    "fire_skipped": lambda e, view, who, tok: (
        f"{who}'s {e.get('token')} did not fire in volley "
        f"{int(e['volley']) + 1}: {e.get('reason')}."
    ),
    "war_token": lambda e, view, who, tok: (
        f"{power_title(view, e.get('from'))} gave its War Token to "
        f"{power_title(view, e.get('to_power'))}."
    ),
    "revealed": lambda e, view, who, tok: (
        "The face-down pieces: "
        + (
            ", ".join(
                f"slot {s} {piece(p)}"
                for s, p in sorted(
                    (e.get("pieces") or {}).items(), key=lambda kv: slot_order(kv[0])
                )
            )
            or "none"
        )
        + "."
    ),
    "victory": lambda e, view, who, tok: (
        "The game is over: "
        + ", ".join(power_title(view, p) for p in e.get("winners", []))
        + f" won ({e.get('reason')})."
    ),
}


def sentence(e: Mapping[str, Any], view: Mapping[str, Any], gm: bool = False) -> str:
    """One event in words. A private event is marked "(only you)" for its player, and for the
    game master (``gm``) with the powers it went to."""
    kind = str(e.get("type"))
    who = power_title(view, e.get("power"))
    tok = token(view, e.get("token"), e.get("token_type"))
    text = _TEXTS.get(kind)
    try:
        out = text(e, view, who, tok) if text else f"{kind}: {_fields(e)}."
    except (KeyError, TypeError, ValueError):
        out = f"{kind}: {_fields(e)}."
    who_saw = visible_to(e)
    if who_saw is None:
        return out
    if gm:
        return out + f" [private to {', '.join(power_title(view, p) for p in who_saw)}]"
    return out + " (only you)"
