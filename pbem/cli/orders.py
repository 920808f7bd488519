"""``pbem orders``: the player's tool -- start, check and sign an order file, for any game.

    pbem orders new --view view.json -o orders.yaml   start from the last report's view
    pbem orders check orders.yaml --view view.json    the referee's own validation, offline
    pbem orders sign orders.yaml --key algol.key      the armored block to mail

A game adds its own order-editing subcommands through its tool: it declares their arguments and
how they apply, pbem.game.tool runs them (4000 A.D.: ``pbem orders depart|reveal``,
games/fourthousand_ad/tool.py). Which game a view belongs to is
read from the view (its ``game`` field); ``--rules`` overrides it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.chance.kinds import Contribution
from pbem.chance.player import missing_sentence
from pbem.cli import commands, entropy, games
from pbem.errors import PbemError, Problem, Rejected, UsageError
from pbem.game import registry
from pbem.game.plugin import GamePlugin
from pbem.numbers import whole_arg
from pbem.protocol import orderfile
from pbem.protocol.armor import dearmor, find_signed_blocks
from pbem.protocol.envelope import (
    PROTOCOL,
    STANDING,
    STANDING_TURN,
    check_envelope,
    other_instance,
    parse_envelope,
)
from pbem.protocol.keys import PrivateKey, PublicKey
from pbem.protocol.orderdoc import sign_orders, verify_orders
from pbem.protocol.safeyaml import load_order_yaml
from pbem.protocol.standing import standing_problems
from pbem.protocol.vault import Vault, VaultError

if TYPE_CHECKING:
    from pbem.game.shapes import GameView, OrderBody


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "orders",
        description="The player's tool: start an order file from your last report, check it "
        "with the referee's validator and sign it; each game adds its own subcommands to edit "
        "its orders (4000 A.D.: depart, reveal).",
    )
    cmds = p.add_subparsers(dest="orders_command", metavar="SUBCOMMAND", required=True)

    new = cmds.add_parser(
        "new",
        help="start an order file",
        description="Write a new order file: the envelope (game, power, turn, seq) and the "
        "game's default orders (what it plays for a power that sends none). Take them from "
        "your last report (--view REPORT.eml or its view.json) or give --game, --power, --turn "
        "and --instance. With --standing, an empty standing file (turn: standing) instead, "
        "for the game's tool to fill in.",
    )
    _view_arg(new)
    new.add_argument("--game", help="game id (without --view)")
    new.add_argument("--power", help="your power (without --view)")
    new.add_argument("--turn", type=whole_arg, help="the turn the orders are for (without --view)")
    new.add_argument("--standing", action="store_true",
                     help="start a standing file (turn: standing) instead: your standing "
                     "answers, used at every step you send no file for until you send another "
                     "(only in a game that declares standing sections; docs/protocol.md, "
                     "\"Standing files\")")
    new.add_argument("--instance", metavar="HEX", help="the game instance, view.json's "
                     "instance (without --view)")
    new.add_argument("--seq", type=whole_arg, help="submission number (default: the next after the "
                     "last accepted one, from the view's last_seq, as in the report's form, or "
                     "after the last one `orders sign` signed with this vault; else 0)")
    new.add_argument("-o", "--output", type=Path, help="file to write (default: print it)")
    new.add_argument("--force", action="store_true", help="overwrite an existing --output")
    _vault_arg(new)
    new.set_defaults(func=run_new)

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
    games.register_orders(cmds)


def _view_arg(p: argparse.ArgumentParser, required: bool = False) -> None:
    p.add_argument("--view", type=Path, required=required, metavar="VIEW.json",
                   help="your last report's view (view.json)")
    p.add_argument("--rules", help="the game's rules, by game id (default: the view's game)")


def _vault_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--vault", type=Path, help="vault file (default: $PBEM_VAULT or "
                   "~/.pbem/vault.json)")


def _warn(text: str) -> None:
    print(f"warning: {text}", file=sys.stderr)


def _view(args: argparse.Namespace) -> dict[str, Any] | None:
    return orderfile.load_view(args.view) if args.view else None


def _plugin(args: argparse.Namespace, view: GameView) -> GamePlugin:
    """The rules the view belongs to: ``--rules``, else the view's ``game``."""
    game = getattr(args, "rules", None) or view.get("game")
    if not isinstance(game, str):
        raise UsageError(f"{args.view} does not name its game (no 'game' field): give --rules "
                         f"(known games: {', '.join(registry.available()) or 'none'})")
    return registry.load(game)


# -- new ------------------------------------------------------------------------------------------


