"""Elimination, surrender, mutual withdrawal and the end of the game (rulebook: "Winning the
Game" in both versions, "Capture of a Home Star"; ADC2: "VICTORY", "THE INDEPENDENTS GAME
VARIATIONS")."""

from __future__ import annotations

from typing import Any

from .battle import BLOCKED, arrive, surrender_to
from .world import World, deadline_turn


def eliminate(w: World, power: str, surrender: dict[str, str] | None, why: str) -> None:
    """Take ``power`` out of the game. Its fleets in hyperspace come out at once (RB "Capture of
    a Home Star": "he must on that next turn make any fleet(s) he has in hyperspace arrive at a
    star of his own choosing") and wait to surrender; its ships at stars are surrendered to a
    power already there, or wait for the first power to send a ship there (ruling R16).

    ``surrender`` (warp -> star) defaults to the ``surrender:`` orders the power gave for this
    resolution, so a power eliminated outside its own turn (concession, no ships, a refused
    withdrawal) is honoured too (issue 12 point 4)."""
    if not w.alive(power):
        return
    if surrender is None or not surrender:
        surrender = dict((w.orders.get(power) or {}).get("surrender") or {})
    w.s["powers"][power]["status"] = "eliminated"
    w.emit("elimination", power=power, reason=why)
    for key, warp in list(w.warps(power).items()):
        if warp is None:
            continue
        _surrender_arrival(w, power, key, warp, surrender.get(key))
        w.warps(power)[key] = None
    for name in sorted(w.s["stars"]):
        entry = w.s["stars"][name]
        n = entry["ships"].get(power, 0)
        live = [p for p in entry["arrived"] if entry["ships"].get(p, 0) > 0 and w.alive(p)]
        if n and live:
            taker = entry["holder"] if entry["holder"] in live else live[0]
            w.remove_ships(name, power, n)
            w.add_ships(name, taker, n)
            w.emit("surrender", star=name, from_power=power, to_power=taker, ships=n)
        if entry["holder"] == power:
            entry["holder"] = None
            w.settle_after_leaving(name)
        w.tidy(name)
    w.s["alliances"] = [a for a in w.s["alliances"] if power not in a["members"]
                        or w.version == "alliances"]
    w.s["proposals"] = [pr for pr in w.s["proposals"] if power not in pr]
    w.s["withdrawals"] = [d for d in w.s["withdrawals"] if power not in (d["from"], d["to"])]


def _surrender_arrival(
    w: World, power: str, key: str, warp: dict[str, Any], chosen: str | None
) -> None:
    """One fleet of an eliminated power comes out of hyperspace (ruling R16). A warp that has
    not moved yet this round makes its step now, so the distance is the one its orders were
    checked against (the view's ``next_distance``). The star is the power's choice if it is at
    that distance; otherwise the referee picks one at that distance (an empty one first, then
    by name) so no fleet is thrown away; only a fleet past its furthest reach is lost."""
    moved = [power, key] in w.s["round"]["moved"]
    distance = warp["travelled"] if moved else warp["travelled"] + 1
    origin = w.board.sector(warp["sector"])
    star = None
    if chosen and w.board.sector_distance(origin, w.board.lookup(chosen).sector) == distance:
        star = w.board.lookup(chosen).name
    if star is None and distance <= w.board.furthest(warp["sector"]):
        choices = sorted(w.board.stars_at(warp["sector"], distance),
                         key=lambda n: (bool(w.ships_at(n)), n))
        star = choices[0] if choices else None
    ships = sum(warp["ships"].values())
    if star is None:
        for p, n in warp["ships"].items():
            w.tally("lost", p, n)
        w.emit("lost_in_hyperspace", power=power, warp=int(key), sector=warp["sector"],
               travelled=distance, ships=ships, reason="eliminated beyond its furthest reach")
        return
    for p, n in warp["ships"].items():
        w.add_ships(star, p, n)
    w.emit("surrender_arrival", power=power, warp=int(key), star=star, ships=ships,
           chosen=star == chosen)
    live = [p for p in w.s["stars"][star]["arrived"] if w.alive(p)
            and w.s["stars"][star]["ships"].get(p, 0) > 0]
    if live:  # "If another player is already at the star, they are surrendered to him."
        holder = w.holder(star)
        surrender_to(w, star, holder if holder is not None and holder in live else live[0])


