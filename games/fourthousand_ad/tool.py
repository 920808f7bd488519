"""4000 A.D.'s part of the player's tool (pbem.game.tool.Tool): ``pbem orders depart|reveal``
and ``pbem distance``, plus the defaults ``pbem orders new`` and ``check`` take from this game.

    pbem orders depart orders.yaml --from Vega --to Hamal --ships 5
    pbem orders reveal orders.yaml --view view.json   fill in the arrivals due this turn
    pbem distance Vega Mira                           journey length in turns

Secrets (destination and nonce of each committed departure) live in the vault (``--vault``,
default ``$PBEM_VAULT`` or ``~/.pbem/vault.json``), never in the order file until the fleet
arrives. The commitment is pbem's generic one (pbem.protocol.commitment) with the warp number
as its slot and the destination as its value.

Size: the game's player's-tool commands (depart, reveal, distance, the defaults of new and
check) with their argparse declarations, which take a third of it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.errors import UsageError
from pbem.game.base import digits, whole_arg
from pbem.game.tool import Command, Edit, OrderCommand, OrderInput, Start, Tool, arg, exclusive
from pbem.protocol import commitment, escrow, orderfile
from pbem.protocol.vault import Departure, Vault

from .board import Board, board_of

GAME = "4000ad"
DEPART_HINT = (
    "# To leave a star: pbem orders depart FILE --from STAR --to STAR --ships N|all\n"
    "# (it writes depart: {warp, from, ships, commitment} and keeps the destination in your "
    "vault)\n"
)


def footer(orders: Mapping[str, Any]) -> str:
    """How to depart, after the orders of a file that has no departure yet."""
    return "" if isinstance(orders, Mapping) and "depart" in orders else DEPART_HINT


def own_warps(view: Mapping[str, Any]) -> dict[int, dict[str, Any] | None]:
    """The viewer's warps by number: None for a warp at home, else its flight."""
    mine = (view.get("warps") or {}).get(view["viewer"]) or {}
    return {int(w): flight for w, flight in sorted(mine.items(), key=lambda kv: int(kv[0]))}


def warp_count(view: Mapping[str, Any] | None) -> int:
    if view is not None:
        warps = own_warps(view)
        if warps:
            return max(warps)
        count = (view.get("options") or {}).get("warps")
        if isinstance(count, int) and count > 0:
            return count
    return 2


def free_destinations(view: Mapping[str, Any] | None) -> bool:
    """Whether the game uses the free-destination rule (no commitments)."""
    return view is not None and (view.get("options") or {}).get("destinations") == "free"


