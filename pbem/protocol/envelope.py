"""The envelope of an order document: which game, power, turn and submission it is.

An order document is a YAML mapping with exactly these keys (docs/protocol.md, "The envelope")::

    pbem: 1              # protocol version
    game: andromeda-7    # game id
    power: algol         # the power giving the orders
    turn: 7              # the turn the orders are for (>= 1), or ``standing`` (below)
    seq: 3               # per-submission counter (>= 0): within a turn the highest seq wins
    ready: true          # optional (default true): false keeps early resolution waiting
    instance: 5f0c…      # the game instance (genesis nonce) the file is for
    entropy: 9a41…       # optional: fair chance, this step's chain value (or {tip: …})
    orders: {...}        # the game's order body (may be empty: standing orders)

``ready`` and ``entropy`` are the optional keys. ``instance`` is required: every game has one
(its genesis nonce), every order form the referee sends and every file ``pbem orders new``
writes carries it, and a file without it could be replayed into a game made again under the
same id and keys (``other_instance``). A player who may still correct his orders sends
``ready: false`` (as a Diplomacy judge's WAIT): the turn is then not resolved
early for him, only at the deadline or when a later file says ``ready: true``.

A *standing file* says ``turn: standing``: it holds only the sections the game declares
standing (``plugin.standing_sections``) and is used at every later step the power sends no file
for, until a standing file with a higher ``seq`` replaces it (docs/protocol.md, "Standing
files"). It is carried as turn :data:`STANDING_TURN` (0, never a step's turn).

The envelope is the same for every game; ``orders`` belongs to the game plugin
(``plugin.normalize_orders``), whose problem paths are relative to ``orders.``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from pbem import lazy
from pbem.errors import Problem, Rejected
from pbem.record import Record

difflib = lazy.module("difflib")  # (a suggestion for a mistyped word only)

PROTOCOL = 1
KEYS = ("pbem", "game", "power", "turn", "seq", "ready", "instance", "entropy", "orders")
OPTIONAL = ("ready", "entropy")
MAX_NUMBER = 2**53 - 1  # stays exact in JSON everywhere
MAX_NAME = 64
STANDING = "standing"  # the ``turn:`` word of a standing file
STANDING_TURN = 0  # the turn a standing file is carried and logged as (a step's turn is >= 1)

_HINTS = {
    "pbem": "the protocol version, 1",
    "game": "the game id, e.g. andromeda-7",
    "power": "your power, e.g. algol",
    "turn": "the turn these orders are for (or standing)",
    "seq": "the submission number, 0 for the first file of a turn",
    "ready": "true when these orders are final, false to keep the turn open for a correction",
    "orders": "the orders (an empty mapping {} keeps standing orders)",
    "instance": "the game instance this file is for (the instance: line of your report's "
                "order form), which `pbem orders new --view REPORT.eml` writes",
    "entropy": "your fair-chance value, filled in by `pbem orders sign`",
}
_HEX = re.compile(r"[0-9a-f]{32,64}")


class Envelope(Record):
    """A well-formed envelope (made only by ``check_envelope``); ``orders`` is the raw body."""

    __slots__ = ("game", "power", "turn", "seq", "orders", "ready", "instance", "entropy")
    game: str
    power: str
    turn: int
    seq: int
    orders: dict[Any, Any]
    ready: bool
    instance: str  # the game instance (required: check_envelope always sets it)
    entropy: Any  # a 64-hex chain value, {"tip": 64 hex}, or None

    def __init__(self,
                 game: str, power: str, turn: int, seq: int, orders: dict[Any, Any],
                 ready: bool = True, instance: str = "", entropy: Any = None) -> None:
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "seq", seq)
        object.__setattr__(self, "orders", orders)
        object.__setattr__(self, "ready", ready)
        object.__setattr__(self, "instance", instance)
        object.__setattr__(self, "entropy", entropy)


def did_you_mean(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """`` — did you mean X?`` for the closest choice, or nothing."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.5)
    return f" — did you mean {close[0]}?" if close else ""


def _describe(value: object) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a yes/no value)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, float):
        return f"{value} (a fraction)"
    return repr(value)


def header_problems(doc: Mapping[Any, Any], keys: tuple[str, ...], required: tuple[str, ...],
                    kind: str, describe: Callable[[Any], str] = repr) -> list[Problem]:
    """The checks every signed document but the order file shares (press, votes): no key
    outside ``keys`` (with did-you-mean), every ``required`` key, protocol version 1, and
    ``game`` and ``power`` short names; ``kind`` names the file in messages ("a press file")."""
    problems: list[Problem] = []
    for key in doc:
        if key not in keys:
            problems.append(Problem("unknown-key", str(key), f"unknown key {str(key)!r}"
                                    f"{did_you_mean(str(key), keys)} ({kind} has only "
                                    f"{', '.join(keys)})"))
    problems += [Problem("missing", key, f"missing: {key}") for key in required if key not in doc]
    if "pbem" in doc and doc.get("pbem") != 1:
        problems.append(Problem("version", "pbem", "this is protocol version 1; the file says "
                                f"{doc.get('pbem')!r}"))
    for key in ("game", "power"):
        value = doc.get(key)
        if key in doc and (not isinstance(value, str) or not value.strip()
                           or len(value) > MAX_NAME or value != value.strip()):
            problems.append(Problem("type", key, f"must be a short name, not {describe(value)}"))
    return problems


