"""Events as plain sentences for one reader ("your warp 1 left Algol ..."): one sentence for
every event type the rules emit (tests/games/4000ad/test_presenter.py checks the rules emit no
other). Pure: an event the reader may see (``plugin.view_events``) in, a sentence out."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pbem.game.events import game_fields

from .words import Voice, and_list, cap, plural, power_name, short_hex

Event = Mapping[str, Any]

def _fleets(v: Voice, fleets: Sequence[Mapping[str, Any]]) -> str:
    """"Pavo's warp 1 (7 ships)", "your warps 1 and 2 (5 + 5 = 10 ships)", allies joined."""
    by_power: dict[str, list[Mapping[str, Any]]] = {}
    for f in fleets:
        by_power.setdefault(f["power"], []).append(f)
    parts = []
    for p, fs in by_power.items():
        keys = and_list([str(f["warp"]) for f in fs])
        if len(fs) == 1 and not fs[0]["warp"]:  # ships going home (mutual withdrawal)
            parts.append(f"{v.poss(p)} {plural(fs[0]['ships'], 'ship')} going home")
        elif len(fs) == 1:
            parts.append(f"{v.poss(p)} warp {keys} ({plural(fs[0]['ships'], 'ship')})")
        else:
            sizes = " + ".join(str(f["ships"]) for f in fs)
            total = sum(f["ships"] for f in fs)
            parts.append(f"{v.poss(p)} warps {keys} ({sizes} = {plural(total, 'ship')})")
    return and_list(parts)


def _forces(v: Voice, ships: Mapping[str, int]) -> str:
    """"Pavo's 6 ships", "your 4 ships and Regulus's 2 ships"."""
    return and_list([f"{v.poss(p)} {plural(n, 'ship')}" for p, n in sorted(ships.items())])


def sentence(e: Event, v: Voice, version: str = "independents") -> str:
    """One event as a plain sentence for the reader."""
    t = e["type"]
    p = e.get("power", "")
    if t == "departure":
        text = (f"{v.poss(p)} warp {e['warp']} left {e['origin']} (sector {e['sector']}) with "
                f"{plural(e['ships'], 'ship')}")
        lent = {q: n for q, n in e.get("fleet", {}).items() if q != p}
        if lent:
            text += f", {_forces(v, lent)} among them"
        if e.get("same_sector"):
            text += ", for a star of the same sector"
        elif v.mine(p) and e.get("commitment"):
            text += (f", for the secret destination of commitment {short_hex(e['commitment'])} "
                     "(only your vault knows it)")
        else:
            text += ", destination unknown"
        text += "."
        for note in e.get("notes", []):
            text += f" Note: {note}."
        return cap(text)
    if t == "departure_failed":
        return cap(f"{v.poss(p)} departure from {e['origin']} (alternative {e['alternative']}) "
                   f"could not be made: {e['reason']}.")
    if t == "arrival":
        return cap(f"{_fleets(v, e['fleets'])} came out of hyperspace at {e['star']} "
                   "unopposed.")
    if t == "battle":
        fleets = _fleets(v, e["fleets"])
        if e["winner"] == "attacker":
            return cap(f"{fleets} attacked {e['star']}, {e['attack']} ships against "
                       f"{e['defence']}: the attack won. {cap(_forces(v, e['defenders']))} "
                       f"there {'was' if e['defence'] == 1 else 'were'} destroyed; the "
                       "attackers lost none.")
        return cap(f"{fleets} attacked {e['star']}, {e['attack']} ships against "
                   f"{e['defence']} ({_forces(v, e['defenders'])}): the attack failed and "
                   f"all {e['attack']} attacking ships were destroyed.")
    if t == "tie":
        return cap(f"{_fleets(v, e['fleets'])} reached {e['star']} with {e['attack']} ships "
                   f"against {e['defence']}: equal forces do not engage.")
    if t == "diverted":
        return cap(f"{_fleets(v, e['fleets'])} could not come out at {e['star']} "
                   f"({e['reason']}) and tried {e['to_star']}, the other star of its sector.")
    if t == "held_in_hyperspace":
        return cap(f"{_fleets(v, e['fleets'])} could not come out at {e['star']} "
                   f"({e['reason']}) and stays in hyperspace.")
    if t == "lost_in_hyperspace":
        why = f" ({e['reason']})" if e.get("reason") else ""
        return cap(f"{v.poss(p)} warp {e['warp']} ({plural(e['ships'], 'ship')}), out from "
                   f"sector {e['sector']} for {plural(e['travelled'], 'turn')}, was lost in "
                   f"hyperspace{why}.")
    if t == "reveal_refused":
        return cap(f"{v.poss(p)} warp {e['warp']} could not arrive at {e['star']}: "
                   f"{e['reason']}. It travels on.")
    if t == "production":
        return cap(f"production: {v.subj(p)} built {plural(e['ships'], 'ship')} at "
                   f"{e['home']} ({plural(e['circles'], 'circle')} and "
                   f"{plural(e['crosses'], 'cross', 'crosses')} among the stars held).")
    if t == "no_production":
        home, held, _ = str(e["reason"]).partition(" is not held by ")
        why = (f"{v.poss(p)} home star {home} is held by another power" if held
               else e["reason"])  # the event's reason names the power by its id
        return cap(f"production: {v.subj(p)} built nothing ({why}).")
    if t == "home_captured":
        owner = e["owner"]
        text = (f"{e['star']}, {v.poss(owner)} home star, was captured by {v.subj(p)}.")
        if version != "alliances" and e.get("deadline") is not None:
            text += (f" {cap(v.subj(owner))} must regain it on turn {e['deadline']} (by the "
                     f"end of {'your' if v.mine(owner) else 'its'} own move) or be "
                     "eliminated.")
        elif version != "alliances":
            text += (f" {cap(v.subj(owner))} must regain it on "
                     f"{'your' if v.mine(owner) else 'its'} next turn or be eliminated.")
        return cap(text)
    if t == "home_regained":
        return cap(f"{v.subj(p)} regained {v.poss(p)} home star {e['star']}.")
    if t == "home_held_by_ally":
        text = (f"{e['star']}, {v.poss(e['owner'])} home star, is now held by "
                f"{v.subj(p)}, an ally.")
        if e.get("liberated"):
            text += (f" {cap(v.subj(e['owner']))} take{'' if v.mine(e['owner']) else 's'} it "
                     "back when one of its own ships arrives there, or when no ship is left "
                     "there (ADC2 OCCUPATION).")
        return cap(text)
    if t == "surrender":
        return cap(f"{plural(e['ships'], 'ship')} of the eliminated {power_name(e['from_power'])}"
                   f" at {e['star']} surrendered to {v.subj(e['to_power'])}.")
    if t == "surrender_arrival":
        return cap(f"{v.poss(p)} warp {e['warp']} ({plural(e['ships'], 'ship')}) came out at "
                   f"{e['star']} on surrender.")
    if t == "elimination":
        return cap(f"{v.subj(p)} {v.was(p)} eliminated: {e['reason']}.")
    if t == "alliance_proposed":
        return cap(f"{v.subj(p)} proposed an alliance to {v.subj(e['other'])} (secret).")
    if t == "alliance_formed":
        return cap(f"{and_list([v.subj(m) for m in e['members']])} formed an alliance. It stays "
                   "secret until the first co-operating action.")
    if t == "alliance_announced":
        return cap(f"the alliance of {and_list([v.subj(m) for m in e['members']])} is now "
                   f"public ({e['why']}).")
    if t == "alliance_ended":
        return cap(f"{v.subj(p)} ended the alliance with {v.subj(e['other'])}.")
    if t == "permissions":
        return cap(f"{v.subj(p)} now let{'' if v.mine(p) else 's'} "
                   f"{and_list([power_name(x) for x in e['home']])} into "
                   f"{'your' if v.mine(p) else 'its'} home star and lend"
                   f"{'' if v.mine(p) else 's'} ships to "
                   f"{and_list([power_name(x) for x in e['lend']])}.")
    if t == "resources_assigned":
        return cap(f"{v.subj(p)} let {v.subj(e['ally'])} draw the resources of {e['star']}.")
    if t == "agreement_failed":
        return cap(f"{v.poss(p)} resource agreement for {e['star']} with "
                   f"{power_name(e['ally'])} failed: {e['reason']}.")
    if t == "vote":
        what = "voted to end the game now" if e["vote_end"] else "took back the vote to end"
        return cap(f"{v.subj(p)} {what}.")
    if t == "concession":
        return cap(f"{v.subj(p)} conceded.")
    if t == "withdrawal_proposed":
        text = f"{v.subj(p)} proposed a mutual withdrawal to {v.subj(e['other'])}."
        if e.get("answer_turn") is not None:
            text += (f" {cap(v.subj(e['other']))} answer{'' if v.mine(e['other']) else 's'} "
                     f"with the orders for turn {e['answer_turn']} (withdraw: {p}); without "
                     f"that answer {v.subj(p)} {'are' if v.mine(p) else 'is'} eliminated at "
                     "the end of that turn.")
        return cap(text)
    if t == "mutual_withdrawal":
        moves = "; ".join(f"{v.poss(m['power'])} {plural(m['ships'], 'ship')} went from "
                          f"{m['from']} to {m['to']}" for m in e["moves"])
        return cap(f"{and_list([v.subj(x) for x in e['powers']])} withdrew from each "
                   f"other's home stars" + (f": {moves}." if moves else "."))
    if t == "withdrawal_refused":
        return cap(f"{v.subj(p)} did not agree to a mutual withdrawal with "
                   f"{v.subj(e['other'])}.")
    if t == "game_over":
        winners = and_list([v.subj(w) for w in e["winners"]]) if e["winners"] else "nobody"
        return cap(f"the game is over ({e['reason']}). Winner: {winners}.")
    fields = game_fields(e)
    detail = ", ".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "type")
    return f"{t}: {detail}."


def sentences(events: Iterable[Event], readers: Sequence[str], version: str) -> list[str]:
    v = Voice(readers)
    return [sentence(e, v, version) for e in events]
