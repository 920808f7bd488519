"""The 4000 A.D. order body: checking it against the power's view and normalising it
(docs/protocol.md, "The orders of 4000 A.D.").

Runs on the player's machine (``pbem orders check``) and at the referee's on receipt, on the
same view, so both give the same verdict. Every problem is reported, each with its field path
and a plain sentence; the file is rejected whole if there is any.

Size: the check of 4000 A.D.'s order body, one function per field of the body (warps,
departures, alliances, surrender) sharing one problem collector; it mirrors docs/protocol.md
section by section.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbem.errors import Problem
from pbem.game.checker import Checker, did_you_mean, kind, show, word
from pbem.protocol.commitment import is_hex64, opens

from .board import Board, Star, UnknownStar, board_of

MAX_SHIPS = 100_000
MAX_ALTERNATIVES = 5
TOP_KEYS = ("warps", "depart", "permit", "resources", "alliance", "withdraw", "surrender",
            "concede", "vote_end")
ARRIVE_KEYS = ("arrive", "nonce", "on_tie")
# What a tied (or refused) arrival does (ruling R13): stay in hyperspace, or come out at the
# other star of the sector. Without on_tie: divert unless the fleet would lose there, then stay.
ON_TIE = ("stay", "divert")
DEPART_KEYS = ("warp", "from", "ships", "commitment", "with", "escrow", "to", "else")


def default_orders() -> dict[str, Any]:
    """Standing orders (no orders received): every warp continues, no departure, nothing else
    changes."""
    return {
        "arrive": {},
        "depart": [],
        "permit": None,
        "resources": [],
        "alliance": {"propose": [], "accept": [], "end": []},
        "withdraw": None,
        "surrender": {},
        "concede": False,
        "vote_end": None,
    }


def nmr_orders(
    state: Mapping[str, Any],
    power: str,
    open_escrow: Callable[[str, str, int], tuple[str, str] | None] | None,
    board: Board | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Standing orders for a power that sent none, with escrowed reveals that fall due."""
    out = default_orders()
    opened: dict[str, Any] = {}
    if open_escrow is None or state["options"]["destinations"] != "committed":
        return out, opened
    board = board or board_of(state.get("board"))
    for key, warp in sorted(state["warps"][power].items()):
        if warp is None or not warp.get("escrow"):
            continue
        revealed = open_escrow(key, warp["escrow"], warp["departed"])
        if revealed is None:
            continue
        destination, nonce = revealed
        star = _board_star(board, destination)
        if star is None:
            # Refused when opened (ruling R14): the fleet has no valid reveal and keeps
            # travelling. The text is the player's, not a star: neither it nor its nonce is
            # recorded, so no log, export, archive or mail can carry it (every one says "an
            # invalid destination"), and the audit re-derives this same record from the log.
            opened[key] = {"value": None, "nonce": None, "used": False}
            continue
        due = board.sector_distance(board.sector(warp["sector"]), star.sector) == (
            warp["travelled"] + 1
        )
        valid = opens(warp["commitment"], state["game_id"], power, int(key), warp["departed"],
                      star.name, nonce)
        used = due and valid
        opened[key] = {"value": star.name, "nonce": nonce, "used": used}
        if used:
            out["arrive"][key] = {"star": star.name, "nonce": nonce}
    return out, opened


def _board_star(board: Board, destination: Any) -> Star | None:
    """The star of the board an escrowed destination names, or None: the text a player sealed
    is checked here, the only place it is read (None as recorded for one already refused)."""
    if not isinstance(destination, str):
        return None
    try:
        return board.lookup(destination)
    except UnknownStar:
        return None


