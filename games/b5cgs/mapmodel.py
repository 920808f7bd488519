"""What the hex map shows, decided from one view: the cells both drawings use.

A cell is a hex of the board (every slot's seven hexes, games/b5cgs/STATE.md "map.slots"):
its name (``"q,r"``, as orders write it), the map piece it belongs to, whether that piece is
exposed, its map elements as short marks and the unit in it. A face-down piece's cells carry
its slot and hex names only (the geometry is public) and never an element: the view holds none
(``hexes`` lists exposed hexes only), and this module reads nothing else about a piece. Mines
and built jumpgates are tokens in the state but map elements on the map (B1.22): they are marks.

Units are named as orders name them, by their token id (``t7``), everywhere a player reads
them: on both maps, in the legend, the threats and the events. A ship's label adds
``:facing`` (1..6, the numbers around Babylon 5, clockwise from north). The owner is the unit's
colour on the SVG map and its letter (``owner``: ``E`` for Earth Alliance, ``E*`` when
crippled) under the id on the text map; the legend names both. (Before, the maps named
Earth Alliance's ``t7`` ``E7``, a second name orders did not take: issue 28.)
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

UNITS = ("ship", "base")
PALETTE = (("#1d4ed8", "#dbeafe"), ("#b91c1c", "#fee2e2"), ("#047857", "#d1fae5"),
           ("#7c3aed", "#ede9fe"), ("#b45309", "#fef3c7"), ("#0e7490", "#cffafe"))


_NO_TYPE: Mapping[str, Any] = MappingProxyType({})


def token_type(view: Mapping[str, Any], token: Mapping[str, Any]) -> Mapping[str, Any]:
    """The pack's entry for the token's type (the view's own: read it, never change it), or
    an empty mapping."""
    return view["pack"]["tokens"].get(str(token["type"])) or _NO_TYPE


def kind(view: Mapping[str, Any], token: Mapping[str, Any]) -> str:
    return str(token_type(view, token).get("kind", "ship"))


def letters(view: Mapping[str, Any]) -> dict[str, str]:
    """One capital letter per power: its first letter free, else the next letter of its name
    free, else the first free letter of the alphabet."""
    return dict(_letters(tuple((str(p), str(view["powers"][p].get("title") or p))
                               for p in view["seats"])))


@functools.lru_cache(maxsize=64)
def _letters(named: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """``letters`` of the seats and their titles (computed once per game: every map, legend
    and power's part asks again)."""
    out: dict[str, str] = {}
    for p, title in named:
        options = [c.upper() for c in title + p if c.isalpha()]
        options += [chr(c) for c in range(ord("A"), ord("Z") + 1)]
        out[p] = next(c for c in options if c not in out.values())
    return tuple(out.items())


def colours(view: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    marks = letters(view)
    out = {}
    for i, p in enumerate(view["seats"]):
        strong, light = PALETTE[i % len(PALETTE)]
        out[p] = {"strong": strong, "light": light, "letter": marks[p],
                  "name": str(view["powers"][p].get("title") or p)}
    return out


def number(token_id: str) -> str:
    digits = re.sub(r"\D", "", token_id)
    return digits or token_id


def label(view: Mapping[str, Any], token_id: str, with_facing: bool = True) -> str:
    """The unit as the maps show it: its id, as orders name it, and a ship's ``:facing``."""
    t = view["tokens"][token_id]
    facing = t.get("facing")
    return token_id + (f":{facing}" if with_facing and facing and kind(view, t) == "ship"
                       else "")


def owner_mark(view: Mapping[str, Any], token_id: str) -> str:
    """The owner's letter under the unit on the text map, ``*`` after it when crippled."""
    t = view["tokens"][token_id]
    return letters(view).get(str(t["owner"]), "?") + ("*" if t.get("crippled") else "")


def marks(element: Mapping[str, Any]) -> list[str]:
    """A hex's map elements as marks: e economy, d damage, m minefield, G jumpgate, B5."""
    out = []
    if element.get("b5"):
        out.append("B5")
    if element.get("economy"):
        out.append(f"e{element['economy']}")
    if element.get("damage"):
        out.append(f"d{element['damage']}")
    if element.get("minefield"):
        out.append(f"m{element['minefield']}")
    if element.get("jumpgate"):
        out.append("G")
    return out


def cells(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every board hex with what the viewer may see of it, ordered by (q, r). The cells are
    never changed: those of an empty face-down piece are shared by every call
    (``_facedown``)."""
    units: dict[str, dict[str, Any]] = {}
    extra: dict[str, list[str]] = {}
    owners: dict[str, str] | None = None
    for tid, t in view["tokens"].items():
        if t.get("hex") is None:
            continue
        info = token_type(view, t)
        k = str(info.get("kind", "ship"))
        if k in UNITS:
            crippled = bool(t.get("crippled"))
            facing = t.get("facing")
            shown = tid + (f":{facing}" if facing and k == "ship" else "")
            owners = letters(view) if owners is None else owners
            owner = owners.get(str(t["owner"]), "?") + ("*" if crippled else "")
            units[str(t["hex"])] = {"id": tid, "power": str(t["owner"]), "label": shown,
                                    "owner": owner, "kind": k, "crippled": crippled,
                                    "facing": facing if k == "ship" else None}
        elif k == "mine":
            extra.setdefault(str(t["hex"]), []).append(f"m{info.get('damage', '')}")
        elif k == "jumpgate":
            extra.setdefault(str(t["hex"]), []).append("G")
    b5 = view["map"].get("b5_hex")
    hexes = view["hexes"]
    out: list[dict[str, Any]] = []
    for slot in view["map"]["slots"]:
        exposed = bool(slot["exposed"])
        piece = int(slot["slot"])
        if not exposed and not any(name in units for name in slot["hexes"]):
            out += _facedown(tuple(slot["hexes"]), piece, b5)
            continue
        for name in slot["hexes"]:
            shown = marks(hexes.get(name, {})) if exposed else []
            if name == b5 and "B5" not in shown:
                shown.insert(0, "B5")  # public: the Babylon 5 hex is never entered (B1.16)
            for m in extra.get(name, ()) if exposed else ():
                if m not in shown:
                    shown.append(m)
            token = units.get(name)
            out.append({"hex": _place(name), "name": name, "piece": piece,
                        "exposed": exposed, "marks": shown, "token": token,
                        "unit": token["label"] if token else None,
                        "owner": token["owner"] if token else None})
    out.sort(key=_BY_HEX)
    return out


@functools.lru_cache(maxsize=1024)
def _facedown(names: tuple[str, ...], piece: int, b5: Any) -> tuple[dict[str, Any], ...]:
    """The cells of a face-down piece with no unit on it: the names of its hexes and nothing
    else (but Babylon 5's hex, public), the same every step of every game on a map of this
    shape."""
    return tuple({"hex": _place(name), "name": name, "piece": piece, "exposed": False,
                  "marks": ["B5"] if name == b5 else [], "token": None, "unit": None,
                  "owner": None} for name in names)


_BY_HEX = operator.itemgetter("hex")


@functools.lru_cache(maxsize=4096)
def _place(name: str) -> tuple[int, int]:
    """A hex name's ``(q, r)`` (the board's names, parsed once)."""
    q, r = (int(v) for v in str(name).split(","))
    return q, r


def pieces(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The map pieces by slot: exposed ones by title, face-down ones as such."""
    out = []
    for slot in view["map"]["slots"]:
        piece = slot.get("piece") if slot["exposed"] else None
        info = view["pack"]["pieces"].get(piece, {}) if piece else {}
        out.append({"slot": slot["slot"], "centre": slot["centre"], "exposed": slot["exposed"],
                    "title": str(info.get("title") or piece) if piece else "face down",
                    "kind": slot.get("kind")})
    return out
