"""``make demo GAME=b5cgs``: a three-player game of Babylon 5 CGS, played by email.

As the other demos (pbem.game.demo holds the kit): each player has an Ed25519 key and a vault
(which keeps his fair-chance seed), writes orders with the player's tool from the view.json of
his last mail (``pbem orders new/b5/check/sign``) and mails them into the referee's Maildir; the
referee's cron job (``pbem ingest`` + ``pbem run``) takes every player's chance tip in the
set-up step (which draws nothing), deals the map pieces face down in the next step from every
player's value (a secret draw nobody sees), rolls the first player in public, takes each player's
starting fleet in the order of play (one step each, C4.3), and then resolves one player's turn
per step, rolling every die (damage indicators, Long Range Support, Defense Grid)
from the committed chance, and mails reports with the hex map.

The players' choices are scripted from their views (the deal is fair, so the map cannot be
scripted in advance): in his starting-fleet step each buys a jump-capable warship and a
transport for his homeworld (C4.3), on his third builds his cheapest ship docked to a base
(D3.24), and each turn every ship heads for Babylon 5 at the centre, one standard move, and
every unit fires at the enemy unit its weapons reach. After four rounds (more, up to ten, until
the fleets have met: the map is dealt fairly) the game master ends the game by agreement.
The log is exported and audited: every die and the deal are replayed.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from pbem.game.demo import latest_views, players, start_game

from . import hexes as hx
from . import threats
from .orders import normalize_orders
from .setup import fleet_due

GAME = "b5cgs"
VARIANT = "basic-3"
ROUNDS = 4
#: The deal is fair, so the map differs every game: when the fleets have not met after
#: ROUNDS rounds (no volley fired yet), the demo plays on, up to this many rounds.
MAX_ROUNDS = 10


def _hex(name: Any) -> tuple[int, int]:
    found = hx.parse(name)
    if found is None:
        raise SystemExit(f"demo: {name!r} is not a hex")
    return found


def _free(view: dict[str, Any], name: str) -> bool:
    """A hex on the map, not Babylon 5's and with no unit in it."""
    on_map = any(name in s["hexes"] for s in view["map"]["slots"])
    taken = {str(t["hex"]) for t in view["tokens"].values() if t.get("hex") is not None}
    return on_map and name != view["map"].get("b5_hex") and name not in taken


def start_fleet(view: dict[str, Any]) -> list[str]:
    """``--start`` items: the dearest jump-capable ship the Reserve allows, then a transport,
    on free hexes of the homeworld piece, facing Babylon 5."""
    me = view["viewer"]
    info = view["powers"][me]
    empire = info["empire"]
    slot = next(s for s in view["map"]["slots"] if s["slot"] == info["homeworld_slot"])
    free = [h for h in slot["hexes"] if _free(view, h)]
    tokens = view["pack"]["tokens"]
    ships = [(k, t) for k, t in sorted(tokens.items())
             if t.get("kind") == "ship" and t.get("empire") == empire]
    budget = int(info["reserve"])
    picks: list[str] = []
    jumpers = sorted((t["build"] - t.get("upkeep", 0), k) for k, t in ships
                     if (t.get("jump") or [False])[0])
    haulers = sorted((t["build"] - t.get("upkeep", 0), k) for k, t in ships
                     if "transport" in str(t.get("hull", "")))
    for cost, k in [*jumpers[-1:], *haulers[:1]]:
        if cost <= budget and free:
            budget -= cost
            picks.append(k)
    centre = _hex(view["map"].get("b5_hex") or "0,0")
    out = []
    for k, h in zip(picks, sorted(free, key=lambda h: hx.distance(_hex(h), centre)),
                    strict=False):
        here = _hex(h)
        facing = min(range(1, 7), key=lambda d: hx.distance(hx.neighbour(here, d), centre))
        out.append(f"{k}@{h}/{facing}")
    return out


