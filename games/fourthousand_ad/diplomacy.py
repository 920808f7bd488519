"""Co-operation orders: permissions, resource agreements, Wild Alliance proposals, concessions
and votes (rulebook: "Co-operating Actions Between Allies", "Formation of Alliances in the
Independents Version"; ADC2: "ALLIANCES", "THE WILD ALLIANCE RULES")."""

from __future__ import annotations

from typing import Any

from .world import World


def apply(w: World, power: str, orders: dict[str, Any]) -> None:
    """Cooperation orders take effect at the start of the resolution that uses them, before any
    move (ruling R6)."""
    me = w.s["powers"][power]
    permit = orders.get("permit")
    if permit is not None:
        for kind in ("home", "lend"):
            if kind in permit:
                me[f"permit_{kind}"] = sorted(set(permit[kind]))
        w.emit("permissions", visible_to=[power, *me["permit_home"], *me["permit_lend"]],
               power=power, home=me["permit_home"], lend=me["permit_lend"])
    for agreement in orders.get("resources", []):
        _resources(w, power, agreement["star"], agreement["to"])
    if w.version == "wild":
        _alliances(w, power, orders.get("alliance") or {})
    if orders.get("vote_end") is not None:
        me["vote_end"] = bool(orders["vote_end"])
        w.emit("vote", visible_to=[power], power=power, vote_end=me["vote_end"])
    if orders.get("concede"):
        me["conceded"] = True
        w.emit("concession", power=power)


def _resources(w: World, power: str, star: str, to: str) -> None:
    """The holder may let an ally draw a shared star's resources; the ally must have at least one
    ship there ("One ally cannot send another ally resources of a star which he alone
    occupies")."""
    reason = ""
    if w.holder(star) != power:
        reason = f"you do not hold {star}"
    elif not (w.alive(to) and w.allied(power, to) and to != power):
        reason = f"{to} is not your ally"
    elif w.ships_at(star).get(to, 0) == 0:
        reason = f"{to} has no ship at {star}"
    if reason:
        w.emit("agreement_failed", visible_to=[power], power=power, star=star, ally=to,
               reason=reason)
        return
    w.set_holder(star, to)
    w.announce(power, to, f"resources of {star} shared")
    w.emit("resources_assigned", power=power, star=star, ally=to)


def _alliances(w: World, power: str, orders: dict[str, Any]) -> None:
    proposals: list[list[str]] = w.s["proposals"]
    for other in orders.get("end", []):
        alliance = w.alliance_of(power, other)
        if alliance is not None and other != power:
            w.s["alliances"].remove(alliance)
            seen = None if alliance["public"] else [power, other]
            w.emit("alliance_ended", visible_to=seen, power=power, other=other)
    for other in orders.get("propose", []) + orders.get("accept", []):
        if other == power or not w.alive(other) or w.alliance_of(power, other):
            continue
        if [other, power] in proposals:
            proposals.remove([other, power])
            w.s["alliances"].append(
                {"members": sorted([power, other]), "public": False, "since": w.turn}
            )
            w.emit("alliance_formed", visible_to=[power, other], members=sorted([power, other]))
        elif [power, other] not in proposals:
            # accepting a proposal not yet made counts as proposing: both ordered it this round
            proposals.append([power, other])
            w.emit("alliance_proposed", visible_to=[power, other], power=power, other=other)
