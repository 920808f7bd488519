"""The powers as a reader sees them: its production forecast, the table of all powers, the
alliances and proposals it knows of, and the warning when its home star is held by another."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .words import Voice, abbr, and_list, cap, colours, plural, power_name, symbols

View = Mapping[str, Any]


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
