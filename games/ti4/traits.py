"""Faction traits and technology effects as data (RULES.md T73-T76): which effects are passive
(read wherever the rules read a unit or a commodity value) and which are one-shots, the unit
fields a player fields once his traits and technologies are counted, his commodity value, the
automatic choice a one-shot takes when nobody is asked, and a line that says what an effect does.

Pure: reads a checked pack and the table's and board's facts; imports no rule that acts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .board import Board
from .table import Table

#: A law's effects that act only as it passes, never again at a status phase (RULES.md T76):
#: victory points are scored once.
ONCE = frozenset({"vp_if_control"})

Effect = Mapping[str, Any]
#: Passive modifiers: they act as long as their holder has them (T73).
PASSIVE = ("unit_cost", "unit_move", "unit_combat", "extra_commodities")
#: One-shot primitives a trait, a non-unit technology or a law may carry (T74-T76).
ONE_SHOT = ("gain_trade_goods", "gain_tokens", "ready_planets", "draw_secret", "peek_agendas",
            "research")
#: The one-shots of traits and laws that act at the start of the status phase, before the
#: scoring, not at its end, where every planet has just been readied (T83, rules version 2).
BEFORE_SCORING = frozenset({"ready_planets"})


def held(pack: Mapping[str, Any], faction: str, techs: Iterable[str]) -> list[Effect]:
    """Every effect a player holds: his faction's traits, then his technologies' effects in the
    order he got them."""
    traits = list(pack["factions"][faction].get("traits") or ())
    return traits + [pack["technologies"][t]["effect"] for t in techs]


def unit_fields(pack: Mapping[str, Any], faction: str, techs: Sequence[str]) \
        -> dict[str, dict[str, Any]]:
    """Unit id -> the pack fields the player fields differently: his upgrades'
    (``unit_override``, T71) first, then every ``unit_cost`` (the cost becomes the one named),
    ``unit_move`` (move plus the bonus) and ``unit_combat`` (each combat die hits at the value
    less the bonus, never below 1) of his traits and technologies, in that order (T73)."""
    out: dict[str, dict[str, Any]] = {}
    effects = held(pack, faction, techs)
    for e in effects:
        if e["do"] == "unit_override":
            out.setdefault(e["unit"], {}).update({k: v for k, v in e.items()
                                                  if k not in ("do", "unit")})
    for e in effects:
        do = e["do"]
        if do not in ("unit_cost", "unit_move", "unit_combat"):
            continue
        uid = str(e["unit"])
        now = {**pack["units"][uid], **out.get(uid, {})}
        if do == "unit_cost":
            out.setdefault(uid, {})["cost"] = e["cost"]
        elif do == "unit_move":
            out.setdefault(uid, {})["move"] = int(now.get("move") or 0) + int(e["bonus"])
        elif now.get("combat"):
            roll = now["combat"]
            out.setdefault(uid, {})["combat"] = {
                **roll, "value": max(1, int(roll["value"]) - int(e["bonus"]))}
    return out


def commodity_value(pack: Mapping[str, Any], table: Table, player: str) -> int:
    """The most commodities ``player`` holds once refilled: his faction's value plus every
    ``extra_commodities`` of his traits and technologies (T73)."""
    return commodity_value_of(pack, table.factions[player], table.players[player].techs)


def commodity_value_of(pack: Mapping[str, Any], faction: str, techs: Iterable[str]) -> int:
    extra = sum(int(e["count"]) for e in held(pack, faction, techs)
                if e["do"] == "extra_commodities")
    return int(pack["factions"][faction]["commodities"]) + extra


def one_shots(pack: Mapping[str, Any], faction: str) -> list[Effect]:
    """A faction's one-shot traits, in the pack's order (they act at each status phase, T74)."""
    return [e for e in pack["factions"][faction].get("traits") or () if e["do"] in ONE_SHOT]


def auto_choice(effect: Effect, table: Table, board: Board, pack: Mapping[str, Any],
                player: str) -> dict[str, Any]:
    """The choice a one-shot takes when it acts with nobody asked (T74): ``ready_planets``
    readies the player's exhausted planets with the most resources first (then by id);
    ``research`` takes the technology first by id that he may research, paying
    nothing else; tokens go to the tactic pool; the rest need no choice."""
    do = effect["do"]
    if do == "ready_planets":
        mine = sorted((p for p, o in board.owner.items()
                       if o == player and p in board.exhausted),
                      key=lambda p: (-int(pack["planets"][p]["resources"]), p))
        return {"planets": mine[:int(effect["count"])]}
    if do == "research":
        have = table.players[player].techs
        techs = pack["technologies"]
        for tid in sorted(techs):     # by id: a state's pack may come with its keys sorted
            if tid not in have and all(r in have for r in techs[tid]["requires"]):
                return {"tech": tid}
        return {}
    return {}


def describe(effect: Effect) -> str:
    """What one effect does, in a few words, for the reports."""
    do = effect["do"]
    n = effect.get("count")
    said = {
        "extra_commodities": f"{n} more commodit{'y' if n == 1 else 'ies'} when refilled",
        "unit_cost": f"{effect.get('unit')} cost {effect.get('cost')}",
        "unit_move": f"{effect.get('unit')} move +{effect.get('bonus')}",
        "unit_combat": f"{effect.get('unit')} combat rolls +{effect.get('bonus')}",
        "unit_override": f"{effect.get('unit')} upgraded",
        "gain_trade_goods": f"+{n} trade good(s)",
        "gain_tokens": f"+{n} command token(s)",
        "ready_planets": f"ready {n} planet(s)",
        "draw_secret": f"draw {n} secret objective(s)",
        "peek_agendas": f"look at the top {n} agenda(s)",
        "research": "a free technology" if not effect.get("cost") else
                    f"research for {effect.get('cost')} resources",
        "vp_if_control": f"{effect.get('vp')} VP to the planet's controller",
        "choose_speaker": "the elected player takes the speaker token",
        "lock_system": "lock a system",
    }
    return said.get(do, do.replace("_", " "))


def when(effect: Effect, *, trait: bool) -> str:
    """When a held effect acts, for the reports: always, each status phase or once."""
    if effect["do"] in PASSIVE or effect["do"] == "unit_override":
        return "always"
    if effect["do"] not in ONE_SHOT:
        return "never (not a trait's or a technology's effect)"
    return "each status phase" if trait else "once, when researched"


def trait_lines(pack: Mapping[str, Any], faction: str) -> list[str]:
    """A faction's traits, each with what it does and when, for the reports."""
    return [f"{describe(e)} ({when(e, trait=True)})"
            for e in pack["factions"][faction].get("traits") or ()]


def tech_line(pack: Mapping[str, Any], tid: str) -> str:
    tech = pack["technologies"][tid]
    effect = tech["effect"]
    return f"{tid} ({tech['name']}: {describe(effect)}, {when(effect, trait=False)})"


def law_line(pack: Mapping[str, Any], aid: str, won: str) -> str:
    """A law in play: its outcome, what it does and for whom at each status phase (T76)."""
    spec = pack["agendas"][aid]
    kind = spec["outcome"]
    effs = spec["effects"].get("elected" if kind != "for_against" else won) or []
    whom = {"elect_player": won, "elect_planet": f"whoever controls {won}"}.get(
        kind, "every player")
    again = [e for e in effs if e.get("do") not in ONCE]
    does = "; ".join(describe(e) for e in again)
    if not does:
        return f"{aid} ({won}): in play (its effect acted once, as it passed)"
    return f"{aid} ({won}): {does}, at each status phase for {whom}"
