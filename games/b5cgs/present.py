"""Babylon 5 CGS's presenter: the context of every mail that shows the game.

Everything comes from ``view`` and the events the power may see (pbem.game.presentation), so a
report cannot show what the view does not hold. A report has: the events in sentences; every
roll with its label, die, faces and result, so each player can recheck it against the
published chance; the hex map as text (hexmap_text) and as the attached ``map.svg``
(hexmap_svg) with units, facings and damage, face-down pieces grey and nameless; a legend of
the units; every power's scoring banks (gross, upkeep, net, reserve) and Scrap Yard; the threats
in range of each of the reader's units (threats); what the reader can buy (types, costs,
weapons, arcs, movement: orderform.purchases) and a pre-filled order form (orderform).

Modules: mapmodel (what the map shows), hexmap_text and hexmap_svg (the two drawings),
threats, sentences, orderform; writers (the turn report's templates written without Jinja
while they are the ones they were written from: the presenter's ``writers``; the HTML in
report_html, the text and subject in report_text).
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.game.base import Presenter
from pbem.game.shared import SharedParts

from . import hexmap_svg, hexmap_text, mapmodel, orderform, sentences, threats
from . import writers as report_writers
from .setup import FLEETS_BEFORE_PLAY, rules_version

MAP_KIND = "hex"


def _title(view: Mapping[str, Any], p: str) -> str:
    return sentences.power_title(view, p)


def _wrap(text: str, indent: str = "  ", more: str = "      ") -> list[str]:
    return list(_wrapped(text, indent, more))


@functools.lru_cache(maxsize=1024)
def _wrapped(text: str, indent: str, more: str) -> tuple[str, ...]:
    """``text`` wrapped (textwrap's own rules, kept per text: a unit's legend line and a roll's
    stay the same from step to step while nothing happens to them)."""
    return tuple(textwrap.wrap(text, 78, initial_indent=indent, subsequent_indent=more,
                               break_on_hyphens=False) or [indent])


def _weapons(info: Mapping[str, Any], crippled: bool) -> str:
    out = []
    for weapon in ("heavy", "laser"):
        points = threats.output(info, weapon, crippled)
        if points:
            sides = threats.arcs((info.get("arcs") or {}).get(weapon))
            out.append(f"{weapon} {points} ({'all' if len(sides) == 6 else ' '.join(sides)})")
    return ", ".join(out) or "no weapons"


def legend(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per unit on the map: its id (the name orders and maps use), what it is, where,
    facing, damage, weapons."""
    rows = []
    for p in view["seats"]:
        for tid in threats.units(view, p):
            t = view["tokens"][tid]
            info = mapmodel.token_type(view, t)
            crippled = bool(t.get("crippled"))
            dr = info.get("dr") or [0, 0]
            facing = f", facing {t['facing']}" if t.get("facing") and info.get("kind") == \
                "ship" else ""
            text = (f"{tid:<5} {_title(view, p)}'s "
                    f"{info.get('title') or t['type']} at {t['hex']}{facing}, "
                    f"{'CRIPPLED' if crippled else 'undamaged'}, DR "
                    f"{dr[1] if crippled else dr[0]}, {_weapons(info, crippled)}")
            rows.append({"label": mapmodel.label(view, tid), "id": tid, "power": p,
                         "title": str(info.get("title") or t["type"]), "hex": t["hex"],
                         "crippled": crippled, "text": text, "lines": _wrap(text)})
    return rows