def check_no_ships(w: World) -> None:
    """A power with no ship left anywhere that does not hold its home star (so cannot build) is
    out ("Unless he has no more ships, the player is not eliminated"; ruling R11)."""
    totals: dict[str, int] | None = None  # counted once, and only if some power could be out
    for p in w.live_powers():
        if w.holder(w.home(p)) != p:
            if totals is None:
                totals = w.all_totals()
            if totals.get(p, 0) == 0:
                eliminate(w, p, None, "no ships left")


def home_deadline(w: World, power: str, orders: dict[str, Any]) -> None:
    """Independents and Wild Alliance: a power whose home star was captured must regain it on its
    very next turn or is eliminated — unless it now holds the captor's home star and proposes a
    mutual withdrawal (ruling R12)."""
    if w.version == "alliances" or not w.alive(power):
        return
    lost = w.s["powers"][power]["home_lost"]
    if not lost:
        return
    home = w.home(power)
    captor = w.holder(home)
    if captor == power:
        return
    if not informed_since(w, lost["turn"], lost["slot"]):
        return  # its orders were written before the capture: its deadline is the next turn
    if any(d["from"] == power for d in w.s["withdrawals"]):
        return  # its withdrawal proposal awaits the captor's answer (ruling R12)
    wanted = orders.get("withdraw")
    if (
        captor is not None
        and wanted == captor
        and w.alive(captor)
        and w.holder(w.home(captor)) == power
    ):
        offered = [d for d in w.s["withdrawals"] if d["from"] == captor and d["to"] == power]
        if offered:  # both proposed it to each other: that is agreement
            w.s["withdrawals"].remove(offered[0])
            _withdraw(w, captor, power)
            return
        w.s["withdrawals"].append({"from": power, "to": captor, "turn": w.turn,
                                   "slot": w.s["slot"]})
        w.emit("withdrawal_proposed", visible_to=[power, captor], power=power, other=captor,
               answer_turn=answer_turn(w, captor))
        return
    eliminate(w, power, orders.get("surrender", {}), f"did not regain {home} in time")


def informed_since(w: World, turn: int, slot: int) -> bool:
    """Were the orders the current slot uses written after an event at (turn, slot)?
    Sequential mode: each slot orders after the previous one resolved. Simultaneous mode: every
    order of a round is written before the round, so only a later round's orders know of it
    (rulings R12, R23: no power answers or is eliminated on orders written blind)."""
    if w.options["mode"] == "simultaneous":
        return turn < w.turn
    return (turn, slot) < (w.turn, w.s["slot"])


def answer_turn(w: World, captor: str) -> int:
    """The round in whose turn ``captor`` answers a withdrawal proposed now (ruling R12)."""
    return deadline_turn(w.options["mode"], w.s["slots"], captor, w.turn, w.s["slot"])


def withdrawal_answer(w: World, power: str, orders: dict[str, Any]) -> None:
    """At the start of the captor's turn: agree (both withdraw now) or not. A proposal made in
    this same round is answered only by orders written after it (ruling R12)."""
    for deal in list(w.s["withdrawals"]):
        if deal["to"] != power or not informed_since(w, deal["turn"], deal.get("slot", -1)):
            continue
        if orders.get("withdraw") == deal["from"]:
            _withdraw(w, deal["from"], power)
            w.s["withdrawals"].remove(deal)
        else:
            deal["refused"] = True


def withdrawal_deadline(w: World, power: str, orders: dict[str, Any]) -> None:
    """At the end of the captor's turn: a refused or unanswered proposal eliminates its
    proposer, who had missed its own deadline — unless the captor was eliminated first for not
    regaining its own home star, which frees the proposer's (ruling R12)."""
    for deal in list(w.s["withdrawals"]):
        if deal["to"] == power and deal.get("refused"):
            w.s["withdrawals"].remove(deal)
            w.emit("withdrawal_refused", power=power, other=deal["from"])
            proposer = deal["from"]
            if w.holder(w.home(proposer)) != proposer:
                eliminate(w, proposer, None, "mutual withdrawal refused")


