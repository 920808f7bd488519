"""Random legal play of Babylon 5 CGS for the property tests: a random order body a player
could write from his own view (starting fleet, builds and repairs, moves and jumps, volleys with
else targets, victory declarations), each entry kept only if the referee's own check
(``normalize_orders`` on that view) accepts the body with it, and whole games played with the
practice chance."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from tests.support.b5cgs_driver import PLUGIN, PracticeChance, hexes, movement, setupmod

threats = __import__("b5cgs.threats", fromlist=["threats"])


def _ok(body: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
    return not PLUGIN.normalize_orders(body, view)[1]


def _try(body: dict[str, Any], view: Mapping[str, Any], section: str, entry: Any,
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


def _units(view: Mapping[str, Any], power: str, kind: str) -> list[str]:
    return [t for t in threats.units(view, power)
            if view["pack"]["tokens"][view["tokens"][t]["type"]]["kind"] == kind]


def _map_hexes(view: Mapping[str, Any]) -> list[str]:
    return sorted(h for s in view["map"]["slots"] for h in s["hexes"])


def random_orders(view: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal body from ``view`` alone (what the player's tool could write)."""
    if (view.get("window") or {}).get("kind") in ("setup", "deal"):
        return {}
    me = view["viewer"]
    body: dict[str, Any] = {}
    empire = view["powers"][me]["empire"]
    ships = sorted(k for k, t in view["pack"]["tokens"].items()
                   if t["kind"] == "ship" and t["empire"] in (empire, "generic"))
    if setupmod.fleet_due(view):  # the starting-fleet step (rules version 3) or first turn
        slot = next(s for s in view["map"]["slots"]
                    if s["slot"] == view["powers"][me]["homeworld_slot"])
        for h in rng.sample(slot["hexes"], len(slot["hexes"])):
            _try(body, view, "start", {"token": rng.choice(ships), "hex": h,
                                       "facing": rng.randint(1, 6)})
        return body
    if rng.random() < 0.15:
        trial = {**body, "record": {"declare": "economic"}}
        if _ok(trial, view):
            body = trial
    # builds: a ship docked to each base, a base in front of each ship, repairs
    for base in _units(view, me, "base"):
        here = hexes.parse(view["tokens"][base]["hex"])
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
    # moves: each ship a random standard move or a jump, or nothing
    for tid in rng.sample(_units(view, me, "ship"), len(_units(view, me, "ship"))):
        if rng.random() < 0.15:
            continue
        options = [{"unit": tid, "to": h, "facing": f, "flip": rng.randint(1, 3)}
                   for (h, f) in movement.standard_moves(view, tid)]
        here = hexes.parse(view["tokens"][tid]["hex"])
        facing = int(view["tokens"][tid]["facing"])
        options += [{"unit": tid, "jump": hexes.key(h), "flip": rng.randint(1, 3)}
                    for h in hexes.forward_arc(here, facing, 3)]
        for entry in rng.sample(options, len(options)):
            if _try(body, view, "move", entry):
                break
    # fire: each enemy unit in reach, with what reaches it, an else target sometimes
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
    return body


def play(variant: str, seed: int, limit: int = 24
         ) -> Iterator[tuple[dict[str, Any], dict[str, Any], dict[str, Any],
                             list[dict[str, Any]]]]:
    """(before, orders, after, events) for every step of a game to its end: the set-up, then
    random legal turns until a victory or ``limit`` steps, when the players agree to end it
    (pbem gm end)."""
    rng = random.Random(seed)
    state = PLUGIN.setup(variant, {"game_id": f"prop-{seed}"})
    for _ in range(limit):
        if PLUGIN.is_over(state):
            return
        orders = {}
        for p in PLUGIN.powers_due(state):
            body = random_orders(PLUGIN.view(state, p), rng)
            norm, problems = PLUGIN.normalize_orders(body, PLUGIN.view(state, p))
            assert problems == [], (body, problems)
            orders[p] = norm
        result = PLUGIN.resolve(json.loads(json.dumps(state)), orders,
                                PracticeChance(f"seed-{seed}", state["turn"]))
        yield state, orders, result.state, result.events
        state = result.state
    if not PLUGIN.is_over(state):
        end = PLUGIN.end_game(state, "agreement")
        yield state, {}, end.state, end.events


UNITS = ("ship", "base")


def check(state: dict) -> None:
    """No Economy Reserve negative, no hex with two units, every token in one place (a hex of
    the map, never Babylon 5's, or its owner's Scrap Yard), no type beyond the pack's count."""
    pack = state["pack"]["tokens"]
    on_map = {h for s in state["map"]["slots"] for h in s["hexes"]}
    b5 = state["map"]["b5_hex"]
    for p, me in state["powers"].items():
        assert isinstance(me["reserve"], int) and me["reserve"] >= 0, (p, me["reserve"])
    seen: dict[str, str] = {}
    counts: dict[str, int] = {}
    for tid, t in state["tokens"].items():
        counts[t["type"]] = counts.get(t["type"], 0) + 1
        if t["hex"] is None:
            assert t["scrap"] and pack[t["type"]].get("upkeep", 0) > 0, (tid, t)
            continue
        assert not t["scrap"], (tid, t)
        assert t["hex"] in on_map and t["hex"] != b5, (tid, t)
        if pack[t["type"]]["kind"] in UNITS:
            assert t["hex"] not in seen, ("two units in", t["hex"], seen.get(t["hex"]), tid)
            seen[t["hex"]] = tid
    for ttype, n in counts.items():
        assert n <= pack[ttype]["count"], (ttype, n)
