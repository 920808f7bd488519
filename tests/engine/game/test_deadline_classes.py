"""A game's steps name a deadline class (pbem.game.plugin.Window.deadline); config.yaml's
``schedule.classes`` gives a class its own duration (issue 15: short windows for reactions)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from pbem.schedule import Schedule
from pbem.store.gameconfig import ConfigError, GameConfig

START = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def test_a_listed_class_gets_its_own_duration_others_the_schedule() -> None:
    s = Schedule(period=timedelta(hours=48), classes=(("reaction", timedelta(hours=12)),))
    assert s.next_deadline(START, deadline_class="reaction") == START + timedelta(hours=12)
    assert s.next_deadline(START) == START + timedelta(hours=48)
    assert s.next_deadline(START, deadline_class="unlisted") == START + timedelta(hours=48)


def test_weekday_schedules_keep_their_days_for_main_steps() -> None:
    s = Schedule(weekdays=(0, 3), classes=(("reaction", timedelta(hours=6)),))
    assert s.next_deadline(START, deadline_class="reaction") == START + timedelta(hours=6)
    assert s.next_deadline(START).weekday() in (0, 3)


CONFIG = """\
game_id: g1
game: 4000ad
variant: independents-4
powers:
  pavo: {email: p@example.org}
  antares: {email: a@example.org}
  regulus: {email: r@example.org}
  algol: {email: l@example.org}
schedule:
  period: 48h
  classes: CLASSES
"""


def test_config_reads_and_writes_deadline_classes() -> None:
    config = GameConfig.from_yaml(CONFIG.replace("CLASSES", "{reaction: 12h, vote: 1d}"))
    assert dict(config.schedule.classes) == {"reaction": timedelta(hours=12),
                                             "vote": timedelta(days=1)}
    again = GameConfig.from_yaml(config.to_yaml())
    assert again.schedule.classes == config.schedule.classes


@pytest.mark.parametrize("classes, path", [
    ("{reaction: soon}", "schedule.classes.reaction"),
    ("{reaction: 0h}", "schedule.classes.reaction"),
    ("{Reaction!: 2h}", "schedule.classes.Reaction!"),
    ("[reaction]", "schedule.classes"),
])
def test_bad_deadline_classes_are_refused_by_path(classes: str, path: str) -> None:
    with pytest.raises(ConfigError) as caught:
        GameConfig.from_yaml(CONFIG.replace("CLASSES", classes))
    assert path in str(caught.value)
