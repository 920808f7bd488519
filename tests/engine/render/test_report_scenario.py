"""The scripted games of tests/support/report_scenario.py hold what the report tests rely on."""

from __future__ import annotations

from tests.support.ad_driver import AD
from tests.support.report_scenario import golden_game, wild_game


def test_golden_game_has_what_the_goldens_show():
    t, rounds = golden_game()
    kinds = [e["type"] for r in rounds for e in r.events]
    for kind in ("departure", "arrival", "battle", "production", "home_captured",
                 "elimination"):
        assert kind in kinds, kind
    combined = [e for r in rounds for e in r.events
                if e["type"] == "battle" and len(e["fleets"]) == 2]
    assert combined and combined[0]["star"] == "Hamal"


def test_wild_game_has_a_secret_alliance_then_an_announcement():
    t, rounds = wild_game()
    first = rounds[0].after
    assert first["alliances"] == [{"members": ["algol", "regulus"], "public": False,
                                   "since": 1}]
    assert any(e["type"] == "alliance_announced" for r in rounds for e in r.events)
    assert AD.secrets(rounds[0].after, "antares")  # a proposal only antares and pavo know
