"""The Ashes order body: checking it against the player's view and normalising it.

Runs on the player's machine (the offline checker) and at the referee's on receipt, on the same
view, so both give the same verdict. Every problem comes back at once, each with its path and a
plain sentence; ``normalize_orders`` never raises, whatever the body.

The body (YAML; every key optional, ``{}`` means standing orders)::

    place: {A1: 2, C3: 1}        # reinforcements; the rest (or all, if omitted) by room
    move:                          # exactly one option, or omitted: no movement
      exchange: A1                 # a. a homeplanet under the black hole, a new one drawn
      # colonise: A1               # b. homeplanet -> colony with ships from the others
      # ships: {B2: 3}
      # conquer: K4                # c. target: a neutral planet or another's colony
      # from: C3                   #    the colony (or homeplanet, shown) reaching it
      # ships: 4                   #    1-6 (from a homeplanet route: {B2: 2, D1: 1} too)
      # survivors_to: D2           #    where a neutral planet's surviving ships go
      # reorganise: {A1: 3, C3: 2} # d. new ship counts of your planets (no 6-ship limit)
    else: [ {exchange: B2} ]       # alternatives if the move no longer fits when it runs
    retreat: [B2, A1]              # standing: homeplanets to send ships back to, in order
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.errors import Problem
from pbem.game.checker import Checker, field, item
from pbem.game.checker import show as _show

from .position import PREFIX, Position, check_move, check_place, from_view, place

TOP_KEYS = ("place", "move", "else", "retreat")
KINDS = {"exchange": "exchange", "colonise": "colonise", "colonize": "colonise",
         "conquer": "conquer", "reorganise": "reorganise", "reorganize": "reorganise"}
MOVE_KEYS = {"exchange": ("exchange",), "colonise": ("colonise", "ships"),
             "conquer": ("conquer", "from", "ships", "survivors_to"),
             "reorganise": ("reorganise",)}
MAX_ELSE = 3
MAX_COUNT = 10_000


def default_orders() -> dict[str, Any]:
    """Standing orders (NMR): reinforcements placed by room (most free stacking first, then
    the lowest planet number), no movement, the standing retreat preference unchanged."""
    return {"place": None, "move": None, "else": [], "retreat": None}




class _Checker(Checker):
    """pbem's problem collector with the Ashes' own checks: planets, ship counts, moves."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        super().__init__()
        self.cards: Mapping[str, Any] = view.get("cards", {})

    def card(self, value: object, path: str) -> str | None:
        if not isinstance(value, str):
            self.bad("planet", path, f"a planet is named by its code (A1), not {_show(value)}")
            return None
        text = value.strip()
        code = (text[len(PREFIX):] if text.lower().startswith(PREFIX) else text).upper()
        if code not in self.cards:
            self.bad("planet", path, f"no planet {_show(value)} in this deck")
            return None
        return code

    def count(self, value: object, path: str, low: int = 0) -> int | None:
        return self.whole(value, path, code="count", low=low, high=MAX_COUNT,
                          say=lambda v: f"a number of ships ({low} or more), not {_show(v)}")

    def counts(self, value: object, path: str, low: int = 0) -> dict[str, int] | None:
        given = self.mapping(value, path, code="shape", say="a mapping of planet: ships")
        if given is None:
            return None
        out: dict[str, int] = {}
        for key, n in given.items():
            sub = field(path, key)
            code, k = self.card(key, sub), self.count(n, sub, low)
            if code is not None and k is not None:
                if code in out:
                    self.bad("duplicate", sub, f"{code} is named twice")
                out[code] = k
        return out

    def move(self, value: object, path: str) -> dict[str, Any] | None:
        given = self.mapping(value, path, code="shape", say="a movement option: exchange, "
                             "colonise, conquer or reorganise")
        if given is None:
            return None
        value = given
        kinds = [KINDS[k] for k in value if isinstance(k, str) and k in KINDS]
        if len(kinds) != 1:
            self.bad("move-kind", path, "exactly one movement option per turn (exchange, "
                     f"colonise, conquer or reorganise), not {len(kinds)}")
            return None
        kind = kinds[0]
        raw = {KINDS.get(k, k) if isinstance(k, str) else k: v for k, v in value.items()}
        self.unknown_keys(raw, MOVE_KEYS[kind], path, code="unknown-field",
                          say=lambda key, hint: f"{kind} takes {', '.join(MOVE_KEYS[kind])}, "
                          f"not {_show(key)}{hint}")
        before = self.mark()
        if kind == "exchange":
            out: dict[str, Any] = {"exchange": self.card(raw["exchange"], f"{path}.exchange")}
        elif kind == "colonise":
            ships = self.counts(raw.get("ships", {}), f"{path}.ships", 1)
            out = {"colonise": self.card(raw["colonise"], f"{path}.colonise"), "ships": ships}
        elif kind == "reorganise":
            out = {"reorganise": self.counts(raw["reorganise"], f"{path}.reorganise")}
        else:
            out = self.conquest(raw, path)
        return out if self.clean_since(before) else None

    def conquest(self, raw: Mapping[str, Any], path: str) -> dict[str, Any]:
        target = self.card(raw["conquer"], f"{path}.conquer")
        if "from" not in raw:
            self.bad("from", f"{path}.from", "say which planet reaches the target (from:)")
            return {}
        source = self.card(raw["from"], f"{path}.from")
        value = raw.get("ships")
        ships: dict[str, int] | None
        if isinstance(value, Mapping):
            ships = self.counts(value, f"{path}.ships", 1)
        else:
            n = self.count(value, f"{path}.ships", 1)
            ships = {source: n} if n is not None and source is not None else None
        after = raw.get("survivors_to")
        to = self.card(after, f"{path}.survivors_to") if after is not None else None
        return {"conquer": target, "from": source, "ships": ships, "survivors_to": to}


