"""``pbem new``: create a game directory (config, players' keys, genesis log entry, state)."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pbem.cli import commands
from pbem.cli.components import pack_problems
from pbem.errors import PbemError, Problem, UsageError
from pbem.game import registry
from pbem.game.plugin import GamePlugin
from pbem.protocol.keys import PublicKey
from pbem.protocol.safeyaml import resolve_plain
from pbem.schedule import ScheduleError, parse_iso
from pbem.store.gameconfig import (
    MODES,
    PRESS_MODES,
    ROSTERS,
    ConfigError,
    GameConfig,
    check_email,
    is_slug,
)
from pbem.store.gamedir import GameDir, read_public_key
from pbem.store.referee import KEY_NAME, PUB_NAME

EPILOG = """\
examples:
  pbem new games/andromeda-7 --game 4000ad --variant independents-4 \\
      --power pavo=ann@example.org:keys/ann.pub --power antares=bob@example.org:bob.pub \\
      --power regulus=cy@example.org:cy.pub \\
      --power 'algol=di@example.org:pbem-ed25519 3q2+7w...' \\
      --weekdays mon,thu --hour 18:00 --tz Europe/Paris --gm gm@example.org

The game id is the directory's name; the referee key is created beside it (ROOT/referee.key) if
missing. Edit GAMEDIR/config.yaml afterwards for the reminder, grace and NMR settings.
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add(
        sub, "new",
        description="Create a game directory: config.yaml, the players' public keys, the genesis "
        "entry of the hash-chained log and the initial state.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("gamedir", metavar="GAMEDIR", help="the new game's directory (ROOT/GAME_ID)")
    p.add_argument("--game", metavar="GAME", help="the game to play, by id (required; "
                   "`pbem new` without it lists the games available)")
    p.add_argument("--variant", required=True, help="variant name, e.g. independents-4 "
                   "(without --power, `pbem new` names the variant's powers; the README lists "
                   "each game's variants)")
    p.add_argument(
        "--power",
        action="append",
        default=[],
        metavar="NAME=EMAIL:PUBKEY",
        help="a power, its player's address and public key (a .pub file or the key "
        "text 'pbem-ed25519 <base64>'); once per power",
    )
    when = p.add_mutually_exclusive_group()
    when.add_argument("--deadline", metavar="PERIOD", help="a fixed period per turn, e.g. 48h")
    when.add_argument("--weekdays", metavar="DAYS", help="deadline weekdays, e.g. mon,thu")
    p.add_argument("--hour", metavar="HH:MM", help="local deadline hour with --weekdays")
    p.add_argument("--tz", default="UTC", help="time zone of --weekdays/--hour (IANA name)")
    modes = registry.declared_modes()  # from the manifests: no game is imported
    if modes:  # offered for the games with modes only (the others' variants say how turns go)
        p.add_argument("--mode", choices=[m for m in MODES if any(m in ms for ms in
                                                                  modes.values())],
                       default=None, help="turn mode, only for a game with modes (the first "
                       "is the default): " + "; ".join(f"{g}: {', '.join(ms)}"
                                                       for g, ms in modes.items()))
    p.add_argument("--gm", metavar="EMAIL", help="the game master's address")
    p.add_argument("--from", dest="sender", metavar="EMAIL", help="the referee's From address")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option (e.g. ships_at_start=12); repeatable",
    )
    p.add_argument("--press", choices=PRESS_MODES, default="white",
                   help="press between players: none, white (signed, sender named) or grey "
                   "(white, and anonymous messages allowed); default white")
    p.add_argument("--roster", choices=ROSTERS, default="powers",
                   help="what the welcome mail lists: the powers (default), or also the players' "
                   "addresses")
    p.add_argument(
        "--components",
        type=Path,
        metavar="PACK.yaml",
        help="the game's component pack (for 4000 A.D. a board file; default: the game's "
        "stand-in pack); check it first with pbem components check",
    )
    p.add_argument(
        "--now", metavar="TIMESTAMP", help="creation time, ISO-8601 UTC (default: the current time)"
    )
    p.set_defaults(func=run)


def parse_power(spec: str) -> tuple[str, str, str]:
    """``NAME=EMAIL:PUBKEY`` -> (name, email, key text or path)."""
    name, eq, rest = spec.partition("=")
    email, colon, key = rest.partition(":")
    if not eq or not colon or not name or not key:
        raise UsageError(f"--power {spec!r}: expected NAME=EMAIL:PUBKEY")
    if not is_slug(name) or not name[0].isalpha():
        raise UsageError(f"--power {spec!r}: {name!r} is not a power name")
    if check_email(email) is None:
        raise UsageError(f"--power {name}: {email!r} is not an email address")
    return name, email, key


def _no_power(game: str, variant: str) -> str:
    """The refusal of ``pbem new`` without ``--power``: which powers the variant needs (or,
    for a variant the game does not have, the ones it has)."""
    variants = registry.load(game).variants()
    info = variants.get(variant)
    if info is None:
        return (f"unknown variant {variant!r} of {game} (known: "
                f"{', '.join(sorted(variants))})")
    return (f"no --power given: name every power of {game} {variant}, once each as "
            f"--power NAME=EMAIL:KEY.pub (its powers: {', '.join(info.powers)})")


