"""A player's own preferences (``players.<power>.prefs`` in config.yaml), set by the player's
signed prefs file (pbem.protocol.votedoc, pbem.host.votes) and read by the cron job and the
notices (docs/operations.md, "Player preferences")::

    players:
      algol:
        prefs:
          reminder: 12h            # remind this long before the deadline (default: the game's)
          quiet: "22:00-07:00"     # no reminder in these hours of the player's zone ...
          tz: Europe/Paris         # ... (default: the power's tz, else UTC)
          digest: daily            # every-step | daily | when-due (read by the digests)
          tell_when_due: true      # a mail when orders become due from this power

Quiet hours hold a reminder back: one that falls in them is sent when they end, or before they
start if the deadline would pass first (:func:`reminder_time`).
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from pbem.errors import Problem
from pbem.record import Record
from pbem.schedule import ScheduleError, format_duration, parse_duration, parse_hour, parse_zone

KEYS = ("reminder", "quiet", "tz", "digest", "tell_when_due")
DIGESTS = ("every-step", "daily", "when-due")


class Prefs(Record):
    __slots__ = ("reminder", "quiet", "tz", "digest", "tell_when_due")
    reminder: timedelta | None
    quiet: tuple[time, time] | None
    tz: str | None
    digest: str | None
    tell_when_due: bool | None

    def __init__(self, reminder: timedelta | None = None, quiet: tuple[time, time] | None = None,
                 tz: str | None = None, digest: str | None = None,
                 tell_when_due: bool | None = None) -> None:
        object.__setattr__(self, "reminder", reminder)
        object.__setattr__(self, "quiet", quiet)
        object.__setattr__(self, "tz", tz)
        object.__setattr__(self, "digest", digest)
        object.__setattr__(self, "tell_when_due", tell_when_due)

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.reminder is not None:
            data["reminder"] = format_duration(self.reminder)
        if self.quiet is not None:
            data["quiet"] = f"{self.quiet[0]:%H:%M}-{self.quiet[1]:%H:%M}"
        if self.tz is not None:
            data["tz"] = self.tz
        if self.digest is not None:
            data["digest"] = self.digest
        if self.tell_when_due is not None:
            data["tell_when_due"] = self.tell_when_due
        return data

    def line(self) -> str:
        """The settings in words (``gm status``, the prefs reply): ``none set`` if none."""
        data = self.to_data()
        return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in data.items()) or "none set"


def parse(value: object, path: str) -> tuple[Prefs, list[Problem]]:
    """A prefs mapping (config.yaml or a signed prefs file); every problem with its path."""
    problems: list[Problem] = []
    if not isinstance(value, dict):
        return Prefs(), [Problem("type", path, f"must be a mapping, not {value!r}")]
    fields: dict[str, Any] = {}
    for key, item in value.items():
        where = f"{path}.{key}"
        try:
            if key == "reminder":
                fields["reminder"] = parse_duration(item, where)
            elif key == "quiet":
                start, dash, end = str(item).partition("-") if isinstance(item, str) else ("", "",
                                                                                             "")
                if not dash:
                    raise ScheduleError(f"{where}: give HH:MM-HH:MM, not {item!r}")
                fields["quiet"] = (parse_hour(start.strip(), where), parse_hour(end.strip(), where))
            elif key == "tz":
                parse_zone(item, where)
                fields["tz"] = item
            elif key == "digest":
                if item not in DIGESTS:
                    raise ScheduleError(f"{where}: must be one of {', '.join(DIGESTS)}, not "
                                        f"{item!r}")
                fields["digest"] = item
            elif key == "tell_when_due":
                if not isinstance(item, bool):
                    raise ScheduleError(f"{where}: must be true or false, not {item!r}")
                fields["tell_when_due"] = item
            else:
                problems.append(Problem("unknown-key", where, f"unknown key {key!r} (prefs has "
                                        f"only {', '.join(KEYS)})"))
        except ScheduleError as exc:
            problems.append(Problem("invalid", where, str(exc)))
    return Prefs(**fields), problems


def _in_quiet(local: time, quiet: tuple[time, time]) -> bool:
    start, end = quiet
    return start <= local < end if start <= end else (local >= start or local < end)


def reminder_time(prefs: Prefs | None, default: datetime, deadline: datetime,
                  power_tz: str | None, not_before: datetime) -> datetime:
    """When a power's reminder goes: its own lead time (never before ``not_before``), else
    ``default``; moved out of its quiet hours: to their end, or, if that is at or after the
    deadline, to before they start."""
    when = (max(deadline - prefs.reminder, not_before)
            if prefs and prefs.reminder is not None else default)
    if prefs is None or prefs.quiet is None:
        return when
    from zoneinfo import ZoneInfo

    zone = ZoneInfo(prefs.tz or power_tz or "UTC")
    step = timedelta(minutes=1)
    local = when.astimezone(zone)
    if not _in_quiet(local.time().replace(second=0, microsecond=0), prefs.quiet):
        return when
    after = when
    while _in_quiet(after.astimezone(zone).time().replace(second=0, microsecond=0), prefs.quiet):
        after = after.replace(second=0, microsecond=0) + step
    if after < deadline:
        return after
    before = when
    while _in_quiet(before.astimezone(zone).time().replace(second=0, microsecond=0),
                    prefs.quiet):
        before = before.replace(second=0, microsecond=0) - step
    return before

