"""Random legal play of 4000 A.D. (the ``sample_orders`` hook, docs/plugins.md): a body a
player could write from his own view alone: arrivals revealed when due, one departure a turn
(a same-sector journey that arrives at once, or a committed one into hyperspace), and in Wild
Alliance proposals, acceptances and ends of alliances.

The hook has no vault: a committed departure's nonce is derived from the departure itself and
its destination (``_nonce``), and the arrival finds the destination again by trying every star
at the right distance. Anyone can do the same, so these commitments hide nothing: this is play
for the conformance suite and try-outs, never a player's tool (``pbem orders depart`` draws a
fresh secret nonce and keeps it in the vault)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from typing import Any

from pbem.protocol.commitment import commit, opens

from .board import Board, board_of

View = Mapping[str, Any]
NO_DEPARTURE = 0.2   # how often a turn sends no fleet
ALLIANCE = 0.25      # how often a Wild Alliance turn proposes or ends an alliance
ATTACK = 0.5         # how often a departure heads for the nearest star of another power


def _nonce(view: View, warp: str, turn: int, star: str) -> bytes:
    return hashlib.sha256(f"pbem-sample/{view['game_id']}/{view['viewer']}/{warp}/{turn}/"
                          f"{star}".encode()).digest()


def _arrivals(view: View, board: Board, rng: random.Random) -> dict[str, Any]:
    """Each own warp due to arrive: its destination and nonce (committed), or any star at the
    right distance, sometimes, and always before the fleet would be lost (free)."""
    me, out = view["viewer"], {}
    committed = view["options"]["destinations"] == "committed"
    for key, warp in sorted(view["warps"][me].items()):
        if warp is None:
            continue
        nxt = int(warp["travelled"]) + 1
        stars = board.stars_at(warp["sector"], nxt)
        if committed:
            for star in stars:
                nonce = _nonce(view, key, int(warp["departed"]), star).hex()
                if opens(warp["commitment"], view["game_id"], me, int(key),
                         int(warp["departed"]), star, nonce):
                    out[key] = {"arrive": star, "nonce": nonce}
        elif stars and (nxt >= board.furthest(warp["sector"]) or rng.random() < 0.5):
            out[key] = {"arrive": rng.choice(stars)}
    return out


def _destination(view: View, board: Board, origin: str, rng: random.Random) -> str:
    """Half the time the nearest stars another power holds or has ships at (an attack),
    otherwise any star."""
    me = view["viewer"]
    targets = sorted((board.distance(origin, s), s) for s, info in view["stars"].items()
                     if s != origin and (info.get("holder") not in (None, me)
                                         or any(p != me for p in info["ships"])))
    if targets and rng.random() < ATTACK:
        return rng.choice([s for d, s in targets if d == targets[0][0]])
    return rng.choice(sorted(s for s in board.stars if s != origin))


def _departure(view: View, board: Board, arriving: Mapping[str, Any], rng: random.Random
               ) -> dict[str, Any] | None:
    me, turn = view["viewer"], int(view["turn"])
    free = [k for k, w in sorted(view["warps"][me].items()) if w is None or k in arriving]
    origins = sorted(s for s, info in view["stars"].items() if info["ships"].get(me, 0) > 0)
    if not free or not origins or rng.random() < NO_DEPARTURE:
        return None
    key, origin = rng.choice(free), rng.choice(origins)
    here = int(view["stars"][origin]["ships"][me])
    ships: int | str = "all" if rng.random() < 0.15 else rng.randint(1, here)
    dest = _destination(view, board, origin, rng)
    out: dict[str, Any] = {"warp": int(key), "from": origin, "ships": ships}
    if board.stars[dest].sector == board.stars[origin].sector:
        out["to"] = dest
    elif view["options"]["destinations"] == "committed":
        out["commitment"] = commit(view["game_id"], me, int(key), turn, dest,
                                   _nonce(view, key, turn, dest))
    return out


def _alliance(view: View, rng: random.Random) -> dict[str, list[str]] | None:
    """Wild Alliance: accept every proposal made to me, and sometimes propose or end one."""
    me = view["viewer"]
    others = sorted(p for p, info in view["powers"].items()
                    if p != me and info["status"] != "eliminated")
    accept = sorted({a for a, b in view["proposals"] if b == me and a in others})
    allies = sorted({p for a in view["alliances"] if me in a["members"]
                     for p in a["members"] if p != me})
    out: dict[str, list[str]] = {"accept": accept} if accept and rng.random() < 0.7 else {}
    if others and rng.random() < ALLIANCE:
        if allies and rng.random() < 0.3:
            out["end"] = [rng.choice(allies)]
        else:
            out["propose"] = [rng.choice([p for p in others if p not in allies] or others)]
    return out or None


def sample_orders(view: View, rng: random.Random) -> dict[str, Any] | None:
    """A legal order body from ``view`` alone, or None when the viewer has no turn to order."""
    me = view["viewer"]
    if (view.get("result") is not None or me not in view.get("due", [])
            or view["powers"][me]["status"] == "eliminated"):
        return None
    board = board_of(view.get("board"))
    body: dict[str, Any] = {}
    arriving = _arrivals(view, board, rng)
    if arriving:
        body["warps"] = arriving
    depart = _departure(view, board, arriving, rng)
    if depart is not None:
        body["depart"] = depart
    if view["version"] == "wild":
        alliance = _alliance(view, rng)
        if alliance is not None:
            body["alliance"] = alliance
    return body
