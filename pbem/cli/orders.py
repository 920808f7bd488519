"""``pbem orders``: the player's tool -- start, fill in, check and sign an order file.

    pbem orders new --view view.json -o orders.yaml   start from the last report's view
    pbem orders depart orders.yaml --from Vega --to Hamal --ships 5
    pbem orders reveal orders.yaml --view view.json   fill in the arrivals due this turn
    pbem orders check orders.yaml --view view.json    the referee's own validation, offline
    pbem orders sign orders.yaml --key algol.key      the armored block to mail

Secrets (destination and nonce of each committed departure) live in the vault
(``--vault``, default ``$PBEM_VAULT`` or ``~/.pbem/vault.json``), never in the order file until
the fleet arrives.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from pbem.errors import PbemError, Problem, Rejected, UsageError
from pbem.game import registry
from pbem.protocol import commitment, escrow, orderfile
from pbem.protocol.armor import dearmor, find_signed_blocks
from pbem.protocol.envelope import PROTOCOL, check_envelope, parse_envelope
from pbem.protocol.keys import PrivateKey, PublicKey
from pbem.protocol.orderdoc import sign_orders, verify_orders
from pbem.protocol.safeyaml import load_order_yaml
from pbem.protocol.vault import Departure, Vault, VaultError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "orders",
        help="write, check and sign your orders",
        description="The player's tool: start an order file from your last report, add a "
        "departure to a secret destination, reveal the arrivals due, check the file with the "
        "referee's validator, and sign it.",
    )
    cmds = p.add_subparsers(dest="orders_command", metavar="SUBCOMMAND", required=True)

    new = cmds.add_parser(
        "new",
        help="start an order file",
        description="Write a new order file: the envelope (game, power, turn, seq) and, for "
        "each of your warps in flight, its default order 'continue'. Take them from your last "
        "report's view.json (--view) or give --game, --power and --turn.",
    )
    _view_arg(new)
    new.add_argument("--game", help="game id (without --view)")
    new.add_argument("--power", help="your power (without --view)")
    new.add_argument("--turn", type=int, help="the turn the orders are for (without --view)")
    new.add_argument("--seq", type=int, help="submission number (default: the next after the "
                     "last accepted one, from the view's last_seq, as in the report's form, or "
                     "after the last one `orders sign` signed with this vault; else 0)")
    new.add_argument("-o", "--output", type=Path, help="file to write (default: print it)")
    new.add_argument("--force", action="store_true", help="overwrite an existing --output")
    _vault_arg(new)
    new.set_defaults(func=run_new)

    dep = cmds.add_parser(
        "depart",
        help="add a departure to a secret destination",
        description="Add a departure to FILE. The tool makes a fresh nonce and the commitment, "
        "writes the commitment into the file and keeps destination and nonce in your vault (a "
        "same-sector journey arrives at once and is written as 'to:' without commitment). "
        "Use --else to add an alternative to the departure already in the file.",
    )
    dep.add_argument("file", type=Path, metavar="FILE", help="the order file to change")
    dep.add_argument("--from", dest="origin", required=True, metavar="STAR", help="leave from")
    dep.add_argument("--to", dest="destination", metavar="STAR", help="secret destination")
    dep.add_argument("--ships", required=True, help="how many ships leave: a number or 'all'")
    dep.add_argument("--warp", type=int, help="which warp (default: a free one)")
    dep.add_argument(
        "--with", dest="allies", action="append", default=[], metavar="ALLY=N",
        help="allied ships joining the fleet (repeatable)",
    )
    dep.add_argument(
        "--escrow", type=Path, metavar="REFEREE.x25519.pub",
        help="also seal the reveal to the referee's escrow key",
    )
    group = dep.add_mutually_exclusive_group()
    group.add_argument("--else", dest="alternative", action="store_true",
                       help="add as an alternative, tried if the departure before it fails")
    group.add_argument("--replace", action="store_true", help="replace the departure")
    _view_arg(dep)
    _vault_arg(dep)
    dep.set_defaults(func=run_depart)

    rev = cmds.add_parser(
        "reveal",
        help="fill in the arrivals due this turn from the vault",
        description="For each of your warps in flight (from --view), look up its destination in "
        "the vault; if the fleet arrives this turn, write its arrival and nonce into FILE. A warp "
        "the vault does not know is reported: that fleet cannot arrive.",
    )
    rev.add_argument("file", type=Path, metavar="FILE", help="the order file to change")
    _view_arg(rev, required=True)
    _vault_arg(rev)
    rev.set_defaults(func=run_reveal)

    chk = cmds.add_parser(
        "check",
        help="check an order file as the referee would",
        description="Check FILE (plain or signed) against your view: the envelope and every "
        "order, with the same validator the referee runs. Prints 'ok', or every problem one per "
        "line and exits 1. With --pub a signed file's signature is verified too.",
    )
    chk.add_argument("file", type=Path, metavar="FILE", help="the order file")
    _view_arg(chk)
    chk.add_argument("--pub", type=Path, metavar="KEY.pub", help="verify the signature too")
    _vault_arg(chk)
    chk.set_defaults(func=run_check)

    sig = cmds.add_parser(
        "sign",
        help="sign an order file: the block to mail",
        description="Normalise FILE and sign it with your private key, printing the armored "
        "block (or writing it to --output). This block is all you send. With --view the file is "
        "checked first and nothing is signed if it has problems. The signed seq is remembered "
        "in the vault, so `orders new` numbers a correction above it.",
    )
    sig.add_argument("file", type=Path, metavar="FILE", help="the order file")
    sig.add_argument("--key", type=Path, required=True, metavar="KEY.key", help="private key")
    sig.add_argument("-o", "--output", type=Path, help="file to write (default: print it)")
    _view_arg(sig)
    _vault_arg(sig)
    sig.set_defaults(func=run_sign)


def _view_arg(p: argparse.ArgumentParser, required: bool = False) -> None:
    p.add_argument("--view", type=Path, required=required, metavar="VIEW.json",
                   help="your last report's view (view.json)")
    p.add_argument("--rules", default="4000ad", help="game rules plugin (default: 4000ad)")


def _vault_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--vault", type=Path, help="vault file (default: $PBEM_VAULT or "
                   "~/.pbem/vault.json)")


def _warn(text: str) -> None:
    print(f"warning: {text}", file=sys.stderr)


def _board(rules: str) -> Any:
    board = getattr(registry.load(rules), "board", None)
    if board is None:
        raise UsageError(f"game {rules} has no star board: departures do not apply")
    return board


def _view(args: argparse.Namespace) -> dict[str, Any] | None:
    return orderfile.load_view(args.view) if args.view else None


# -- vault warnings and reveals ---------------------------------------------------------------


def _flights(view: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    return [(w, f) for w, f in orderfile.own_warps(view).items() if f]


def _due(
    board: Any, view: dict[str, Any], vault: Vault, missed: dict[int, Departure] | None = None
) -> dict[int, Departure | None]:
    """For each own committed warp in flight: its vault departure if due now, else omitted;
    None where the vault has no entry (and a warning was printed). Warps whose due turn has
    passed (they can never arrive) go into ``missed``."""
    game, power = view["game_id"], view["viewer"]
    due: dict[int, Departure | None] = {}
    for warp, flight in _flights(view):
        made = flight.get("commitment")
        if not made:
            continue
        entry = vault.find(game, power, made)
        if entry is None or not commitment.opens(
            made, game, power, warp, int(flight.get("departed", entry.turn)), entry.destination,
            entry.nonce,
        ):
            _warn(f"warp {warp} ({_flight_text(flight)}): your vault {vault.path} has no "
                  f"destination for commitment {made[:12]}…, so this fleet cannot arrive; it "
                  "keeps flying and is lost past the edge of the board")
            due[warp] = None
            continue
        origin = (
            board.sector(flight["sector"]) if flight.get("sector")
            else board.lookup(entry.origin).sector
        )
        length = board.sector_distance(origin, board.lookup(entry.destination).sector)
        if length == int(flight.get("travelled", 0)) + 1:
            due[warp] = entry
        elif missed is not None and length <= int(flight.get("travelled", 0)):
            missed[warp] = entry
    return due


def _count(n: object, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _fleet_text(flight: dict[str, Any]) -> str:
    """``12 ships``, or ``12 ships (10 of Algol, 2 of Pavo)``: the ships' owners by name."""
    ships = flight.get("ships") or {}
    if not isinstance(ships, dict) or not ships:
        return "ships"
    total = _count(sum(int(n) for n in ships.values()), "ship")
    if len(ships) == 1:
        return total
    return total + " (" + ", ".join(f"{n} of {str(p).capitalize()}"
                                    for p, n in ships.items()) + ")"