def build(args: argparse.Namespace) -> tuple[Path, GameConfig, dict[str, PublicKey]]:
    gamedir = Path(args.gamedir)
    game_id = gamedir.name
    if not is_slug(game_id):
        raise UsageError(
            f"the directory name {game_id!r} is the game id and must be a slug "
            "(lowercase letters, digits and dashes)"
        )
    if not args.game:
        raise UsageError("--game is required: the game to play (available: "
                         f"{', '.join(registry.available()) or 'none'})")
    if not args.power:
        raise UsageError(_no_power(args.game, args.variant))
    modes = tuple(getattr(registry.load(args.game), "modes", ()) or ())
    asked = getattr(args, "mode", None)
    if asked is not None and asked not in modes:
        raise UsageError(f"--mode {asked}: game {args.game} has no turn modes (its "
                         "variants say how turns go)" if not modes else
                         f"--mode {asked}: game {args.game} plays "
                         + " or ".join(modes))
    mode = asked or (modes[0] if modes else "simultaneous")
    powers: dict[str, dict[str, Any]] = {}
    keys: dict[str, PublicKey] = {}
    for spec in args.power:
        name, email, key_spec = parse_power(spec)
        if name in powers:
            raise UsageError(f"--power {name} is given twice")
        try:
            keys[name] = read_public_key(key_spec)
        except PbemError as exc:
            raise UsageError(f"--power {name}: bad key: {exc}") from None
        powers[name] = {"email": email, "key": f"keys/{name}.pub"}
    if args.deadline:
        schedule: dict[str, Any] = {"period": args.deadline}
    elif args.weekdays:
        if not args.hour:
            raise UsageError("--weekdays needs --hour HH:MM")
        schedule = {"weekdays": args.weekdays, "hour": args.hour}
    else:
        if args.hour:
            raise UsageError("--hour goes with --weekdays")
        schedule = {"period": "48h"}
    schedule["tz"] = args.tz
    options: dict[str, Any] = {}
    for item in args.option:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise UsageError(f"--option {item!r}: expected KEY=VALUE")
        options[key] = resolve_plain(value)
    data: dict[str, Any] = {
        "game_id": game_id,
        "game": args.game,
        "variant": args.variant,
        "mode": mode,
        "options": options,
        "powers": powers,
        "schedule": schedule,
    }
    if getattr(args, "press", "white") != "white":
        data["press"] = args.press
    if getattr(args, "roster", "powers") != "powers":
        data["roster"] = args.roster
    if args.gm:
        data["gm"] = args.gm
    if args.sender:
        data["from"] = args.sender
    try:
        return gamedir, GameConfig.from_data(data, "pbem new"), keys
    except ConfigError as exc:
        raise UsageError("; ".join(_flag(p) for p in exc.problems)) from None


_FLAGS = {
    "schedule.period": "--deadline",
    "schedule.weekdays": "--weekdays",
    "schedule.hour": "--hour",
    "schedule.tz": "--tz",
    "gm": "--gm",
    "from": "--from",
    "options": "--option",
    "variant": "--variant",
    "game": "--game",
}


def _flag(problem: Problem) -> str:
    """A config problem named by the command-line flag it came from."""
    for key, flag in _FLAGS.items():
        if (
            problem.path == key
            or problem.path.startswith(key + "[")
            or problem.path.startswith(key + ".")
        ):
            return f"{flag}: {problem.message}"
    return str(problem)


def run(args: argparse.Namespace) -> int:
    try:
        now = parse_iso(args.now, "--now") if args.now else datetime.now(UTC).replace(microsecond=0)
    except ScheduleError as exc:
        raise UsageError(str(exc)) from None
    gamedir, config, keys = build(args)
    plugin = registry.load(config.game)
    pack = None
    if args.components is not None:
        pack, problems = pack_problems(config.game, args.components)
        if problems:
            raise UsageError(f"--components {args.components}: "
                             + "; ".join(str(p) for p in problems))
    root = gamedir.parent
    had_key = (root / KEY_NAME).exists()
    game = GameDir.create(root, config, keys, plugin, now, pack)
    deadline = game.genesis["deadline"]
    info = plugin.variants().get(config.variant)
    mode = f", {config.mode} turns" if getattr(plugin, "modes", ()) else ""
    print(
        f"created {game.path}: {plugin.id} {config.variant} "
        f"({info.title if info else config.variant}), {len(config.powers)} powers "
        f"({', '.join(config.powers)}){mode}, {config.schedule.describe()}"
    )
    recorded = game.genesis.get("components")
    if recorded:
        print(f"rules version {game.genesis.get('rules_version')}; component pack "
              f"{recorded['name']} (digest {recorded['digest'][:16]})")
    print(f"first deadline {deadline}; log head {game.log.head.hash[:16]}")
    queued = _welcome(game, plugin, now)
    print(f"{queued} welcome mail(s) queued in {game.path / 'outbox'} (sent by the next pbem run)")
    if not had_key:
        print(f"new referee key {root / KEY_NAME} (publish {root / PUB_NAME})")
    return 0


def _welcome(game: GameDir, plugin: GamePlugin, now: datetime) -> int:
    """Queue each player's welcome mail: the game, its powers, how to send orders, the deadline,
    and the starting view (view.json) to write the first orders from."""
    from pbem.host import notify
    from pbem.mail.outbox import Outbox
    from pbem.store.referee import referee_key

    ctx = notify.Context(game, plugin, referee_key(game.root)[0], now)
    return notify.queue_welcome(ctx, game.initial_state(plugin), Outbox(game.path / "outbox"))
