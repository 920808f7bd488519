"""The pre-filled order form of a report, the orders ``pbem orders new`` starts with, and the
receipt's restatement of accepted orders.

The form is a complete order file (envelope and orders) that the referee's check accepts as it
stands: every section present and empty, which is the standing order (STATE.md, "The order
file"), with comment lines under it saying how to fill each section and listing the reader's
units with their ids. It is built from the view only, like everything a player reads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.protocol.orderfile import form_envelope

from . import mapmodel, threats
from .builds import build_cost, discounts_in_play
from .contested import contested_rule
from .setup import FLEETS_BEFORE_PLAY, fleet_due, rules_version, start_cost

KINDS = ("ship", "base", "jumpgate", "mine")

START = "# start: - {token: TYPE, hex: \"q,r\", facing: 1-6} (your starting fleet)"
CONTESTED = "# contested: {default: deny|allow, allow: [POWER], deny: [POWER]} (standing)"
HINTS = (
    "# start: first turn only: - {token: TYPE, hex: \"q,r\", facing: 1-6}",
    "# record: {declare: economic|territorial, surrender: true}",
    "# allocate: {build: [{token: TYPE, hex: \"q,r\", by: UNIT}],",
    "#            repair: [{token: UNIT, by: BASE}]}",
    "# move, in order: - {unit: UNIT, to: \"q,r\", facing: 1-6, flip: 1-3}",
    "#                 - {unit: UNIT, jump: \"q,r\", fleet: [UNIT, ...], flip: 1-3}",
    "# fire, tried in order: - {target: UNIT, with: [UNIT, ...], else: [UNIT, ...]}",
    "# contested: {default: deny|allow, allow: [POWER], deny: [POWER]} (standing)",
)


def in_setup(view: Mapping[str, Any]) -> bool:
    """Before play: the set-up step (every player commits his chance) or the deal."""
    return ((view.get("window") or {}).get("kind") in ("setup", "deal")
            or view.get("phase") in ("setup", "deal"))


def fleet_step(view: Mapping[str, Any]) -> bool:
    """A starting-fleet step (rules version 3: C4.3 before play, ruling R7)."""
    return (view.get("window") or {}).get("kind") == "fleet"


def skeleton(view: Mapping[str, Any]) -> dict[str, Any]:
    """The orders a fresh file starts with: empty sections (the standing order)."""
    if in_setup(view):
        return {}
    out: dict[str, Any] = {}
    if fleet_due(view):
        out["start"] = []
    if fleet_step(view):
        return out
    out.update({"record": {}, "allocate": {}, "move": [], "fire": []})
    return out


def unit_lines(view: Mapping[str, Any]) -> list[str]:
    """``# t7 Hyperion Cr. at 3,-2 facing 2`` for each of the viewer's units on the map."""
    me = view.get("viewer")
    out = []
    for tid in threats.units(view, str(me)):
        t = view["tokens"][tid]
        info = mapmodel.token_type(view, t)
        state = ", crippled" if t.get("crippled") else ""
        facing = f" facing {t['facing']}" if t.get("facing") and info.get("kind") == "ship" \
            else ""
        out.append(f"# {tid} {info.get('title') or t['type']} at {t['hex']}{facing}{state}")
    return out


def _weapon(spec: Mapping[str, Any], weapon: str) -> str:
    """``3/1 F FR FL``: the value undamaged/crippled and the arcs, or ``-``."""
    value = spec.get(weapon) or [0, 0]
    if not isinstance(value, list) or not any(value):
        return "-"
    sides = threats.arcs((spec.get("arcs") or {}).get(weapon))
    return f"{value[0]}/{value[1]} " + ("all" if len(sides) == 6 else " ".join(sides))


