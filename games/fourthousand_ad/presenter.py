"""What a 4000 A.D. player reads: a power's view and visible events turned into template data.

Pure: every function takes a view (``plugin.view(state, power)``) and the events that power may
see (``plugin.view_events``) and returns plain data or text; no state, no clock, no I/O. The
generic renderer (``pbem/render.py``) finds this module as ``<game package>.presenter`` and hands
the results to the templates under ``templates/4000ad/``.

The referee never knows where a fleet is going: a player's own warps are shown with their
departure, distance travelled and commitment, never a destination. The stars another power's warp
could come out at next turn (the *threat list*) are exactly ``could_arrive_next`` of the view: the
stars at distance travelled + 1 from its departure sector.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

View = Mapping[str, Any]
Event = Mapping[str, Any]

UPPER, LOWER = "▲", "▼"
CIRCLE, CROSS = "○", "+"
HOME_MARK = "*"

# Owner colours for HTML and SVG: (strong, light tint). Mail clients need inline colours.
COLOURS: dict[str, tuple[str, str]] = {
    # Okabe & Ito's palette for colour-blind readers (https://jfly.uni-koeln.de/color/): the
    # variants' colour names stay, each drawn in the palette's nearest hue; every map and table
    # also labels powers by name or abbreviation, never by colour alone.
    "green": ("#009e73", "#d9f1ea"),  # bluish green
    "blue": ("#0072b2", "#d9eaf4"),
    "orange": ("#e69f00", "#fcf0d6"),
    "red": ("#d55e00", "#f9e4d6"),  # vermillion
    "purple": ("#cc79a7", "#f7ebf2"),  # reddish purple
    "yellow": ("#f0e442", "#fcfadc"),
}
NEUTRAL = ("#6b7280", "#ffffff")
LEVEL_TINT = {"yellow": "#fffbea", "red": "#fff1f0"}

MAP_COLUMN = 26  # characters per area in the text map: 3 areas + 2 spaces = 80 columns


# -- names ----------------------------------------------------------------------------------------
def power_name(power: str) -> str:
    return power.capitalize()


def abbr(power: str | None) -> str:
    return power[:3].upper() if power else "-"


def colours(view: View, power: str | None) -> tuple[str, str]:
    if power is None or power not in view["powers"]:
        return NEUTRAL
    return COLOURS.get(view["powers"][power]["colour"], NEUTRAL)


def symbols(star: Mapping[str, Any]) -> str:
    return (CIRCLE if star["circle"] else "") + (CROSS if star["cross"] else "")


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def and_list(items: Sequence[str]) -> str:
    items = list(items)
    if not items:
        return "none"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def short_hex(value: str | None, n: int = 8) -> str:
    return f"{value[:n]}…" if value else "none"


class Voice:
    """Phrases a power's name for the reader: "you"/"your" for the reader's own power (or "your
    Algol" when the reader commands two), the power's name otherwise."""

    def __init__(self, readers: Sequence[str]) -> None:
        self.readers = list(readers)

    def mine(self, power: str | None) -> bool:
        return power in self.readers

    def subj(self, power: str) -> str:
        if not self.mine(power):
            return power_name(power)
        return "you" if len(self.readers) == 1 else f"you ({power_name(power)})"

    def poss(self, power: str) -> str:
        if not self.mine(power):
            return f"{power_name(power)}'s"
        return "your" if len(self.readers) == 1 else f"your {power_name(power)}"

    def was(self, power: str) -> str:
        return "were" if self.mine(power) else "was"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- events ---------------------------------------------------------------------------------------
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
    detail = ", ".join(f"{k}={e[k]}" for k in sorted(e) if k not in ("type", "to"))
    return f"{t}: {detail}."


def sentences(events: Iterable[Event], readers: Sequence[str], version: str) -> list[str]:
    v = Voice(readers)
    return [sentence(e, v, version) for e in events]


# -- the star field -------------------------------------------------------------------------------
def area_grid(view: View) -> list[list[str]]:
    """Areas in board order, 4 rows of 3 (from the stars' own sector data)."""
    areas: list[str] = []
    for star in view["stars"].values():
        if star["area"] not in areas:
            areas.append(star["area"])
    return [areas[i:i + 3] for i in range(0, len(areas), 3)]


def stars_in(view: View, area: str) -> list[tuple[str, Mapping[str, Any]]]:
    """An area's stars, upper level first, in board order."""
    mine = [(n, s) for n, s in view["stars"].items() if s["area"] == area]
    levels = []
    for _, s in mine:
        if s["level"] not in levels:
            levels.append(s["level"])
    return sorted(mine, key=lambda ns: levels.index(ns[1]["level"]))


def star_cell(view: View, name: str, readers: Sequence[str]) -> dict[str, Any]:
    star = view["stars"][name]
    upper = star["level"] == _upper_level(view)
    ships = {p: n for p, n in star["ships"].items() if n > 0}
    shown = star["holder"] or (sorted(ships, key=lambda p: -ships[p])[0] if ships else None)
    strong, light = colours(view, shown)
    others = {p: n for p, n in ships.items() if p != shown}
    return {
        "name": name,
        "marker": UPPER if upper else LOWER,
        "level": star["level"],
        "sector": star["sector"],
        "home": star["home_of"] is not None,
        "home_of": star["home_of"],
        "symbols": symbols(star),
        "holder": star["holder"],
        "shown": shown,
        "abbr": abbr(shown) if shown else "",
        "ships": ships.get(shown, 0) if shown else 0,
        "others": others,
        "mine": shown in readers,
        "strong": strong,
        "light": light,
        "level_tint": LEVEL_TINT.get(star["level"], "#ffffff"),
    }


def _upper_level(view: View) -> str:
    for s in view["stars"].values():
        return str(s["level"]) if s["level"] == "yellow" else "yellow"
    return "yellow"


def star_map(view: View, readers: Sequence[str]) -> list[list[dict[str, Any]]]:
    """Rows of areas, each {"area", "upper", "lower", "stars": [cells]} for HTML and SVG."""
    out = []
    for row in area_grid(view):
        cells = []
        for area in row:
            stars = [star_cell(view, n, readers) for n, _ in stars_in(view, area)]
            cells.append({"area": area, "stars": stars})
        out.append(cells)
    return out


def _cell_text(cell: Mapping[str, Any]) -> str:
    name = cell["name"] + (HOME_MARK if cell["home"] else "")
    holder = f"{cell['abbr']} {cell['ships']:>3}" if cell["shown"] else "-"
    if cell["shown"] and not cell["holder"]:
        holder = f"{cell['abbr'].lower()} {cell['ships']:>3}"
    if cell["others"]:
        holder += "&"
    return f"{cell['marker']} {name:<10} {cell['symbols']:<2} {holder}"


def star_map_text(view: View, readers: Sequence[str],
                  grid: list[list[dict[str, Any]]] | None = None) -> list[str]:
    """The star field in at most 80 columns: areas A–L in 4 rows of 3, each area's upper (▲)
    and lower (▼) stars with resources, holder and ships. ``grid``: ``star_map(view, readers)``
    if the caller has it already."""
    lines: list[str] = []
    for row in grid if grid is not None else star_map(view, readers):
        lines.append("".join(f" {c['area']:<{MAP_COLUMN - 1}}" for c in row).rstrip())
        for i in range(max(len(c["stars"]) for c in row)):
            parts = []
            for c in row:
                text = _cell_text(c["stars"][i]) if i < len(c["stars"]) else ""
                parts.append(f" {text:<{MAP_COLUMN - 1}}")
            lines.append("".join(parts).rstrip())
    return lines


def map_notes(view: View, readers: Sequence[str],
              grid: list[list[dict[str, Any]]] | None = None) -> list[str]:
    """Stars where more than one power has ships, or ships wait to surrender."""
    notes = []
    for row in grid if grid is not None else star_map(view, readers):
        for area in row:
            for c in area["stars"]:
                if not c["others"] and (c["holder"] or not c["shown"]):
                    continue
                present = {c["shown"]: c["ships"], **c["others"]}
                who = ", ".join(f"{power_name(p)} {n}" for p, n in present.items())
                held = (f"held by {power_name(c['holder'])}" if c["holder"]
                        else "held by nobody")
                notes.append(f"{c['name']}: {who} ({held})")
    return notes


def legend(view: View) -> list[dict[str, str]]:
    return [
        {"power": p, "name": power_name(p), "abbr": abbr(p), "colour": info["colour"],
         "strong": colours(view, p)[0], "light": colours(view, p)[1], "home": info["home"]}
        for p, info in view["powers"].items()
    ]


# -- warps and threats ----------------------------------------------------------------------------
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
            elif attack > defence:
                entry["verdict"] = f"{attack} against your {defence}: it would win there"
                entry["danger"] = "win"
            elif attack == defence:
                entry["verdict"] = (f"{attack} against your {defence}: equal, it would not "
                                    "engage")
                entry["danger"] = "equal"
            else:
                entry["verdict"] = f"{attack} against your {defence}: you would hold"
                entry["danger"] = "hold"
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


# -- economy and powers ---------------------------------------------------------------------------
def forecast(view: View, power: str) -> dict[str, Any]:
    f = view["forecast"]
    held = []
    for name in view["powers"][power]["stars_held"]:
        held.append({"name": name, "symbols": symbols(view["stars"][name])})
    home = view["powers"][power]["home"]
    has_home = view["stars"][home]["holder"] == power
    return {
        "turn": f["turn"], "circles": f["circles"], "crosses": f["crosses"],
        "ships": f["ships"], "held": held,
        "held_text": ", ".join(f"{h['name']} ({h['symbols'] or 'no symbols'})" for h in held)
        or "no stars",
        "line": (f"{plural(f['circles'], 'circle')} and {plural(f['crosses'], 'cross', 'crosses')}"
                 f" → {plural(f['ships'], 'new ship')} at {home} on turn {f['turn']}"
                 + ("" if has_home else f" (none while you do not hold {home})")),
    }


def powers_table(view: View, readers: Sequence[str]) -> list[dict[str, Any]]:
    rows = []
    for p, info in view["powers"].items():
        rows.append({
            "power": p, "name": power_name(p), "abbr": abbr(p), "colour": info["colour"],
            "home": info["home"], "status": info["status"],
            "home_holder": info["home_holder"], "ships": info["ships"],
            "stars": len(info["stars_held"]), "warps": info["warps_in_flight"],
            "mine": p in readers, "strong": colours(view, p)[0], "light": colours(view, p)[1],
        })
    return rows


def alliance_lines(view: View, readers: Sequence[str]) -> list[str]:
    v = Voice(readers)
    out = []
    for a in view["alliances"]:
        if len(readers) > 1 and all(m in readers for m in a["members"]):
            names = "your " + and_list([power_name(m) for m in a["members"]])
        else:
            names = and_list([v.subj(m) for m in a["members"]])
        if a["since"] == 0:
            out.append(cap(f"{names}: allied from the start (fixed alliance)."))
            continue
        kind = "public" if a["public"] else "secret: only its members know"
        out.append(cap(f"{names}: allied since turn {a['since']} ({kind})."))
    for pr in view["proposals"]:
        out.append(cap(f"{v.subj(pr[0])} proposed an alliance to {v.subj(pr[1])}: "
                       "not yet accepted."))
    for d in view["withdrawals"]:
        out.append(cap(f"{v.subj(d['from'])} proposed a mutual withdrawal to "
                       f"{v.subj(d['to'])} on turn {d['turn']}; the answer (withdraw: "
                       f"{d['from']}) is taken from the orders for turn {d['answer_turn']}."))
    return out


# -- the order form -------------------------------------------------------------------------------
def order_form(view: View, power: str, seq: int = 1) -> str:
    """A pre-filled order file for the next turn: plain YAML that loads as it is; every
    optional order is a comment to uncomment."""
    committed = view["options"]["destinations"] == "committed"
    mine = view["warps"][power]
    flying = [(k, w) for k, w in sorted(mine.items(), key=lambda kv: int(kv[0])) if w]
    free = [k for k, w in sorted(mine.items(), key=lambda kv: int(kv[0])) if w is None]
    held = [n for n in view["powers"][power]["stars_held"]
            if view["stars"][n]["ships"].get(power, 0) > 0]
    origin = view["powers"][power]["home"] if view["powers"][power]["home"] in held else (
        held[0] if held else "STAR")
    lines = [
        f"# Orders of {power_name(power)} for turn {view['turn']}. Edit, then check and sign:",
        "#   pbem orders check FILE --view view.json",
        "#   pbem orders sign FILE --key YOUR.key --view view.json",
        "# and reply with the signed block. Lines starting with # are comments.",
        "pbem: 1",
        f"game: {view['game_id']}",
        f"power: {power}",
        f"turn: {view['turn']}",
        f"seq: {seq}",
        "orders:",
    ]
    if flying:
        lines.append("  warps:")
        for k, w in flying:
            lines.append(f"    {k}: continue    # {plural(w['ships_total'], 'ship')} from "
                         f"{w['from']}, {plural(w['travelled'], 'sector')} so far")
            arrive = ("{arrive: STAR, nonce: NONCE, on_tie: divert}" if committed
                      else "{arrive: STAR, on_tie: divert}")
            lines.append(f"    # {k}: {arrive}")
        lines.append("    # `pbem orders reveal FILE --view view.json` writes the arrivals due")
        lines.append("    # this turn from your vault. on_tie (equal forces, or an ally's home")
        lines.append("    # without permission): stay in hyperspace, or divert to the other")
        lines.append("    # star of the sector; without it: divert unless outnumbered there.")
    else:
        lines.append("  # warps: none of yours is in hyperspace, so no arrival is due.")
    warp = free[0] if free else (flying[0][0] if flying else "1")
    lines += [
        "  # At most one departure a turn; uncomment and edit to leave:",
        "  # depart:",
        f"  #   warp: {warp}",
        f"  #   from: {origin}",
        "  #   ships: all          # or a number",
    ]
    if committed:
        lines += [
            "  #   commitment: ...     # written by `pbem orders depart`:",
            f"  # pbem orders depart FILE --view view.json --from {origin} --to STAR --ships N",
            "  # keeps the destination secret in your vault and writes only its commitment.",
        ]
    else:
        lines.append("  # (free destinations: name the star when the fleet arrives)")
    if not free and flying:
        lines.append("  # Both warps are in hyperspace: a departure needs one that arrives.")
    return "\n".join(lines) + "\n"


# -- receipts -------------------------------------------------------------------------------------
def _departure_words(d: Mapping[str, Any], committed: bool) -> str:
    ships = "all ships" if d["ships"] == "all" else plural(int(d["ships"]), "ship")
    text = f"warp {d['warp']} from {d['from']} with {ships}"
    if d.get("with"):
        text += " and " + and_list([
            f"{'all' if n == 'all' else n} of {power_name(p)}'s ships"
            for p, n in sorted(d["with"].items())])
    if d.get("to"):
        text += f" to {d['to']} (same sector: it arrives this turn)"
    elif committed:
        text += f" to a secret destination, commitment {short_hex(d.get('commitment'), 12)}"
    else:
        text += " (destination named on arrival)"
    if d.get("escrow"):
        text += ", reveal sealed to the referee's escrow key"
    return text


def receipt_lines(orders: Mapping[str, Any], view: View) -> list[str]:
    """Normalised orders (``normalize_orders``) restated in plain words, with what the power's
    view says about each warp."""
    power = view["viewer"]
    committed = view["options"]["destinations"] == "committed"
    lines = []
    for key, w in sorted(view["warps"][power].items(), key=lambda kv: int(kv[0])):
        if w is None:
            continue
        arrive = orders.get("arrive", {}).get(key)
        if arrive:
            tie = {"stay": " On a tie it stays in hyperspace.",
                   "divert": " On a tie it comes out at the other star of the sector."}.get(
                       str(arrive.get("on_tie")), " On a tie it comes out at the other star of "
                       "the sector unless outnumbered there, else stays in hyperspace.")
            lines.append(f"Warp {key} ({plural(w['ships_total'], 'ship')} from {w['from']}) "
                         f"arrives at {arrive['star']}, {w['next_distance']} sectors from "
                         f"{w['sector']}"
                         + (": the reveal opens its commitment." if committed else ".") + tie)
        else:
            lines.append(f"Warp {key} continues, step {w['next_distance']} of its journey "
                         f"from sector {w['sector']} ({plural(w['ships_total'], 'ship')}).")
    departs = orders.get("depart") or []
    for i, d in enumerate(departs):
        lead = "Departure: " if i == 0 else f"If that cannot leave, alternative {i}: "
        lines.append(lead + _departure_words(d, committed) + ".")
    if not departs:
        lines.append("No departure.")
    permit = orders.get("permit")
    if permit is not None:
        if "home" in permit:
            lines.append("Allies allowed into your home star: "
                         f"{and_list([power_name(p) for p in permit['home']])}.")
        if "lend" in permit:
            lines.append("Allies whose fleets may take your ships: "
                         f"{and_list([power_name(p) for p in permit['lend']])}.")
    for r in orders.get("resources", []):
        lines.append(f"Resources of {r['star']} counted for {power_name(r['to'])}.")
    alliance = orders.get("alliance") or {}
    for kind, verb in (("propose", "Propose an alliance to"), ("accept", "Accept the alliance of"),
                       ("end", "End the alliance with")):
        if alliance.get(kind):
            lines.append(f"{verb} {and_list([power_name(p) for p in alliance[kind]])}.")
    if orders.get("withdraw"):
        lines.append(f"Mutual withdrawal with {power_name(orders['withdraw'])}.")
    for key, star in sorted((orders.get("surrender") or {}).items()):
        lines.append(f"If eliminated, warp {key} comes out at {star}.")
    if orders.get("concede"):
        lines.append("Concede the game.")
    if orders.get("vote_end") is not None:
        lines.append("Vote to end the game now." if orders["vote_end"]
                     else "Take back the vote to end the game.")
    return lines


# -- whole contexts -------------------------------------------------------------------------------
def report(
    view_before: View,
    view_after: View,
    *,
    readers: Sequence[str] | None = None,
    missed: int = 0,
    seq: int = 1,
) -> dict[str, Any]:
    """One power's own part of a turn report: its status, warps, economy and order form, from
    its views before and after the resolution."""
    power = view_after["viewer"]
    if power is None:
        raise ValueError("a report is for a power: use the power's view")
    readers = list(readers or [power])
    info = view_after["powers"][power]
    due = power in view_after["due"] and view_after["result"] is None
    return {
        "power": power,
        "name": power_name(power),
        "abbr": abbr(power),
        "colour": info["colour"],
        "strong": colours(view_after, power)[0],
        "light": colours(view_after, power)[1],
        "home": info["home"],
        "status": info["status"],
        "alive": info["status"] == "active",
        "home_holder": info["home_holder"],
        "home_warning": home_warning(view_after, power),
        "version": view_after["version"],
        "variant_title": view_after["variant_title"],
        "resolved_turn": view_before["turn"],
        "resolved_production": view_before["production_turn"],
        "next_turn": view_after["turn"],
        "due": due,
        "waiting_for": [power_name(p) for p in view_after["due"]],
        "own_warps": own_warps(view_after, power),
        "forecast": forecast(view_after, power),
        "missed": missed,
        "result": result_context(view_after, readers),
        "order_form": order_form(view_after, power, seq) if due else "",
    }


def home_warning(view: View, power: str) -> str:
    """What happens to a power whose home star is held by another, and when (rulings R12,
    R23); empty when there is nothing to warn of."""
    info = view["powers"][power]
    home = info["home"]
    if (info["status"] != "active" or view["version"] == "alliances"
            or info["home_holder"] == power):
        return ""
    holder = power_name(info["home_holder"]) if info["home_holder"] else "nobody"
    text = f"your home star {home} is held by {holder}."  # "WARNING: your home star ..."
    pending = [d for d in view["withdrawals"] if d["from"] == power]
    deadline = info.get("home_deadline")
    if pending:
        d = pending[0]
        return (text + f" You proposed a mutual withdrawal to {power_name(d['to'])}: it "
                   f"answers with its orders for turn {d['answer_turn']}; if it does not agree "
                f"and you have not regained {home} by then, you are eliminated.")
    if deadline is None:
        return text + " Regain it on your next turn or be eliminated."
    captor = info["home_holder"]
    withdraw = (f", or hold {power_name(captor)}'s home star and order `withdraw: {captor}`"
                if captor else "")
    return (text + f" Regain it with your orders for turn {deadline} (by the end of your own "
            f"move){withdraw}, or be eliminated.")


def shared(
    views: Sequence[View], events: Sequence[Event], readers: Sequence[str]
) -> dict[str, Any]:
    """What a report shows once for all the reader's powers: the events any of them may see
    (``events``, in order), the star field, the other powers' warps with their threat lists,
    the powers and the alliances known. ``views``: the reader's powers' views after the
    resolution (the first one draws the map; all of them show the same stars)."""
    view = views[0]
    known: list[str] = []
    for v in views:
        for line in alliance_lines(v, readers):
            if line not in known:
                known.append(line)
    grid = star_map(view, readers)  # once: the text map, the HTML map and the notes share it
    return {
        "events": sentences(events, readers, view["version"]),
        "map_text": star_map_text(view, readers, grid),
        "map": grid,
        "map_notes": map_notes(view, readers, grid),
        "legend": legend(view),
        "other_warps": other_warps(view, readers),
        "powers": powers_table(view, readers),
        "alliances": known,
    }


def result_context(view: View, readers: Sequence[str] = ()) -> dict[str, Any] | None:
    result = view["result"]
    if result is None:
        return None
    v = Voice(readers)
    rows = [{"who": " + ".join(power_name(p) for p in k.split("+")), "stars": s["stars"],
             "ships": s["ships"]} for k, s in result["scores"].items()]
    winners = [power_name(w) for w in result["winners"]]
    return {
        "reason": result["reason"], "turn": result["turn"], "winners": winners,
        "line": cap(f"the game ended on turn {result['turn']} ({result['reason']}). Winner: "
                    f"{and_list([v.subj(w) for w in result['winners']]) or 'nobody'}."),
        "scores": rows,
    }


def welcome(view: View, readers: Sequence[str] | None = None) -> dict[str, Any]:
    """A power's situation at the start: home, ships, warps, the star field."""
    power = view["viewer"]
    readers = list(readers or [power])
    info = view["powers"][power]
    return {
        "power": power, "name": power_name(power), "abbr": abbr(power),
        "colour": info["colour"], "strong": colours(view, power)[0],
        "light": colours(view, power)[1], "home": info["home"], "ships": info["ships"],
        "warps": len(view["warps"][power]), "turn": view["turn"],
        "due": power in view["due"],
        "map_text": star_map_text(view, readers), "map": star_map(view, readers),
        "map_notes": map_notes(view, readers), "legend": legend(view),
        "powers": powers_table(view, readers), "alliances": alliance_lines(view, readers),
        "forecast": forecast(view, power),
        "order_form": order_form(view, power, 0) if power in view["due"] else "",
    }


def gm(
    public: View,
    views: Mapping[str, View],
    events: Sequence[Event],
    secrets: Mapping[str, Sequence[str]],
) -> dict[str, Any]:
    """The game master's summary: everything. ``public`` is ``view(state, None)``, ``views``
    every power's own view, ``events`` all events (private ones marked), ``secrets`` what
    ``plugin.secrets`` lists per power."""
    v = Voice([])
    lines = []
    for e in events:
        text = sentence(e, v, public["version"])
        if "to" in e:
            text += f" [private to {', '.join(power_name(p) for p in e['to'])}]"
        lines.append(text)
    private = []
    seen_alliances = set()
    for p, view in views.items():
        for a in view["alliances"]:
            key = tuple(a["members"])
            if key not in seen_alliances:
                seen_alliances.add(key)
                state = "public" if a["public"] else "SECRET"
                private.append(f"Alliance {' + '.join(power_name(m) for m in a['members'])} "
                               f"({state}, since turn {a['since']})")
        info = view["powers"][p]
        if info.get("permit_home") or info.get("permit_lend"):
            private.append(f"{power_name(p)} permits home: "
                           f"{and_list([power_name(x) for x in info['permit_home']])}; "
                           f"lend: {and_list([power_name(x) for x in info['permit_lend']])}")
        if info.get("vote_end"):
            private.append(f"{power_name(p)} votes to end the game")
    for pr in public_proposals(views):
        private.append(f"Proposal: {power_name(pr[0])} -> {power_name(pr[1])}")
    secret_rows = []
    for p, items in secrets.items():
        for s in items:
            secret_rows.append({"power": power_name(p), "secret": s,
                                "short": s if len(s) <= 60 else s[:24] + "…"})
    warps = []
    for owner, slots in public["warps"].items():
        for key, w in sorted(slots.items(), key=lambda kv: int(kv[0])):
            if w is None:
                continue
            escrow = views[owner]["warps"][owner][key].get("escrow")
            warps.append(f"{power_name(owner)} warp {key}: {w['ships_total']} ships from "
                         f"{w['from']} ({w['sector']}), turn {w['departed']}, travelled "
                         f"{w['travelled']}, commitment {short_hex(w['commitment'], 16)}"
                         + (", escrow held" if escrow else ""))
    return {
        "turn": public["turn"], "variant_title": public["variant_title"],
        "events": lines, "map_text": star_map_text(public, []), "map": star_map(public, []),
        "map_notes": map_notes(public, []), "legend": legend(public),
        "powers": powers_table(public, []), "warps": warps, "private": private,
        "secrets": secret_rows, "due": [power_name(p) for p in public["due"]],
        "result": result_context(public),
    }


def public_proposals(views: Mapping[str, View]) -> list[list[str]]:
    out: list[list[str]] = []
    for view in views.values():
        for pr in view["proposals"]:
            if pr not in out:
                out.append(list(pr))
    return out


def reveal_lines(reveal: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """The end-of-game reveal: every departure's destination and nonce, as passed in by the
    referee (from the players' vaults or escrow) — the referee never had them before."""
    rows = []
    for r in reveal:
        rows.append({
            "who": power_name(r["power"]), "warp": str(r["warp"]), "turn": str(r["turn"]),
            "origin": str(r.get("origin") or "?"), "destination": str(r["destination"]),
            "nonce": str(r.get("nonce") or ""), "commitment": str(r.get("commitment") or ""),
        })
    return rows
