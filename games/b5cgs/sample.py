"""Random legal play of Babylon 5 CGS (the ``sample_orders`` hook, docs/plugins.md): a body a
player could write from his own view alone: the starting fleet, builds and repairs, standard
moves and jumps, volleys with else targets, now and then a victory declaration. Each entry is
kept only if the referee's own check (``orders.normalize_orders`` on that view) accepts the
body with it. The property tests play with it (tests/support/b5cgs_play.py)."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

from . import hexes, movement, orders, threats
from .setup import fleet_due

View = Mapping[str, Any]


def _ok(body: Mapping[str, Any], view: View) -> bool:
    return not orders.normalize_orders(body, view)[1]


def _try(body: dict[str, Any], view: View, section: str, entry: Any,
         key: str | None = None) -> bool:
    """Append ``entry`` to ``body[section]`` (or ``body[section][key]``) if the check accepts
    the body with it."""
    trial = copy.deepcopy(body)
    if key is None:
        trial.setdefault(section, []).append(entry)
    else:
        trial.setdefault(section, {}).setdefault(key, []).append(entry)
    if _ok(trial, view):
        body.clear()
        body.update(trial)
        return True
    return False


def _hex(view: View, token: str) -> tuple[int, int]:
    at = hexes.parse(view["tokens"][token]["hex"])
    assert at is not None, (token, view["tokens"][token]["hex"])  # a unit on the map has one
    return at


def _units(view: View, power: str, kind: str) -> list[str]:
    return [t for t in threats.units(view, power)
            if view["pack"]["tokens"][view["tokens"][t]["type"]]["kind"] == kind]


def _fleet(view: View, me: str, ships: list[str], rng: random.Random) -> dict[str, Any]:
    body: dict[str, Any] = {}
    slot = next(s for s in view["map"]["slots"]
                if s["slot"] == view["powers"][me]["homeworld_slot"])
    for h in rng.sample(slot["hexes"], len(slot["hexes"])):
        _try(body, view, "start", {"token": rng.choice(ships), "hex": h,
                                   "facing": rng.randint(1, 6)})
    return body


def _builds(body: dict[str, Any], view: View, me: str, ships: list[str],
            rng: random.Random) -> None:
    """A ship docked to each base, facing it or not; a repair of each crippled unit."""
    for base in _units(view, me, "base"):
        here = _hex(view, base)
        for d in rng.sample(range(1, 7), 6):
            to = hexes.neighbour(here, d)
            facing = hexes.direction_to(to, here)
            if _try(body, view, "allocate", {"token": rng.choice(ships), "hex": hexes.key(to),
                                             "by": base, "facing": facing}, "build") or \
                    _try(body, view, "allocate", {"token": rng.choice(ships),
                                                  "hex": hexes.key(to), "by": base}, "build"):
                break
    for tid in threats.units(view, me):
        if view["tokens"][tid].get("crippled"):
            for by in _units(view, me, "base"):
                if _try(body, view, "allocate", {"token": tid, "by": by}, "repair"):
                    break


def _moves(body: dict[str, Any], view: View, me: str, rng: random.Random) -> None:
    """Each ship a random standard move or a jump, or nothing."""
    mine = _units(view, me, "ship")
    for tid in rng.sample(mine, len(mine)):
        if rng.random() < 0.15:
            continue
        options = [{"unit": tid, "to": h, "facing": f, "flip": rng.randint(1, 3)}
                   for (h, f) in movement.standard_moves(view, tid)]
        here = _hex(view, tid)
        facing = int(view["tokens"][tid]["facing"])
        options += [{"unit": tid, "jump": hexes.key(h), "flip": rng.randint(1, 3)}
                    for h in hexes.forward_arc(here, facing, 3)]
        for entry in rng.sample(options, len(options)):
            if _try(body, view, "move", entry):
                break


def _fire(body: dict[str, Any], view: View, me: str, rng: random.Random) -> None:
    """A volley at each enemy unit in reach, with what reaches it, an else target sometimes."""
    enemies = [t for p in view["seats"] if p != me for t in threats.units(view, p)]
    used: set[str] = set()
    for target in rng.sample(enemies, len(enemies)):
        here = str(view["tokens"][target]["hex"])
        shooters = [u for u in threats.units(view, me) if u not in used
                    and threats.reaches(view, u, here)]
        if shooters:
            volley: dict[str, Any] = {"target": target, "with": shooters}
            others = [e for e in enemies if e != target]
            if others and rng.random() < 0.3:
                volley["else"] = [rng.choice(others)]
            if _try(body, view, "fire", volley):
                used |= set(shooters)


def sample_orders(view: View, rng: random.Random) -> dict[str, Any] | None:
    """A legal body from ``view`` alone; ``{}`` in the steps before play (the file carries the
    chance contribution only); None when the viewer has no step to order."""
    window = view.get("window") or {}
    if view.get("result") is not None or view.get("viewer") not in (window.get("due") or []):
        return None
    if window.get("kind") in ("setup", "deal"):
        return {}
    me = view["viewer"]
    empire = view["powers"][me]["empire"]
    ships = sorted(k for k, t in view["pack"]["tokens"].items()
                   if t["kind"] == "ship" and t["empire"] in (empire, "generic"))
    if fleet_due(view):  # the starting-fleet step (rules version 3) or the first turn
        return _fleet(view, me, ships, rng)
    body: dict[str, Any] = {}
    if rng.random() < 0.15:
        trial = {"record": {"declare": "economic"}}
        if _ok(trial, view):
            body = trial
    _builds(body, view, me, ships, rng)
    _moves(body, view, me, rng)
    _fire(body, view, me, rng)
    return body