def purchases(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What the reader may buy (his empire's tokens and the generic ones, C4.3, D3.2): type,
    what it is, its cost to him now (the starting fleet and, with the modular discounts, an
    empire builder pay build less upkeep: C4.3, D3.22), upkeep, weapons (heavy range 2, laser
    range 1: undamaged/crippled value and arcs, D5.3-D5.4), defense rating, movement (his
    empire's chart, D4.11) and how many are left (C1.33)."""
    me = view.get("viewer")
    if not isinstance(me, str) or me not in view.get("powers", {}):
        return []
    counts = Counter(t.get("type") for t in view["tokens"].values())
    return [{**row, "left": int(count) - counts[row["type"]]}
            for row, count in _offer(view, str(view["powers"][me]["empire"]))]


#: What ``_offer`` made, by the identity of the pack's tables it read (a view's tables are
#: shared by the views of a game and never changed: view._pack_tables), with those tables.
_OFFERS: dict[tuple[int, int, str, bool, bool], tuple[Any, Any, list[Any]]] = {}


def _offer(view: Mapping[str, Any], empire: str) -> list[tuple[dict[str, Any], int]]:
    """The purchase rows but ``left``, each with the pack's count of its type: what the
    pack's tables, the empire, the starting fleet and the discounts decide. Made once per
    tables (the same every step of every game with this pack)."""
    pack = view["pack"]
    first, discount = fleet_due(view), discounts_in_play(view)
    key = (id(pack["tokens"]), id(pack["empires"]), empire, first, discount)
    kept = _OFFERS.get(key)
    if kept is not None and kept[0] is pack["tokens"] and kept[1] is pack["empires"]:
        return kept[2]
    sheet = pack["empires"].get(empire) or {}
    rows = []
    for ttype, spec in sorted(pack["tokens"].items(),
                              key=lambda kv: (KINDS.index(kv[1]["kind"])
                                              if kv[1]["kind"] in KINDS else 9, kv[0])):
        if spec.get("empire") not in (empire, "generic") or spec.get("kind") not in KINDS:
            continue
        if first and spec["kind"] not in ("ship", "base"):
            continue  # the starting fleet is ships and bases (C4.3)
        cost = (start_cost(pack, empire, ttype) if first
                else build_cost(view, ttype, empire, discount))
        moves = "-"
        if spec["kind"] == "ship":
            chart = [m for m in sheet.get("movement", [])
                     if not (m == "sideslip" and ttype in sheet.get("no_sideslip", []))]
            moves = " ".join(chart)
        dr = spec.get("dr") or []
        rows.append(({"type": ttype, "title": str(spec.get("title") or ttype),
                      "kind": spec["kind"], "cost": cost,
                      "upkeep": int(spec.get("upkeep") or 0),
                      "heavy": _weapon(spec, "heavy"), "laser": _weapon(spec, "laser"),
                      "dr": f"{dr[0]}/{dr[1]}" if len(dr) == 2 else "-",
                      "economy": spec.get("economy") or "", "moves": moves},
                     int(spec.get("count") or 0)))
    if len(_OFFERS) >= 16:
        _OFFERS.clear()
    _OFFERS[key] = (pack["tokens"], pack["empires"], rows)
    return rows


def purchase_lines(view: Mapping[str, Any], prefix: str = "",
                   rows: Sequence[Mapping[str, Any]] | None = None) -> list[str]:
    """The purchase table as text, within 80 columns: two or three lines per type (``rows``:
    ``purchases(view)``, if the caller has it already)."""
    rows = purchases(view) if rows is None else rows
    if not rows:
        return []
    first = fleet_due(view)
    out = [f"{prefix}What you can buy{' (starting fleet, C4.3)' if first else ''}: cost, "
           "upkeep, DR", f"{prefix}(undamaged/crippled), weapons (heavy reach 2 hexes, laser 1;"
           " value/crippled", f"{prefix}and arcs), moves, how many are left."]
    for r in rows:
        extra = f", economy {r['economy']}" if r["economy"] else ""
        out.append(f"{prefix}  {r['type']:<14} {r['kind']:<8} cost {r['cost']:>2}, upkeep "
                   f"{r['upkeep']}, DR {r['dr']}{extra}, {r['left']} left")
        out.append(f"{prefix}      heavy {r['heavy']}; laser {r['laser']}")
        if r["moves"] != "-":
            out.append(f"{prefix}      moves: {r['moves']}")
    return out


def comments(view: Mapping[str, Any],
             rows: Sequence[Mapping[str, Any]] | None = None) -> list[str]:
    """The comment lines under the form's orders (``rows``: ``purchases(view)``, if the
    caller has it already)."""
    if in_setup(view):
        return ["# the set-up step: send this file as it is (your tool adds your chance)."]
    answer = (view.get("you") or {}).get("contested") or {}
    units = unit_lines(view)
    contested = contested_rule(view)
    hints = [h for h in HINTS if (contested or h != CONTESTED)
             and (rules_version(view) < FLEETS_BEFORE_PLAY or h != HINTS[0])]
    if fleet_step(view):  # rules version 3: the starting fleet alone (C4.3)
        hints = [START, *([CONTESTED] if contested else [])] if fleet_due(view) else \
            ([CONTESTED] if contested else [])
    standing = ([f"# your contested-space answer now: {answer.get('default', 'deny')}"
                 + (f", allow {', '.join(answer['allow'])}" if answer.get("allow") else "")
                 + (f", deny {', '.join(answer['deny'])}" if answer.get("deny") else "")]
                if contested else [])
    return [*hints, *standing,
            "# your units:" if units else "# you have no unit on the map.", *units,
            *purchase_lines(view, "# ", rows),
            f"# purchases get ids in the order bought, from t{view.get('next_token')} (the "
            "tool prints them)."]


def _yaml_value(value: Any) -> str:
    return "[]" if isinstance(value, list) else "{}"


def order_form(view: Mapping[str, Any], seq: int,
               rows: Sequence[Mapping[str, Any]] | None = None) -> str:
    """The whole order file as text (every line within 80 columns; ``rows``:
    ``purchases(view)``, if the caller has it already)."""
    head = form_envelope(view, seq)
    body = skeleton(view)
    if not body:
        return "\n".join([*head, "orders: {}", *comments(view, rows)])
    return "\n".join([*head, "orders:", *(f"  {k}: {_yaml_value(v)}" for k, v in body.items()),
                      *comments(view, rows)])


def _unit(view: Mapping[str, Any], tid: Any) -> str:
    t = view["tokens"].get(str(tid))
    if t is None:
        return str(tid)
    info = mapmodel.token_type(view, t)
    return f"{tid} ({info.get('title') or t['type']})"


def _type(view: Mapping[str, Any], ttype: Any) -> str:
    title = (view["pack"]["tokens"].get(str(ttype)) or {}).get("title")
    return f"{title} ({ttype})" if title else str(ttype)


def receipt_lines(orders: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
    """Accepted orders restated, section by section."""
    lines: list[str] = []
    for s in orders.get("start") or []:
        lines.append(f"Starting fleet: {_type(view, s.get('token'))} at {s.get('hex')} facing "
                     f"{s.get('facing')}.")
    record = orders.get("record") or {}
    if record.get("declare"):
        lines.append(f"Record Keeping: declare an attempt at {record['declare']} victory.")
    if record.get("surrender"):
        lines.append("Record Keeping: surrender.")
    allocate = orders.get("allocate") or {}
    for b in allocate.get("build") or []:
        lines.append(f"Build {_type(view, b.get('token'))} at {b.get('hex')}"
                     + (f" by {_unit(view, b['by'])}" if b.get("by") else "")
                     + (f" from the Scrap Yard ({b['from_scrap']})" if b.get("from_scrap")
                        else "") + ".")
    for r in allocate.get("repair") or []:
        lines.append(f"Repair {_unit(view, r.get('token'))} by {_unit(view, r.get('by'))}.")
    for m in allocate.get("mines") or []:
        lines.append(f"Lay {_type(view, m.get('token'))} at {m.get('hex')} by "
                     f"{_unit(view, m.get('by'))}.")
    for i, m in enumerate(orders.get("move") or []):
        if "sweep" in m:
            text = f"{_unit(view, m['sweep'])} sweeps the mine in front of it"
        elif "jump" in m:
            text = (f"{_unit(view, m.get('unit'))} jumps to {m['jump']}"
                    + (f" with {', '.join(map(str, m['fleet']))}" if m.get("fleet") else ""))
        else:
            text = f"{_unit(view, m.get('unit'))} to {m.get('to')} facing {m.get('facing')}"
        lines.append(f"Move {i + 1}: {text}" + (f" (flip {m['flip']})" if m.get("flip") else "")
                     + ".")
    for i, v in enumerate(orders.get("fire") or []):
        lines.append(f"Volley {i + 1}: at {_unit(view, v.get('target'))} with "
                     + ", ".join(map(str, v.get("with") or []))
                     + (f"; else at {', '.join(map(str, v['else']))}" if v.get("else") else "")
                     + ".")
    answer = orders.get("contested")
    if answer:
        lines.append(f"Contested space: {answer.get('default', 'deny')} by default"
                     + (f", allow {', '.join(answer['allow'])}" if answer.get("allow") else "")
                     + (f", deny {', '.join(answer['deny'])}" if answer.get("deny") else "")
                     + ".")
    return lines or ["No orders: the standing order (nothing built, moved or fired)."]