def moves(view: dict[str, Any], taken: set[str] | None = None) -> list[str]:
    """``--move`` items: each ship one step towards Babylon 5 (forward, or turn 60 degrees and
    forward), into a free hex; none if no step gets closer."""
    me = view["viewer"]
    centre = _hex(view["map"].get("b5_hex") or "0,0")
    taken = set(taken or ())
    out = []
    for tid, t in sorted(view["tokens"].items()):
        if t.get("owner") != me or t.get("hex") is None or t.get("crippled"):
            continue
        if view["pack"]["tokens"][t["type"]].get("kind") != "ship":
            continue
        here, facing = _hex(t["hex"]), int(t["facing"])
        best = None
        for f in (facing, hx.turn(facing, 1), hx.turn(facing, -1)):
            to = hx.neighbour(here, f)
            name = hx.key(to)
            closer = hx.distance(to, centre) < hx.distance(here, centre)
            if closer and _free(view, name) and name not in taken:
                best = (name, f)
                break
        if best:
            taken.add(best[0])
            out.append(f"{tid}@{best[0]}/{best[1]}")
    return out


def _fired(game: Any) -> bool:
    """Whether a volley was fired in the game so far (its log's resolutions)."""
    for line in (game / "log.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry.get("kind") == "resolve" and any(
                e.get("type") == "volley" for e in entry["body"].get("events", [])):
            return True
    return False


def volleys(view: dict[str, Any]) -> list[str]:
    """``--fire`` items: each enemy unit my units reach, with every unit that reaches it."""
    me = view["viewer"]
    used: set[str] = set()
    out = []
    for p in view["seats"]:
        if p == me:
            continue
        for target in threats.units(view, p):
            here = str(view["tokens"][target]["hex"])
            shooters = [u for u in threats.units(view, me)
                        if u not in used and threats.reaches(view, u, here)]
            if shooters:
                used |= set(shooters)
                out.append(f"{target}={','.join(shooters)}")
    return out


def builds(view: dict[str, Any]) -> list[str]:
    """``--build`` items: on a player's third turn, his cheapest ship docked to his first base
    (D3.24: an unoccupied hex next to the base, facing it), if the referee's check allows it."""
    me = view["viewer"]
    if view["powers"][me]["turns"] != 2:
        return []
    empire = view["powers"][me]["empire"]
    cheapest = min((t["build"], k) for k, t in view["pack"]["tokens"].items()
                   if t.get("kind") == "ship" and t.get("empire") == empire)[1]
    for base in threats.units(view, me):
        if view["pack"]["tokens"][view["tokens"][base]["type"]].get("kind") != "base":
            continue
        for to in hx.neighbours(_hex(view["tokens"][base]["hex"])):
            entry = {"token": cheapest, "hex": hx.key(to), "by": base}
            if _free(view, hx.key(to)) and not normalize_orders(
                    {"allocate": {"build": [entry]}}, view)[1]:
                return [f"{cheapest}@{hx.key(to)}/{base}"]
    return []


def flags(view: dict[str, Any]) -> list[str]:
    """The ``pbem orders b5`` options for this player's turn."""
    out: list[str] = []
    if fleet_due(view):  # the starting-fleet step (rules version 3) or the first turn
        fleet = start_fleet(view)
        if fleet:
            out += ["--start", *fleet]
        return out
    new = builds(view)
    if new:
        out += ["--build", *new]
    step = moves(view, {b.split("@")[1].split("/")[0] for b in new})
    if step:
        out += ["--move", *step]
    shots = volleys(view)
    if shots:
        out += ["--fire", *shots]
    return out


def main() -> int:
    powers = players(GAME, VARIANT)
    print("== keys for every player, and a new game of Babylon 5 CGS")
    table = start_game("b5-1", GAME, VARIANT, powers, "B5 referee")
    hour = 0.0
    for step in range(1 + (MAX_ROUNDS + 1) * len(powers)):
        if step > (ROUNDS + 1) * len(powers) and _fired(table.game):
            break  # four rounds played, and the fleets have met
        views = latest_views(table.root, powers)
        due = [p for p in powers if p in ((views[p].get("window") or {}).get("due") or [])]
        if not due:
            break
        kind = (views[due[0]].get("window") or {}).get("kind")
        print("== set-up: every player commits his chance tip" if kind == "setup" else
              "== the deal: every player reveals his first chance value" if kind == "deal"
              else f"== step {step}: {', '.join(due)} places the starting fleet (C4.3)"
              if kind == "fleet" else f"== step {step}: {', '.join(due)} plays a turn")
        for power in due:
            playing = views[power].get("phase") in ("play", "fleet")
            table.orders(power, f"step-{step}", "b5", flags(views[power]) if playing else [])
        hour += 2
        table.cron(hour - 1.5, hour - 1)
    return table.finish(hour + 1, powers[0], "resolved",
                        audited=": every die and the deal are replayed")


if __name__ == "__main__":
    sys.exit(main())
