"""A power's moves on its turn (rulebook: "Moves on Each Turn", "Making the Journey";
ADC2: the move sequence, "THE USE OF THE HYPER-SPACE TRACK")."""

from __future__ import annotations

from typing import Any

from pbem.protocol.commitment import opens

from .battle import BLOCKED, arrive
from .world import World


def power_turn(w: World, power: str, orders: dict[str, Any], all_orders: dict[str, Any]) -> None:
    """1. advance the leading warp, then the second (arriving where the orders reveal);
    2. two warps (or allies' warps) due at the same star arrive together;
    3. at most one departure, if a warp is free."""
    for key, _warp in w.warps_in_flight(power):
        if w.s["result"] is not None:
            return
        if w.warps(power)[key] is None or [power, key] in w.s["round"]["moved"]:
            continue  # already arrived with an ally, out of sequence
        advance(w, power, key, orders, all_orders)
    if w.s["result"] is None:
        depart(w, power, orders.get("depart", []))


def _reveal(w: World, power: str, key: str, warp: dict[str, Any], orders: dict[str, Any]) -> str:
    """The star this warp arrives at this turn per ``orders``, or "" if it continues. A reveal
    that does not open the commitment or has the wrong distance is refused (private event)."""
    order = orders.get("arrive", {}).get(key)
    if not order:
        return ""
    star = order["star"]
    distance = w.board.sector_distance(w.board.sector(warp["sector"]), w.board.lookup(star).sector)
    problem = ""
    if distance != warp["travelled"]:
        problem = (f"{star} is {distance} turns from {warp['sector']}, but the warp has "
                   f"travelled {warp['travelled']}")
    elif w.options["destinations"] == "committed" and not opens(
        warp["commitment"], w.s["game_id"], power, int(key), warp["departed"], star,
        order.get("nonce") or "",
    ):
        problem = f"destination {star} and the nonce do not open the commitment"
    if problem:
        w.emit("reveal_refused", visible_to=[power], power=power, warp=int(key), star=star,
               reason=problem)
        return ""
    return str(star)


def advance(
    w: World, power: str, key: str, orders: dict[str, Any], all_orders: dict[str, Any]
) -> None:
    warp = w.warps(power)[key]
    warp["travelled"] += 1
    w.s["round"]["moved"].append([power, key])
    star = _reveal(w, power, key, warp, orders)
    if not star:
        reach = w.board.furthest(warp["sector"])
        if warp["travelled"] > reach:
            for p, n in warp["ships"].items():
                w.tally("lost", p, n)
            w.emit("lost_in_hyperspace", power=power, warp=int(key), sector=warp["sector"],
                   travelled=warp["travelled"], ships=sum(warp["ships"].values()))
            w.warps(power)[key] = None
        return
    group = [(power, key)]
    # The player's other warp due at the same star comes along (step 2 of the sequence).
    for other_key, other in w.warps_in_flight(power):
        order = orders.get("arrive", {}).get(other_key)
        if other_key == key or not order or order["star"] != star:
            continue
        if [power, other_key] not in w.s["round"]["moved"]:
            other["travelled"] += 1
            w.s["round"]["moved"].append([power, other_key])
            if _reveal(w, power, other_key, other, orders) == star:
                group.append((power, other_key))
            else:
                other["travelled"] -= 1  # not arriving here: it advances in its own step
                w.s["round"]["moved"].remove([power, other_key])
    # Allies whose warps are due at the same star this round arrive together, out of sequence
    # (rulebook: "Multiple attacking fleets - allies"; ADC2: "ALLIED ATTACK MOVES").
    for ally in w.allies(power):
        if ally not in w.step_powers or not w.alive(ally):
            continue
        for ally_key, ally_warp in w.warps_in_flight(ally):
            if [ally, ally_key] in w.s["round"]["moved"]:
                continue
            order = all_orders.get(ally, {}).get("arrive", {}).get(ally_key)
            if not order or order["star"] != star:
                continue
            ally_warp["travelled"] += 1
            w.s["round"]["moved"].append([ally, ally_key])
            if _reveal(w, ally, ally_key, ally_warp, all_orders[ally]) == star:
                group.append((ally, ally_key))
            else:
                ally_warp["travelled"] -= 1
                w.s["round"]["moved"].remove([ally, ally_key])
    fleets = [
        {"power": p, "warp": int(k), "ships": dict(w.warps(p)[k]["ships"])} for p, k in group
    ]
    on_tie = str(orders.get("arrive", {}).get(key, {}).get("on_tie") or "safe")
    outcome, _where = arrive(w, star, fleets, power, on_tie=on_tie)
    if outcome != BLOCKED:
        for p, k in group:
            w.warps(p)[k] = None
    elif w.options["destinations"] == "committed":
        # held in hyperspace: its committed star only grows more distant, so it can never
        # arrive (ruling R13); the reports say so
        for p, k in group:
            w.warps(p)[k]["doomed"] = star


