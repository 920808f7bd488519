"""Deadline arithmetic, with the callers' "now" frozen by freezegun, across DST changes."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest
from freezegun import freeze_time

from pbem.schedule import (
    Schedule,
    ScheduleError,
    format_duration,
    local_time,
    parse_duration,
    parse_hour,
    parse_iso,
    parse_weekday,
    parse_zone,
    to_iso,
)

MON, THU, SUN = 0, 3, 6
PARIS_MON_THU = Schedule(weekdays=(MON, THU), hour=time(18, 0), tz="Europe/Paris")


def utc(text: str) -> datetime:
    return parse_iso(text)


def now() -> datetime:
    """What a caller (the turn job) passes in: the current time, frozen in tests."""
    return datetime.now(UTC)


@pytest.mark.parametrize(
    ("text", "delta"),
    [
        ("48h", timedelta(hours=48)),
        ("2d", timedelta(days=2)),
        ("90m", timedelta(minutes=90)),
        ("1d12h", timedelta(hours=36)),
        ("0h", timedelta(0)),
        ("1d2h30m", timedelta(minutes=1590)),
    ],
)
def test_durations_round_trip(text, delta):
    assert parse_duration(text) == delta
    assert parse_duration(format_duration(delta)) == delta


@pytest.mark.parametrize("bad", ["48", "h", "", "2 days", "-1h", 48, None])
def test_bad_durations(bad):
    with pytest.raises(ScheduleError, match="grace"):
        parse_duration(bad, "grace")


def test_iso_round_trip_and_naive_rejected():
    when = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
    assert to_iso(when) == "2026-11-30T17:00:00Z"
    assert parse_iso("2026-11-30T17:00:00Z") == when
    assert parse_iso("2026-11-30T17:00:00+00:00") == when
    paris = when.astimezone(parse_zone("Europe/Paris"))
    assert to_iso(paris) == "2026-11-30T17:00:00Z"
    with pytest.raises(ScheduleError, match="no time zone"):
        to_iso(datetime(2026, 11, 30, 17))
    with pytest.raises(ScheduleError, match="not an ISO-8601 UTC time"):
        parse_iso("2026-11-30T18:00:00+01:00")


def test_hour_weekday_zone_errors():
    assert parse_hour("18:00") == time(18, 0)
    with pytest.raises(ScheduleError, match="quote it"):
        parse_hour(1080)
    with pytest.raises(ScheduleError, match="not a time of day"):
        parse_hour("25:00")
    assert parse_weekday("Thu") == THU and parse_weekday("thursday") == THU
    with pytest.raises(ScheduleError, match="not a weekday"):
        parse_weekday("thr")
    with pytest.raises(ScheduleError, match="not a known IANA time zone"):
        parse_zone("Europe/Pariss")


def test_schedule_needs_exactly_one_kind():
    with pytest.raises(ScheduleError, match="either a period or weekdays"):
        Schedule()
    with pytest.raises(ScheduleError, match="either a period or weekdays"):
        Schedule(period=timedelta(hours=48), weekdays=(MON,))


@freeze_time("2026-11-30T17:00:00Z")
def test_period_deadline_from_now():
    sched = Schedule(period=timedelta(hours=48))
    assert sched.next_deadline(now()) == utc("2026-12-02T17:00:00Z")
    assert sched.describe() == "every 2d"


@freeze_time("2026-12-01T09:00:00Z")  # a Tuesday in winter (CET, UTC+1)
def test_weekday_deadline_in_winter():
    assert PARIS_MON_THU.next_deadline(now()) == utc("2026-12-03T17:00:00Z")  # Thu 18:00 CET


@freeze_time("2026-12-03T17:00:00Z")  # exactly Thursday's deadline: the next one is Monday
def test_weekday_deadline_strictly_after():
    assert PARIS_MON_THU.next_deadline(now()) == utc("2026-12-07T17:00:00Z")


@freeze_time("2027-03-25T17:00:00Z")  # Thu 18:00 CET; clocks go forward Sun 28 March
def test_weekday_deadline_across_spring_forward():
    deadline = PARIS_MON_THU.next_deadline(now())
    assert deadline == utc("2027-03-29T16:00:00Z")  # Mon 18:00 CEST (UTC+2)
    assert local_time(deadline, "Europe/Paris").hour == 18


@freeze_time("2026-10-22T16:00:00Z")  # Thu 18:00 CEST; clocks go back Sun 25 October
def test_weekday_deadline_across_fall_back():
    deadline = PARIS_MON_THU.next_deadline(now())
    assert deadline == utc("2026-10-26T17:00:00Z")  # Mon 18:00 CET (UTC+1)
    assert deadline - now() == timedelta(days=4, hours=1)  # the weekend had 25 hours


@freeze_time("2027-03-27T12:00:00Z")
def test_nonexistent_local_time_moves_forward_by_the_gap():
    sched = Schedule(weekdays=(SUN,), hour=time(2, 30), tz="Europe/Paris")
    deadline = sched.next_deadline(now())
    assert deadline == utc("2027-03-28T01:30:00Z")  # 03:30 CEST: 02:30 does not exist that day
    assert local_time(deadline, "Europe/Paris").strftime("%H:%M %Z") == "03:30 CEST"


@freeze_time("2026-10-24T12:00:00Z")
def test_ambiguous_local_time_means_first_occurrence():
    sched = Schedule(weekdays=(SUN,), hour=time(2, 30), tz="Europe/Paris")
    assert sched.next_deadline(now()) == utc("2026-10-25T00:30:00Z")  # 02:30 CEST, not CET


@freeze_time("2027-03-10T12:00:00Z")
def test_other_zone_changes_on_its_own_date():
    sched = Schedule(weekdays=(SUN,), hour=time(18, 0), tz="America/New_York")
    assert sched.next_deadline(now()) == utc("2027-03-14T22:00:00Z")  # EDT began that morning
    paris = Schedule(weekdays=(SUN,), hour=time(18, 0), tz="Europe/Paris")
    assert paris.next_deadline(now()) == utc("2027-03-14T17:00:00Z")  # Paris still on CET


@freeze_time("2026-12-03T10:00:00Z")  # Thu morning: processed early
def test_min_gap_skips_a_deadline_too_close():
    assert PARIS_MON_THU.next_deadline(now()) == utc("2026-12-03T17:00:00Z")
    gap = timedelta(hours=24)
    assert PARIS_MON_THU.next_deadline(now(), min_gap=gap) == utc("2026-12-07T17:00:00Z")


def test_reminder_grace_and_due():
    sched = Schedule(
        period=timedelta(hours=48),
        early=True,
        grace=timedelta(hours=2),
        reminder=timedelta(hours=24),
    )
    deadline = utc("2026-12-02T17:00:00Z")
    assert sched.reminder_at(deadline) == utc("2026-12-01T17:00:00Z")
    assert sched.grace_end(deadline) == utc("2026-12-02T19:00:00Z")
    with freeze_time("2026-12-01T12:00:00Z"):
        assert sched.is_due(deadline, now(), all_orders_in=True)
        assert not sched.is_due(deadline, now(), all_orders_in=False)
    with freeze_time("2026-12-02T18:00:00Z"):  # late, inside the grace period
        assert not sched.is_due(deadline, now(), all_orders_in=False)
    with freeze_time("2026-12-02T19:00:00Z"):
        assert sched.is_due(deadline, now(), all_orders_in=False)
    patient = Schedule(period=timedelta(hours=48), early=False)
    with freeze_time("2026-12-01T12:00:00Z"):
        assert not patient.is_due(deadline, now(), all_orders_in=True)
    with freeze_time("2026-12-02T17:00:00Z"):
        assert patient.is_due(deadline, now(), all_orders_in=True)
        assert patient.is_due(deadline, now(), all_orders_in=False)  # grace 0


def test_describe_weekdays():
    assert PARIS_MON_THU.describe() == "mon, thu at 18:00 Europe/Paris"
