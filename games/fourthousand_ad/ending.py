"""Elimination, surrender, mutual withdrawal and the end of the game (rulebook: "Winning the
Game" in both versions, "Capture of a Home Star"; ADC2: "VICTORY", "THE INDEPENDENTS GAME
VARIATIONS")."""

from __future__ import annotations

from typing import Any

from .world import World


def eliminate(w: World, power: str, surrender: dict[str, str], why: str) -> None:
    """Take ``power`` out of the game. Its fleets in hyperspace come out at the stars it chose
    (``surrender``: warp -> star at the distance travelled) or are lost; its ships at stars are
    surrendered to a power already there, or wait for the first power to send a ship there."""
    if not w.alive(power):
        return
    w.s["powers"][power]["status"] = "eliminated"
    w.emit("elimination", power=power, reason=why)
    for key, warp in list(w.warps(power).items()):
        if warp is None:
            continue
        star = surrender.get(key)
        ok = False
        if star:
            distance = w.board.sector_distance(
                w.board.sector(warp["sector"]), w.board.lookup(star).sector
            )
            ok = distance == warp["travelled"]
        if ok:
            for p, n in warp["ships"].items():
                w.add_ships(str(star), p, n)
            w.emit("surrender_arrival", power=power, warp=int(key), star=star,
                   ships=sum(warp["ships"].values()))
        else:
            for p, n in warp["ships"].items():
                w.tally("lost", p, n)
            w.emit("lost_in_hyperspace", power=power, warp=int(key), sector=warp["sector"],
                   travelled=warp["travelled"], ships=sum(warp["ships"].values()),
                   reason="eliminated without a valid surrender star")
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


def check_no_ships(w: World) -> None:
    """A power with no ship left anywhere that does not hold its home star (so cannot build) is
    out ("Unless he has no more ships, the player is not eliminated"; ruling R11)."""
    totals = w.all_totals()
    for p in w.live_powers():
        if totals.get(p, 0) == 0 and w.holder(w.home(p)) != p:
            eliminate(w, p, {}, "no ships left")


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
    lost_at = (lost["turn"], lost["slot"])
    if lost_at >= (w.turn, w.s["slot"]):
        return  # lost during this very turn (cannot happen in own turn, kept for safety)
    wanted = orders.get("withdraw")
    if (
        captor is not None
        and wanted == captor
        and w.alive(captor)
        and w.holder(w.home(captor)) == power
    ):
        w.s["withdrawals"].append({"from": power, "to": captor, "turn": w.turn})
        w.emit("withdrawal_proposed", to=[power, captor], power=power, other=captor)
        return
    eliminate(w, power, orders.get("surrender", {}), f"did not regain {home} in time")


def withdrawal_answer(w: World, power: str, orders: dict[str, Any]) -> None:
    """At the start of the captor's turn: agree (both withdraw now) or not."""
    for deal in list(w.s["withdrawals"]):
        if deal["to"] != power:
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
        if deal["to"] == power:
            w.s["withdrawals"].remove(deal)
            w.emit("withdrawal_refused", power=power, other=deal["from"])
            eliminate(w, deal["from"], {}, "mutual withdrawal refused")


def _withdraw(w: World, a: str, b: str) -> None:
    """Both sides (and their allies) leave the other's home star and go home (ruling R12)."""
    moves = []
    for mover, star in ((a, w.home(b)), (b, w.home(a))):
        for p, n in sorted(w.live_ships_at(star).items()):
            if p == mover or (w.allied(p, mover) and p not in (a, b)):
                w.remove_ships(star, p, n)
                w.add_ships(w.home(p), p, n)
                moves.append({"power": p, "from": star, "to": w.home(p), "ships": n})
    for p in (a, b):
        w.set_holder(w.home(p), p)
    w.emit("mutual_withdrawal", powers=sorted([a, b]), moves=moves)


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
            eliminate(w, p, {}, "conceded")
        live = w.live_powers()
        if len(live) <= 1:
            finish(w, "last power standing" if live else "no power left", live)
    if w.s["result"] is None:
        live = w.live_powers()
        if live and all(w.s["powers"][p]["vote_end"] for p in live):
            end_by_agreement(w, "ended by agreement")


def _alliance_victory(w: World) -> None:
    teams = [list(t) for t in w.variant.alliances]
    for team in teams:
        live = [p for p in team if w.alive(p)]
        if live and all(w.s["powers"][p]["conceded"] for p in live):
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
