"""Whole mail contexts: one power's part of a turn report, the part a report shows once for all
the reader's powers, the welcome, the game master's summary, the result and the end-of-game
reveal rows. Each assembles the building blocks of the other modules from views only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.game.events import visible_to

from .orderform import order_form
from .powers import alliance_lines, forecast, home_warning, powers_table
from .production import is_production_turn
from .reach import reach
from .sentences import sentence, sentences
from .starfield_html import star_field
from .starmap import field_notes, field_text, legend, neutral_grid, star_map
from .threats import other_warps, own_warps
from .words import (
    INVALID_DESTINATION,
    Voice,
    abbr,
    and_list,
    cap,
    colours,
    power_name,
    short_hex,
)

View = Mapping[str, Any]
Event = Mapping[str, Any]


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
        "resolved_production": resolved_production(view_before, view_after),
        "next_turn": view_after["turn"],
        "due": due,
        "waiting_for": [power_name(p) for p in view_after["due"]],
        "own_warps": own_warps(view_after, power),
        "forecast": forecast(view_after, power),
        "result": result_context(view_after, readers),
        "order_form": order_form(view_after, power, seq) if due else "",
    }


def resolved_production(view_before: View, view_after: View) -> bool:
    """Whether the turn a resolution resolved was a production turn: the view before's
    ``production_turn``. In simultaneous play a resolution that does not end the game
    resolves the whole round of the turn before the one the view after shows (resolve.py:
    every slot, then the next round), so the view after says it alone; ``view_before`` is
    read only otherwise (sequential play, the game's end): the engine makes that view when
    it is first read (docs/plugins.md), a whole view per reader for this one value."""
    if view_after["options"]["mode"] == "simultaneous" and view_after["result"] is None:
        return is_production_turn(view_after["options"], view_after["turn"] - 1)
    return bool(view_before["production_turn"])


class Parts(dict[str, Any]):
    """A turn report's ``shared`` part whose ``map`` (the star field's cells with the readers'
    stars marked: ``starmap.star_map``, ~18 us a reader) is made when first read. The turn
    report's writers and the bundled templates draw the star field from ``star_field_html``
    and map.svg and never read it; a game directory's own template may (``shared.map``:
    docs/reports.md), and gets it then. Every other key is there from the start (``"map" in``
    it is False until read)."""

    __slots__ = ("_view", "_readers")

    def __init__(self, view: View, readers: Sequence[str], **parts: Any) -> None:
        super().__init__(parts)
        self._view, self._readers = view, list(readers)

    def __missing__(self, key: str) -> Any:
        if key != "map":
            raise KeyError(key)
        made = self["map"] = star_map(self._view, self._readers)
        return made


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
    field, notes, keys = neutral_grid(view), field_notes(view), legend(view)
    return Parts(
        view, readers,  # "map", made when read: the cells with the readers' stars marked
        events=sentences(events, readers, view["version"]),
        map_text=field_text(view),
        star_field=field,
        star_field_html=star_field(field, notes, keys),
        map_notes=notes,
        legend=keys,
        other_warps=other_warps(view, readers),
        reach=reach(view, readers),
        powers=powers_table(view, readers),
        alliances=known,
    )


def star_field_parts(view: View, readers: Sequence[str]) -> dict[str, Any]:
    """The star field every mail shows: its cells without the readers (``star_field``), as
    the HTML table with the readers' stars marked (``star_field_html``), the notes under it
    and the powers' legend."""
    field, notes, keys = neutral_grid(view), field_notes(view), legend(view)
    return {"star_field": field, "star_field_html": star_field(field, notes, keys),
            "map_notes": notes, "legend": keys}


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
        "map_text": field_text(view), "map": star_map(view, readers),
        **star_field_parts(view, readers),
        "powers": powers_table(view, readers), "alliances": alliance_lines(view, readers),
        "forecast": forecast(view, power),
        "reach": reach(view, readers),
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
        who = visible_to(e)
        if who is not None:
            text += f" [private to {', '.join(power_name(p) for p in who)}]"
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
        "events": lines, "map_text": field_text(public), "map": star_map(public, []),
        **star_field_parts(public, []),
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
            "origin": str(r.get("origin") or "?"),
            "destination": INVALID_DESTINATION if r["destination"] is None
            else str(r["destination"]),
            "nonce": str(r.get("nonce") or ""), "commitment": str(r.get("commitment") or ""),
        })
    return rows