def _flights(view: Mapping[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    return [(w, f) for w, f in own_warps(view).items() if f]


def _flight_text(flight: Mapping[str, Any]) -> str:
    return f"left {flight.get('from', '?')} on turn {flight.get('departed', '?')}"


def _due(
    board: Board, view: Mapping[str, Any], vault: Vault,
    missed: dict[int, Departure] | None = None, warnings: list[str] | None = None,
) -> dict[int, Departure | None]:
    """For each own committed warp in flight: its vault departure if due now, else omitted;
    None where the vault has no entry (and a warning is added to ``warnings``). Warps whose
    due turn has passed (they can never arrive) go into ``missed``."""
    game, power = view["game_id"], view["viewer"]
    due: dict[int, Departure | None] = {}
    warnings = [] if warnings is None else warnings
    for warp, flight in _flights(view):
        made = flight.get("commitment")
        if not made:
            continue
        entry = vault.find(game, power, made)
        if entry is None or not commitment.opens(
            made, game, power, warp, int(flight.get("departed", entry.turn)), entry.value,
            entry.nonce,
        ):
            warnings.append(f"warp {warp} ({_flight_text(flight)}): your vault {vault.path} has no "
                  f"destination for commitment {made[:12]}…, so this fleet cannot arrive; it "
                  "keeps flying and is lost past the edge of the board")
            due[warp] = None
            continue
        origin = (
            board.sector(flight["sector"]) if flight.get("sector")
            else board.lookup(entry.origin).sector
        )
        length = board.sector_distance(origin, board.lookup(entry.value).sector)
        if length == int(flight.get("travelled", 0)) + 1:
            due[warp] = entry
        elif missed is not None and length <= int(flight.get("travelled", 0)):
            missed[warp] = entry
    return due


def _count(n: object, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _fleet_text(flight: Mapping[str, Any]) -> str:
    """``12 ships``, or ``12 ships (10 of Algol, 2 of Pavo)``: the ships' owners by name."""
    ships = flight.get("ships") or {}
    if not isinstance(ships, dict) or not ships:
        return "ships"
    total = _count(sum(int(n) for n in ships.values()), "ship")
    if len(ships) == 1:
        return total
    return total + " (" + ", ".join(f"{n} of {str(p).capitalize()}"
                                    for p, n in ships.items()) + ")"


def _board(view: Mapping[str, Any] | None) -> Board:
    """The board the game is played on, as its view carries it (no host file is read); without
    a view, the stand-in board installed with pbem."""
    return board_of(view.get("board") if view else None)


def _committed_flights(view: Mapping[str, Any]) -> bool:
    return not free_destinations(view) and bool(_flights(view))


# -- depart ---------------------------------------------------------------------------------------


def _ships(text: str) -> int | str:
    if text == "all":
        return "all"
    number = digits(text)
    if number is not None and number > 0:
        return number
    raise UsageError(f"--ships must be a positive whole number or 'all', not {text!r}")


def _allies(items: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        name, _, count = item.partition("=")
        number = digits(count)
        if not name or number is None or number <= 0:
            raise UsageError(f"--with takes ALLY=N with N a positive number, not {item!r}")
        out[name.strip()] = number
    return out


def _free_warp(orders: dict[str, Any], view: dict[str, Any] | None) -> int:
    busy = set()
    if view is not None:
        busy |= {w for w, f in own_warps(view).items() if f}
    listed = orders.get("warps")
    if isinstance(listed, dict):
        busy |= {w for w in listed if isinstance(w, int)}
    depart = orders.get("depart")
    if isinstance(depart, dict) and isinstance(depart.get("warp"), int):
        busy.add(depart["warp"])
    for warp in range(1, warp_count(view) + 1):
        if warp not in busy:
            return warp
    raise UsageError("no free warp: every warp is in flight or already departing (use --warp)")


def depart(given: OrderInput) -> Edit:
    """``pbem orders depart``: add a departure (or an alternative) with a fresh commitment; the
    destination and nonce are kept in the vault (``Edit.keep``), never in the file."""
    args, view = given.args, given.view
    board = _board(view)
    origin = board.lookup(args.origin).name
    orders = dict(given.orders)
    existing = orders.get("depart")
    if existing is not None and not (args.alternative or args.replace):
        raise UsageError(f"{args.file} has a departure already: use --else to add an "
                         "alternative or --replace to replace it")
    if args.alternative and existing is None:
        raise UsageError(f"{args.file} has no departure yet to add an alternative to")
    warp = args.warp if args.warp is not None else _free_warp(
        {**orders, "depart": None if args.replace else existing}, view)
    dep: dict[str, Any] = {"warp": warp, "from": origin, "ships": _ships(args.ships)}
    if args.allies:
        dep["with"] = _allies(args.allies)
    if view is not None:
        _check_departure(args, board, orders, dep, view)
    note, warnings, keep = _destination(given, board, origin, warp, dep)
    if args.alternative:
        alternatives = existing.setdefault("else", []) if isinstance(existing, dict) else None
        if not isinstance(alternatives, list):
            raise UsageError(f"{args.file}: orders.depart.else must be a list to add to")
        alternatives.append(dep)
    else:
        orders["depart"] = dep
    return Edit(orders, said=[f"{args.file}: warp {warp} leaves {origin} with {dep['ships']} "
                              f"ships; {note}"], warnings=warnings, keep=keep)


def _check_departure(
    args: argparse.Namespace, board: Board, orders: dict[str, Any], dep: dict[str, Any],
    view: dict[str, Any],
) -> None:
    """Refuse, before the vault is touched, a departure the referee would refuse (no ships at
    the star, too many ships, a busy warp): the same validator as ``check``."""
    from .orders import normalize_orders

    trial = dict(dep)
    if not free_destinations(view):
        if args.destination and board.distance(dep["from"], args.destination) == 1:
            trial["to"] = board.lookup(args.destination).name
        else:
            trial["commitment"] = "0" * 64  # a stand-in: the real one is made after this check
    _, found = normalize_orders({"warps": orders.get("warps"), "depart": trial}, view)
    wrong = [p for p in found if p.path.startswith("depart")]
    if wrong:
        raise UsageError("; ".join(f"orders.{p.path}: {p.message}" for p in wrong))


def _destination(
    given: OrderInput, board: Board, origin: str, warp: int, dep: dict[str, Any],
) -> tuple[str, list[str], list[Departure]]:
    """Fill the destination part of ``dep``. Returns a note, warnings, and the departure the
    vault keeps (its secret)."""
    args, env, view = given.args, given.envelope, given.view
    if free_destinations(view):
        warnings = (["this game uses free destinations: the destination is named on arrival, "
                     "--to is not recorded"] if args.destination else [])
        return "free destinations: name the star when the fleet arrives", warnings, []
    if not args.destination:
        raise UsageError("--to STAR is required (the secret destination)")
    dest = board.lookup(args.destination).name
    length = board.distance(origin, dest)
    if length == 1:
        dep["to"] = dest
        return f"same sector: arrives at {dest} at once (no commitment needed)", [], []
    nonce = given.nonce
    made = commitment.commit(env.game, env.power, warp, env.turn, dest, nonce)
    dep["commitment"] = made
    if args.escrow is not None:
        dep["escrow"] = escrow.seal(escrow.load_public(args.escrow), env.game, env.power, warp,
                                    env.turn, dest, nonce.hex())
    vault = given.vault()
    return (f"destination {dest} ({length} turns) kept in the vault {vault.path}; commitment "
            f"{made[:12]}…" + (", escrow sealed to the referee" if args.escrow else ""), [],
            [Departure(env.turn, warp, origin, dest, nonce.hex(), made)])


# -- reveal ---------------------------------------------------------------------------------------


def reveal(given: OrderInput) -> Edit:
    """``pbem orders reveal``: fill in the arrivals due this turn from the vault; every other
    warp in flight continues."""
    view = given.view
    assert view is not None  # --view is required
    orders = dict(given.orders)
    warps = orders.get("warps")
    warps = dict(warps) if isinstance(warps, dict) else {}
    missed: dict[int, Departure] = {}
    warnings: list[str] = []
    said: list[str] = []
    due = _due(_board(view), view, given.vault(), missed, warnings)
    for warp, flight in _flights(view):
        entry = due.get(warp)
        if entry is not None:
            warps[warp] = {"arrive": entry.value, "nonce": entry.nonce}
            said.append(f"warp {warp} arrives at {entry.value} this turn (revealed)")
        elif warp not in warps:
            warps[warp] = "continue"
        if warp in missed:
            said.append(f"warp {warp} ({_flight_text(flight)}) can never arrive: it was due at "
                        f"{missed[warp].value} on an earlier turn and missed it; it is "
                        "lost in hyperspace past its furthest reach")
        elif warp not in due:
            said.append(f"warp {warp} continues ({_flight_text(flight)})")
    if not _flights(view):
        said.append(f"nothing to reveal: {view['viewer']} has no warp in hyperspace on turn "
                    f"{view['turn']}")
    if warps:
        orders["warps"] = dict(sorted(warps.items(), key=lambda kv: str(kv[0])))
    return Edit(orders, said=said, warnings=warnings)


# -- distance -------------------------------------------------------------------------------------


def run_distance(args: argparse.Namespace) -> int:
    board = _board(orderfile.load_view(args.view) if args.view is not None else None)
    turns = board.distance(args.origin, args.destination)
    print(turns)
    origin, destination = board.lookup(args.origin), board.lookup(args.destination)
    if origin == destination:  # the rules' "same sector = 1" gives 1 for the same star too
        print(f"note: {origin.name} to {destination.name} is the same star; a journey from a "
              "star to itself is not a move (the order check refuses it)", file=sys.stderr)
    return 0


def new_orders(view: Mapping[str, Any], vault: Path | None) -> Start:
    """Every warp in flight continues by default; warn about arrivals the vault cannot open."""
    warps: dict[int, str] = {}
    header = []
    for warp, flight in _flights(view):
        warps[warp] = "continue"
        header.append(f"# warp {warp}: {_fleet_text(flight)}, {_flight_text(flight)}, "
                      f"travelled {_count(flight.get('travelled', '?'), 'sector')}")
    warnings: list[str] = []
    if _committed_flights(view):
        _due(_board(view), view, Vault.load(vault), warnings=warnings)
    return Start(({"warps": warps} if warps else {}), header, warnings)


def check_warnings(view: Mapping[str, Any], orders: Mapping[str, Any],
                   vault: Path | None) -> list[str]:
    """Arrivals the vault says are due but the file does not reveal."""
    if not _committed_flights(view):
        return []
    warps = orders.get("warps")
    if not isinstance(warps, dict):
        warps = {}
    # the vault's own warnings were printed by `orders new`; here only what the file misses
    return [f"warp {warp} is due at {entry.value} this turn but the file does not "
            "reveal it (run: pbem orders reveal)"
            for warp, entry in _due(_board(view), view, Vault.load(vault)).items()
            if entry is not None and not isinstance(warps.get(warp), dict)]


VIEW_HELP = "your last report's view (view.json)"

DEPART = OrderCommand(
    "depart", help="add a departure to a secret destination (4000 A.D.)",
    description="Add a departure to FILE. The tool makes a fresh nonce and the commitment, "
    "writes the commitment into the file and keeps destination and nonce in your vault (a "
    "same-sector journey arrives at once and is written as 'to:' without commitment). Use "
    "--else to add an alternative to the departure already in the file.",
    arguments=[
        arg("--from", dest="origin", required=True, metavar="STAR", help="leave from"),
        arg("--to", dest="destination", metavar="STAR", help="secret destination"),
        arg("--ships", required=True, help="how many ships leave: a number or 'all'"),
        arg("--warp", type=whole_arg, help="which warp (default: a free one)"),
        arg("--with", dest="allies", action="append", default=[], metavar="ALLY=N",
            help="allied ships joining the fleet (repeatable)"),
        arg("--escrow", type=Path, metavar="REFEREE.x25519.pub",
            help="also seal the reveal to the referee's escrow key"),
        exclusive(
            arg("--else", dest="alternative", action="store_true",
                help="add as an alternative, tried if the departure before it fails"),
            arg("--replace", action="store_true", help="replace the departure")),
    ],
    apply=depart, view_help=VIEW_HELP, check=False, vault=True)

REVEAL = OrderCommand(
    "reveal", help="fill in the arrivals due this turn from the vault (4000 A.D.)",
    description="For each of your warps in flight (from --view), look up its destination in "
    "the vault; if the fleet arrives this turn, write its arrival and nonce into FILE. A warp "
    "the vault does not know is reported: that fleet cannot arrive.",
    arguments=[], apply=reveal, view="required", view_help=VIEW_HELP, check=False, vault=True)

DISTANCE = Command(
    "distance", help="journey length in turns between two stars (4000 A.D.)",
    description="Print the journey length in turns between two stars as a bare integer. Star "
    "names are case-insensitive; an unknown name exits non-zero and suggests the closest "
    "names.",
    arguments=[
        arg("--game", choices=[GAME], default=GAME,
            help="the game whose board is measured (this command is 4000 A.D.'s)"),
        arg("--view", type=Path, metavar="VIEW.json",
            help="measure on the board of your game's view (view.json) instead of the stand-in "
            "board installed with pbem"),
        arg("origin", metavar="FROM", help="departure star"),
        arg("destination", metavar="TO", help="arrival star"),
    ],
    run=run_distance)

#: The 4000 A.D. commands of the player's tool.
TOOL = Tool(orders=[DEPART, REVEAL], commands=[DISTANCE], check=None, new_orders=new_orders,
            footer=footer, check_warnings=check_warnings)