def _withdraw(w: World, a: str, b: str) -> None:
    """Both sides (and their allies) leave the other's home star and go home (ruling R12).
    The ships come home as an arrival does (issue 12 point 5): a third power's ships at the
    home star are fought (or, if equal, the withdrawing ships stay where they were)."""
    moves: list[dict[str, Any]] = []
    for mover, star in ((a, w.home(b)), (b, w.home(a))):
        for p, n in sorted(w.live_ships_at(star).items()):
            if p == mover or (w.allied(p, mover) and p not in (a, b)):
                w.remove_ships(star, p, n)
                moves.append({"power": p, "from": star, "to": w.home(p), "ships": n})
    for p in (a, b):
        w.settle_after_leaving(w.home(p))
        if w.holder(w.home(p)) is None or not w.live_ships_at(w.home(p)):
            w.set_holder(w.home(p), p)
    w.emit("mutual_withdrawal", powers=sorted([a, b]), moves=moves)
    for move in moves:
        p, home = str(move["power"]), str(move["to"])
        others = {q for q in w.live_ships_at(home) if not w.allied(p, q)}
        if not others:
            w.add_ships(home, p, int(move["ships"]))
            if w.home_owner(home) == p:
                w.set_holder(home, p)
            continue
        fleet = [{"power": p, "warp": 0, "ships": {p: int(move["ships"])}}]
        outcome, _ = arrive(w, home, fleet, p, other_ok=False)
        if outcome == BLOCKED:  # equal forces: the withdrawal cannot be made, they stay
            w.add_ships(str(move["from"]), p, int(move["ships"]))
            w.settle_after_leaving(str(move["from"]))


# -- victory ------------------------------------------------------------------------------------
def check_victory(w: World) -> None:
    if w.s["result"] is not None:
        return
    if w.version == "alliances":
        _alliance_victory(w)
    else:
        live = w.live_powers()
        conceded = [p for p in live if w.s["powers"][p]["conceded"]]
        for p in conceded:
            eliminate(w, p, None, "conceded")
        live = w.live_powers()
        if len(live) <= 1:
            finish(w, "last power standing" if live else "no power left", live)
    if w.s["result"] is None:
        live = w.live_powers()
        if live and all(w.s["powers"][p]["vote_end"] for p in live):
            end_by_agreement(w, "ended by agreement")


def _alliance_victory(w: World) -> None:
    teams = [list(t) for t in w.variant.alliances]
    # 2 players: one player commands the whole alliance, so one power's concession is the
    # player's, for both (ruling R18).
    one_player = w.variant.players == 2
    for team in teams:
        live = [p for p in team if w.alive(p)]
        conceded = [p for p in live if w.s["powers"][p]["conceded"]]
        if live and (conceded == live or (one_player and conceded)):
            others = [p for t in teams if t != team for p in t]
            finish(w, "the other alliance conceded", others)
            return
    for team in teams:
        enemy_homes = [w.home(p) for t in teams if t != team for p in t]
        captured = all(w.holder(h) in team for h in enemy_homes)
        if not captured:
            continue
        if w.options.get("hold_own_homes") and not all(
            w.holder(w.home(p)) in team for p in team
        ):
            continue
        finish(w, "captured both enemy home stars", team)
        return


def scores(w: World) -> dict[str, dict[str, int]]:
    """Stars held and ships, per power (Independents) or per alliance (Alliances)."""
    if w.version == "alliances":
        out = {}
        for team in w.variant.alliances:
            out["+".join(team)] = {
                "stars": sum(len(w.stars_held(p)) for p in team if w.alive(p)),
                "ships": sum(w.total_ships(p) for p in team if w.alive(p)),
            }
        return out
    return {p: {"stars": len(w.stars_held(p)), "ships": w.total_ships(p)}
            for p in w.live_powers()}


def end_by_agreement(w: World, reason: str) -> None:
    """Most stars held wins; equal stars, most ships; still equal, a shared win."""
    table = scores(w)
    if not table:
        finish(w, reason, [])
        return
    best = max((v["stars"], v["ships"]) for v in table.values())
    winners = sorted(k for k, v in table.items() if (v["stars"], v["ships"]) == best)
    names = [p for k in winners for p in k.split("+")]
    finish(w, reason, names, table)


def finish(
    w: World, reason: str, winners: list[str], table: dict[str, Any] | None = None
) -> None:
    w.s["result"] = {
        "reason": reason,
        "winners": sorted(winners),
        "turn": w.turn,
        "scores": table if table is not None else scores(w),
    }
    w.emit("game_over", reason=reason, winners=sorted(winners))
