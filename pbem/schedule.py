"""Deadline arithmetic: pure functions over timezone-aware datetimes (no clock is read here).

A schedule is either a fixed period after the start of a turn (``period: 48h``) or fixed weekdays
at a local hour in a named IANA time zone (``weekdays: [mon, thu]``, ``hour: "18:00"``,
``tz: Europe/Paris``). Weekday deadlines are computed in local time, so they stay at 18:00 local
across daylight-saving changes. A local time that does not exist (spring forward) is moved forward
by the gap; one that occurs twice (fall back) means the first occurrence.

Every datetime in and out is tz-aware; stored and serialised as UTC ``YYYY-MM-DDTHH:MM:SSZ``.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import TYPE_CHECKING

from pbem.errors import PbemError
from pbem.record import Record

if TYPE_CHECKING:  # (zoneinfo is imported where a zone is used: most commands use none)
    from zoneinfo import ZoneInfo

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
# [0-9], not \d: \d is any script's digit ('١'), which no one types for a deadline.
_DURATION = re.compile(r"^(?:([0-9]{1,7})d)?(?:([0-9]{1,9})h)?(?:([0-9]{1,11})m)?\Z")
_ISO = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})?Z\Z")
_HOUR = re.compile(r"^([01]?[0-9]|2[0-3]):([0-5][0-9])\Z")
#: The longest duration read (a deadline, a grace period, an extension): past it a date would
#: leave the calendar datetime can hold (OverflowError), and no game waits that long.
MAX_DURATION = timedelta(days=3660)


class ScheduleError(PbemError):
    """A duration, time, zone or schedule is malformed."""


# --- UTC timestamps -----------------------------------------------------------------------------


def require_aware(when: datetime, what: str = "time") -> datetime:
    if when.tzinfo is None or when.utcoffset() is None:
        raise ScheduleError(f"{what} {when.isoformat()} has no time zone (use UTC)")
    return when


def to_iso(when: datetime) -> str:
    """``2026-11-30T17:00:00Z`` (microseconds kept only if non-zero)."""
    utc = require_aware(when).astimezone(UTC)
    text = utc.replace(tzinfo=None).isoformat()
    return text + "Z"


def parse_iso(text: str, what: str = "time") -> datetime:
    """Parse a UTC ISO-8601 timestamp ending in ``Z`` (or ``+00:00``) into an aware datetime."""
    if not isinstance(text, str):
        raise ScheduleError(f"{what} must be an ISO-8601 UTC string, not {type(text).__name__}")
    norm = text[:-6] + "Z" if text.endswith("+00:00") else text
    if not _ISO.match(norm):
        raise ScheduleError(
            f"{what} {text!r} is not an ISO-8601 UTC time like 2026-11-30T17:00:00Z"
        )
    try:
        return datetime.fromisoformat(norm[:-1]).replace(tzinfo=UTC)
    except ValueError:
        raise ScheduleError(f"{what} {text!r} is not a valid date and time") from None


def is_iso(text: object) -> bool:
    """Cheap syntactic check used when verifying logs."""
    return isinstance(text, str) and _ISO.match(text) is not None


# --- durations, hours, zones --------------------------------------------------------------------


def parse_duration(text: object, what: str = "duration") -> timedelta:
    """``48h``, ``2d``, ``90m``, ``1d12h``, ``0h``."""
    if not isinstance(text, str):
        raise ScheduleError(f"{what} must be a duration like 48h, 2d or 90m, not {text!r}")
    m = _DURATION.match(text.strip())
    if not m or not any(m.groups()):
        raise ScheduleError(f"{what} {text!r} is not a duration like 48h, 2d, 90m or 1d12h")
    days, hours, minutes = (int(g) if g else 0 for g in m.groups())
    delta = timedelta(days=days, hours=hours, minutes=minutes)
    if delta > MAX_DURATION:
        raise ScheduleError(f"{what} {text!r} is longer than {MAX_DURATION.days} days")
    return delta


def format_duration(delta: timedelta) -> str:
    """Inverse of parse_duration for whole minutes: ``timedelta(hours=50)`` -> ``2d2h``."""
    minutes = int(delta.total_seconds()) // 60
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    text = (
        (f"{days}d" if days else "") + (f"{hours}h" if hours else "") + (f"{mins}m" if mins else "")
    )
    return text or "0h"


def parse_hour(text: object, what: str = "hour") -> time:
    if not isinstance(text, str):
        hint = (
            " (quote it: YAML reads an unquoted 18:00 as the number 1080)"
            if isinstance(text, int)
            else ""
        )
        raise ScheduleError(f'{what} must be a quoted "HH:MM" string, not {text!r}{hint}')
    m = _HOUR.match(text.strip())
    if not m:
        raise ScheduleError(f'{what} {text!r} is not a time of day like "18:00"')
    return time(int(m.group(1)), int(m.group(2)))


def parse_zone(name: object, what: str = "tz") -> tzinfo:
    if not isinstance(name, str) or not name:
        raise ScheduleError(f"{what} must be an IANA time zone name like Europe/Paris")
    if name == "UTC":  # every config's default: no zoneinfo import or tz file read (~2 ms of
        return UTC  # each process that opens a game; issue 30)
    import zoneinfo

    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ScheduleError(f"{what} {name!r} is not a known IANA time zone") from None


def parse_weekday(name: object, what: str = "weekday") -> int:
    if isinstance(name, str) and name.strip().lower()[:3] in WEEKDAYS:
        return WEEKDAYS.index(name.strip().lower()[:3])
    raise ScheduleError(f"{what} {name!r} is not a weekday (use {', '.join(WEEKDAYS)})")


# --- schedules ----------------------------------------------------------------------------------


class Schedule(Record):
    """When turns are due. ``period`` xor (``weekdays`` and ``hour``); ``tz`` always set. (A
    frozen record, pbem.record: every process that reads a time imports this module.)"""

    __slots__ = ("period", "weekdays", "hour", "tz", "early", "grace", "reminder", "classes")
    period: timedelta | None
    weekdays: tuple[int, ...]
    hour: time
    tz: str
    early: bool
    grace: timedelta
    reminder: timedelta
    #: Deadline classes a game's steps may name (pbem.game.plugin.Window.deadline), each with
    #: its own duration from the step's start (``schedule.classes`` in config.yaml); a class not
    #: listed here, and "main", get the schedule's ordinary deadline.
    classes: tuple[tuple[str, timedelta], ...]

    def __init__(self, period: timedelta | None = None, weekdays: tuple[int, ...] = (),
                 hour: time = time(0, 0), tz: str = "UTC", early: bool = True,
                 grace: timedelta = timedelta(0), reminder: timedelta = timedelta(hours=24),
                 classes: tuple[tuple[str, timedelta], ...] = ()) -> None:
        for name, value in (("period", period), ("weekdays", weekdays), ("hour", hour),
                            ("tz", tz), ("early", early), ("grace", grace),
                            ("reminder", reminder), ("classes", classes)):
            object.__setattr__(self, name, value)
        if (period is None) == (not weekdays):
            raise ScheduleError("a schedule needs either a period or weekdays, not both")
        if period is not None and period <= timedelta(0):
            raise ScheduleError("schedule period must be longer than zero")
        parse_zone(tz)

    @property
    def zone(self) -> ZoneInfo:
        import zoneinfo

        return zoneinfo.ZoneInfo(self.tz)

    def next_deadline(self, after: datetime, *, min_gap: timedelta = timedelta(0),
                      deadline_class: str = "main") -> datetime:
        """The deadline of a turn that starts at ``after`` (UTC result).

        A step of a listed deadline class: ``after`` + the class's duration. Period schedules:
        ``after + period``. Weekday schedules: the first scheduled weekday and local hour strictly
        later than ``after + min_gap`` (``min_gap`` keeps a turn processed early from getting a
        deadline a few hours away).
        """
        require_aware(after, "turn start")
        for name, duration in self.classes:
            if name == deadline_class:
                return (after + duration).astimezone(UTC)
        if self.period is not None:
            return (after + self.period).astimezone(UTC)
        earliest = (after + min_gap).astimezone(self.zone)
        day: date = earliest.date()
        for offset in range(8):
            candidate_day = day + timedelta(days=offset)
            if candidate_day.weekday() not in self.weekdays:
                continue
            candidate = local_to_utc(candidate_day, self.hour, self.zone)
            if candidate > earliest:
                return candidate
        raise AssertionError("unreachable: a weekday recurs within 8 days")  # pragma: no cover

    def reminder_at(self, deadline: datetime) -> datetime:
        """When powers without orders are reminded."""
        return (require_aware(deadline, "deadline") - self.reminder).astimezone(UTC)

    def grace_end(self, deadline: datetime) -> datetime:
        """When a turn is resolved even though orders are missing."""
        return (require_aware(deadline, "deadline") + self.grace).astimezone(UTC)

    def is_due(self, deadline: datetime, now: datetime, *, all_orders_in: bool) -> bool:
        """Whether a turn with ``deadline`` should be resolved at ``now``.

        All orders in: due at once if ``early``, else at the deadline. Orders missing: due when the
        grace period after the deadline is over.
        """
        require_aware(now, "now")
        if all_orders_in:
            return self.early or now >= deadline
        return now >= self.grace_end(deadline)

    def describe(self) -> str:
        if self.period is not None:
            return f"every {format_duration(self.period)}"
        days = ", ".join(WEEKDAYS[d] for d in self.weekdays)
        return f"{days} at {self.hour.strftime('%H:%M')} {self.tz}"


def local_to_utc(day: date, hour: time, zone: ZoneInfo) -> datetime:
    """A local wall-clock time to UTC. A time in a spring-forward gap is moved forward by the gap;
    an ambiguous (fall-back) time means its first occurrence."""
    # zoneinfo with fold=0 does exactly this: a gap time takes the offset from before the gap
    # (so 02:30 becomes 03:30 summer time) and an ambiguous time its first occurrence.
    return datetime.combine(day, hour, tzinfo=zone).astimezone(UTC)


def local_time(when: datetime, tz: str | None) -> datetime:
    """``when`` in a player's zone (UTC if none), for display."""
    return require_aware(when).astimezone(parse_zone(tz) if tz else UTC)
