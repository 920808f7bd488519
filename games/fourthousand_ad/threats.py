"""Warps in hyperspace: the reader's own (departure, distance travelled, commitment, never a
destination) and other powers' with their threat lists.

The stars another power's warp could come out at next turn (the *threat list*) are exactly
``could_arrive_next`` of the view: the stars at distance travelled + 1 from its departure sector.
Whether it would win there is the rules' own battle comparison (``battle.engagement``), not a
copy of it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .battle import DESTROYED, TIE, engagement
from .words import abbr, colours, plural, power_name, short_hex

View = Mapping[str, Any]


def own_warps(view: View, power: str) -> list[dict[str, Any]]:
    """The reader's warps. The referee knows departure, distance travelled and commitment; the
    destination (and so the turns to arrival) is in the player's vault only."""
    out = []
    for key, w in sorted(view["warps"][power].items(), key=lambda kv: int(kv[0])):
        if w is None:
            out.append({"key": key, "free": True, "line": f"warp {key}  free"})
            continue
        entry = {
            "key": key, "free": False, "from": w["from"], "sector": w["sector"],
            "departed": w["departed"], "travelled": w["travelled"], "ships": w["ships_total"],
            "commitment": short_hex(w["commitment"]), "next_distance": w["next_distance"],
            "furthest": w["furthest"],
        }
        entry["line"] = (f"warp {key}  {plural(w['ships_total'], 'ship')} from {w['from']} "
                         f"(sector {w['sector']}), left on turn {w['departed']}, "
                         f"travelled {plural(w['travelled'], 'sector')}; commitment "
                         f"{entry['commitment']}.")
        entry["note"] = _reach_note(w, own=True)
        out.append(entry)
    return out


def _reach_note(w: Mapping[str, Any], own: bool) -> str:
    nxt, reach = w["next_distance"], w["furthest"]
    if nxt > reach:
        return "It can arrive nowhere any more: it will be lost in hyperspace next turn."
    if w.get("doomed"):
        return (f"It can never arrive: it was held in hyperspace at {w['doomed']}, its committed "
                "destination, which only grows more distant; it is lost in hyperspace after "
                f"{plural(reach - w['travelled'] + 1, 'more turn')}.")
    text = ""
    if own:
        text = (f"If its destination is {nxt} sectors from {w['sector']}, it arrives next turn: "
                "`pbem orders reveal` fills in the arrival from your vault.")
        if w.get("commitment") and w["travelled"] > 1:
            text += (f" If its destination is nearer, it missed the turn it was due and can "
                     "never arrive: it is lost in hyperspace after "
                     f"{plural(reach - w['travelled'] + 1, 'more turn')}.")
    if nxt == reach:
        text += (" " if text else "") + ("Furthest reach: it must come out next turn, or it is "
                                         "lost in hyperspace.")
    return text


def threats(view: View, owner: str, key: str, readers: Sequence[str]) -> list[dict[str, Any]]:
    """The stars ``owner``'s warp ``key`` could come out at next turn, each flagged if a reader
    holds it, with the comparison of ships (the warp wins only with more ships)."""
    w = view["warps"][owner][key]
    out = []
    for name in w["could_arrive_next"]:
        star = view["stars"][name]
        held = star["holder"]
        defence = sum(star["ships"].values())
        attack = w["ships_total"]
        entry: dict[str, Any] = {"star": name, "sector": star["sector"], "holder": held,
                                 "mine": held in readers, "defence": defence, "verdict": "",
                                 "danger": ""}
        if held in readers:
            if _allied(view, owner, held):
                entry["verdict"], entry["danger"] = "an ally's fleet: it would join you", "ally"
            else:
                outcome = engagement(attack, defence)
                if outcome == TIE:
                    entry["verdict"] = (f"{attack} against your {defence}: equal, it would not "
                                        "engage")
                    entry["danger"] = "equal"
                elif outcome == DESTROYED:
                    entry["verdict"] = f"{attack} against your {defence}: you would hold"
                    entry["danger"] = "hold"
                else:  # WON, or LANDED at a star of yours with no ship there
                    entry["verdict"] = f"{attack} against your {defence}: it would win there"
                    entry["danger"] = "win"
        out.append(entry)
    return out


def _allied(view: View, a: str, b: str) -> bool:
    return any(a in al["members"] and b in al["members"] for al in view["alliances"])


def _group_by_sector(items: Sequence[Mapping[str, Any]], view: View) -> str:
    """"Schedar, Ruchbah (B-yellow); MIRA (yours, …)" — stars grouped by sector."""
    groups: dict[str, list[str]] = {}
    for t in items:
        label = t["star"]
        if t["mine"]:
            label = f"{t['star'].upper()} (yours: {t['verdict']})"
        elif t["holder"]:
            label = f"{t['star']} ({power_name(t['holder'])})"
        groups.setdefault(t["sector"], []).append(label)
    return "; ".join(f"{', '.join(names)} [{sector}]" for sector, names in groups.items())


def other_warps(view: View, readers: Sequence[str]) -> list[dict[str, Any]]:
    out = []
    for owner, slots in view["warps"].items():
        if owner in readers:
            continue
        for key, w in sorted(slots.items(), key=lambda kv: int(kv[0])):
            if w is None:
                continue
            th = threats(view, owner, key, readers)
            mine = [t for t in th if t["mine"]]
            head = (f"{power_name(owner)} warp {key}: {plural(w['ships_total'], 'ship')}, "
                    f"left {w['from']} (sector {w['sector']}) on turn {w['departed']}, "
                    f"travelled {plural(w['travelled'], 'sector')}.")
            if any(_allied(view, owner, r) for r in readers):
                head += " An ally of yours."
            if th:
                where = (f"Next turn it could come out at any of {plural(len(th), 'star')} "
                         f"{w['next_distance']} sectors from {w['sector']}: "
                         f"{_group_by_sector(th, view)}.")
                if not mine:
                    where += " None of them is yours."
            else:
                where = ""
            out.append({
                "owner": owner, "owner_name": power_name(owner), "abbr": abbr(owner),
                "key": key, "from": w["from"], "sector": w["sector"], "departed": w["departed"],
                "travelled": w["travelled"], "ships": w["ships_total"],
                "commitment": short_hex(w["commitment"]), "next_distance": w["next_distance"],
                "threats": th, "threatened": mine, "head": head, "where": where,
                "alarm": any(t["danger"] in ("win", "equal") for t in th),
                "note": _reach_note(w, own=False),
                "strong": colours(view, owner)[0], "light": colours(view, owner)[1],
            })
    return out
