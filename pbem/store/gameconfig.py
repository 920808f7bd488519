"""The human-edited game configuration (``GAMEDIR/config.yaml``), parsed into a GameConfig.

Example::

  game_id: andromeda-7          # a slug; the game directory has the same name
  game: 4000ad
  variant: independents-4
  mode: simultaneous            # or sequential
  options: {ships_at_start: 15} # passed to the game plugin
  gm: gm@example.org
  from: "4000 AD referee <referee@example.org>"
  powers:
    algol: {email: ann@example.org, key: keys/algol.pub, tz: Europe/Paris, digest: daily}
    regulus: {email: bob@example.org}           # key defaults to keys/regulus.pub
  schedule:
    period: 48h                 # or: weekdays: [mon, thu] and hour: "18:00"
    tz: Europe/Paris            # the zone of weekday deadlines (default UTC)
    early: true                 # resolve as soon as every order is in
    grace: 2h                   # wait this long after the deadline for missing orders
    reminder: 24h               # remind powers without orders this long before the deadline
    classes: {reaction: 12h}    # a game's steps of these deadline classes get these durations
  nmr_alert: 2                  # tell the GM after this many missed turns in a row
  abandoned: {after: 3, action: autopilot}   # the cron job puts a seat silent this many due
                                # steps in a row on autopilot by itself (pbem.host.seats)
  late_orders: refuse           # or until-run: accept orders after deadline + grace until
                                # the turn job resolves the turn (docs/operations.md)
  paused: false
  press: white                  # none | white | grey (grey: anonymous messages allowed)
  roster: powers                # powers | addresses (the welcome mail lists players' addresses)
  votes: {draw: majority}       # what a players' vote needs per kind (default unanimous)
  players:                      # each player's own settings, set by his signed prefs file
    algol: {prefs: {reminder: 12h, quiet: "22:00-07:00"}}   # (pbem.store.prefs)

The file is read with :mod:`pbem.protocol.safeyaml` (the project's strict safe loader: no
aliases, no duplicate keys, ``no``/``yes``/``18:00`` stay strings) and validated here; every
problem names its key path, and all problems are reported at once.

Size: one file format (config.yaml): every key's check, with its error naming the key, sits
beside the others so the format is read in one place.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from datetime import timedelta
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from pbem.errors import PbemError, Problem, Rejected
from pbem.protocol import safeyaml
from pbem.protocol.pyyaml import yaml
from pbem.record import Record
from pbem.schedule import (
    WEEKDAYS,
    Schedule,
    ScheduleError,
    format_duration,
    parse_duration,
    parse_hour,
    parse_weekday,
    parse_zone,
)
from pbem.store.kinds import VoteKind, VoteRule
from pbem.store.layout import CONFIG_NAME as CONFIG_NAME
from pbem.store.prefs import Prefs
from pbem.store.prefs import parse as prefs_parse

MODES = ("simultaneous", "sequential")
_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
_POWER = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
_ADDR = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$")
TOP_KEYS = (
    "game_id",
    "game",
    "variant",
    "mode",
    "options",
    "gm",
    "from",
    "powers",
    "schedule",
    "nmr_alert",
    "abandoned",
    "late_orders",
    "paused",
    "press",
    "roster",
    "votes",
    "players",
)
LATE_ORDERS = ("refuse", "until-run")
#: Press (pbem.host.press): none; white (signed by the sender's power); grey (white, and a
#: message may be anonymous). Roster: what the welcome mail lists of the other players.
PRESS_MODES = ("none", "white", "grey")
ROSTERS = ("powers", "addresses")
#: The votes (pbem.host.votes) a game may set a rule for; concede is always the sender's alone.
VOTE_KINDS = tuple(VoteKind)
VOTE_RULES = tuple(VoteRule)
POWER_KEYS = ("email", "key", "tz", "digest")
#: What the cron job does by itself with a seat silent ``after`` due steps in a row
#: (pbem.host.seats); without ``abandoned:`` it only alerts the game master (``nmr_alert``).
ABANDONED_ACTIONS = ("autopilot",)
#: How often a player not mailed after a step (pbem.game.plugin.Window ``notify``) hears of
#: the game: a report every step anyway, one digest a day, or one digest when his power is due.
DIGESTS = ("every-step", "daily", "when-due")
SCHEDULE_KEYS = ("period", "weekdays", "hour", "tz", "early", "grace", "reminder", "classes")


class ConfigError(Rejected):
    """config.yaml (or the equivalent command-line input) is invalid; lists every problem."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        super().__init__(problems)
        self.args = (f"{source}: " + "; ".join(str(p) for p in problems),)

    def __str__(self) -> str:
        return str(self.args[0])


