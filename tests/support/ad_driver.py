"""A small table for playing 4000 A.D. in tests through the real plugin: orders are checked with
``normalize_orders`` against each power's view, departures get real commitments and the driver
keeps each power's vault to reveal arrivals when they fall due."""

from __future__ import annotations

import hashlib
import importlib
import json
import random
from typing import Any

from pbem import canonical
from pbem.game import registry
from pbem.protocol.commitment import commit

AD = registry.load("4000ad")


def ad_module(name: str):
    """A submodule of the 4000 A.D. plugin package (e.g. "board", "rules")."""
    registry.load("4000ad")
    return importlib.import_module(f"{registry.module_name('4000ad')}.{name}")


def nonce_for(power: str, warp: int, turn: int) -> bytes:
    return hashlib.sha256(f"test-nonce/{power}/{warp}/{turn}".encode()).digest()


class Table:
    def __init__(self, variant: str = "independents-4", **options: Any) -> None:
        self.state: dict[str, Any] = AD.setup(variant, {"game_id": "test-game", **options})
        # (power, warp, departure turn) -> (star, nonce), as a player's vault keeps them
        self.vault: dict[tuple[str, str, int], tuple[str, str]] = {}
        self.events: list[dict[str, Any]] = []
        self.last: list[dict[str, Any]] = []

    # -- set-up surgery (tests only) -------------------------------------------------------
    def put(self, star: str, power: str, ships: int, holder: str | None = "same") -> Table:
        """Place ``ships`` of ``power`` at ``star`` (replacing what that power had there)."""
        s = json.loads(json.dumps(self.state))
        entry = s["stars"].setdefault(star, {"holder": None, "ships": {}, "arrived": []})
        before = entry["ships"].get(power, 0)
        if ships:
            entry["ships"][power] = ships
            if power not in entry["arrived"]:
                entry["arrived"].append(power)
        else:
            entry["ships"].pop(power, None)
            if power in entry["arrived"]:
                entry["arrived"].remove(power)
        entry["holder"] = power if holder == "same" else holder
        if not entry["ships"] and entry["holder"] is None:
            del s["stars"][star]
        s["tally"]["initial"][power] = s["tally"]["initial"].get(power, 0) + ships - before
        self.state = s
        return self

    def set(self, path: str, value: Any) -> Table:
        s = json.loads(json.dumps(self.state))
        node = s
        keys = path.split(".")
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
        self.state = s
        return self

    # -- orders ----------------------------------------------------------------------------
    def view(self, power: str | None) -> dict[str, Any]:
        return AD.view(self.state, power)

    def free_warp(self, power: str, arriving: set[str]) -> str:
        warps = self.state["warps"][power]
        for key in sorted(warps):
            if warps[key] is None or key in arriving:
                return key
        raise AssertionError(f"{power} has no free warp")

    def due_reveals(self, power: str) -> dict[str, Any]:
        out = {}
        committed = self.state["options"]["destinations"] == "committed"
        for key, warp in self.state["warps"][power].items():
            if warp is None or (power, key, warp["departed"]) not in self.vault:
                continue
            star, nonce = self.vault[(power, key, warp["departed"])]
            if AD.board.distance(warp["from"], star) == warp["travelled"] + 1:
                out[key] = {"arrive": star, "nonce": nonce} if committed else {"arrive": star}
        return out

    def body(
        self,
        power: str,
        depart: tuple[str, int | str, str] | None = None,
        *,
        reveal: bool = True,
        warp: int | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        """Orders for ``power``: due arrivals revealed from the vault, and a departure
        (from, ships, destination) committed for a free warp."""
        body: dict[str, Any] = dict(extra)
        arrivals = self.due_reveals(power) if reveal else {}
        if arrivals:
            body["warps"] = {**arrivals, **body.get("warps", {})}
        if depart:
            origin, ships, dest = depart
            key = str(warp) if warp else self.free_warp(power, set(arrivals))
            d: dict[str, Any] = {"warp": int(key), "from": origin, "ships": ships}
            if AD.board.distance(origin, dest) == 1:
                d["to"] = dest
            elif self.state["options"]["destinations"] == "committed":
                nonce = nonce_for(power, int(key), self.state["turn"])
                d["commitment"] = commit("test-game", power, int(key), self.state["turn"],
                                         AD.board.lookup(dest).name, nonce)
                self.vault[(power, key, self.state["turn"])] = (
                    AD.board.lookup(dest).name, nonce.hex())
            else:
                self.vault[(power, key, self.state["turn"])] = (AD.board.lookup(dest).name, "")
            body["depart"] = {**d, **body.get("depart", {})}
        return body

    def check(self, power: str, body: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
        return AD.normalize_orders(body, self.view(power))

    def play(self, **bodies: dict[str, Any]) -> list[dict[str, Any]]:
        """Resolve the next unit of play; every due power without a body gets its reveals."""
        orders = {}
        for power in AD.powers_due(self.state):
            body = bodies.get(power)
            if body is None:
                body = self.body(power)
            norm, problems = self.check(power, body)
            assert not problems, [str(p) for p in problems]
            orders[power] = norm
        before = canonical.encode(self.state)
        result = AD.resolve(self.state, orders)
        assert canonical.encode(self.state) == before, "resolve mutated its input"
        self.state = result.state
        self.last = result.events
        self.events += result.events
        return result.events

    def play_raw(self, orders: dict[str, Any]) -> list[dict[str, Any]]:
        result = AD.resolve(self.state, orders)
        self.state = result.state
        self.last = result.events
        self.events += result.events
        return result.events

    # -- reading -----------------------------------------------------------------------------
    def ships(self, star: str) -> dict[str, int]:
        return dict(self.state["stars"].get(star, {}).get("ships", {}))

    def holder(self, star: str) -> str | None:
        return self.state["stars"].get(star, {}).get("holder")

    def of(self, kind: str, events: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        return [e for e in (self.last if events is None else events) if e["type"] == kind]


def random_body(t: Table, power: str, rng: random.Random) -> dict:
    view = t.view(power)
    arrivals = t.due_reveals(power)
    body: dict = {}
    if arrivals:
        for order in arrivals.values():
            tie = rng.choice([None, "stay", "divert"])
            if tie:
                order["on_tie"] = tie
        body["warps"] = arrivals
    mine = [name for name, s in view["stars"].items() if s["ships"].get(power)]
    free = [k for k, w in t.state["warps"][power].items() if w is None or k in arrivals]
    if mine and free and rng.random() < 0.7:
        origin = rng.choice(mine)
        dest = rng.choice(list(AD.board.stars))
        have = view["stars"][origin]["ships"][power]
        ships = "all" if rng.random() < 0.3 else rng.randint(1, have)
        vault = dict(t.vault)
        candidate = t.body(power, (origin, ships, dest), reveal=False,
                           warp=int(free[0]), **({"warps": arrivals} if arrivals else {}))
        _, problems = t.check(power, candidate)
        if problems:
            t.vault = vault  # the departure is not made: keep what the vault held
        else:
            body = candidate
    if view["version"] == "wild" and rng.random() < 0.1:
        other = rng.choice([p for p in view["powers"] if p != power])
        body["alliance"] = {rng.choice(["propose", "accept", "end"]): [other]}
    if view["version"] != "alliances" and rng.random() < 0.05:
        body["withdraw"] = rng.choice([p for p in view["powers"] if p != power])
    if rng.random() < 0.05:
        body["vote_end"] = True
    if view["version"] != "alliances" and rng.random() < 0.02:
        body["concede"] = True  # fleets in flight come out where surrender: says (R16)
    surrender = {k: rng.choice(w["could_arrive_next"]) for k, w in view["warps"][power].items()
                 if w and w["could_arrive_next"] and rng.random() < 0.5}
    if surrender:
        body["surrender"] = surrender
    return body


def conserved(state: dict) -> bool:
    """Every ship made is at a star, in a warp, destroyed or lost."""
    tally = state["tally"]
    made = sum(tally["initial"].values()) + sum(tally["produced"].values())
    at_stars = sum(n for s in state["stars"].values() for n in s["ships"].values())
    in_warps = sum(n for ws in state["warps"].values() for w in ws.values() if w
                   for n in w["ships"].values())
    gone = sum(tally["destroyed"].values()) + sum(tally["lost"].values())
    return made == at_stars + in_warps + gone