def _flight_text(flight: dict[str, Any]) -> str:
    return f"left {flight.get('from', '?')} on turn {flight.get('departed', '?')}"


# -- new ------------------------------------------------------------------------------------------


def run_new(args: argparse.Namespace) -> int:
    view = _view(args)
    header = ["# pbem order file: edit, then `pbem orders check` and `pbem orders sign` it."]
    warps: dict[int, str] = {}
    if view is not None:
        game, power, turn = view["game_id"], view["viewer"], view["turn"]
        header.append(f"# From the view of {power} in {game}, for turn {turn}.")
        for warp, flight in _flights(view):
            warps[warp] = "continue"
            header.append(f"# warp {warp}: {_fleet_text(flight)}, {_flight_text(flight)}, "
                          f"travelled {_count(flight.get('travelled', '?'), 'sector')}")
        if not orderfile.free_destinations(view) and _flights(view):
            _due(_board(args.rules), view, Vault.load(args.vault))
    else:
        missing = [n for n in ("game", "power", "turn") if getattr(args, n) is None]
        if missing:
            raise UsageError("give --view VIEW.json, or --game, --power and --turn "
                             f"(missing: {', '.join('--' + m for m in missing)})")
        game, power, turn = args.game, args.power, args.turn
    seq = args.seq
    if seq is None:
        # One rule with the report's order form: the next after the last accepted (the view's
        # last_seq), or after the last this vault signed (a correction of a file sent since).
        last = view.get("last_seq") if view is not None else None
        known = [n for n in (last, Vault.load(args.vault).last_seq(game, power))
                 if isinstance(n, int) and not isinstance(n, bool)]
        seq = max(known) + 1 if known else 0
    doc: dict[str, Any] = {"pbem": PROTOCOL, "game": game, "power": power, "turn": turn,
                           "seq": seq, "orders": {"warps": warps} if warps else {}}
    parse_envelope(doc)
    text = orderfile.render(doc, header)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    if args.output.exists() and not args.force:
        raise UsageError(f"{args.output} exists already (use --force to overwrite it)")
    orderfile.write(args.output, text)
    print(f"wrote {args.output}")
    return 0