def run_new(args: argparse.Namespace) -> int:
    view = _view(args)
    header = ["# pbem order file: edit, then `pbem orders check` and `pbem orders sign` it."]
    orders: OrderBody = {}
    footer = ""
    if view is not None:
        game, power, turn = view["game_id"], view["viewer"], view["turn"]
        header.append(f"# From the view of {power} in {game}, for turn {turn}.")
        if args.standing:
            header += _standing_header(args, view)
        asked = entropy.asked_by_view(view, args.view)
        if asked is None:
            entropy.remember_nothing(args.vault, view)
        else:
            entropy.remember_view(args.vault, asked, turn)
            if not args.standing:
                header.append(f"# This game draws dice: `pbem orders sign` adds your chance "
                              f"for step {asked.step}.")
        tool = _plugin(args, view).tool
        if tool is not None and args.standing:
            footer = tool.footer(orders)
        elif tool is not None:
            start = tool.new_orders(view, args.vault)
            for warning in start.warnings:
                _warn(warning)
            orders = dict(start.orders)
            header += start.header
            footer = tool.footer(orders)
    else:
        needed = ("game", "power", "instance") if args.standing else (
            "game", "power", "turn", "instance")
        missing = [n for n in needed if getattr(args, n) is None]
        if missing:
            raise UsageError(f"give --view VIEW.json, or {_listed(['--' + n for n in needed])} "
                             f"(missing: {', '.join('--' + m for m in missing)})")
        game, power, turn = args.game, args.power, args.turn
    if args.standing:
        turn = STANDING
    seq = args.seq
    if seq is None:
        # One rule with the report's order form: the next after the last accepted (the view's
        # last_seq), or after the last this vault signed (a correction of a file sent since).
        last = view.get("last_seq") if view is not None else None
        known = [n for n in (last, Vault.load(args.vault).last_seq(game, power))
                 if isinstance(n, int) and not isinstance(n, bool)]
        seq = max(known) + 1 if known else 0
    # ``instance`` binds the file to this instance of the game (docs/protocol.md, "The
    # envelope"): a view without it is refused by parse_envelope, as the referee would.
    instance = view.get("instance") if view is not None else args.instance
    if not isinstance(instance, str):
        raise UsageError(f"{args.view} carries no instance (the game instance every order file "
                         "names): give the report or welcome mail the referee sent "
                         "(--view REPORT.eml) or its view.json")
    doc: dict[str, Any] = {"pbem": PROTOCOL, "game": game, "power": power, "turn": turn,
                           "seq": seq, "instance": instance, "orders": orders}
    parse_envelope(doc)
    text = orderfile.render(doc, header, footer)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    if args.output.exists() and not args.force:
        raise UsageError(f"{args.output} exists already (use --force to overwrite it)")
    orderfile.write(args.output, text)
    print(f"wrote {args.output}")
    return 0


def _listed(words: list[str]) -> str:
    return ", ".join(words[:-1]) + " and " + words[-1]


def _standing_header(args: argparse.Namespace, view: GameView) -> list[str]:
    """The standing file's comment, or the refusal of a game that takes none."""
    sections = _standing_sections(args, view)
    if not sections:
        raise UsageError(f"game {view['game_id']} takes no standing files (its rules declare "
                         "no standing sections): start a file for the open turn, without "
                         "--standing")
    return [f"# A standing file: only {', '.join(sections)}; used at every step you send no "
            "file for, until a standing file with a higher seq replaces it."]


# -- check ----------------------------------------------------------------------------------------


def _problems(text: str, args: argparse.Namespace, view: GameView | None) -> list[Problem]:
    """Every problem the referee would find in ``text`` (plain or signed)."""
    blocks = find_signed_blocks(text)
    if len(blocks) > 1:
        raise UsageError(f"{args.file} holds {len(blocks)} signed blocks; check one at a time")
    expect: dict[str, Any] = {}
    if view is not None:
        expect = {"game": view["game_id"], "power": view["viewer"], "turn": view["turn"]}
    if blocks and getattr(args, "pub", None) is not None:
        pub = PublicKey.load(args.pub)
        signer = dearmor(blocks[0]).key
        if signer != pub.fingerprint:
            return [Problem("other-signer", "signature.key", f"{args.file} is signed by key "
                            f"{signer}, not by {args.pub} (key {pub.fingerprint}): give the "
                            "public key of the private key you signed it with")]
        verified = verify_orders(blocks[0], lambda g, p: [pub], fingerprints={
            pub.fingerprint: pub}, **expect)
        envelope_problems: list[Problem] = []
        body: dict[Any, Any] | None = verified.body
        entropy = verified.entropy
        instance: str | None = verified.instance
        standing = verified.standing
    else:
        if blocks:
            text = dearmor(blocks[0]).body
        envelope, envelope_problems = check_envelope(load_order_yaml(text), **expect)
        body = envelope.orders if envelope is not None else None
        entropy = envelope.entropy if envelope is not None else None
        instance = envelope.instance if envelope is not None else None
        standing = envelope is not None and envelope.turn == STANDING_TURN
    problems = list(envelope_problems)
    mine = view.get("instance") if view is not None else None
    if view is not None and isinstance(mine, str) and instance is not None and instance != mine:
        problems.append(other_instance(str(view["game_id"]), instance, mine))  # accept's rule
    if view is None or body is None:
        return problems
    if standing:  # accept's rule: a standing file the game takes is checked, never one it refuses
        refused = standing_problems(str(view["game_id"]), _standing_sections(args, view), body,
                                    entropy)
        if refused:
            return problems + refused
    elif blocks:  # signed: its chance contribution is final (accept's rule)
        problems += _contribution_problems(view, entropy)
    _normalized, found = _plugin(args, view).normalize_orders(body, view)
    problems += [
        Problem(p.code, f"orders.{p.path}" if p.path else "orders", p.message) for p in found
    ]
    return problems