class _Checker(Checker):
    """pbem's problem collector with 4000 A.D.'s own checks: stars, powers, warps, ships."""

    def __init__(self, view: Mapping[str, Any], board: Board) -> None:
        super().__init__()
        self.view = view
        self.board = board
        self.me: str = view["viewer"]
        self.powers = list(view["powers"])

    def star(self, value: Any, path: str) -> str | None:
        if not isinstance(value, str):
            self.bad("type", path, f"expected a star name, got {kind(value)} "
                         "(quote star names that look like numbers or yes/no)")
            return None
        try:
            return self.board.lookup(value).name
        except UnknownStar as exc:
            self.bad("unknown-star", path, str(exc))
            return None

    def power(self, value: Any, path: str, *, ally: bool = False) -> str | None:
        if not isinstance(value, str) or value.lower() not in self.powers:
            hint = did_you_mean(word(value).lower(), self.powers)
            names = ", ".join(self.powers)
            self.bad("unknown-power", path,
                         f"no power {show(value)} in this game{hint} (powers: {names})")
            return None
        p = value.lower()
        if p == self.me:
            self.bad("self", path, "that is you")
            return None
        if ally and not self._allied(p):
            self.bad("not-ally", path, f"{p} is not your ally")
            return None
        return p

    def power_list(self, value: Any, path: str, *, ally: bool = False) -> list[str]:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            self.bad("type", path, f"expected a list of powers, got {kind(value)}")
            return []
        out = []
        for i, item in enumerate(value):
            p = self.power(item, f"{path}[{i}]", ally=ally)
            if p and p not in out:
                out.append(p)
        return out

    def _allied(self, other: str) -> bool:
        return any(self.me in a["members"] and other in a["members"]
                   for a in self.view["alliances"])

    def warp_number(self, value: Any, path: str) -> str | None:
        warps = self.view["warps"][self.me]
        number = self.whole(value, path, code="warp", low=1, high=99, as_text=True,
                            say=lambda v: f"no warp {show(v)}: your warps are "
                            f"{', '.join(sorted(warps))}")
        if number is not None and str(number) not in warps:
            self.bad("warp", path, f"no warp {show(value)}: your warps are "
                     f"{', '.join(sorted(warps))}")
            return None
        return None if number is None else str(number)

    def ships(self, value: Any, path: str) -> int | str | None:
        if value == "all":
            return "all"
        if isinstance(value, bool) or not isinstance(value, int):
            self.bad("ships", path, f'expected a whole number of ships or "all", '
                         f"got {kind(value)}")
            return None
        if value < 1:
            self.bad("ships", path, f"a departure needs at least 1 ship, not {value}")
            return None
        if value > MAX_SHIPS:
            shown = value if value.bit_length() < 64 else "that many"  # str() of a huge int raises
            self.bad("ships", path, f"{shown} ships is more than any fleet can hold")
            return None
        return value


def normalize_orders(
    body: Mapping[str, Any], view: Mapping[str, Any], board: Board | None = None
) -> tuple[dict[str, Any], list[Problem]]:
    """Check ``body`` (the ``orders:`` mapping) against ``view`` (the ordering power's view) and
    return (normalised orders, every problem found)."""
    c = _Checker(view, board or board_of(view.get("board")))
    out = default_orders()
    if body is None:
        body = {}
    if not isinstance(body, Mapping):
        c.bad("type", "", f"orders must be a mapping, got {kind(body)}")
        return out, c.problems
    if view.get("result") is not None:
        c.bad("game-over", "", "the game is over: no more orders are taken")
    if view["powers"].get(c.me, {}).get("status") == "eliminated":
        c.bad("eliminated", "", f"{c.me} was eliminated: no more orders are taken from it")
    elif c.me not in view.get("due", []):
        c.bad("not-due", "", f"{c.me} has no turn to order now "
                  f"(waiting for {', '.join(view.get('due', [])) or 'nobody'})")
    c.unknown_keys(body, TOP_KEYS, "", code="unknown-key",
                   say=lambda key, hint: f"unknown order {show(key)}{hint}")
    arriving = _warps(c, body.get("warps"), out)
    if "depart" in body:
        out["depart"] = _departures(c, body["depart"], arriving)
    if "permit" in body:
        permit = body["permit"]
        if not isinstance(permit, Mapping):
            c.bad("type", "permit", f"expected a mapping with home and/or lend, got "
                      f"{kind(permit)}")
        else:
            out["permit"] = {}
            c.unknown_keys(permit, ("home", "lend"), "permit", code="unknown-key",
                           say=lambda key, hint: f"unknown permission {show(key)}{hint}")
            for which, value in permit.items():
                if which in ("home", "lend"):
                    out["permit"][which] = c.power_list(value, f"permit.{which}")
    if "resources" in body:
        out["resources"] = _resources(c, body["resources"])
    if "alliance" in body:
        out["alliance"] = _alliance(c, body["alliance"])
    if "withdraw" in body and body["withdraw"] is not None:
        if view["version"] == "alliances":
            c.bad("variant", "withdraw", "mutual withdrawal exists only in Independents and "
                      "Wild Alliance")
        else:
            out["withdraw"] = c.power(body["withdraw"], "withdraw")
    if "surrender" in body:
        out["surrender"] = _surrender(c, body["surrender"])
    for flag in ("concede", "vote_end"):
        if flag in body:
            if not isinstance(body[flag], bool):
                c.bad("type", flag, f"expected true or false, got {kind(body[flag])}")
            else:
                out[flag] = body[flag]
    return out, c.problems


