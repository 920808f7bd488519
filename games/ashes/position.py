"""One player's position as his orders see it, and the checks both referee and checker run.

A ``Position`` is built from the state (at the referee's, when a turn executes) or from the
player's own view (in ``normalize_orders``, on the player's machine too), so the same function
judges an order file on receipt and again when the turn runs (in the round mode the galaxy may
have changed in between: an order that no longer fits falls back, rules.py).

Seed lines behind the checks: "A maximum number of 6 spaceships can be moved during each game
turn (exception: 2.d, reorganisation)"; "The stacking limit of a planet equals its population x
2"; "Each player receives one spaceship for every planet in his possession (as long as there is
one of his 108 spaceship 'in stock')"; the four movement options a-d.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.errors import Problem

from .rulings import cite

SHIPS_MAX = 108
MOVE_MAX = 6
HAND = 3
GALAXY = 8
PREFIX = "planet:"


def cid(code: str) -> str:
    """A card as views, events and secrets name it (distinctive, so leak tests can find it)."""
    return PREFIX + code


def code_of(name: str) -> str:
    return name[len(PREFIX):] if name.startswith(PREFIX) else name


@dataclass
class Position:
    """What a player holds and what he may attack (codes without the ``planet:`` prefix)."""

    cards: Mapping[str, Any]  # the deck catalogue: code -> number, population, reach
    hand: dict[str, int]  # homeplanet -> ships on it
    colonies: dict[str, int]  # own colony -> ships on it
    enemy: dict[str, str] = field(default_factory=dict)  # another's colony -> its owner
    galaxy: dict[str, int] = field(default_factory=dict)  # neutral planet -> stationed ships
    rules: int = 2  # the game's rules version (ruling A13 differs)

    def limit(self, code: str) -> int:
        return 2 * int(self.cards[code]["population"])

    def ships(self, code: str) -> int:
        return self.hand.get(code, self.colonies.get(code, 0))

    def in_play(self) -> int:
        return sum(self.hand.values()) + sum(self.colonies.values())

    def reinforcements(self) -> int:
        """One ship per planet held, while the 108 last."""
        return max(0, min(len(self.hand) + len(self.colonies), SHIPS_MAX - self.in_play()))

    def reaches(self, source: str, target: str) -> bool:
        return int(self.cards[target]["number"]) in self.cards[source]["reach"]["D"]

    def add(self, code: str, n: int) -> None:
        where = self.hand if code in self.hand else self.colonies
        where[code] = where.get(code, 0) + n

    def copy(self) -> Position:
        return Position(self.cards, dict(self.hand), dict(self.colonies), dict(self.enemy),
                        dict(self.galaxy), self.rules)


def from_view(view: Mapping[str, Any]) -> Position | None:
    """The viewer's position from his view (None: the view is not a player's)."""
    you = view.get("you")
    if not isinstance(you, Mapping):
        return None
    powers = view.get("powers", {})
    viewer = view.get("viewer")
    enemy = {code_of(c): p for p, info in powers.items() if p != viewer
             for c in info.get("colonies", {})}
    return Position(view["cards"], {code_of(c): n for c, n in you["hand"].items()},
                    {code_of(c): n for c, n in powers[viewer]["colonies"].items()}, enemy,
                    {code_of(c): n for c, n in view.get("galaxy", {}).items()},
                    int(view.get("rules_version", 1)))


def free(pos: Position, code: str) -> int:
    return pos.limit(code) - pos.ships(code)


def by_room(pos: Position, codes: list[str]) -> str | None:
    """The planet with the most free stacking room, then the lowest planet number (None: all
    full): the default placement of reinforcements and of ships sent home (rulings A9, A14)."""
    room = [c for c in codes if free(pos, c) > 0]
    if not room:
        return None
    return min(room, key=lambda c: (-free(pos, c), int(pos.cards[c]["number"])))


def place(pos: Position, wanted: Mapping[str, int] | None, count: int
          ) -> tuple[dict[str, int], int, list[str]]:
    """Place ``count`` reinforcements: the wanted placements as far as they fit, the rest by
    room (ruling A14). Changes ``pos``; returns (placed per planet, ships left in stock, the
    wanted placements that did not fit)."""
    placed: dict[str, int] = {}
    unfit: list[str] = []
    left = count
    for code, n in sorted((wanted or {}).items()):
        if code not in pos.hand and code not in pos.colonies:
            unfit.append(code)
            continue
        k = min(n, left, max(0, free(pos, code)))
        if k < n:
            unfit.append(code)
        if k > 0:
            pos.add(code, k)
            placed[code] = placed.get(code, 0) + k
            left -= k
    while left > 0:
        best = by_room(pos, sorted(pos.hand) + sorted(pos.colonies))
        if best is None:
            break
        pos.add(best, 1)
        placed[best] = placed.get(best, 0) + 1
        left -= 1
    return dict(sorted(placed.items())), left, unfit


def check_place(pos: Position, wanted: Mapping[str, int], path: str) -> list[Problem]:
    out = []
    count = pos.reinforcements()
    total = sum(wanted.values())
    if total > count:
        out.append(Problem("place-count", path, f"you receive {count} reinforcement(s) this "
                           f"turn, not {total}"))
    for code, n in wanted.items():
        if code not in pos.hand and code not in pos.colonies:
            out.append(Problem("place-planet", f"{path}.{code}",
                               f"{code} is none of your planets"))
        elif pos.ships(code) + n > pos.limit(code):
            out.append(Problem("stacking", f"{path}.{code}",
                               f"{code} holds {pos.ships(code)} of at most {pos.limit(code)} "
                               f"ships (population x 2): {n} more do not fit"))
    return out


def check_move(pos: Position, move: Mapping[str, Any], path: str) -> list[Problem]:
    """Every problem of one normalised movement option against ``pos`` (after reinforcement)."""
    kind = next(iter(move))
    if kind == "exchange":
        card = move["exchange"]
        if card not in pos.hand:
            return [Problem("not-in-hand", f"{path}.exchange", f"{card} is not in your hand")]
        return []
    if kind == "colonise":
        return _check_colonise(pos, move, path)
    if kind == "conquer":
        return _check_conquer(pos, move, path)
    return _check_reorganise(pos, move["reorganise"], path)


def _check_sources(pos: Position, ships: Mapping[str, int], allowed: list[str], path: str,
                   what: str) -> list[Problem]:
    out = []
    for code, n in ships.items():
        if code not in allowed:
            out.append(Problem("ships-source", f"{path}.ships.{code}",
                               f"ships for this move come from {what}, not {code}"))
        elif n > pos.ships(code):
            out.append(Problem("ships-count", f"{path}.ships.{code}",
                               f"{code} holds {pos.ships(code)} ship(s), not {n}"))
    total = sum(ships.values())
    if total > MOVE_MAX:
        out.append(Problem("move-limit", f"{path}.ships", f"at most {MOVE_MAX} ships move in a "
                           f"turn (only reorganisation moves more), not {total}"))
    return out


def _check_colonise(pos: Position, move: Mapping[str, Any], path: str) -> list[Problem]:
    card = move["colonise"]
    if card not in pos.hand:
        return [Problem("not-in-hand", f"{path}.colonise", f"{card} is not in your hand")]
    others = [c for c in sorted(pos.hand) if c != card]
    out = _check_sources(pos, move["ships"], others, path, "your other homeplanets")
    own = pos.hand[card] if pos.rules < 2 else min(pos.hand[card], MOVE_MAX)
    total = own + sum(move["ships"].values())
    if pos.rules >= 2 and total > MOVE_MAX:  # ruling A13: "occupies it with up to 6"
        out.append(Problem("colony-six", f"{path}.ships", f"a new colony is occupied by up to "
                           f"{MOVE_MAX} ships: {card}'s own {own} and "
                           f"{sum(move['ships'].values())} moved make {total}"))
    elif total < 1:
        out.append(Problem("colony-empty", f"{path}.ships",
                           "a new colony must be occupied by at least one ship"))
    elif total > pos.limit(card):
        out.append(Problem("stacking", f"{path}.ships", f"{card} takes at most "
                           f"{pos.limit(card)} ships (population x 2), not {total}"))
    return out


def _check_conquer(pos: Position, move: Mapping[str, Any], path: str) -> list[Problem]:
    target, source = move["conquer"], move["from"]
    out = []
    if target not in pos.galaxy and target not in pos.enemy:
        mine = target in pos.hand or target in pos.colonies
        out.append(Problem("target", f"{path}.conquer", f"{target} is " + (
            "yours" if mine else "neither a neutral planet of the galaxy nor another "
            "player's colony")))
        return out
    if source in pos.colonies:
        if not pos.reaches(source, target):
            out.append(Problem("reach", f"{path}.from", f"{target} (planet "
                               f"{pos.cards[target]['number']}) is not in line D of {source}"))
        out += _check_sources(pos, move["ships"], [source], path, f"the colony {source}")
    elif source in pos.hand:
        if not pos.reaches(source, target):
            out.append(Problem("reach", f"{path}.from", f"{target} (planet "
                               f"{pos.cards[target]['number']}) is not in line D of {source}"))
        colony = [c for c in sorted(pos.colonies) if pos.reaches(c, target)]
        if colony:
            out.append(Problem("homeplanet-route", f"{path}.from", f"your colony {colony[0]} "
                               f"reaches {target} {cite('A5')}"))
        out += _check_sources(pos, move["ships"], sorted(pos.hand), path, "your homeplanets")
    else:
        out.append(Problem("from", f"{path}.from", f"{source} is none of your planets"))
        return out
    if sum(move["ships"].values()) < 1:
        out.append(Problem("ships-count", f"{path}.ships", "a conquest needs 1 to 6 ships"))
    after = move.get("survivors_to")
    if after is not None and (after not in pos.galaxy or after == target):
        out.append(Problem("survivors-to", f"{path}.survivors_to",
                           f"{after} is not another neutral planet of the galaxy"))
    return out


def _check_reorganise(pos: Position, wanted: Mapping[str, int], path: str) -> list[Problem]:
    out = []
    now = {c: pos.ships(c) for c in list(pos.hand) + list(pos.colonies)}
    for code, n in wanted.items():
        if code not in now:
            out.append(Problem("place-planet", f"{path}.reorganise.{code}",
                               f"{code} is none of your planets"))
        elif n > pos.limit(code):
            out.append(Problem("stacking", f"{path}.reorganise.{code}", f"{code} takes at "
                               f"most {pos.limit(code)} ships (population x 2), not {n}"))
    after = {**now, **{c: n for c, n in wanted.items() if c in now}}
    if sum(after.values()) != sum(now.values()):
        out.append(Problem("reorganise-total", f"{path}.reorganise",
                           f"reorganisation moves the ships in play ({sum(now.values())} after "
                           f"reinforcement), it cannot make {sum(after.values())}"))
    return out
