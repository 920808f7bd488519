"""Arrivals at a star: occupation, battle, ties, surrender (rulebook: "Occupation of Other
Stars", "Battle", "Multiple Attacking Fleets", "Co-operating Actions Between Allies";
ADC2: "BATTLE", "OCCUPATION")."""

from __future__ import annotations

from typing import Any

from .world import Ships, World, deadline_turn

LANDED, WON, DESTROYED, BLOCKED = "landed", "won", "destroyed", "blocked"


def merge(fleets: list[dict[str, Any]]) -> Ships:
    total: Ships = {}
    for fleet in fleets:
        for p, n in fleet["ships"].items():
            total[p] = total.get(p, 0) + n
    return total


def _entry_refused(w: World, star: str, owners: list[str]) -> str | None:
    """Entering an ally's home star needs its owner's permission while the owner holds it
    (rulebook: "Two allies at the same star"). Liberating a captured home needs none."""
    owner = w.home_owner(star)
    if owner is None or w.holder(star) != owner:
        return None
    for p in owners:
        if p != owner and w.allied(p, owner) and p not in w.s["powers"][owner]["permit_home"]:
            return f"{owner} has not permitted {p} into its home star {star}"
    return None


def _defenders(w: World, star: str, initiator: str) -> Ships:
    """The ships at ``star`` an arrival of ``initiator`` fights: every live power's not allied
    with it, unless it has ships there already (fleets together never fight, ruling R17)."""
    if w.ships_at(star).get(initiator, 0) > 0 and w.alive(initiator):
        return {}
    return {p: n for p, n in w.live_ships_at(star).items() if not w.allied(initiator, p)}


def _would_lose(w: World, star: str, fleets: list[dict[str, Any]], initiator: str) -> bool:
    strength = sum(merge(fleets).values())
    return strength < sum(_defenders(w, star, initiator).values())


def arrive(
    w: World,
    star: str,
    fleets: list[dict[str, Any]],
    initiator: str,
    *,
    other_ok: bool = True,
    on_tie: str = "safe",
) -> tuple[str, str]:
    """Bring ``fleets`` (each {"power", "warp", "ships"}) out of hyperspace at ``star``
    together. Returns (outcome, star where it happened). A tie or a refused entry does what
    ``on_tie`` says (ruling R13): ``divert`` to the other star of the sector (once), ``stay``
    in hyperspace, ``safe`` (no on_tie given) divert unless the fleets would lose the battle
    there, else stay: the default never throws a fleet away."""
    attack = merge(fleets)
    owners = sorted(attack)
    strength = sum(attack.values())
    refused = _entry_refused(w, star, owners)
    live = w.live_ships_at(star)
    # Fleets already together at a star never fight each other (Wild Alliance non-aggression:
    # "neither of those fleets can attack the other while they are there together").
    defenders = _defenders(w, star, initiator)
    defence = sum(defenders.values())
    fleet_info = [
        {"power": f["power"], "warp": f["warp"], "ships": sum(f["ships"].values())} for f in fleets
    ]
    if refused is None and defenders and strength == defence:
        refused = f"equal forces ({strength} against {defence}) do not engage"
        w.emit("tie", power=initiator, star=star, fleets=fleet_info, attack=strength,
               defence=defence, defenders=defenders)
    if refused is not None:
        other = w.board.other_star(star)
        if on_tie == "safe" and other is not None and _would_lose(w, other, fleets, initiator):
            refused += f"; {other}, the other star of the sector, is held by more ships"
            other = None
        if on_tie == "stay":
            other = None
        if other_ok and other is not None:
            w.emit("diverted", power=initiator, star=star, to_star=other, reason=refused,
                   fleets=fleet_info)
            return arrive(w, other, fleets, initiator, other_ok=False)
        w.emit("held_in_hyperspace", power=initiator, star=star, reason=refused,
               fleets=fleet_info)
        return BLOCKED, star

    _take_surrendered(w, star, initiator)
    if defenders and strength < defence:
        for p, n in attack.items():
            w.tally("destroyed", p, n)
        w.emit("battle", power=initiator, star=star, fleets=fleet_info, attackers=attack,
               defenders=defenders, attack=strength, defence=defence, winner="defender")
        return DESTROYED, star

    holder_before = w.holder(star)
    holder_present = holder_before is not None and live.get(holder_before, 0) > 0
    for p, n in attack.items():
        w.add_ships(star, p, n)
    if defenders:
        for p, n in defenders.items():
            w.remove_ships(star, p, n)
            w.tally("destroyed", p, n)
        fought = w.s["round"]["fought"]
        for p, n in attack.items():
            fought.setdefault(p, {})
            fought[p][star] = fought[p].get(star, 0) + n
        w.emit("battle", power=initiator, star=star, fleets=fleet_info, attackers=attack,
               defenders=defenders, attack=strength, defence=defence, winner="attacker")
        _take_star(w, star, initiator, owners)
        outcome = WON
    else:
        owner = w.home_owner(star)
        if not holder_present or (owner in owners and holder_before != owner):
            # ADC2 OCCUPATION: "The original HS of the liberated Home Star will recieve control
            # upon arrival of one or more of the original HS's ships" (ruling R9)
            _take_star(w, star, initiator, owners)
        w.emit("arrival", power=initiator, star=star, fleets=fleet_info, ships=attack)
        outcome = LANDED
    _announce_cooperation(w, star, initiator, owners)
    _capture_event(w, star, holder_before)
    return outcome, star