def _standing_sections(args: argparse.Namespace, view: GameView) -> tuple[str, ...]:
    """The sections the view's game takes in a standing file (none: it takes no standing
    files)."""
    return tuple(getattr(_plugin(args, view), "standing_sections", ()) or ())


def _contribution_problems(view: GameView, entropy: object) -> list[Problem]:
    """The referee's refusal of a signed file without the chance contribution its step needs
    (view.json's ``chance.contribute``: "tip" or "value"; pbem.store.chance.missing)."""
    info = view.get("chance")
    if not isinstance(info, dict):
        return []
    need = info.get("contribute")
    if need not in (Contribution.TIP, Contribution.VALUE):
        return []
    kind = (Contribution.TIP if isinstance(entropy, dict)
            else Contribution.VALUE if isinstance(entropy, str) else None)
    if kind == need or (need == Contribution.TIP and kind is not None):
        return []
    return [Problem("entropy", "entropy", missing_sentence(str(view.get("viewer")), str(need),
                                                          int(info.get("step") or 0)))]


def run_check(args: argparse.Namespace) -> int:
    view = _view(args)
    text = orderfile.read_text(args.file)
    try:
        problems = _problems(text, args, view)
    except Rejected as exc:
        problems = exc.problems
    if view is not None:
        _tool_warnings(args, view, text)
    if problems:
        for problem in problems:
            print(problem)
        return 1
    print("ok" if view is not None else "ok (envelope only: give --view to check the orders)")
    return 0


def _tool_warnings(args: argparse.Namespace, view: GameView, text: str) -> None:
    """The game's warnings about a file (4000 A.D.: arrivals the vault says are due but the
    file does not reveal)."""
    tool = _plugin(args, view).tool
    if tool is None:
        return
    try:
        blocks = find_signed_blocks(text)
        doc = load_order_yaml(dearmor(blocks[0]).body if blocks else text)
    except PbemError:
        return
    orders = doc.get("orders")
    for warning in tool.check_warnings(view, orders if isinstance(orders, dict) else {},
                                       args.vault):
        _warn(warning)


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


def _warn_seq(text: str, vault: Vault) -> None:
    """Warn when this vault signed the file's seq (or a higher one) before: a changed file
    under a seq already accepted is refused by the referee as not higher."""
    env = parse_envelope(load_order_yaml(text))
    last = vault.last_seq(env.game, env.power)
    if last is not None and env.seq <= last:
        _warn(f"seq {env.seq} is not above seq {last}, the highest this vault signed for "
              f"{env.power} in {env.game}: if a different file of the same turn (or standing "
              f"file) was accepted with seq {env.seq} or higher, the referee refuses this one "
              f"as not higher; to replace it, set seq: {last + 1} (`pbem orders new` numbers "
              "it so) and sign again")


def _is_standing(text: str) -> bool:
    """Whether the plain file says ``turn: standing``."""
    return parse_envelope(load_order_yaml(text)).turn == STANDING_TURN


def run_sign(args: argparse.Namespace) -> int:
    text = orderfile.read_text(args.file)
    if find_signed_blocks(text):
        raise UsageError(f"{args.file} is signed already; sign the plain order file")
    view = _view(args)
    vault = Vault.load(args.vault)
    # Never without the player's chance (pbem.cli.entropy): from the view, or from the vault's
    # record of the view of this turn; refused when neither can tell the step.
    # A standing file carries no chance value (it belongs to no one step: docs/protocol.md,
    # "Standing files"), so it is signed without one, with or without --view.
    asked = (None if _is_standing(text)
             else entropy.asked_by_view(view, args.view) if view is not None
             else entropy.asked_by_vault(text, vault))
    if view is not None:
        problems = _problems(text, args, view)
        if problems:
            raise Rejected(problems)
    if asked is not None:
        text = entropy.with_entropy(text, asked, vault)
        vault.save()  # before anything is written: the value revealed is on record
    armored = sign_orders(text, PrivateKey.load(args.key))
    _warn_seq(text, vault)
    _note_signed(args, text)
    orderfile.hand_out(args.output, armored, "attached or pasted")
    return 0