def check_envelope(
    doc: Mapping[Any, Any],
    *,
    game: str | None = None,
    power: str | None = None,
    turn: int | None = None,
) -> tuple[Envelope | None, list[Problem]]:
    """Check the envelope of a loaded document against what the caller expects (if given).

    Returns the envelope (None if any problem) and every problem found.
    """
    problems: list[Problem] = []

    def bad(code: str, path: str, message: str) -> None:
        problems.append(Problem(code, path, message))

    for key in doc:
        if key not in KEYS:
            bad("unknown-key", str(key), f"unknown key {str(key)!r}{did_you_mean(str(key), KEYS)}"
                f" (an order file has only {', '.join(KEYS)}; orders go under orders:)")
    for key in KEYS:
        if key not in doc and key not in OPTIONAL:
            bad("missing", key, f"missing: {_HINTS[key]}")

    version = doc.get("pbem")
    if "pbem" in doc and version != PROTOCOL:
        bad("version", "pbem", f"this is protocol version {PROTOCOL}; the file says "
            f"{_describe(version)}")
    names: dict[str, str] = {}
    for key in ("game", "power"):
        value = doc.get(key)
        if key not in doc:
            continue
        if not isinstance(value, str) or not value.strip():
            bad("type", key, f"must be a name, not {_describe(value)}")
        elif len(value) > MAX_NAME or value != value.strip():
            bad("type", key, f"must be a short name without spaces around it, not {value!r}")
        else:
            names[key] = value
    numbers: dict[str, int] = {}
    for key, low in (("turn", 1), ("seq", 0)):
        value = doc.get(key)
        if key not in doc:
            continue
        if key == "turn" and value == STANDING:
            numbers[key] = STANDING_TURN
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            also = f" or {STANDING}" if key == "turn" else ""
            bad("type", key, f"must be a whole number{also}, not {_describe(value)}")
        elif not low <= value <= MAX_NUMBER:
            bad("range", key, f"must be between {low} and {MAX_NUMBER}, not {value}")
        else:
            numbers[key] = value
    ready = doc.get("ready", True)
    if not isinstance(ready, bool):
        bad("type", "ready", f"must be true or false, not {_describe(ready)}")
    instance = doc.get("instance")
    if "instance" in doc and (not isinstance(instance, str) or not _HEX.fullmatch(instance)):
        bad("type", "instance", f"must be the game instance's hex id, not {_describe(instance)}")
    entropy = doc.get("entropy")
    if entropy is not None and not (
            (isinstance(entropy, str) and len(entropy) == 64 and _HEX.fullmatch(entropy))
            or (isinstance(entropy, dict) and set(entropy) == {"tip"}
                and isinstance(entropy["tip"], str) and len(entropy["tip"]) == 64
                and _HEX.fullmatch(entropy["tip"]))):
        bad("type", "entropy", "must be 64 lower-case hex digits or {tip: 64 hex digits}, as "
            "`pbem orders sign` fills it in")
    orders = doc.get("orders")
    if orders is None:
        orders = {}  # "orders:" with everything under it commented out: standing orders
    elif not isinstance(orders, dict):
        bad("type", "orders", f"must be a mapping of orders, not {_describe(orders)}")

    for key, want in (("game", game), ("power", power)):
        got = names.get(key)
        if want is None or got is None or got == want:
            continue
        if got.casefold() == want.casefold() and want == want.lower():
            bad("wrong-" + key, key, f"write {want} in lower case, not {got}")
        else:
            bad("wrong-" + key, key, f"this file is for {key} {got}, but {want} was expected")
    got_turn = numbers.get("turn")
    if turn is not None and got_turn is not None and got_turn != turn \
            and got_turn != STANDING_TURN:  # a standing file is for whichever step is open
        when = "an earlier" if got_turn < turn else "a later"
        bad("wrong-turn", "turn", f"this file is for turn {got_turn} ({when} turn); orders are "
            f"due for turn {turn}")

    if problems:
        return None, problems
    return Envelope(names["game"], names["power"], numbers["turn"], numbers["seq"], orders,
                    ready is True, str(instance), entropy), []


def other_instance(game: str, got: str, mine: str) -> Problem:
    """The refusal of a file written for another instance of ``game`` (one deleted and made
    again under the same id and keys): the referee's and the player's tool's sentence."""
    return Problem("instance", "instance", f"this file is for another instance of game {game} "
                   f"({got[:12]}…), not the one running now ({mine[:12]}…): start your orders "
                   "from your latest report (`pbem orders new --view REPORT.eml`)")


def parse_envelope(
    doc: Mapping[Any, Any],
    *,
    game: str | None = None,
    power: str | None = None,
    turn: int | None = None,
) -> Envelope:
    """``check_envelope`` that raises Rejected with every problem."""
    envelope, problems = check_envelope(doc, game=game, power=power, turn=turn)
    if envelope is None:
        raise Rejected(problems)
    return envelope