def depart(w: World, power: str, alternatives: list[dict[str, Any]]) -> None:
    """The one departure of the turn: alternatives are tried in order; the first that can be
    made is made (tolerant semantics, docs/rules.md ruling R5)."""
    for index, alt in enumerate(alternatives):
        reason = _try_depart(w, power, alt)
        if reason is None:
            return
        w.emit("departure_failed", visible_to=[power], power=power, alternative=index + 1,
               origin=alt["from"], reason=reason)


def _available(w: World, power: str, star: str) -> int:
    fought = w.s["round"]["fought"].get(power, {}).get(star, 0)
    return max(0, w.ships_at(star).get(power, 0) - fought)


def _try_depart(w: World, power: str, alt: dict[str, Any]) -> str | None:
    key = str(alt["warp"])
    origin = alt["from"]
    if key not in w.warps(power):
        return f"you have no warp {key}"
    if w.warps(power)[key] is not None:
        return f"warp {key} is still in hyperspace"
    own = _available(w, power, origin)
    if own == 0:
        fought = w.s["round"]["fought"].get(power, {}).get(origin, 0)
        if fought:
            return f"your ships at {origin} fought a battle on arrival and may not depart"
        return f"you have no ships at {origin}"
    notes = []
    wanted = alt["ships"]
    n = own if wanted == "all" else min(int(wanted), own)
    if wanted != "all" and n < int(wanted):
        notes.append(f"asked for {wanted} ships, {n} were there")
    ships = {power: n}
    for ally, asked in sorted(alt.get("with", {}).items()):
        if not (w.alive(ally) and w.allied(power, ally)):
            notes.append(f"{ally} is not your ally: its ships stay")
            continue
        if power not in w.s["powers"][ally]["permit_lend"]:
            notes.append(f"{ally} has not permitted you to move its ships: they stay")
            continue
        have = _available(w, ally, origin)
        take = have if asked == "all" else min(int(asked), have)
        if take < (have if asked == "all" else int(asked)):
            notes.append(f"asked for {asked} of {ally}'s ships, {take} were there")
        if take:
            ships[ally] = take
    for p, count in ships.items():
        w.remove_ships(origin, p, count)
    w.settle_after_leaving(origin)
    sector = w.board.lookup(origin).sector.name
    destination = alt.get("to")
    w.emit("departure", power=power, warp=int(key), origin=origin, sector=sector,
           ships=sum(ships.values()), fleet=ships, commitment=alt.get("commitment"),
           notes=notes, same_sector=bool(destination))
    for ally in ships:
        if ally != power:
            w.announce(power, ally, f"combined fleet from {origin}")
    if destination:
        # Same-sector journey: departure, travel and arrival in this one turn; the warp is
        # used only in theory and is free again afterwards.
        outcome, _ = arrive(
            w, destination, [{"power": power, "warp": int(key), "ships": ships}], power
        )
        if outcome == BLOCKED:  # could come out nowhere: the ships stay where they were
            for p, count in ships.items():
                w.add_ships(origin, p, count)
            w.settle_after_leaving(origin)
        return None
    w.warps(power)[key] = {
        "from": origin,
        "sector": sector,
        "departed": w.turn,
        "travelled": 1,
        "ships": ships,
        "commitment": alt.get("commitment"),
        "escrow": alt.get("escrow"),
    }
    return None