def _unknown_key(key: object, hint: str) -> str:
    return f"unknown key {show(key)}{hint}"


def _warps(c: _Checker, warps: Any, out: dict[str, Any]) -> dict[str, str]:
    """Arrival reveals; returns warp -> star for the warps arriving this turn."""
    arriving: dict[str, str] = {}
    if warps is None:
        return arriving
    if not isinstance(warps, Mapping):
        c.bad("type", "warps", f"expected a mapping of warp number to continue or arrive, "
                  f"got {kind(warps)}")
        return arriving
    mine = c.view["warps"][c.me]
    committed = c.view["options"]["destinations"] == "committed"
    for raw_key, order in warps.items():
        path = f"warps[{word(raw_key)}]"
        key = c.warp_number(raw_key, path)
        if key is None:
            continue
        if key in arriving or (key in out["arrive"]):
            c.bad("duplicate", path, f"warp {key} is listed twice")
            continue
        warp = mine[key]
        if order == "continue" or order is None:
            if warp is None:
                c.bad("not-in-flight", path, f"warp {key} is not in hyperspace")
            continue
        if not isinstance(order, Mapping):
            c.bad("type", path, f'expected "continue" or {{arrive: STAR, nonce: …}}, got '
                      f"{kind(order)}")
            continue
        c.unknown_keys(order, ARRIVE_KEYS, path, code="unknown-key", say=_unknown_key)
        if warp is None:
            c.bad("not-in-flight", path, f"warp {key} is not in hyperspace: nothing can "
                      "arrive")
            continue
        star = c.star(order.get("arrive"), f"{path}.arrive")
        if star is None:
            continue
        nxt = warp["travelled"] + 1
        distance = c.board.sector_distance(c.board.sector(warp["sector"]),
                                           c.board.stars[star].sector)
        if distance != nxt:
            c.bad("distance", f"{path}.arrive",
                      f"{star} is {distance} turns from {warp['sector']}, but warp {key} will "
                      f"have travelled {nxt} this turn: it can only come out at a star {nxt} "
                      f"turns from {warp['sector']}")
            continue
        on_tie = order.get("on_tie")
        if on_tie is not None and on_tie not in ON_TIE:
            c.bad("on_tie", f"{path}.on_tie",
                      f"on_tie is stay or divert, not {show(on_tie)}")
            continue
        nonce = order.get("nonce")
        if committed:
            if not is_hex64(nonce):
                c.bad("nonce", f"{path}.nonce",
                          "the nonce must be the 64 hex digits kept in your vault")
                continue
            if not opens(warp["commitment"], c.view["game_id"], c.me, int(key),
                         warp["departed"], star, str(nonce)):
                c.bad("commitment", f"{path}.nonce",
                          f"{star} and this nonce do not open the commitment made on turn "
                          f"{warp['departed']}")
                continue
        elif nonce is not None:
            c.bad("nonce", f"{path}.nonce", "this game has free destinations: no nonce")
            continue
        arriving[key] = star
        out["arrive"][key] = {"star": star, "nonce": nonce if committed else None}
        if on_tie is not None:
            out["arrive"][key]["on_tie"] = on_tie
    return arriving