def is_slug(text: object) -> bool:
    return isinstance(text, str) and _SLUG.match(text) is not None


def check_email(text: object) -> str | None:
    """The bare address if ``text`` is ``addr`` or ``Name <addr>``, else None."""
    if not isinstance(text, str) or "\n" in text or "\r" in text:
        return None
    return _checked_email(text)


@functools.lru_cache(maxsize=4096)
def _checked_email(text: str) -> str | None:
    """check_email of a string, kept per process: every open of a game checks its config's
    addresses twice (config.yaml and the genesis entry's copy), and the email package's address
    parser is slow enough to show in every open (bench/README.md, "Measurements behind the
    code")."""
    _name, addr = parseaddr(text)
    return addr if _ADDR.match(addr) and (addr == text.strip() or "<" in text) else None


class PowerEntry(Record):
    __slots__ = ("name", "email", "key", "tz", "digest")
    name: str
    email: str
    key: str  # path of the .pub file, relative to the game directory
    tz: str | None
    digest: str  # DIGESTS

    def __init__(self, name: str, email: str, key: str, tz: str | None = None,
                 digest: str = "every-step") -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "email", email)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "tz", tz)
        object.__setattr__(self, "digest", digest)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"email": self.email, "key": self.key}
        if self.tz:
            data["tz"] = self.tz
        if self.digest != "every-step":
            data["digest"] = self.digest
        return data


