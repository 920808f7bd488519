"""Production of new ships (rulebook: "Resources and Production of New Ships", "Loss of a Home
Star"; ADC2: "RESOURCES", even-numbered turns)."""

from __future__ import annotations

from typing import Any

from .battle import surrender_to
from .world import World


def is_production_turn(options: dict[str, Any], turn: int) -> bool:
    """Every second turn. ADC2: even-numbered turns (default). The rulebook's coin, read
    literally, makes turns 3, 5, 7 … production turns (option production_turns: odd); see
    docs/rules.md ruling R2."""
    if options.get("production_turns", "even") == "odd":
        return turn >= 3 and turn % 2 == 1
    return turn % 2 == 0


def next_production_turn(options: dict[str, Any], turn: int) -> int:
    t = turn
    while not is_production_turn(options, t):
        t += 1
    return t


def resources(w: World, power: str) -> tuple[int, int, list[str]]:
    """Circles, crosses and the stars they come from: every star the power holds, its home star
    included (a captured enemy home star adds only its own symbols)."""
    circles = crosses = 0
    stars = []
    for name in w.stars_held(power):
        star = w.board.stars[name]
        if star.circle or star.cross:
            stars.append(name)
        circles += star.circle
        crosses += star.cross
    return circles, crosses, stars


def forecast(w: World, power: str,
             counted: tuple[int, int, list[str]] | None = None) -> int:
    """Ships the power would build if production happened now (0 without its home star).
    ``counted``: the power's ``resources`` if the caller has them already (the view)."""
    if not w.alive(power) or w.holder(w.home(power)) != power:
        return 0
    circles, crosses, _ = counted if counted is not None else resources(w, power)
    return min(circles, crosses)


def produce(w: World, power: str) -> None:
    """One new ship per pair of circle and cross, placed at the home star; none without it."""
    home = w.home(power)
    if w.holder(home) != power:
        w.emit("no_production", power=power, reason=f"{home} is not held by {power}")
        return
    circles, crosses, stars = resources(w, power)
    n = min(circles, crosses)
    if n:
        w.add_ships(home, power, n)
        w.tally("produced", power, n)
        surrender_to(w, home, power)
    w.emit("production", power=power, ships=n, circles=circles, crosses=crosses, stars=stars,
           home=home)