def _departures(c: _Checker, depart: Any, arriving: dict[str, str]) -> list[dict[str, Any]]:
    if depart is None:
        return []
    if isinstance(depart, list):
        c.bad("two-departures", "depart", "only one departure a turn: give alternatives "
                  "under else: inside the one departure")
        return []
    if not isinstance(depart, Mapping):
        c.bad("type", "depart", f"expected a mapping, got {kind(depart)}")
        return []
    alternatives = [("depart", depart)]
    extra = depart.get("else", [])
    if extra is None:
        extra = []
    if not isinstance(extra, list):
        c.bad("type", "depart.else", f"expected a list of departures, got {kind(extra)}")
        extra = []
    if len(extra) > MAX_ALTERNATIVES:
        c.bad("alternatives", "depart.else", f"at most {MAX_ALTERNATIVES} alternatives")
        extra = extra[:MAX_ALTERNATIVES]
    alternatives += [(f"depart.else[{i}]", alt) for i, alt in enumerate(extra)]
    out = []
    for path, alt in alternatives:
        if not isinstance(alt, Mapping):
            c.bad("type", path, f"expected a mapping, got {kind(alt)}")
            continue
        if path != "depart" and "else" in alt:
            c.bad("nested-else", f"{path}.else", "alternatives cannot have alternatives")
        norm = _departure(c, path, alt, arriving)
        if norm is not None:
            out.append(norm)
    return out


def _departure(
    c: _Checker, path: str, alt: Mapping[str, Any], arriving: dict[str, str]
) -> dict[str, Any] | None:
    ok = c.unknown_keys(alt, DEPART_KEYS, path, code="unknown-key", say=_unknown_key)
    committed = c.view["options"]["destinations"] == "committed"
    mine = c.view["warps"][c.me]
    origin = c.star(alt.get("from"), f"{path}.from")
    ships = c.ships(alt.get("ships"), f"{path}.ships")
    destination = c.star(alt["to"], f"{path}.to") if alt.get("to") is not None else None
    key: str | None = None
    if "warp" in alt:
        key = c.warp_number(alt["warp"], f"{path}.warp")
        if key is not None and mine[key] is not None and key not in arriving:
            c.bad("warp-busy", f"{path}.warp",
                      f"warp {key} is in hyperspace and does not arrive this turn")
            ok = False
    else:
        free = [k for k in sorted(mine) if mine[k] is None or k in arriving]
        if committed and destination is None:
            c.bad("warp", f"{path}.warp", "name the warp: the commitment is made for it")
            ok = False
        elif not free:
            c.bad("warp-busy", f"{path}.warp", "both warps are in hyperspace: no departure "
                      "is possible this turn")
            ok = False
        else:
            key = free[0]
    commitment = alt.get("commitment")
    if destination is not None:
        if origin == destination:
            c.bad("to", f"{path}.to", f"a journey goes from one star to another (RB "
                      f"\"The Journey\"): {origin} to itself is no journey")
            ok = False
        elif origin and c.board.stars[origin].sector != c.board.stars[destination].sector:
            c.bad("to", f"{path}.to", f"{destination} is not in {origin}'s sector "
                      f"({c.board.stars[origin].sector.name}): only a same-sector journey "
                      "names its destination; others are committed")
            ok = False
        if commitment is not None:
            c.bad("commitment", f"{path}.commitment", "a same-sector journey arrives at "
                      "once and needs no commitment")
            ok = False
    elif committed:
        if not is_hex64(commitment):
            c.bad("commitment", f"{path}.commitment",
                      "expected the commitment: 64 lower-case hex digits "
                      "(pbem orders depart makes it)")
            ok = False
    elif commitment is not None:
        c.bad("commitment", f"{path}.commitment", "this game has free destinations: no "
                  "commitment")
        ok = False
    escrow = alt.get("escrow")
    if escrow is not None and (not isinstance(escrow, str) or len(escrow) > 2048):
        c.bad("escrow", f"{path}.escrow", "expected the escrow text made by pbem orders "
                  "depart (at most 2048 characters)")
        ok = False
    lend: dict[str, Any] = {}
    if alt.get("with") is not None:
        if not isinstance(alt["with"], Mapping):
            c.bad("type", f"{path}.with", f"expected a mapping of ally to ships, got "
                      f"{kind(alt['with'])}")
            ok = False
        else:
            for ally, n in alt["with"].items():
                p = c.power(ally, f"{path}.with.{word(ally)}", ally=True)
                count = c.ships(n, f"{path}.with.{word(ally)}")
                if p is None or count is None:
                    ok = False
                else:
                    lend[p] = count
    if origin is not None and isinstance(ships, int):
        possible = _possible_ships(c, origin, arriving)
        if ships > possible:
            here = _ships_at(c, origin)
            c.bad("ships", f"{path}.ships",
                      f"you have no ships at {origin}" if possible == 0 else
                      f"you have {here} ships at {origin}, not {ships}"
                      + (f" (at most {possible} after this turn's arrivals and production)"
                         if possible != here else ""))
            ok = False
    elif origin is not None and ships == "all" and _possible_ships(c, origin, arriving) == 0:
        c.bad("ships", f"{path}.from", f"you have no ships at {origin}")
        ok = False
    if not ok or origin is None or ships is None or key is None:
        return None
    return {
        "warp": int(key),
        "from": origin,
        "ships": ships,
        "commitment": commitment if destination is None and committed else None,
        "to": destination,
        "with": lend,
        "escrow": escrow,
    }