def _take_star(w: World, star: str, initiator: str, owners: list[str]) -> None:
    """Who holds a star just occupied or conquered by ``owners`` led by ``initiator``."""
    owner = w.home_owner(star)
    if owner is None:
        w.set_holder(star, initiator)
    elif owner in owners:
        w.set_holder(star, owner)  # regained, with at least one of its own ships
    elif w.allied(initiator, owner):
        # An ally liberates (Alliances: "His ally may also recapture it for him without his
        # help"). In Independents and Wild Alliance the owner regains it only with a ship of
        # its own among the force (ruling R9), so the ally holds it meanwhile.
        if w.version == "alliances" or w.holder(star) == owner:
            w.set_holder(star, owner)
        else:
            w.set_holder(star, initiator)
    else:
        w.set_holder(star, initiator)


def _take_surrendered(w: World, star: str, initiator: str) -> None:
    """An eliminated power's ships surrender to the first power to send a ship there
    (rulebook: "Capture of a Home Star")."""
    if not w.live_ships_at(star):
        surrender_to(w, star, initiator)


def surrender_to(w: World, star: str, taker: str) -> None:
    """Every eliminated power's ship at ``star`` becomes ``taker``'s."""
    entry = w.s["stars"].get(star)
    if not entry:
        return
    dead = {p: n for p, n in entry["ships"].items() if not w.alive(p)}
    for p, n in dead.items():
        w.remove_ships(star, p, n)
        w.add_ships(star, taker, n)
        w.emit("surrender", star=star, from_power=p, to_power=taker, ships=n)


def _announce_cooperation(w: World, star: str, initiator: str, owners: list[str]) -> None:
    for p in owners:
        if p != initiator:
            w.announce(initiator, p, f"combined arrival at {star}")
    for p in w.live_ships_at(star):
        if p not in owners and w.allied(initiator, p):
            w.announce(initiator, p, f"allied ships together at {star}")


def _capture_event(w: World, star: str, holder_before: str | None) -> None:
    owner = w.original_home_owner(star)
    holder = w.holder(star)
    if owner is None or holder == holder_before:
        return
    if holder == owner:
        w.emit("home_regained", power=owner, star=star)
    elif holder is not None and not w.allied(holder, owner) and w.alive(owner):
        deadline = None
        if w.version != "alliances":
            deadline = deadline_turn(w.options["mode"], w.s["slots"], owner, w.turn,
                                     w.s["slot"])
        w.emit("home_captured", power=holder, owner=owner, star=star, deadline=deadline)
    elif holder is not None and w.alive(owner):
        # an ally now holds it: taken from its owner with permission, or liberated from an
        # enemy (ADC2 OCCUPATION: the owner takes it back when one of its own ships arrives)
        w.emit("home_held_by_ally", power=holder, owner=owner, star=star,
               liberated=holder_before != owner)