def normalize_orders(body: object, view: Mapping[str, Any]) -> tuple[dict[str, Any],
                                                                     list[Problem]]:
    """Check ``body`` against the viewer's position; never raises."""
    try:
        return _normalize(body, view)
    except Exception as exc:  # a body the checks above did not foresee: reject, never crash
        return default_orders(), [Problem("malformed", "", f"the orders could not be read "
                                          f"({type(exc).__name__})")]


def _normalize(body: object, view: Mapping[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
    out = default_orders()
    if not isinstance(body, Mapping):
        return out, [Problem("shape", "", "orders are a mapping (place:, move:, else:, "
                             "retreat:)")]
    c = _Checker(view)
    c.unknown_keys(body, TOP_KEYS, "", code="unknown-order",
                   say=lambda key, hint: f"no order {_show(key)} in The Ashes of Empire"
                   f"{hint} (orders: {', '.join(TOP_KEYS)})")
    window = view.get("window") or {}
    if window.get("kind") in ("setup", "deal") or (
            window.get("due") is not None and view.get("viewer") not in window["due"]
            and not any(body.get(k) for k in TOP_KEYS)):
        # Before the deal, and from a player whose turn it is not, an empty order file is
        # his chance contribution alone (pbem fills in its entropy): nothing to check.
        if window.get("kind") in ("setup", "deal") and any(body.get(k) for k in TOP_KEYS):
            c.bad("setup", "", "nothing to order before the deal: send an empty order file")
        return out, c.problems
    if body.get("place") is not None:
        out["place"] = c.counts(body["place"], "place")
    if body.get("move") is not None:
        out["move"] = c.move(body["move"], "move")
    alts = body.get("else")
    if alts is not None:
        moves = c.listing(alts, "else", code="else", most=MAX_ELSE,
                          say=f"a list of at most {MAX_ELSE} movement options")
        if moves is not None:
            out["else"] = [c.move(m, item("else", i)) for i, m in enumerate(moves)]
    retreat = body.get("retreat")
    if retreat is not None:
        homes = c.listing(retreat, "retreat", code="retreat", most=10,
                          say="a list of your homeplanets, in order")
        if homes is not None:
            codes = [c.card(x, item("retreat", i)) for i, x in enumerate(homes)]
            out["retreat"] = [x for x in codes if x is not None]
    pos = from_view(view)
    if pos is None:
        return default_orders(), [*c.problems, Problem("viewer", "", "orders are checked "
                                                       "against a player's own view")]
    # Every part that could be read is checked against the position too, whatever the other
    # parts' problems: one rejection lists every problem of the file.
    problems = c.problems + _against(pos, out)
    return (out, []) if not problems else (default_orders(), problems)


def _against(pos: Position, orders: Mapping[str, Any]) -> list[Problem]:
    """The checks that need the position: placements, then each move after them. A part that
    could not be read (None) is not checked; moves after an unreadable placement are checked
    after the standing placement (by room)."""
    problems: list[Problem] = []
    if orders["place"]:
        problems += check_place(pos, orders["place"], "place")
    after = pos.copy()
    place(after, orders["place"], pos.reinforcements())
    moves = [("move", orders["move"])] + [(f"else[{i}]", m) for i, m in
                                          enumerate(orders["else"] or [])]
    for path, move in moves:
        if move:
            problems += check_move(after, move, path)
    for code in orders["retreat"] or []:
        if code not in pos.hand:
            problems.append(Problem("retreat", "retreat", f"{code} is not one of your "
                                    "homeplanets"))
    return problems