def _ships_at(c: _Checker, star: str) -> int:
    """Own ships at ``star`` now (a star nobody is at may be missing from an order view)."""
    return int((c.view["stars"].get(star) or {}).get("ships", {}).get(c.me, 0))


def _possible_ships(c: _Checker, origin: str, arriving: dict[str, str]) -> int:
    """Own ships that could be at ``origin`` when this power departs: those there now, own
    fleets arriving there this turn, and this turn's production at the home star."""
    total = _ships_at(c, origin)
    for key, star in arriving.items():
        if star == origin:
            total += int(c.view["warps"][c.me][key]["ships"].get(c.me, 0))
    me = c.view["powers"][c.me]
    if c.view["production_turn"] and me["home"] == origin:
        total += int(c.view.get("forecast", {}).get("ships", 0))
    return total


def _resources(c: _Checker, value: Any) -> list[dict[str, str]]:
    if not isinstance(value, list):
        c.bad("type", "resources", f"expected a list of {{star, to}}, got {kind(value)}")
        return []
    out = []
    for i, item in enumerate(value):
        path = f"resources[{i}]"
        if not isinstance(item, Mapping) or set(item) - {"star", "to"}:
            c.bad("type", path, "expected {star: STAR, to: ALLY}")
            continue
        star = c.star(item.get("star"), f"{path}.star")
        ally = c.power(item.get("to"), f"{path}.to", ally=True)
        if star and ally:
            out.append({"star": star, "to": ally})
    return out


def _alliance(c: _Checker, value: Any) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"propose": [], "accept": [], "end": []}
    if c.view["version"] != "wild":
        c.bad("variant", "alliance", "alliances are proposed and ended only in Wild Alliance")
        return out
    if not isinstance(value, Mapping):
        c.bad("type", "alliance", f"expected a mapping, got {kind(value)}")
        return out
    c.unknown_keys(value, tuple(out), "alliance", code="unknown-key", say=_unknown_key)
    for which, powers in value.items():
        if which in out:
            out[which] = c.power_list(powers, f"alliance.{which}")
    return out


def _surrender(c: _Checker, value: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    if not isinstance(value, Mapping):
        c.bad("type", "surrender", f"expected a mapping of warp to star, got {kind(value)}")
        return out
    for raw_key, star_name in value.items():
        path = f"surrender[{word(raw_key)}]"
        key = c.warp_number(raw_key, path)
        star = c.star(star_name, path)
        if not (key and star):
            continue
        warp = c.view["warps"][c.me][key]
        if warp is None:
            c.bad("not-in-flight", path, f"warp {key} is not in hyperspace")
            continue
        # it comes out on this turn's step (ruling R16): at a star next_distance sectors out
        nxt = warp["travelled"] + 1
        distance = c.board.sector_distance(c.board.sector(warp["sector"]),
                                           c.board.stars[star].sector)
        if distance != nxt:
            c.bad("distance", path,
                      f"{star} is {distance} sectors from {warp['sector']}; on surrender warp "
                      f"{key} comes out at a star {nxt} sectors from {warp['sector']}")
            continue
        out[key] = star
    return out
