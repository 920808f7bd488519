"""The one per-game table of the cross-game suite: what the suite must know of a game to play it
as players would. Everything else (the mails, the notices, the deadline, the archive, the leak
sweep) is checked the same way for every game.

A game under the games roots without a row here fails every promise test with the sentence
"no adapter for game G": add a row (docs in tests/crossgame/README.md).

Each row gives

* ``variant``: the variant the suite plays (one with secrets, so the leak sweep has something
  to look for);
* ``edits(view, vault)``: the player's tool commands for this step, as a player types them
  (``[["ashes", "--conquer", "C3", ...]]``; the suite adds FILE after the subcommand and
  ``--view``); an empty list where the tool has nothing to add this step;
* ``body(view, rng)``: a legal order body written from the view alone (None: keep what the
  tool wrote), merged over what the tool wrote;
* ``steps``: how many steps to play before the game master ends the game (a game that ends by
  itself earlier ends earlier).

(A file with several independent problems, rejected with every one listed, is the promise of
tests/crossgame/test_crossgame_problems.py, which has its own per-game table.)
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pbem.game import registry

View = dict[str, Any]


@dataclass(frozen=True)
class Adapter:
    variant: str
    edits: Callable[[View, str], list[list[str]]]
    body: Callable[[View, random.Random], dict[str, Any] | None]
    steps: int


def _before_play(view: View) -> bool:
    """The steps before play (every player commits, then reveals, his chance): nothing to
    order but an empty file."""
    return (view.get("window") or {}).get("kind") in ("setup", "deal")


def _module(game: str, name: str) -> Any:
    registry.load(game)
    return importlib.import_module(f"{registry.module_name(game)}.{name}")


# -- 4000 A.D.: the demo's departures (secret destinations through the vault), a secret alliance
def _ad_edits(view: View, vault: str) -> list[list[str]]:
    script = _module("4000ad", "demo").SCRIPT
    me, turn = view["viewer"], int(view["turn"])
    out = [["reveal", "--vault", vault]]
    if me in script.get(turn, {}):
        origin, ships, dest = script[turn][me]
        out.append(["depart", "--from", origin, "--ships", str(ships), "--to", dest,
                    "--vault", vault])
    return out


def _ad_body(view: View, rng: random.Random) -> dict[str, Any] | None:
    """Algol and Regulus ally in secret on turn 1 (a string only they may read)."""
    if int(view["turn"]) != 1:
        return None
    return {"algol": {"alliance": {"propose": ["regulus"]}},
            "regulus": {"alliance": {"accept": ["algol"]}}}.get(view["viewer"])


# -- The Ashes of Empire: the demo's attack through the tool, random legal play otherwise
def _ashes_edits(view: View, vault: str) -> list[list[str]]:
    if _before_play(view):
        return []
    flags = _module("ashes", "demo").attack(view)
    return [["ashes", *flags]] if flags else []


def _ashes_body(view: View, rng: random.Random) -> dict[str, Any] | None:
    from tests.support.ashes_play import random_orders

    return random_orders(view, rng)


# -- Babylon 5 CGS: the demo's choices through the tool, random legal play otherwise
def _b5_edits(view: View, vault: str) -> list[list[str]]:
    if _before_play(view):
        return []
    flags = _module("b5cgs", "demo").flags(view)
    return [["b5", *flags]] if flags else []


def _b5_body(view: View, rng: random.Random) -> dict[str, Any] | None:
    from tests.support.b5cgs_play import random_orders

    return random_orders(view, rng)


# -- TI4 (stand-in): no tool yet (ti4tool writes it); random legal play written into the file
def _ti4_body(view: View, rng: random.Random) -> dict[str, Any] | None:
    from tests.support.ti4_play import random_orders

    return random_orders(view, rng)


# -- High Card (the toy game): the lowest card of the hand
def _hc_edits(view: View, vault: str) -> list[list[str]]:
    hand = sorted(view.get("hand") or [], key=lambda c: int(c.rsplit("-", 1)[1]))
    return [["play", "--card", hand[0]]] if hand else []


# -- Rock, Paper, Scissors (tests/games/rps): no tool; a random throw written into the file
def _rps_body(view: View, rng: random.Random) -> dict[str, Any] | None:
    return {"throw": rng.choice(["rock", "paper", "scissors"])}


# -- Tic-Tac-Toe (tests/games/ttt): no tool; a random empty cell written into the file
def _ttt_body(view: View, rng: random.Random) -> dict[str, Any] | None:
    free = [c + r for r in "123" for c in "abc" if c + r not in view["board"]]
    return {"move": rng.choice(free)}
# -- Relay (tests/games/relay), the many-window toy: no tool; a random pace. Its short round
# has a sprint (a window on the contract's defaults) at the step one player misses.
def _relay_body(view: View, rng: random.Random) -> dict[str, Any] | None:
    return {"pace": rng.choice([1, 2, 3])}


ADAPTERS: dict[str, Adapter] = {
    "4000ad": Adapter("wild-4", _ad_edits, _ad_body, 4),
    "ashes": Adapter("rounds-3", _ashes_edits, _ashes_body, 5),
    "b5cgs": Adapter("basic-3", _b5_edits, _b5_body, 6),
    "ti4": Adapter("small-4", lambda view, vault: [], _ti4_body, 8),
    "highcard": Adapter("duel-2", _hc_edits, lambda view, rng: None, 6),
    "rps": Adapter("best-of-5", lambda view, vault: [], _rps_body, 6),
    "ttt": Adapter("x-first", lambda view, vault: [], _ttt_body, 6),
    "relay": Adapter("round-6", lambda view, vault: [], _relay_body, 6),
}


def adapter(game: str) -> Adapter:
    found = ADAPTERS.get(game)
    if found is None:
        raise AssertionError(
            f"no adapter for game {game!r}: every installed game gets the cross-game promise "
            "suite; add its row to ADAPTERS in tests/crossgame/adapters.py "
            "(tests/crossgame/README.md says how)")
    return found


# -- random play to the end (tests/crossgame/test_random_play.py) --------------------------------
# What each game's own tests hold true of every state; a game without a row has none to check
# (its random play still has every mail rendered, the replay and the audit checked).
State = dict[str, Any]


def _ad_invariants(state: State) -> None:
    from tests.support.ad_driver import conserved

    assert conserved(state), f"4000 A.D.: ships are not conserved: {state['tally']}"
    for power, warps in state["warps"].items():
        assert len(warps) == state["options"]["warps"], (power, sorted(warps))
    assert all(n > 0 for s in state["stars"].values() for n in s["ships"].values()), \
        "4000 A.D.: a star lists a power with no ships"


def _ashes_invariants(state: State) -> None:
    from tests.support.ashes_driver import check_conservation

    check_conservation(state)


def _b5_invariants(state: State) -> None:
    from tests.support.b5cgs_play import check

    check(state)


def _ti4_invariants(state: State) -> None:
    from tests.support.ti4_play import check

    check(state)


def _hc_invariants(state: State) -> None:
    """No card in two hands; scores whole and not negative."""
    held = [c for p in state["powers"].values() for c in p["hand"]]
    assert len(held) == len(set(held)), held
    for power, me in state["powers"].items():
        assert isinstance(me["score"], int) and me["score"] >= 0, (power, me["score"])


def _ttt_invariants(state: State) -> None:
    """Every mark is one power's move, and the players alternate: the first leads by at most one."""
    marks = list(state["board"].values())
    first, second = state["first"], ({"x", "o"} - {state["first"]}).pop()
    assert marks.count(first) - marks.count(second) in (0, 1), state["board"]
    for power, me in state["powers"].items():
        assert me["moves"] == marks.count(power), (power, me["moves"], state["board"])


INVARIANTS: dict[str, Callable[[State], None]] = {
    "4000ad": _ad_invariants,
    "ashes": _ashes_invariants,
    "b5cgs": _b5_invariants,
    "ti4": _ti4_invariants,
    "highcard": _hc_invariants,
    "ttt": _ttt_invariants,
}
#: Steps of random play before the game master ends a game that has not ended by itself
#: (sized so the whole file stays near a minute on one core; a game without a row: 8).
RANDOM_PLAY_STEPS: dict[str, int] = {"4000ad": 10, "ashes": 6, "b5cgs": 10, "highcard": 8,
                                     "ti4": 12}
RANDOM_PLAY_STEPS["ttt"] = 9  # nine moves fill the board: every random game of ttt ends itself


def invariants(game: str) -> Callable[[State], None] | None:
    return INVARIANTS.get(game)


def random_play_steps(game: str) -> int:
    return RANDOM_PLAY_STEPS.get(game, 8)