# -- depart ---------------------------------------------------------------------------------------


def _ships(text: str) -> int | str:
    if text == "all":
        return "all"
    if text.isdigit() and int(text) > 0:
        return int(text)
    raise UsageError(f"--ships must be a positive whole number or 'all', not {text!r}")


def _allies(items: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        name, _, count = item.partition("=")
        if not name or not count.isdigit() or int(count) <= 0:
            raise UsageError(f"--with takes ALLY=N with N a positive number, not {item!r}")
        out[name.strip()] = int(count)
    return out


def _free_warp(orders: dict[str, Any], view: dict[str, Any] | None) -> int:
    busy = set()
    if view is not None:
        busy |= {w for w, f in orderfile.own_warps(view).items() if f}
    listed = orders.get("warps")
    if isinstance(listed, dict):
        busy |= {w for w in listed if isinstance(w, int)}
    depart = orders.get("depart")
    if isinstance(depart, dict) and isinstance(depart.get("warp"), int):
        busy.add(depart["warp"])
    for warp in range(1, orderfile.warp_count(view) + 1):
        if warp not in busy:
            return warp
    raise UsageError("no free warp: every warp is in flight or already departing (use --warp)")


def run_depart(args: argparse.Namespace) -> int:
    doc, header = orderfile.load(args.file)
    env = parse_envelope(doc)
    view = _view(args)
    if view is not None:
        parse_envelope(doc, game=view["game_id"], power=view["viewer"], turn=view["turn"])
    board = _board(args.rules)
    origin = board.lookup(args.origin).name
    orders = dict(env.orders)
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
    note = _destination(args, env, board, origin, warp, dep, view)
    if args.alternative:
        alternatives = existing.setdefault("else", []) if isinstance(existing, dict) else None
        if not isinstance(alternatives, list):
            raise UsageError(f"{args.file}: orders.depart.else must be a list to add to")
        alternatives.append(dep)
    else:
        orders["depart"] = dep
    doc["orders"] = orders
    orderfile.write(args.file, orderfile.render(doc, header))
    print(f"{args.file}: warp {warp} leaves {origin} with {dep['ships']} ships; {note}")
    return 0


def _check_departure(
    args: argparse.Namespace, board: Any, orders: dict[str, Any], dep: dict[str, Any],
    view: dict[str, Any],
) -> None:
    """Refuse, before the vault is touched, a departure the referee would refuse (no ships at
    the star, too many ships, a busy warp): the same validator as ``check``."""
    normalize = getattr(registry.load(args.rules), "normalize_orders", None)
    if normalize is None:
        return
    trial = dict(dep)
    if not orderfile.free_destinations(view):
        if args.destination and board.distance(dep["from"], args.destination) == 1:
            trial["to"] = board.lookup(args.destination).name
        else:
            trial["commitment"] = "0" * 64  # a stand-in: the real one is made after this check
    _, found = normalize({"warps": orders.get("warps"), "depart": trial}, view)
    wrong = [p for p in found if p.path.startswith("depart")]
    if wrong:
        raise UsageError("; ".join(f"orders.{p.path}: {p.message}" for p in wrong))


def _destination(
    args: argparse.Namespace,
    env: Any,
    board: Any,
    origin: str,
    warp: int,
    dep: dict[str, Any],
    view: dict[str, Any] | None,
) -> str:
    """Fill the destination part of ``dep``; keep the secret in the vault. Returns a note."""
    if orderfile.free_destinations(view):
        if args.destination:
            _warn("this game uses free destinations: the destination is named on arrival, "
                  "--to is not recorded")
        return "free destinations: name the star when the fleet arrives"
    if not args.destination:
        raise UsageError("--to STAR is required (the secret destination)")
    dest = board.lookup(args.destination).name
    length = board.distance(origin, dest)
    if length == 1:
        dep["to"] = dest
        return f"same sector: arrives at {dest} at once (no commitment needed)"
    nonce = commitment.new_nonce()
    made = commitment.commit(env.game, env.power, warp, env.turn, dest, nonce)
    dep["commitment"] = made
    if args.escrow is not None:
        dep["escrow"] = escrow.seal(escrow.load_public(args.escrow), env.game, env.power, warp,
                                    env.turn, dest, nonce.hex())
    vault = Vault.load(args.vault)
    vault.add(env.game, env.power, Departure(env.turn, warp, origin, dest, nonce.hex(), made))
    vault.save()  # before the order file: a commitment without its secret is a lost fleet
    return (f"destination {dest} ({length} turns) kept in the vault {vault.path}; commitment "
            f"{made[:12]}…" + (", escrow sealed to the referee" if args.escrow else ""))


# -- reveal ---------------------------------------------------------------------------------------


def run_reveal(args: argparse.Namespace) -> int:
    doc, header = orderfile.load(args.file)
    view = orderfile.load_view(args.view)
    env = parse_envelope(doc, game=view["game_id"], power=view["viewer"], turn=view["turn"])
    board = _board(args.rules)
    orders = dict(env.orders)
    warps = orders.get("warps")
    warps = dict(warps) if isinstance(warps, dict) else {}
    missed: dict[int, Departure] = {}
    due = _due(board, view, Vault.load(args.vault), missed)
    for warp, flight in _flights(view):
        entry = due.get(warp)
        if entry is not None:
            warps[warp] = {"arrive": entry.destination, "nonce": entry.nonce}
            print(f"warp {warp} arrives at {entry.destination} this turn (revealed)")
        elif warp not in warps:
            warps[warp] = "continue"
        if warp in missed:
            print(f"warp {warp} ({_flight_text(flight)}) can never arrive: it was due at "
                  f"{missed[warp].destination} on an earlier turn and missed it; it is lost "
                  "in hyperspace past its furthest reach")
        elif warp not in due:
            print(f"warp {warp} continues ({_flight_text(flight)})")
    if not _flights(view):
        print(f"nothing to reveal: {view['viewer']} has no warp in hyperspace on turn "
              f"{view['turn']}")
    if warps:
        orders["warps"] = dict(sorted(warps.items(), key=lambda kv: str(kv[0])))
    doc["orders"] = orders
    orderfile.write(args.file, orderfile.render(doc, header))
    return 0


# -- check ----------------------------------------------------------------------------------------


def _problems(text: str, args: argparse.Namespace, view: dict[str, Any] | None) -> list[Problem]:
    """Every problem the referee would find in ``text`` (plain or signed)."""
    blocks = find_signed_blocks(text)
    if len(blocks) > 1:
        raise UsageError(f"{args.file} holds {len(blocks)} signed blocks; check one at a time")
    expect: dict[str, Any] = {}
    if view is not None:
        expect = {"game": view["game_id"], "power": view["viewer"], "turn": view["turn"]}
    if blocks and getattr(args, "pub", None) is not None:
        pub = PublicKey.load(args.pub)
        verified = verify_orders(blocks[0], lambda g, p: [pub], fingerprints={
            pub.fingerprint: pub}, **expect)
        envelope_problems: list[Problem] = []
        body: dict[Any, Any] | None = verified.body
    else:
        if blocks:
            text = dearmor(blocks[0]).body
        envelope, envelope_problems = check_envelope(load_order_yaml(text), **expect)
        body = envelope.orders if envelope is not None else None
    problems = list(envelope_problems)
    if view is None or body is None:
        return problems
    plugin = registry.load(args.rules)
    normalize = getattr(plugin, "normalize_orders", None)
    if normalize is None:
        _warn(f"the {args.rules} rules cannot check orders yet: only the envelope was checked")
        return problems
    _normalized, found = normalize(body, view)
    problems += [
        Problem(p.code, f"orders.{p.path}" if p.path else "orders", p.message) for p in found
    ]
    return problems


def run_check(args: argparse.Namespace) -> int:
    view = _view(args)
    text = orderfile.read_text(args.file)
    try:
        problems = _problems(text, args, view)
    except Rejected as exc:
        problems = exc.problems
    if view is not None and not orderfile.free_destinations(view) and _flights(view):
        _due_warnings(args, view, text)
    if problems:
        for problem in problems:
            print(problem)
        return 1
    print("ok" if view is not None else "ok (envelope only: give --view to check the orders)")
    return 0


def _due_warnings(args: argparse.Namespace, view: dict[str, Any], text: str) -> None:
    """Warn about arrivals the vault says are due but the file does not reveal."""
    try:
        blocks = find_signed_blocks(text)
        doc = load_order_yaml(dearmor(blocks[0]).body if blocks else text)
    except PbemError:
        return
    orders = doc.get("orders")
    warps = orders.get("warps") if isinstance(orders, dict) else None
    if not isinstance(warps, dict):
        warps = {}
    for warp, entry in _due(_board(args.rules), view, Vault.load(args.vault)).items():
        if entry is not None and not isinstance(warps.get(warp), dict):
            _warn(f"warp {warp} is due at {entry.destination} this turn but the file does not "
                  "reveal it (run: pbem orders reveal)")


# -- sign -----------------------------------------------------------------------------------------


def _note_signed(args: argparse.Namespace, text: str) -> None:
    """Remember the signed seq in the vault, so `orders new` numbers a correction above it."""
    env = parse_envelope(load_order_yaml(text))
    try:
        vault = Vault.load(args.vault)
        vault.note_seq(env.game, env.power, env.seq)
        vault.save()
    except VaultError as exc:
        _warn(f"signed, but seq {env.seq} is not remembered: {exc}")


def run_sign(args: argparse.Namespace) -> int:
    text = orderfile.read_text(args.file)
    if find_signed_blocks(text):
        raise UsageError(f"{args.file} is signed already; sign the plain order file")
    view = _view(args)
    if view is not None:
        problems = _problems(text, args, view)
        if problems:
            raise Rejected(problems)
    armored = sign_orders(text, PrivateKey.load(args.key))
    _note_signed(args, text)
    if args.output is None:
        sys.stdout.write(armored)
    else:
        orderfile.write(args.output, armored)
        print(f"wrote {args.output}: mail it to the referee (attached or pasted)")
    return 0
