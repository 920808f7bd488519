"""The component pack: dice, Empire Control Sheets, tokens and map pieces (B1-B5), and its check.

The seed prints none of them, so the project ships a STAND-IN pack (data/standin.yaml) keeping
every number of the rulebook's examples; an owner types his own into the same schema and checks
it with ``pbem components check FILE --game b5cgs``. ``check_components`` returns every problem
with its path and never raises, so a bad pack is refused whole before a game starts.
``catalogue`` is the pack as the state carries it (normalised: printed hex names are strings
``c``, ``1``..``6``; side-dependent numbers are ``[undamaged, crippled]`` pairs).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.errors import Problem
from pbem.errors import show_value as _show
from pbem.game import datafile
from pbem.game.base import canonical

from .hexes import MAP_PIECES, PRINTED, SIDES

HERE = Path(__file__).resolve().parent
STANDIN = HERE / "data" / "standin.yaml"

TOKEN_KINDS = ("ship", "base", "mine", "jumpgate")
PIECE_KINDS = ("b5", "homeworld", "standard")
#: Movement options of an Empire Control Sheet (D4.11 1-5, and D4.13's Minbari speed 2).
MOVE_OPTIONS = ("rotate", "forward", "turn-forward", "back", "sideslip", "forward-2")
HEX_ELEMENTS = {"economy": "int", "damage": "int", "minefield": "int", "jumpgate": "bool",
                "b5": "bool"}
SPECIALS = {"docked_b5_bonus": "int", "steal": "int", "mines": "bool", "carrier": "int"}
PAIRS = ("dr", "heavy", "laser")
GENERIC = "generic"
MAX_NUMBER = 999


def standin() -> dict[str, Any]:
    """The stand-in pack as loaded from data/standin.yaml (a fresh copy each call)."""
    return datafile.mapping(STANDIN)





def printed_name(value: object) -> str | None:
    """A printed hex name as typed (``c``, 0 for the centre, 1..6 as int or string) -> "c"/"1"..;
    None if it is none."""
    if value == 0 or value == "0" or value == "c":
        return "c"
    if datafile.is_whole(value) and 1 <= value <= 6:
        return str(value)
    if isinstance(value, str) and value in PRINTED:
        return value
    return None


class _Check:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def bad(self, code: str, path: str, message: str) -> None:
        self.problems.append(Problem(code, path, message))

    def number(self, value: object, path: str, low: int = 0, what: str = "a number") -> bool:
        if not datafile.is_whole(value) or not low <= value <= MAX_NUMBER:
            self.bad("number", path, f"{what} is a whole number {low}..{MAX_NUMBER}, "
                     f"not {_show(value)}")
            return False
        return True

    def pair(self, value: object, path: str, low: int) -> None:
        if not isinstance(value, list) or len(value) != 2:
            self.bad("pair", path, "a pair [undamaged, crippled] of whole numbers")
            return
        for i, v in enumerate(value):
            self.number(v, f"{path}[{i}]", low)


def check_components(data: object) -> list[Problem]:
    """Every problem of a pack (empty list: a game can be played with it). Never raises."""
    try:
        return _check(data)
    except Exception as exc:  # a shape the checks did not foresee: refuse, never crash
        return [Problem("pack-malformed", "", f"the pack could not be read ({type(exc).__name__})")]


def _check(data: object) -> list[Problem]:
    c = _Check()
    if not isinstance(data, Mapping):
        return [Problem("pack-shape", "", "a pack is a mapping with pack:, dice:, empires:, "
                        "tokens: and pieces:")]
    for key in data:
        if key not in ("pack", "standin", "note", "dice", "empires", "tokens", "pieces"):
            c.bad("pack-unknown", _show(key), f"no section {_show(key)} in a b5cgs pack")
    if not isinstance(data.get("pack"), str) or not data.get("pack"):
        c.bad("pack-name", "pack", "the pack needs a name (pack: NAME)")
    empires = data.get("empires")
    tokens = data.get("tokens")
    pieces = data.get("pieces")
    for name, value in (("empires", empires), ("tokens", tokens), ("pieces", pieces)):
        if not isinstance(value, Mapping) or not value:
            c.bad("pack-section", name, f"{name}: is a mapping of id: entry")
    if c.problems and not all(isinstance(v, Mapping) for v in (empires, tokens, pieces)):
        return c.problems
    assert isinstance(empires, Mapping) and isinstance(tokens, Mapping)
    assert isinstance(pieces, Mapping)
    _check_dice(c, data.get("dice"), empires)
    for tid, tok in tokens.items():
        _check_token(c, f"tokens.{tid}", tok, empires)
    b5 = []
    for pid, piece in pieces.items():
        if _check_piece(c, f"pieces.{pid}", piece, empires) == "b5":
            b5.append(pid)
    if len(b5) != 1:
        c.bad("pieces-b5", "pieces", f"exactly one piece of kind b5 (the Babylon 5 piece), not "
              f"{len(b5)}")
    for eid, emp in empires.items():
        _check_empire(c, f"empires.{eid}", eid, emp, tokens, pieces)
    if len(empires) < 2:
        c.bad("empires-count", "empires", "at least 2 empires (one per player)")
    standard = sum(1 for p in pieces.values() if isinstance(p, Mapping)
                   and p.get("kind") == "standard")
    need = MAP_PIECES[2] - 1 - 2
    if standard < need:
        c.bad("pieces-count", "pieces", f"at least {need} standard pieces for the smallest map "
              f"(13 pieces: Babylon 5, 2 homeworlds and {need} more), not {standard}")
    return c.problems


def _check_dice(c: _Check, dice: object, empires: Mapping[str, Any]) -> None:
    if not isinstance(dice, Mapping):
        c.bad("dice", "dice", "dice: b5, d6 (lists of faces) and dg (faces by empire)")
        return
    for name in ("b5", "d6"):
        _faces(c, dice.get(name), f"dice.{name}")
    dg = dice.get("dg")
    if not isinstance(dg, Mapping):
        c.bad("dice", "dice.dg", "dg: faces of each empire's Defense Grid die and generic")
        return
    for eid in [*empires, GENERIC]:
        if eid not in dg:
            c.bad("dice-dg", f"dice.dg.{eid}", f"no Defense Grid die for {eid} (B5.22)")
        else:
            _faces(c, dg[eid], f"dice.dg.{eid}")
    for eid in dg:
        if eid not in empires and eid != GENERIC:
            c.bad("dice-dg", f"dice.dg.{_show(eid)}", f"{_show(eid)} is no empire of the pack")


def _faces(c: _Check, faces: object, path: str) -> None:
    if not isinstance(faces, list) or not 2 <= len(faces) <= 20:
        c.bad("dice-faces", path, "a die is a list of 2..20 faces (whole numbers)")
        return
    for i, f in enumerate(faces):
        if not datafile.is_whole(f) or not 0 <= f <= 99:
            c.bad("dice-faces", f"{path}[{i}]", f"a face is a whole number 0..99, not {_show(f)}")


def _check_token(c: _Check, path: str, tok: object, empires: Mapping[str, Any]) -> None:
    if not isinstance(tok, Mapping):
        c.bad("token-shape", path, "a token is a mapping (kind, empire, count, build, ...)")
        return
    kind = tok.get("kind")
    if kind not in TOKEN_KINDS:
        c.bad("token-kind", f"{path}.kind", f"kind is one of {', '.join(TOKEN_KINDS)}, not "
              f"{_show(kind)}")
        return
    empire = tok.get("empire")
    if empire != GENERIC and empire not in empires:
        c.bad("token-empire", f"{path}.empire", f"empire is an empire of the pack or generic, "
              f"not {_show(empire)}")
    if not isinstance(tok.get("title"), str):
        c.bad("token-title", f"{path}.title", "every token needs a title")
    c.number(tok.get("count"), f"{path}.count", 1, "count (how many exist)")
    c.number(tok.get("build"), f"{path}.build", 0, "the build cost")
    c.number(tok.get("upkeep", 0), f"{path}.upkeep", 0, "the upkeep")
    if kind in ("ship", "base"):
        c.number(tok.get("repair"), f"{path}.repair", 0, "the repair cost")
        c.pair(tok.get("dr"), f"{path}.dr", 1)
        for name in ("heavy", "laser"):
            if name in tok:
                c.pair(tok[name], f"{path}.{name}", 0)
        arcs = tok.get("arcs", {})
        if not isinstance(arcs, Mapping):
            c.bad("token-arcs", f"{path}.arcs", "arcs: {heavy: [sides], laser: [sides]}")
        else:
            for weapon, sides in arcs.items():
                sub = f"{path}.arcs.{_show(weapon)}"
                if weapon not in ("heavy", "laser"):
                    c.bad("token-arcs", sub, "arcs are given for heavy and laser")
                elif sides != "all" and (not isinstance(sides, list) or not all(
                        s in SIDES for s in sides)):
                    c.bad("token-arcs", sub, "a list of sides (F, FR, AR, A, AL, FL) or all")
    if kind == "ship":
        jump = tok.get("jump", [False, False])
        if not isinstance(jump, list) or len(jump) != 2 or not all(
                isinstance(j, bool) for j in jump):
            c.bad("token-jump", f"{path}.jump", "jump: [undamaged, crippled] as true/false")
    if kind == "base":
        c.number(tok.get("economy"), f"{path}.economy", 0, "a base's Economy Indicator")
    if kind == "mine":
        c.number(tok.get("damage"), f"{path}.damage", 1, "a mine's Damage Indicator")
    special = tok.get("special", {})
    if not isinstance(special, Mapping):
        c.bad("token-special", f"{path}.special", "special: a mapping of special rules")
        return
    for name, value in special.items():
        sub = f"{path}.special.{_show(name)}"
        if name not in SPECIALS:
            c.bad("token-special", sub, f"known special rules: {', '.join(SPECIALS)}")
        elif SPECIALS[name] == "bool" and not isinstance(value, bool):
            c.bad("token-special", sub, "true or false")
        elif SPECIALS[name] == "int":
            c.number(value, sub, 0)


def _check_piece(c: _Check, path: str, piece: object, empires: Mapping[str, Any]) -> str | None:
    if not isinstance(piece, Mapping):
        c.bad("piece-shape", path, "a map piece is a mapping (title, kind, points, hexes)")
        return None
    kind = piece.get("kind")
    if kind not in PIECE_KINDS:
        c.bad("piece-kind", f"{path}.kind", f"kind is one of {', '.join(PIECE_KINDS)}, not "
              f"{_show(kind)}")
        return None
    if not isinstance(piece.get("title"), str):
        c.bad("piece-title", f"{path}.title", "every map piece needs a title")
    c.number(piece.get("points", 0), f"{path}.points", 0, "the point value")
    if "penalty_per_ship" in piece:
        c.number(piece["penalty_per_ship"], f"{path}.penalty_per_ship", 0, "a penalty")
    if kind == "homeworld" and piece.get("empire") not in empires:
        c.bad("piece-empire", f"{path}.empire", f"a homeworld names its empire, not "
              f"{_show(piece.get('empire'))}")
    hexes = piece.get("hexes", {})
    if not isinstance(hexes, Mapping):
        c.bad("piece-hexes", f"{path}.hexes", "hexes: {c: {...}, 1: {...}, ..., 6: {...}}")
        return str(kind)
    seen: set[str] = set()
    for name, elements in hexes.items():
        where = printed_name(name)
        sub = f"{path}.hexes.{_show(name) if where is None else where}"
        if where is None:
            c.bad("piece-hex", sub, "a printed hex is c (the centre) or 1..6")
            continue
        if where in seen:
            c.bad("piece-hex", sub, f"hex {where} is given twice")
        seen.add(where)
        if not isinstance(elements, Mapping):
            c.bad("piece-hex", sub, "a hex's elements are a mapping (economy: 4, ...)")
            continue
        for el, value in elements.items():
            if el not in HEX_ELEMENTS:
                c.bad("piece-element", f"{sub}.{_show(el)}",
                      f"known map elements: {', '.join(HEX_ELEMENTS)}")
            elif HEX_ELEMENTS[el] == "bool" and value is not True:
                c.bad("piece-element", f"{sub}.{el}", "true (or leave it out)")
            elif HEX_ELEMENTS[el] == "int":
                c.number(value, f"{sub}.{el}", 1)
        if elements.get("b5") and (kind != "b5" or where != "c"):
            c.bad("piece-element", f"{sub}.b5", "the Babylon 5 hex is the b5 piece's centre")
    if kind == "b5" and not (isinstance(hexes.get("c"), Mapping) and hexes["c"].get("b5")):
        c.bad("piece-b5", f"{path}.hexes.c", "the Babylon 5 piece's centre is the b5 hex")
    return str(kind)


def _check_empire(c: _Check, path: str, eid: str, emp: object, tokens: Mapping[str, Any],
                  pieces: Mapping[str, Any]) -> None:
    if not isinstance(emp, Mapping):
        c.bad("empire-shape", path, "an Empire Control Sheet is a mapping")
        return
    if not isinstance(emp.get("title"), str):
        c.bad("empire-title", f"{path}.title", "every empire needs a title")
    home = emp.get("homeworld")
    piece = pieces.get(home) if isinstance(home, str) else None
    if not isinstance(piece, Mapping) or piece.get("kind") != "homeworld" or piece.get(
            "empire") != eid:
        c.bad("empire-homeworld", f"{path}.homeworld", f"the homeworld is a homeworld piece of "
              f"{eid}, not {_show(home)}")
    c.number(emp.get("reserve"), f"{path}.reserve", 0, "the starting Economy Reserve")
    bases = emp.get("bases")
    if not isinstance(bases, list) or not bases:
        c.bad("empire-bases", f"{path}.bases", "the starting bases: [{token: ID, hex: c}]")
        bases = []
    places: set[str] = set()
    for i, b in enumerate(bases):
        sub = f"{path}.bases[{i}]"
        if not isinstance(b, Mapping):
            c.bad("empire-bases", sub, "{token: ID, hex: c}")
            continue
        name = b.get("token")
        tok = tokens.get(name) if isinstance(name, str) else None
        if not isinstance(tok, Mapping) or tok.get("kind") != "base" or tok.get(
                "empire") not in (eid, GENERIC):
            c.bad("empire-bases", f"{sub}.token", f"a base token of {eid} or generic, not "
                  f"{_show(b.get('token'))}")
        where = printed_name(b.get("hex"))
        if where is None:
            c.bad("empire-bases", f"{sub}.hex", "a printed hex of the homeworld (c, 1..6)")
        elif where in places:
            c.bad("empire-bases", f"{sub}.hex", f"two bases in hex {where} (B4.35)")
        else:
            places.add(where)
    movement = emp.get("movement")
    if not isinstance(movement, list) or not movement or not all(
            m in MOVE_OPTIONS for m in movement):
        c.bad("empire-movement", f"{path}.movement", f"a list of movement options: "
              f"{', '.join(MOVE_OPTIONS)}")
    for i, t in enumerate(emp.get("no_sideslip", []) or []):
        if t not in tokens:
            c.bad("empire-movement", f"{path}.no_sideslip[{i}]", f"no token {_show(t)}")


def _pair(value: Any, default: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [default, default]


def _arcs(value: Any) -> list[str]:
    return list(SIDES) if value == "all" else [s for s in SIDES if s in (value or [])]


def catalogue(data: Mapping[str, Any]) -> dict[str, Any]:
    """The (checked) pack as the state carries it, normalised, with its name and digest."""
    tokens = {}
    for tid, t in sorted(data["tokens"].items()):
        tok: dict[str, Any] = {"title": t["title"], "kind": t["kind"], "empire": t["empire"],
                               "count": t["count"], "build": t["build"],
                               "upkeep": t.get("upkeep", 0)}
        if t["kind"] in ("ship", "base"):
            tok.update({"hull": t.get("hull", t["kind"]), "repair": t["repair"],
                        "dr": list(t["dr"]), "heavy": _pair(t.get("heavy"), 0),
                        "laser": _pair(t.get("laser"), 0),
                        "arcs": {w: _arcs(t.get("arcs", {}).get(w)) for w in ("heavy", "laser")},
                        "jump": _pair(t.get("jump"), False) if t["kind"] == "ship"
                        else [False, False]})
        if t["kind"] == "base":
            tok["economy"] = t["economy"]
        if t["kind"] == "mine":
            tok["damage"] = t["damage"]
        tok["special"] = dict(sorted((t.get("special") or {}).items()))
        tokens[tid] = tok
    pieces = {}
    for pid, p in sorted(data["pieces"].items()):
        hexes = {str(printed_name(k)): dict(sorted(v.items()))
                 for k, v in (p.get("hexes") or {}).items()}
        piece: dict[str, Any] = {"title": p["title"], "kind": p["kind"],
                                 "points": p.get("points", 0),
                                 "hexes": {k: hexes[k] for k in PRINTED if k in hexes}}
        if "penalty_per_ship" in p:
            piece["penalty_per_ship"] = p["penalty_per_ship"]
        if p["kind"] == "homeworld":
            piece["empire"] = p["empire"]
        pieces[pid] = piece
    empires = {}
    for eid, e in sorted(data["empires"].items()):
        empires[eid] = {"title": e["title"], "homeworld": e["homeworld"],
                        "reserve": e["reserve"],
                        "bases": [{"token": b["token"], "hex": printed_name(b["hex"])}
                                  for b in e["bases"]],
                        "movement": [m for m in MOVE_OPTIONS if m in e["movement"]],
                        "no_sideslip": sorted(e.get("no_sideslip") or [])}
    dice = data["dice"]
    return {"name": data["pack"], "standin": bool(data.get("standin", False)),
            "digest": canonical.digest(data),
            "dice": {"b5": list(dice["b5"]), "d6": list(dice["d6"]),
                     "dg": {k: list(v) for k, v in sorted(dice["dg"].items())}},
            "empires": empires, "tokens": tokens, "pieces": pieces}