class GameConfig(Record):
    __slots__ = ("game_id", "game", "variant", "powers", "schedule", "mode", "options", "gm",
                 "sender", "nmr_alert", "abandoned", "paused", "late_orders", "press", "roster",
                 "votes", "prefs")
    game_id: str
    game: str
    variant: str
    powers: Mapping[str, PowerEntry]
    schedule: Schedule
    mode: str
    options: Mapping[str, Any]
    gm: str | None
    sender: str | None  # the "from" address
    nmr_alert: int
    abandoned: tuple[int, str] | None  # (after, action): ``abandoned:`` in config.yaml
    paused: bool
    late_orders: str  # or "until-run" (LATE_ORDERS)
    press: str
    roster: str
    votes: Mapping[str, str]  # kind -> rule, when not unanimous
    prefs: Mapping[str, Prefs]  # players.<power>.prefs

    def __init__(self, game_id: str, game: str, variant: str, powers: Mapping[str, PowerEntry],
                 schedule: Schedule, mode: str = "simultaneous",
                 options: Mapping[str, Any] | None = None, gm: str | None = None,
                 sender: str | None = None, nmr_alert: int = 2,
                 abandoned: tuple[int, str] | None = None, paused: bool = False,
                 late_orders: str = "refuse", press: str = "white", roster: str = "powers",
                 votes: Mapping[str, str] | None = None,
                 prefs: Mapping[str, Prefs] | None = None) -> None:
        object.__setattr__(self, "game_id", game_id)
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "powers", powers)
        object.__setattr__(self, "schedule", schedule)
        object.__setattr__(self, "mode", mode)
        object.__setattr__(self, "options", {} if options is None else options)
        object.__setattr__(self, "gm", gm)
        object.__setattr__(self, "sender", sender)
        object.__setattr__(self, "nmr_alert", nmr_alert)
        object.__setattr__(self, "abandoned", abandoned)
        object.__setattr__(self, "paused", paused)
        object.__setattr__(self, "late_orders", late_orders)
        object.__setattr__(self, "press", press)
        object.__setattr__(self, "roster", roster)
        object.__setattr__(self, "votes", {} if votes is None else votes)
        object.__setattr__(self, "prefs", {} if prefs is None else prefs)

    def digest_pace(self, power: str) -> str:
        """How often ``power``'s player hears of steps he is not mailed (pbem.host.mailpolicy):
        his own signed choice (``players.<power>.prefs.digest``) when he made one, else what the
        game master set (``powers.<power>.digest``), else every step."""
        own = self.prefs.get(power)
        if own is not None and own.digest is not None:
            return own.digest
        entry = self.powers.get(power)
        return entry.digest if entry is not None else "every-step"

    def vote_rule(self, kind: str) -> str:
        """What a players' vote of ``kind`` needs: ``unanimous`` (the default) or ``majority``."""
        return self.votes.get(kind, "unanimous")

    # --- parsing ----------------------------------------------------------------------------

    @classmethod
    def from_data(cls, data: object, source: str = CONFIG_NAME) -> GameConfig:
        """Validate loaded data; raise ConfigError naming every bad key."""
        return _Parser(source).config(data)

    @classmethod
    def from_yaml(cls, text: str, source: str = CONFIG_NAME) -> GameConfig:
        data, problems = safeyaml.scan(text)
        if problems:
            raise ConfigError(source, problems)
        return cls.from_data(data, source)

    @classmethod
    def load(cls, path: Path | str) -> GameConfig:
        return cls.from_data(cls.read(path), str(path))

    @staticmethod
    def read(path: Path | str) -> object:
        """The data of the config file ``path``, read by the strict YAML loader (``load`` is
        :meth:`from_data` of it)."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise PbemError(f"{path}: no game configuration here") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise PbemError(f"{path}: cannot read: {exc}") from None
        data, problems = safeyaml.scan(text)
        if problems:
            raise ConfigError(str(path), problems)
        return data

    # --- writing ----------------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        """Plain data (JSON and YAML safe) that ``from_data`` turns back into this config."""
        sched: dict[str, Any] = {}
        s = self.schedule
        if s.period is not None:
            sched["period"] = format_duration(s.period)
        else:
            sched["weekdays"] = [WEEKDAYS[d] for d in s.weekdays]
            sched["hour"] = s.hour.strftime("%H:%M")
        sched.update(
            tz=s.tz,
            early=s.early,
            grace=format_duration(s.grace),
            reminder=format_duration(s.reminder),
        )
        if s.classes:
            sched["classes"] = {name: format_duration(d) for name, d in s.classes}
        data: dict[str, Any] = {
            "game_id": self.game_id,
            "game": self.game,
            "variant": self.variant,
            "mode": self.mode,
            "options": dict(self.options),
        }
        if self.gm:
            data["gm"] = self.gm
        if self.sender:
            data["from"] = self.sender
        data["powers"] = {name: p.to_data() for name, p in self.powers.items()}
        data.update(schedule=sched, nmr_alert=self.nmr_alert, paused=self.paused)
        if self.abandoned is not None:
            data["abandoned"] = {"after": self.abandoned[0], "action": self.abandoned[1]}
        if self.late_orders != "refuse":
            data["late_orders"] = self.late_orders
        if self.press != "white":
            data["press"] = self.press
        if self.roster != "powers":
            data["roster"] = self.roster
        if self.votes:
            data["votes"] = dict(self.votes)
        players = {p: {"prefs": v.to_data()} for p, v in self.prefs.items() if v.to_data()}
        if players:
            data["players"] = players
        return data

    def to_yaml(self) -> str:
        header = (
            f"# pbem game configuration for {self.game_id} (edit with care: game_id, game,\n"
            "# variant, mode, options and the set of powers are fixed when the game starts)\n"
        )
        return header + yaml.safe_dump(
            self.to_data(), sort_keys=False, allow_unicode=True, default_flow_style=False
        )

    def key_path(self, game_dir: Path, power: str) -> Path:
        return Path(game_dir) / self.powers[power].key

    def fixed_fields(self) -> dict[str, Any]:
        """What cannot change after the game started (compared against the genesis entry)."""
        return {
            "game_id": self.game_id,
            "game": self.game,
            "variant": self.variant,
            "mode": self.mode,
            "options": dict(self.options),
            "powers": sorted(self.powers),
        }


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source
        self.problems: list[Problem] = []

    def bad(self, path: str, message: str, code: str = "invalid") -> None:
        self.problems.append(Problem(code, path, message))

    def mapping(self, value: object, path: str, allowed: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.bad(path, f"must be a mapping of key: value, not {value!r}", "type")
            return {}
        for key in value:
            if key not in allowed:
                near = [k for k in allowed if k[:3] == str(key)[:3]]
                hint = f" (did you mean {near[0]}?)" if near else f" (known: {', '.join(allowed)})"
                self.bad(f"{path}.{key}" if path else str(key), f"unknown key{hint}", "unknown-key")
        return value

    def required(self, data: dict[str, Any], key: str, path: str) -> Any:
        if key not in data or data[key] is None:
            self.bad(path, "is missing", "missing")
            return None
        return data[key]

    def boolean(self, data: dict[str, Any], key: str, path: str, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            self.bad(path, f"must be true or false, not {value!r}", "type")
            return default
        return value

    def duration(self, data: dict[str, Any], key: str, path: str, default: str) -> timedelta:
        try:
            return parse_duration(data.get(key, default), path)
        except ScheduleError as exc:
            self.bad(path, str(exc).removeprefix(path + " ").removeprefix(path), "duration")
            return parse_duration(default)

    def email(self, value: object, path: str) -> str:
        if check_email(value) is None:
            self.bad(path, f"{value!r} is not an email address", "email")
        return str(value)

    def config(self, data: object) -> GameConfig:
        if data is None:
            data = {}
        top = self.mapping(data, "", TOP_KEYS)
        game_id = self.required(top, "game_id", "game_id")
        if game_id is not None and not is_slug(game_id):
            self.bad(
                "game_id",
                f"{game_id!r} must be a slug: lowercase letters, digits and "
                "dashes, starting with a letter or digit, at most 63 characters",
            )
        game = self.required(top, "game", "game")
        if game is not None and not is_slug(game):
            self.bad("game", f"{game!r} is not a game id")
        variant = self.required(top, "variant", "variant")
        if variant is not None and not isinstance(variant, str):
            self.bad("variant", f"must be a variant name, not {variant!r}")
        mode = top.get("mode", "simultaneous")
        if mode not in MODES:
            self.bad("mode", f"{mode!r} must be one of {', '.join(MODES)}")
        options = top.get("options") or {}
        if not isinstance(options, dict):
            self.bad("options", f"must be a mapping, not {options!r}", "type")
            options = {}
        elif "mode" in options or "game_id" in options:
            self.bad("options", "game_id and mode are set at the top level, not in options")
        gm = top.get("gm")
        if gm is not None:
            self.email(gm, "gm")
        sender = top.get("from")
        if sender is not None:
            self.email(sender, "from")
        powers = self.powers(top.get("powers"))
        schedule = self.schedule(top.get("schedule"))
        nmr_alert = top.get("nmr_alert", 2)
        if type(nmr_alert) is not int or nmr_alert < 0:
            self.bad("nmr_alert", f"must be a whole number of turns (0 = never), not {nmr_alert!r}")
            nmr_alert = 2
        abandoned = self.abandoned(top.get("abandoned"))
        paused = self.boolean(top, "paused", "paused", False)
        late_orders = top.get("late_orders", "refuse")
        if late_orders not in LATE_ORDERS:
            self.bad("late_orders", f"must be {' or '.join(LATE_ORDERS)}, not {late_orders!r}")
            late_orders = "refuse"
        press = top.get("press", "white")
        if press not in PRESS_MODES:
            self.bad("press", f"{press!r} must be one of {', '.join(PRESS_MODES)}")
        roster = top.get("roster", "powers")
        if roster not in ROSTERS:
            self.bad("roster", f"{roster!r} must be one of {', '.join(ROSTERS)}")
        votes = self.mapping(top.get("votes", {}), "votes", VOTE_KINDS)
        for kind, rule in votes.items():
            if rule not in VOTE_RULES:
                self.bad(f"votes.{kind}", f"{rule!r} must be one of {', '.join(VOTE_RULES)}")
        prefs: dict[str, Prefs] = {}
        for name, entry in self.mapping(top.get("players", {}), "players",
                                        tuple(powers)).items():
            got, problems = prefs_parse(self.mapping(entry, f"players.{name}", ("prefs",))
                                        .get("prefs", {}), f"players.{name}.prefs")
            self.problems += problems
            prefs[name] = got
        if self.problems:
            raise ConfigError(self.source, self.problems)
        assert schedule is not None
        return GameConfig(
            game_id=game_id,
            game=game,
            variant=variant,
            mode=mode,
            options=options,
            gm=gm,
            sender=sender,
            powers=powers,
            schedule=schedule,
            nmr_alert=nmr_alert,
            abandoned=abandoned,
            paused=paused,
            late_orders=late_orders,
            press=press,
            roster=roster,
            votes={k: v for k, v in votes.items() if v != "unanimous"},
            prefs=prefs,
        )

    def abandoned(self, value: object) -> tuple[int, str] | None:
        if value is None:
            return None
        data = self.mapping(value, "abandoned", ("after", "action"))
        after, action = data.get("after"), data.get("action", "autopilot")
        if type(after) is not int or after < 1:
            self.bad("abandoned.after", f"must be a whole number of due steps from 1, not "
                     f"{after!r}")
            return None
        if action not in ABANDONED_ACTIONS:
            self.bad("abandoned.action", f"{action!r} must be one of "
                     f"{', '.join(ABANDONED_ACTIONS)} (a replacement needs a new player: "
                     "pbem gm replace)")
            return None
        return after, str(action)

    def powers(self, value: object) -> dict[str, PowerEntry]:
        if value is None:
            self.bad("powers", "is missing: list every power with its player's email", "missing")
            return {}
        if not isinstance(value, dict) or not value:
            self.bad("powers", "must be a mapping of power name to {email, key, tz}", "type")
            return {}
        powers: dict[str, PowerEntry] = {}
        for name, entry in value.items():
            path = f"powers.{name}"
            if not isinstance(name, str) or not _POWER.match(name):
                self.bad(path, "a power name must be a lowercase word like algol")
                continue
            if isinstance(entry, str):  # shorthand: algol: ann@example.org
                entry = {"email": entry}
            fields = self.mapping(entry, path, POWER_KEYS)
            email = self.required(fields, "email", f"{path}.email")
            if email is not None:
                self.email(email, f"{path}.email")
            key = fields.get("key", f"keys/{name}.pub")
            text = str(key)  # (PurePosixPath's is_absolute and parts, without making one)
            if not isinstance(key, str) or text.startswith("/") or ".." in text.split("/"):
                self.bad(f"{path}.key", f"{key!r} must be a path inside the game directory")
            tz = fields.get("tz")
            if tz is not None:
                try:
                    parse_zone(tz, f"{path}.tz")
                except ScheduleError as exc:
                    self.bad(f"{path}.tz", str(exc).removeprefix(f"{path}.tz "))
            digest = fields.get("digest", "every-step")
            if digest not in DIGESTS:
                self.bad(f"{path}.digest", f"{digest!r} must be one of {', '.join(DIGESTS)}")
            powers[name] = PowerEntry(name, str(email or ""), str(key), tz, str(digest))
        return powers

    def schedule(self, value: object) -> Schedule | None:
        if value is None:
            self.bad("schedule", "is missing: give period: 48h, or weekdays and hour", "missing")
            return None
        data = self.mapping(value, "schedule", SCHEDULE_KEYS)
        tz = data.get("tz", "UTC")
        try:
            parse_zone(tz, "schedule.tz")
        except ScheduleError as exc:
            self.bad("schedule.tz", str(exc).removeprefix("schedule.tz "))
            tz = "UTC"
        early = self.boolean(data, "early", "schedule.early", True)
        grace = self.duration(data, "grace", "schedule.grace", "0h")
        reminder = self.duration(data, "reminder", "schedule.reminder", "24h")
        classes: list[tuple[str, timedelta]] = []
        raw_classes = data.get("classes") or {}
        if not isinstance(raw_classes, dict):
            self.bad("schedule.classes", "must map deadline classes to durations, like "
                     "{reaction: 12h}")
            raw_classes = {}
        for name in sorted(raw_classes, key=str):
            if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_-]*", name):
                self.bad(f"schedule.classes.{name}", "a deadline class is a lower-case name")
                continue
            duration = self.duration(raw_classes, name, f"schedule.classes.{name}", "48h")
            if duration <= timedelta(0):
                self.bad(f"schedule.classes.{name}", "must be longer than zero")
                continue
            classes.append((name, duration))
        common: dict[str, Any] = dict(tz=tz, early=early, grace=grace, reminder=reminder,
                                      classes=tuple(classes))
        has_period = data.get("period") is not None
        has_days = data.get("weekdays") is not None or data.get("hour") is not None
        if has_period == has_days:
            self.bad(
                "schedule",
                "give either period (like 48h) or weekdays and hour, not "
                + ("both" if has_period else "neither"),
            )
            return None
        if has_period:
            period = self.duration(data, "period", "schedule.period", "48h")
            if period <= timedelta(0):
                self.bad("schedule.period", "must be longer than zero")
                return None
            return Schedule(period=period, **common)
        days_raw = data.get("weekdays")
        if isinstance(days_raw, str):
            days_raw = [d for d in re.split(r"[,\s]+", days_raw) if d]
        if not isinstance(days_raw, list) or not days_raw:
            self.bad("schedule.weekdays", f"must be a list like [mon, thu], not {days_raw!r}")
            return None
        days: list[int] = []
        for i, d in enumerate(days_raw):
            try:
                days.append(parse_weekday(d, f"schedule.weekdays[{i}]"))
            except ScheduleError as exc:
                self.bad(
                    f"schedule.weekdays[{i}]", str(exc).removeprefix(f"schedule.weekdays[{i}] ")
                )
        try:
            hour = parse_hour(data.get("hour"), "schedule.hour")
        except ScheduleError as exc:
            self.bad("schedule.hour", str(exc).removeprefix("schedule.hour "))
            return None
        if len(days) != len(days_raw):
            return None
        return Schedule(weekdays=tuple(sorted(set(days))), hour=hour, **common)