def banks(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every power's scoring banks (public on the table, B3.1) and Scrap Yard."""
    return [_bank(view, p) for p in view["seats"]]


def _bank(view: Mapping[str, Any], p: str) -> dict[str, Any]:
    """One power's row of ``banks``."""
    info = view["powers"][p]
    b = info.get("banks") or {"gross": None, "upkeep": None, "net": None,
                              "reserve": info.get("reserve")}
    scrap = list(_scrap(view).get(p, ()))
    return {"power": p, "name": _title(view, p), "gross": b.get("gross"),
            "upkeep": b.get("upkeep"), "net": b.get("net"),
            "reserve": b.get("reserve"), "scrap": scrap,
            "war_tokens": [_title(view, q) for q in info.get("war_tokens", [])],
            "surrendered": bool(info.get("surrendered")),
            "declared": info.get("declared"), "you": p == view.get("viewer")}


#: The Scrap Yards ``_scrap`` made last: the tokens and token types it read (the objects the
#: views of a state share, never changed: view._board_copy), and what it made of them.
_SCRAP: list[Any] = [None, None, None]


def _scrap(view: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """Every power's Scrap Yard (``_bank``'s ``scrap``), made once for the tokens and token
    types the views of a state share: each reader's banks row and the table's rows read it."""
    tokens, types = view["tokens"], view["pack"]["tokens"]
    if _SCRAP[0] is tokens and _SCRAP[1] is types:
        return _SCRAP[2]  # type: ignore[no-any-return]
    yards: dict[str, list[str]] = {}
    for tid, t in sorted(tokens.items()):
        if t.get("scrap"):
            yards.setdefault(t.get("owner"), []).append(
                f"{tid} {mapmodel.token_type(view, t).get('title') or t['type']}")
    made = {p: tuple(v) for p, v in yards.items()}
    _SCRAP[:] = [tokens, types, made]  # (holding the objects: their ids stay theirs)
    return made


def rolls(events: Sequence[Mapping[str, Any]], view: Mapping[str, Any] | None = None
          ) -> list[dict[str, Any]]:
    """Every die rolled, as its event says it: label, die, faces, count, result (``shown``:
    added up, or each power's die for a roll of one die per power) and why."""
    return [{"label": e.get("label"), "die": e.get("die"), "faces": list(e.get("faces", [])),
             "count": e.get("count"), "result": list(e.get("result", [])),
             "shown": sentences.roll_result(e, view),
             "for": e.get("for", ""), "line": sentences.roll_line(e, view),
             "lines": _wrap(sentences.roll_line(e, view))}
            for e in events if e.get("type") == "roll"]


def board(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The map in both drawings; ``events``: the step's visible events, drawn over the SVG."""
    cells = mapmodel.cells(view)
    return {"text": hexmap_text.render(cells), "legend": legend(view),
            "pieces": mapmodel.pieces(view),
            "letters": [{"letter": c["letter"], "name": c["name"],
                         "text": f"{c['letter']} {c['name']}"}
                        for c in mapmodel.colours(view).values()],
            "drawing": hexmap_svg.drawing(cells, mapmodel.colours(view),
                                          hexmap_svg.step_lines(view, events))}


def _due(view: Mapping[str, Any]) -> bool:
    window = view.get("window") or {}
    return view.get("viewer") in (window.get("due") or [])


def _power(view: Mapping[str, Any], seq: int) -> dict[str, Any]:
    me = str(view["viewer"])
    due = _due(view)
    mine = _bank(view, me)
    rows = orderform.purchases(view) if due else []
    return {
        "power": me, "name": _title(view, me), "turn": view["turn"], "due": due,
        "letter": mapmodel.letters(view)[me], "banks": mine,
        "threats": threats.threats(view, me) if view.get("phase") == "play" else [],
        "order_form": orderform.order_form(view, seq, rows) if due else "",
        "purchases": rows,
        "purchase_lines": orderform.purchase_lines(view, "  ", rows) if due else [],
        "setup": orderform.in_setup(view),
        "fleets_before_play": rules_version(view) >= FLEETS_BEFORE_PLAY,
        "contested": (view.get("you") or {}).get("contested") or {},
    }


def public_part(view: Mapping[str, Any]) -> dict[str, Any]:
    """The public view within a power's view: the view without its reader (``viewer`` None,
    no ``you``), which is byte for byte ``view(state, None)`` (games/b5cgs/view.py: nothing
    else in a view depends on its power)."""
    return {**{k: v for k, v in view.items() if k != "you"}, "viewer": None}


#: The shared part of recent reports (pbem.game.shared): one resolution's readers see the same
#: map and events, so the map is drawn once per resolution, not once per reader and twice more
#: for the game master.
_SHARED: SharedParts[dict[str, Any]] = SharedParts()


def _common(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The part of a report every reader of these ``events`` shares, made from the public
    part of ``view`` only, so a reader who gets it from the cache gets exactly what his own
    view and events would have made, and nothing computed from another reader's: the cache
    key is the digest of both, and two readers share an entry only when the public view and
    the events they may see are the same. (In the key the pack's tables, the same in every
    view of a game, are their digest: ``_tables_digest``.)"""
    public = public_part(view)
    events = list(events)

    def make() -> dict[str, Any]:
        drawn = board(public, events)
        return {"events": [sentences.sentence(e, public) for e in events
                           if e.get("type") not in ("roll", "chance")],
                "rolls": rolls(events, public), "map": drawn["text"],
                # the text map as one block: the same for every reader, joined once
                "map_block": "\n".join(drawn["text"]),
                "legend": drawn["legend"], "pieces": drawn["pieces"],
                "letters": drawn["letters"], "drawing": drawn["drawing"],
                "window": public.get("window"), "result": public.get("result"),
                "round": public.get("round"),
                # every power's banks as the public view has them (no row is "you"): what
                # _board.txt shows, drawn once for every reader (``common``)
                "banks": banks(public)}
    pack = public["pack"]
    key = {**public, "pack": {"tables": _tables_digest(pack), "pieces": pack.get("pieces")}}
    return _SHARED.get((key, events), make)


#: The pack's tables (all its values but the pieces: the objects views share, never changed)
#: whose digest ``_tables_digest`` made last, and that digest.
_TABLES: list[Any] = [None, b""]


def _tables_digest(pack: Mapping[str, Any]) -> bytes:
    """The SHA-256 of a view's pack tables (all but ``pieces``), made once for the objects
    the views of every game with that pack share (b5cgs.view._pack_tables): the tables are
    11 KB of a view, and digesting them for each resolution's shared part was most of its
    key."""
    tables = {k: v for k, v in pack.items() if k != "pieces"}
    seen = _TABLES[0]
    if seen is None or seen.keys() != tables.keys() or any(
            seen[k] is not v for k, v in tables.items()):
        digest = hashlib.sha256(pickle.dumps(tables, pickle.HIGHEST_PROTOCOL)).digest()
        _TABLES[:] = [tables, digest]  # (holding the objects: their ids stay theirs)
    return _TABLES[1]  # type: ignore[no-any-return]


def _shared(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The common part (``_common``, shared between readers) and the reader's own: the banks
    table marks his row (the rows are the common part's, every field of which is public:
    ``banks`` of his view but for ``you``). A new dict each time, over the common values,
    which nobody changes; ``common`` is the common part itself (the same object for every
    reader who shares it: the templates draw the board's shared parts from it once)."""
    common = _common(view, events)
    viewer = view.get("viewer")
    return {**common, "banks": [{**b, "you": b["power"] == viewer} for b in common["banks"]],
            "common": common}


class B5Presenter(Presenter):
    """B5's contexts for its templates; the reveal (nothing is sealed: the face-down pieces
    are revealed by the view once it is over) is pbem.game.base.Presenter's."""

    map_kind = MAP_KIND
    # the turn report written without Jinja while its templates are the ones it was written
    # from (pbem.render.plain; games/b5cgs/writers.py)
    writers = report_writers.WRITERS

    @staticmethod
    def title(view: Mapping[str, Any]) -> str:
        pack = view["pack"]
        name = str(pack.get("name", "")) + (" (stand-in components)" if pack.get("standin")
                                            else "")
        rules = ("the Basic Game" if str(view.get("variant", "")).startswith("basic")
                 else "the Basic Game with the modular rules")
        return f"Babylon 5 CGS, {len(view['seats'])} players, {rules}, {name}"

    @staticmethod
    def welcome(view: Mapping[str, Any], readers: Sequence[str]) -> dict[str, Any]:
        return {**_power(view, 0), **{"board": board(view)["text"]}}

    @staticmethod
    def report(before: Mapping[str, Any], view: Mapping[str, Any], *, readers: Sequence[str],
               missed: int, seq: int) -> dict[str, Any]:
        return _power(view, seq)

    @staticmethod
    def shared(views: Sequence[Mapping[str, Any]], events: Sequence[Mapping[str, Any]],
               readers: Sequence[str]) -> dict[str, Any]:
        return _shared(views[0], events)

    @staticmethod
    def receipt_lines(orders: Mapping[str, Any], view: Mapping[str, Any]) -> list[str]:
        return orderform.receipt_lines(orders, view)

    @staticmethod
    def gm(public: Mapping[str, Any], views: Mapping[str, Mapping[str, Any]],
           events: Sequence[Mapping[str, Any]], secrets: Mapping[str, list[str]]
           ) -> dict[str, Any]:
        shared = _shared(public, events)
        shared["events"] = [sentences.sentence(e, public, gm=True)
                            for e in events if e.get("type") not in ("roll", "chance")]
        return shared

    @staticmethod
    def game_end(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
                 readers: Sequence[str], reveal: Sequence[Mapping[str, Any]]
                 ) -> dict[str, Any]:
        result = view.get("result") or {}
        shared = _shared(view, events)
        revealed = [f"slot {s}: {sentences.piece(p)}"
                    for s, p in sorted((view.get("revealed") or {}).items(),
                                       key=lambda kv: sentences.slot_order(kv[0]))]
        return {**shared, "winners": [_title(view, p) for p in result.get("winners", [])],
                "reason": result.get("reason", ""), "revealed": revealed,
                "aside": [sentences.piece(p) for p in view.get("aside") or []],
                "reveal": list(reveal)}

    @staticmethod
    def map_context(view: Mapping[str, Any], readers: Sequence[str],
                    shared: Mapping[str, Any] | None) -> dict[str, Any]:
        if shared is not None and "drawing" in shared:
            return dict(shared["drawing"])
        return dict(board(view)["drawing"])


PRESENTER = B5Presenter()
