"""config.yaml: parsing, every problem named by its key, and a faithful round trip."""

from __future__ import annotations

from datetime import time, timedelta

import pytest

from pbem.store.gameconfig import ConfigError, GameConfig
from tests.support.configs import GOOD


def load(text: str) -> GameConfig:
    return GameConfig.from_yaml(text, "config.yaml")


def problems(text: str) -> str:
    with pytest.raises(ConfigError) as info:
        load(text)
    return str(info.value)


def test_good_config():
    text = GOOD.replace("paused: no", "paused: false")
    cfg = load(text)
    assert cfg.game_id == "andromeda-7" and cfg.variant == "independents-4"
    assert cfg.mode == "sequential" and cfg.options == {"ships_at_start": 12}
    assert list(cfg.powers) == ["pavo", "antares", "regulus", "algol"]
    assert cfg.powers["pavo"].tz == "Europe/Paris"
    assert cfg.powers["regulus"].key == "keys/regulus.pub"
    s = cfg.schedule
    assert (s.weekdays, s.hour, s.tz) == ((0, 3), time(18, 0), "Europe/Paris")
    assert (s.early, s.grace, s.reminder) == (True, timedelta(hours=2), timedelta(hours=24))
    assert cfg.nmr_alert == 3 and cfg.paused is False
    assert cfg.sender == "4000 AD referee <referee@example.org>"


def test_round_trip_through_yaml():
    cfg = load(GOOD.replace("paused: no", "paused: true"))
    again = load(cfg.to_yaml())
    assert again == cfg
    data = cfg.to_data()
    data["schedule"] = {"period": "48h", "reminder": "12h"}
    period = GameConfig.from_data(data)
    assert period.schedule.period == timedelta(hours=48)
    assert load(period.to_yaml()) == period


def test_yaml11_boolean_is_not_accepted_silently():
    assert "paused: must be true or false, not 'no'" in problems(GOOD)


def test_all_problems_named_by_key():
    text = (
        GOOD.replace("paused: no", "paused: false")
        .replace("game_id: andromeda-7", "game_id: Andromeda 7")
        .replace("mode: sequential", "mode: sequentail")
        .replace("gm@example.org", "gm-at-example")
        .replace(
            "  pavo: {email: ann@example.org, tz: Europe/Paris}",
            "  pavo: {email: ann@example.org, tz: Europe/Pariss, colour: red}",
        )
        .replace("grace: 2h", "grace: 2 hours")
        .replace("weekdays: [mon, thu]", "weekdays: [mon, thr]")
        + "nmr_alerts: 2\n"
    )
    msg = problems(text)
    assert msg.startswith("config.yaml: ")
    for expected in [
        "nmr_alerts: unknown key (did you mean nmr_alert?)",
        "game_id: 'Andromeda 7' must be a slug",
        "mode: 'sequentail' must be one of simultaneous, sequential",
        "gm: 'gm-at-example' is not an email address",
        "powers.pavo.colour: unknown key",
        "powers.pavo.tz: 'Europe/Pariss' is not a known IANA time zone",
        "schedule.grace: '2 hours' is not a duration",
        "schedule.weekdays[1]: 'thr' is not a weekday",
    ]:
        assert expected in msg, (expected, msg)


def test_schedule_shapes():
    base = GOOD.replace("paused: no", "paused: false")
    both = base.replace("  weekdays: [mon, thu]\n", "  weekdays: [mon, thu]\n  period: 48h\n")
    assert "schedule: give either period (like 48h) or weekdays and hour, not both" in problems(
        both
    )
    neither = base.replace("  weekdays: [mon, thu]\n  hour: 18:00\n", "")
    assert "not neither" in problems(neither)
    assert "schedule: is missing" in problems(base.split("schedule:")[0])
    bad_hour = base.replace("hour: 18:00", "hour: 25:00")
    assert "schedule.hour: '25:00' is not a time of day" in problems(bad_hour)


def test_structure_problems():
    assert "game_id: is missing" in problems("game: 4000ad\n")
    assert "powers: is missing" in problems("game: 4000ad\n")
    dup = GOOD.replace("nmr_alert: 3", "nmr_alert: 3\nnmr_alert: 4")
    assert "nmr_alert: key nmr_alert appears twice" in problems(dup)
    assert "options: game_id and mode are set at the top level" in problems(
        GOOD.replace("{ships_at_start: 12}", "{mode: sequential}")
    )
    assert "powers.regulus.key: '../x.pub' must be a path inside the game directory" in problems(
        GOOD.replace("regulus: cy@example.org", "regulus: {email: cy@example.org, key: ../x.pub}")
    )


def test_load_from_file(tmp_path):
    path = tmp_path / "config.yaml"
    path.write_text(GOOD.replace("paused: no", "paused: false"), encoding="utf-8")
    assert GameConfig.load(path).game_id == "andromeda-7"
    path.write_text(GOOD, encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"{path}: paused"):
        GameConfig.load(path)
    with pytest.raises(Exception, match="no game configuration"):
        GameConfig.load(tmp_path / "missing.yaml")


def test_a_powers_digest_pace_is_read_checked_and_written_back():
    """``powers.NAME.digest`` (pbem.host.mailpolicy): every-step unless said; a pace not in
    DIGESTS is refused by key; a config written back keeps it, and omits the default."""
    cfg = load(GOOD.replace("paused: no", "paused: false"))
    assert {p.digest for p in cfg.powers.values()} == {"every-step"}
    assert "digest" not in cfg.to_yaml()
    powers = {**cfg.powers, "pavo": cfg.powers["pavo"].replace(digest="daily")}
    again = load(cfg.replace(powers=powers).to_yaml())
    assert again.powers["pavo"].digest == "daily" and again.powers["algol"].digest == "every-step"
    hourly = cfg.powers["pavo"].replace(digest="hourly")
    bad = cfg.replace(powers={**cfg.powers, "pavo": hourly}).to_yaml()
    assert "powers.pavo.digest" in problems(bad) and "when-due" in problems(bad)


def test_the_digest_pace_is_the_players_own_choice_else_the_game_masters():
    """``GameConfig.digest_pace``, the one reader of the pace: a player's signed prefs
    (``players.<power>.prefs.digest``) win over ``powers.<power>.digest``; neither: every step."""
    cfg = load(GOOD.replace("paused: no", "paused: false"))
    powers = {**cfg.powers, "pavo": cfg.powers["pavo"].replace(digest="daily"),
              "algol": cfg.powers["algol"].replace(digest="daily")}
    text = cfg.replace(powers=powers).to_yaml()
    text += "players:\n  algol: {prefs: {digest: when-due}}\n"
    again = load(text)
    assert again.digest_pace("algol") == "when-due"  # his own choice
    assert again.digest_pace("pavo") == "daily"  # the game master's
    others = [p for p in again.powers if p not in ("algol", "pavo")]
    assert others and all(again.digest_pace(p) == "every-step" for p in others)
