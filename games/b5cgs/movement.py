"""The Move phase (D4): standard movement, empire exceptions, jumps, exploration, hex
activation, mines and minesweeping.

Each of the player's ships makes one standard movement (D4.11) or one jump instead (D4.67),
in the order the orders list them; a unit crippled or destroyed earlier in the phase is skipped,
and an entry that is not legal when it runs is void (the rest go on). The same legality check
(``plan``) runs at the referee's and in the player's offline check on his view (orders.py), so
the two agree on everything but the dice.

Entering a hex (D4.31: moving, jumping, being built or placed) exposes its piece if face down,
with the flip axis the entering player chose before seeing it (D4.21), then activates it
(D4.32): a mine detonates first (D4.42, C6.3), then a Damage Indicator rolls that many Babylon 5
dice, doubled after a jump except for mines and minefields (E1.11, E1.12, D4.66, D4.44). A
jumpgate hex is not activated (D4.61). Damage goes through ``damage.apply`` (E2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.game.chance import Chance
from pbem.game.events import private

from . import damage, where
from . import hexes as hx
from .setup import expose, piece_name, roll
from .where import Board

MAX_FLEET = 7  # D4.68: the primary and up to 6 adjacent ships
JUMP_RANGE = 3  # D4.61, D4.62
GATE_PIECES = 2  # D4.61: to a jumpgate up to 2 map pieces away


def standard_moves(board: Board, tid: str) -> dict[tuple[str, int], str]:
    """Every (hex, facing) a ship may end its standard movement in, with the option's name
    (D4.11 options 1-5, the empire's chart and exceptions, D4.13). Occupancy not checked."""
    tok = board["tokens"][tid]
    h = hx.parse(tok["hex"])
    assert h is not None
    f = int(tok["facing"])
    sheet = where.empire_sheet(board, tid)
    allowed = set(sheet["movement"])
    if tok["type"] in sheet.get("no_sideslip", []):
        allowed.discard("sideslip")
    out: dict[tuple[str, int], str] = {}

    def add(target: hx.Hex, facing: int, how: str) -> None:
        if how in allowed:
            out.setdefault((hx.key(target), facing), how)

    for turn in (1, -1, 2, -2):
        add(h, hx.turn(f, turn), "rotate")
    add(hx.neighbour(h, f), f, "forward")
    for turn in (1, -1):
        g = hx.turn(f, turn)
        add(hx.neighbour(h, g), g, "turn-forward")
        add(hx.neighbour(h, g), f, "sideslip")
    add(hx.neighbour(h, hx.turn(f, 3)), f, "back")
    add(hx.neighbour(hx.neighbour(h, f), f), f, "forward-2")
    return out


# -- planning one entry (shared by the referee and the offline check) -------------------------
@dataclass
class Plan:
    """What a legal entry does: each (token, from, to, facing) and the hexes it enters."""

    kind: str                                   # move | jump | sweep
    unit: str
    how: str = ""
    steps: list[tuple[str, str, str, int]] = field(default_factory=list)  # tid, from, to, f
    path: list[str] = field(default_factory=list)  # hexes entered by ``unit``, in order
    flip: int = 1
    mine: str | None = None


def _free(board: Board, h: str, leaving: Sequence[str] = ()) -> str | None:
    """Why a unit may not enter ``h`` (None: it may)."""
    if not where.on_map(board, h):
        return f"{h} is not on the map"
    if where.is_b5_hex(board, h):
        return f"{h} is the Babylon 5 hex, which no unit may enter (B1.16)"
    other = where.unit_at(board, h)
    if other is not None and other not in leaving:
        return f"{h} is occupied by {other} (one unit per hex, D4.14)"
    return None


def _own_ship(board: Board, power: str, tid: object, moved: set[str]) -> str | None:
    if not isinstance(tid, str) or tid not in board["tokens"]:
        return f"there is no token {tid!r}"
    tok = board["tokens"][tid]
    if tok["owner"] != power:
        return f"{tid} is not yours"
    if tok["hex"] is None:
        return f"{tid} is not on the map"
    if where.kind(board, tid) != "ship":
        return f"{tid} is a {where.kind(board, tid)}: only ships move (D4.1)"
    if tid in moved:
        return f"{tid} has already moved or jumped this turn (D4.1, D4.67)"
    return None


def plan(board: Board, power: str, entry: Mapping[str, Any], moved: set[str]
         ) -> tuple[Plan | None, str | None]:
    """(the plan, None) for a legal entry, (None, the reason) for an illegal one."""
    if "sweep" in entry:
        return _plan_sweep(board, power, entry)
    unit = entry.get("unit")
    why = _own_ship(board, power, unit, moved)
    if why is not None:
        return None, why
    assert isinstance(unit, str)
    flip = int(entry.get("flip") or 1)
    if "jump" in entry:
        return _plan_jump(board, power, unit, entry, moved, flip)
    tok = board["tokens"][unit]
    to, facing = entry.get("to", tok["hex"]), int(entry.get("facing") or tok["facing"])
    options = standard_moves(board, unit)
    how = options.get((to, facing))
    if how is None:
        chart = ", ".join(where.empire_sheet(board, unit)["movement"])
        return None, (f"{unit} cannot move to {to} facing {facing} in one standard movement "
                      f"(D4.11; its chart: {chart})")
    path: list[str] = []
    if to != tok["hex"]:
        if how == "forward-2":
            here = hx.parse(tok["hex"])
            assert here is not None
            path.append(hx.key(hx.neighbour(here, tok["facing"])))
        path.append(to)
    for step in path:
        why = _free(board, step, [unit])
        if why is not None:
            return None, why
    p = Plan("move", unit, how, [(unit, tok["hex"], to, facing)], path, flip)
    return p, None


def _plan_jump(board: Board, power: str, unit: str, entry: Mapping[str, Any],
               moved: set[str], flip: int) -> tuple[Plan | None, str | None]:
    tok = board["tokens"][unit]
    src, dst = hx.parse(tok["hex"]), hx.parse(entry.get("jump"))
    assert src is not None
    if dst is None:
        return None, f"{entry.get('jump')!r} is not a hex"
    fleet = list(entry.get("fleet") or [])
    if len(fleet) + 1 > MAX_FLEET:
        return None, (f"a fleet jump of {len(fleet) + 1} units: at most {MAX_FLEET} (D4.68)")
    facing = int(tok["facing"])
    target = hx.key(dst)
    if not hx.in_arc(src, facing, dst):
        return None, f"{target} is not in {unit}'s forward 60-degree arc (D4.64)"
    gate = where.is_gate(board, tok["hex"])
    engine = where.has_jump_engine(board, unit)
    dist = hx.distance(src, dst)
    via = None
    if dist <= JUMP_RANGE and (engine or gate):
        via = "engine" if engine else "gate"
    elif gate and where.on_map(board, target) and where.is_gate(board, target):
        a, b = where.slot_of(board, tok["hex"]), where.slot_of(board, target)
        assert a is not None and b is not None
        ca = hx.parse(board["map"]["slots"][a]["centre"])
        cb = hx.parse(board["map"]["slots"][b]["centre"])
        assert ca is not None and cb is not None
        if hx.piece_distance(ca, cb) <= GATE_PIECES:
            via = "gate"
    if via is None:
        if not engine and not gate:
            return None, (f"{unit} has no jump engine (B4.22) and is not in a jumpgate hex "
                          "(D4.61)")
        return None, (f"{target} is {dist} hexes away: a jump goes at most {JUMP_RANGE} hexes, "
                      f"or from a jumpgate to a jumpgate at most {GATE_PIECES} map pieces away")
    offset = hx.sub(dst, src)
    steps = [(unit, tok["hex"], target, facing)]
    members = [unit]
    for i, other in enumerate(fleet):
        why = _own_ship(board, power, other, moved)
        if why is None and other in members:
            why = f"{other} is named twice"
        if why is not None:
            return None, f"fleet[{i}]: {why}"
        assert isinstance(other, str)
        o = board["tokens"][other]
        oh = hx.parse(o["hex"])
        assert oh is not None
        if hx.distance(oh, src) != 1:
            return None, f"fleet[{i}]: {other} is not adjacent to {unit} (D4.68)"
        if int(o["facing"]) != facing:
            return None, (f"fleet[{i}]: {other} does not face the direction of the jump "
                          "(D4.68)")
        steps.append((other, o["hex"], hx.key(hx.add(oh, offset)), facing))
        members.append(other)
    for tid, _, to, _ in steps:
        why = _free(board, to, members)
        if why is not None:
            return None, f"{tid} cannot jump to {to}: {why}"
    return Plan("jump", unit, via, steps, [target], flip), None


def _plan_sweep(board: Board, power: str, entry: Mapping[str, Any]
                ) -> tuple[Plan | None, str | None]:
    unit = entry.get("sweep")
    why = _own_ship(board, power, unit, set())
    if why is not None:
        return None, why
    assert isinstance(unit, str)
    if not board["options"].get("mines"):
        return None, "mines are not in this game (modular rule: D4.4, H5)"
    tok = board["tokens"][unit]
    h = hx.parse(tok["hex"])
    assert h is not None
    ahead = hx.key(hx.front(h, tok["facing"]))
    mine = where.mine_at(board, ahead)
    if mine is None:
        return None, f"there is no mine directly in front of {unit} (in {ahead}) (H5)"
    return Plan("sweep", unit, "sweep", [], [], 1, mine), None


def apply_plan_positions(board: dict[str, Any], p: Plan) -> None:
    """Move the tokens as planned (no activation): the checker's simulation and the first
    half of execution."""
    for tid, _, to, facing in p.steps:
        board["tokens"][tid]["hex"] = to
        board["tokens"][tid]["facing"] = facing


# -- damage ----------------------------------------------------------------------------------
def apply_damage(st: dict[str, Any], tid: str, points: int, cause: str) -> list[dict[str, Any]]:
    """E2, through ``damage.apply`` (b5econ's): cripple, destroy, the Scrap Yard."""
    return list(damage.apply(st, tid, points, cause))


# -- entering a hex --------------------------------------------------------------------------
def explore(st: dict[str, Any], tid: str, h: str, flip: int, power: str | None
            ) -> list[dict[str, Any]]:
    """D4.21: a unit entering a hex of a face-down piece exposes it, flipped about ``flip``."""
    slot = where.slot_of(st, h)
    if slot is None or st["map"]["slots"][slot]["exposed"]:
        return []
    piece = st["referee"]["pieces"][str(slot)]
    rotation = hx.exposed_rotation(int(st["referee"]["backs"][str(slot)]), flip)
    expose(st, slot, piece, rotation, flip)
    return [{"type": "explored", "power": power, "token": tid, "slot": slot,
             "piece": piece_name(piece), "title": st["pack"]["pieces"][piece]["title"],
             "rotation": rotation, "flip": flip}]


def _still_there(st: Mapping[str, Any], tid: str, h: str) -> bool:
    tok = st["tokens"].get(tid)
    return tok is not None and tok["hex"] == h


def enter(st: dict[str, Any], tid: str, h: str, jumped: bool, chance: Chance, label: str,
          flip: int = 1) -> list[dict[str, Any]]:
    """A unit has entered hex ``h`` (D4.31): expose its piece, then activate it (D4.32).
    ``label`` prefixes the labels of the dice rolled (STATE.md)."""
    events = explore(st, tid, h, flip, st["tokens"][tid]["owner"])
    b5 = st["pack"]["dice"]["b5"]
    mine = where.mine_at(st, h)
    if mine is not None:  # D4.42: detonates, never doubled (D4.44); removed
        n = int(st["pack"]["tokens"][st["tokens"][mine]["type"]]["damage"])
        dice, ev = roll(chance, f"{label}:mine", "b5", b5, n,
                        f"mine {mine} (Damage Indicator {n}) in {h}, {tid} entering")
        del st["tokens"][mine]
        events += [ev, {"type": "activated", "token": tid, "hex": h, "element": "mine",
                        "indicator": n, "doubled": False, "damage": sum(dice)},
                   {"type": "mine_removed", "hex": h, "token": mine}]
        events += apply_damage(st, tid, sum(dice), f"mine in {h}")
        if not _still_there(st, tid, h):
            return events
    elements = st["hexes"].get(h, {})
    for element in ("damage", "minefield"):
        n = int(elements.get(element, 0))
        if n <= 0:
            continue
        double = jumped and element == "damage"  # E1.12, D4.66: not for minefields
        dice, ev = roll(chance, f"{label}:hex", "b5", b5, n,
                        f"{'minefield' if element == 'minefield' else 'Damage Indicator'} "
                        f"{n} in {h}, {tid} {'jumping in' if jumped else 'entering'}")
        points = sum(dice) * (2 if double else 1)
        events += [ev, {"type": "activated", "token": tid, "hex": h, "element": element,
                        "indicator": n, "doubled": double, "damage": points}]
        events += apply_damage(st, tid, points, f"{element} in {h}")
        break
    return events


# -- the phase -------------------------------------------------------------------------------
def _void(power: str, i: int, reason: str) -> dict[str, Any]:
    return private({"type": "move_void", "power": power, "entry": i, "reason": reason}, power)


def move_phase(st: dict[str, Any], power: str, entries: Sequence[Any], chance: Chance
               ) -> list[dict[str, Any]]:
    """D4: the entries in the listed order (STATE.md, "The order file")."""
    events: list[dict[str, Any]] = []
    flags = st["flags"]
    flags.setdefault("moved", [])
    flags.setdefault("swept", [])
    hurt: set[str] = set()
    # ruling R17: from rules version 2 a ship crippled earlier in the phase (by its own sweep,
    # "In addition to its movement", D4.43) still moves and sweeps; a destroyed one is skipped
    version = int(st["options"].get("rules_version", 1))
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            continue
        unit = entry.get("sweep", entry.get("unit"))
        if unit in hurt:
            events.append({"type": "move_skipped", "power": power, "entry": i, "token": unit,
                           "why": "crippled or destroyed earlier in this Move phase"})
            continue
        if "sweep" in entry and unit in flags["swept"]:
            events.append(_void(power, i, f"{unit} has already swept a mine this turn"))
            continue
        moved = set(flags["moved"])
        p, why = plan(st, power, entry, moved)
        if p is None:
            events.append(_void(power, i, str(why)))
            continue
        before = {t: dict(st["tokens"][t]) for t in st["tokens"]}
        if p.kind == "sweep":
            events += sweep(st, power, p, chance, f"move{i}:{p.unit}")
            flags["swept"].append(p.unit)
        else:
            events += execute(st, power, p, chance, f"move{i}")
        for t, old in before.items():
            now = st["tokens"].get(t)
            if now is None or now["hex"] is None or (now["crippled"] and not old["crippled"]
                                                     and version < 2):
                hurt.add(t)
    return events


def execute(st: dict[str, Any], power: str, p: Plan, chance: Chance, label: str
            ) -> list[dict[str, Any]]:
    """Carry out a standard movement or a (fleet) jump that ``plan`` found legal."""
    events: list[dict[str, Any]] = []
    for tid, _, _, _ in p.steps:
        st["flags"]["moved"].append(tid)
    if p.kind == "move":
        tid, frm, to, facing = p.steps[0]
        tok = st["tokens"][tid]
        tok["facing"] = facing
        if not p.path:
            events.append({"type": "moved", "power": power, "token": tid, "from": frm,
                           "to": frm, "facing": facing, "how": p.how})
            return events
        events.append({"type": "moved", "power": power, "token": tid, "from": frm, "to": to,
                       "facing": facing, "how": p.how})
        for h in p.path:  # forward-2 enters the hex between too (ruling R10)
            tok["hex"] = h
            events += enter(st, tid, h, False, chance, f"{label}:{tid}", p.flip)
            if not _still_there(st, tid, h):
                break
        return events
    apply_plan_positions(st, p)  # D4.63: picked up and placed, the hexes between untouched
    for tid, frm, to, _ in p.steps:
        events.append({"type": "jumped", "power": power, "token": tid, "from": frm, "to": to,
                       "via": p.how, "fleet_of": None if tid == p.unit else p.unit})
    for tid, _, to, _ in p.steps:
        if _still_there(st, tid, to):
            events += enter(st, tid, to, True, chance, f"{label}:{tid}", p.flip)
    return events


def sweep(st: dict[str, Any], power: str, p: Plan, chance: Chance, label: str
          ) -> list[dict[str, Any]]:
    """H5: roll the ship's Defense Grid die; (mine's Damage Indicator - DG) Babylon 5 dice of
    damage to the sweeping ship; the mine is removed."""
    assert p.mine is not None
    mine = st["tokens"][p.mine]
    n = int(st["pack"]["tokens"][mine["type"]]["damage"])
    emp = st["pack"]["tokens"][st["tokens"][p.unit]["type"]]["empire"]
    dg_faces = st["pack"]["dice"]["dg"].get(emp, st["pack"]["dice"]["dg"]["generic"])
    die = f"dg:{emp if emp in st['pack']['dice']['dg'] else 'generic'}"
    (dg,), ev1 = roll(chance, f"{label}:sweep-dg", die, dg_faces, 1,
                      f"{p.unit} sweeping the mine in {mine['hex']} (H5)")
    events = [ev1]
    count = max(0, n - dg)
    total = 0
    if count:
        dice, ev2 = roll(chance, f"{label}:sweep-b5", "b5", st["pack"]["dice"]["b5"], count,
                         f"damage to {p.unit} from sweeping a mine of {n} (H5)")
        events.append(ev2)
        total = sum(dice)
    where = mine["hex"]
    del st["tokens"][p.mine]
    events.append({"type": "swept", "power": power, "token": p.unit, "mine": p.mine,
                   "hex": where, "indicator": n, "dg": dg, "dice": count, "damage": total})
    events.append({"type": "mine_removed", "hex": where, "token": p.mine})
    if total:
        events += apply_damage(st, p.unit, total, f"sweeping the mine in {where}")
    return events
