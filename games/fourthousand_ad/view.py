"""What one power may see: the only way hidden information leaves a 4000 A.D. state.

Public (the board game shows it to everyone): every star's holder and ships, every warp's
departure star and sector, turns travelled, ships and commitment, production, battles.
Private to the powers concerned: Wild Alliance alliances until their first co-operating action,
alliance proposals, permissions, mutual-withdrawal proposals, votes to end, escrowed reveals,
and events addressed to them. Destinations and nonces are never in the state at all: they live
in each player's vault until the arrival reveals them.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any, NoReturn

from . import production
from .board import Board
from .resolve import due_powers
from .world import World, deadline_turn


@lru_cache(maxsize=16)
def _star_rows(board: Board) -> tuple[tuple[str, dict[str, Any]], ...]:
    """Each star of the board in board order with its view entry as an empty star shows it
    (sector, area, level, resources; no holder, no ships, nobody's home). That part is the same
    for every state and power of a game (the board is immutable), so each view copies a row and
    fills in the star's holder, ships and home instead of reading the board star by star. The
    rows are never handed out, only their copies."""
    return tuple((name, {"sector": star.sector.name, "area": star.sector.area,
                         "level": star.sector.level, "circle": star.circle, "cross": star.cross,
                         "holder": None, "ships": {}, "home_of": None})
                 for name, star in board.stars.items())


class Shared(dict[str, Any]):
    """A part of a view that every view of equal public data holds as the same object (the
    stars: one object for a resolution's reports and the game master's public view), so the
    renderer encodes it once for their view.json (pbem.render.cache) and the presenter draws
    it once (starmap). Views are never written to (docs/plugins.md); this one refuses it, so
    no code can change another power's view, or a later one, through it. A copy (``dict``,
    ``copy``, ``deepcopy``, pickle) is a plain dict, free to change."""

    __slots__ = ()

    def _refuse(self, *_: Any, **__: Any) -> NoReturn:
        raise TypeError("a view's stars are shared by every view of them: copy a view to "
                        "change it (docs/plugins.md: views are never written to)")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return copy.deepcopy(dict(self), memo)

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))


_NO_SHIPS = Shared()

#: The board, the key of the stars' holders, ships and homes, and the ``stars`` made from them
#: last (``_stars``).
_LAST_STARS: list[Any] = [None, None, None]


def _stars(board: Board, held_stars: dict[str, Any], homes: dict[str, str]) -> Shared:
    """The view's ``stars``: every star of the board with its holder, ships and home. Public
    (the same for every power, ``None`` included) and made from the state's holders, ships and
    homes alone, so the views of equal stars share one (``Shared``) object: made again only when
    those differ from the last ones (compared by value, so a state changed in place is never
    answered from an older one)."""
    key = (tuple((name, entry.get("holder"), tuple(entry.get("ships", {}).items()))
                 for name, entry in held_stars.items()), tuple(homes.items()))
    last = _LAST_STARS
    if last[0] is board and last[1] == key:
        return last[2]  # type: ignore[no-any-return]
    stars = {}
    for name, blank in _star_rows(board):
        row = blank.copy()
        entry = held_stars.get(name)
        row["ships"] = _NO_SHIPS
        if entry:
            row["holder"] = entry.get("holder")
            ships = entry.get("ships", {})  # by power (one power or none needs no sorting)
            if ships:
                row["ships"] = Shared(sorted(ships.items()) if len(ships) > 1 else ships)
        if name in homes:
            row["home_of"] = homes[name]
        stars[name] = Shared(row)
    made = Shared(stars)
    last[:] = [board, key, made]  # held: the board's id is not reused while remembered
    return made


def view(state: dict[str, Any], power: str | None) -> dict[str, Any]:
    w = World(state, copy=False)  # read only: nothing below writes to the state
    board = w.board
    variant = w.variant
    if power is not None and power not in state["powers"]:
        raise ValueError(f"no power {power!r} in this game")

    def sees(members: list[str], public: bool) -> bool:
        return public or (power is not None and power in members)

    homes = {info["home"]: p for p, info in state["powers"].items()}
    stars = _stars(board, state["stars"], homes)
    warps: dict[str, Any] = {}
    for owner, slots in state["warps"].items():
        warps[owner] = {}
        for key, warp in slots.items():
            if warp is None:
                warps[owner][key] = None
                continue
            reach = board.furthest(warp["sector"])
            nxt = warp["travelled"] + 1
            shown = {
                "from": warp["from"],
                "sector": warp["sector"],
                "departed": warp["departed"],
                "travelled": warp["travelled"],
                "ships": dict(warp["ships"]),
                "ships_total": sum(warp["ships"].values()),
                "commitment": warp["commitment"],
                "furthest": reach,
                "next_distance": nxt,
                "could_arrive_next": board.stars_at(warp["sector"], nxt) if nxt <= reach else [],
                "lost_if_not_arriving": nxt >= reach,
                # held in hyperspace at its revealed committed star: can never arrive (R13)
                "doomed": warp.get("doomed"),
            }
            if owner == power:
                shown["escrow"] = warp.get("escrow")
            warps[owner][key] = shown
    totals: dict[str, int] = {}
    held: dict[str, list[str]] = {}
    for name, entry in state["stars"].items():
        for p, n in entry["ships"].items():
            totals[p] = totals.get(p, 0) + n
        if entry["holder"] is not None:
            held.setdefault(entry["holder"], []).append(name)
    for slots in state["warps"].values():
        for warp in slots.values():
            if warp is not None:
                for p, n in warp["ships"].items():
                    totals[p] = totals.get(p, 0) + n
    powers = {}
    for p, info in state["powers"].items():
        entry = {
            "home": info["home"],
            "colour": info["colour"],
            "status": info["status"],
            "home_holder": (state["stars"].get(info["home"]) or {}).get("holder"),
            "ships": totals.get(p, 0),
            "stars_held": sorted(held.get(p, [])),
            "warps_in_flight": sum(1 for x in state["warps"][p].values() if x is not None),
            "home_lost": info["home_lost"],
            # the round by whose end (its own turn) it must have regained its home (R23)
            "home_deadline": (
                deadline_turn(state["options"]["mode"], state["slots"], p,
                              info["home_lost"]["turn"], info["home_lost"]["slot"])
                if info["home_lost"] and state["version"] != "alliances" else None
            ),
        }
        if p == power:
            entry["vote_end"] = info["vote_end"]
        if sees([p, *info["permit_home"], *info["permit_lend"]], False):
            entry["permit_home"] = list(info["permit_home"])
            entry["permit_lend"] = list(info["permit_lend"])
        powers[p] = entry
    out: dict[str, Any] = {
        "game": state["game"],
        "game_id": state["game_id"],
        "variant": state["variant"],
        "variant_title": variant.title,
        "version": state["version"],
        "options": dict(state["options"]),
        "viewer": power,
        "turn": state["turn"],
        "slot": state["slot"],
        "slots": state["slots"],
        "due": due_powers(state),
        "production_turn": production.is_production_turn(state["options"], state["turn"]),
        "next_production_turn": production.next_production_turn(
            state["options"], state["turn"]
        ),
        "powers": powers,
        "alliances": [
            {"members": list(a["members"]), "public": a["public"], "since": a["since"]}
            for a in state["alliances"]
            if sees(a["members"], a["public"])
        ],
        "proposals": [pr for pr in state["proposals"] if sees(pr, False)],
        "withdrawals": [
            {**d, "answer_turn": deadline_turn(state["options"]["mode"], state["slots"],
                                               d["to"], d["turn"], d.get("slot", -1))}
            for d in state["withdrawals"] if sees([d["from"], d["to"]], False)
        ],
        "stars": stars,
        "warps": warps,
        "result": state["result"],
        "board_reconstruction": board.reconstruction,
        # the board the game is played on, so the player's tool reads no host file (public)
        "board": state.get("board"),
    }
    if power is not None:
        counted = circles, crosses, sources = production.resources(w, power)
        out["forecast"] = {
            "turn": production.next_production_turn(state["options"], state["turn"]),
            "circles": circles,
            "crosses": crosses,
            "stars": sources,
            "ships": production.forecast(w, power, counted),
        }
    return out



def order_view(state: dict[str, Any], power: str) -> dict[str, Any]:
    """What ``orders.normalize_orders`` reads of ``view(state, power)``, and only that: the
    engine checks orders against it (pbem.game.views), so the audit and acceptance do not build
    the whole report view (every warp's reach, every power's totals) to check one order file.
    The same values as the view's fields of the same names: the viewer's own warps, the ships
    at every star someone is at, the powers (their order, status and home), the alliances it
    sees, and the forecast's ships on a production turn (the only turn the check reads it).
    It holds nothing the power may not see, and shares the state's values (read only)."""
    if power not in state["powers"]:
        raise ValueError(f"no power {power!r} in this game")
    out: dict[str, Any] = {
        "game_id": state["game_id"],
        "version": state["version"],
        "options": state["options"],
        "viewer": power,
        "due": due_powers(state),
        "production_turn": production.is_production_turn(state["options"], state["turn"]),
        "powers": {p: {"home": info["home"], "status": info["status"]}
                   for p, info in state["powers"].items()},
        "alliances": [{"members": list(a["members"]), "public": a["public"],
                       "since": a["since"]}
                      for a in state["alliances"] if a["public"] or power in a["members"]],
        "stars": state["stars"],  # the stars someone is at, each with its ships
        "warps": {power: state["warps"][power]},  # its own: from, sector, ships, commitment…
        "result": state["result"],
        "board": state.get("board"),
    }
    if out["production_turn"]:
        out["forecast"] = {"ships": production.forecast(World(state, copy=False), power)}
    return out
