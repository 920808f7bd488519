"""Every promise pbem makes a player or game master, checked the same way for every installed
game and the toy game (tests/crossgame/README.md lists them). Each test reads the session's one
played game of its kind (tests/crossgame/support.py); the checks are in promises.py, so a game
that breaks one fails with the promise and the game named."""

from __future__ import annotations

import pytest

from pbem.game import registry
from tests.crossgame import promises
from tests.support.browser import chromium

GAMES = registry.available()  # every installed game and, in the tests, the toy game


def test_the_suite_covers_every_installed_game_and_the_toy_game() -> None:
    assert {"4000ad", "ashes", "b5cgs", "highcard"} <= set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_new_game_and_welcome_mail(played, game) -> None:
    promises.welcome(played(game))


@pytest.mark.parametrize("game", GAMES)
def test_the_players_tool_as_the_readme_shows_it(played, game) -> None:
    promises.players_tool(played(game))


@pytest.mark.parametrize("game", GAMES)
def test_orders_by_mail_through_ingest_stdin_get_a_receipt(played, game) -> None:
    promises.orders_by_mail(played(game))


@pytest.mark.parametrize("game", GAMES)
def test_a_missed_turn_is_reported_to_the_player_and_the_gm(played, game) -> None:
    promises.missed_turn(played(game))


@pytest.mark.parametrize("game", GAMES)
def test_the_gm_summary_names_whose_private_event_it_was(played, game) -> None:
    promises.gm_voice(played(game))


@pytest.mark.parametrize("game", GAMES)
def test_a_gm_operation_is_noticed_in_the_next_report(played, game) -> None:
    promises.gm_notice(played(game))


@pytest.mark.parametrize("game", GAMES)
def test_every_report_gives_the_deadline_in_both_parts(played, game) -> None:
    promises.deadlines(played(game))


@pytest.mark.parametrize("game", GAMES)
def test_the_end_of_the_game_has_consistent_notices(played, game) -> None:
    promises.game_end(played(game))


@pytest.mark.parametrize("game", GAMES)
def test_gm_status_shows_the_roots_size_and_its_mail(played, game) -> None:
    promises.gm_status_size(played(game))


@pytest.mark.parametrize("game", GAMES)
def test_export_and_audit_pass(played, game) -> None:
    promises.audit(played(game))


@pytest.mark.parametrize("game", GAMES)
def test_the_archive_shows_a_state_and_sentences_on_every_step(played, game) -> None:
    """(Pictures in the reports and the maps of the demos' archives: test_crossgame_pictures.)"""
    p = played(game)
    promises.archive(p)
    with chromium(width=1000, height=900) as driver:
        assert promises.archive_in_browser(p, driver) > p.steps


@pytest.mark.parametrize("game", GAMES)
def test_no_mail_or_public_page_leaks_a_secret(played, game) -> None:
    """(A game without hidden state at rest, game.yaml's information, has nothing to leak.)"""
    assert promises.leaks(played(game)) > 0 or registry.information(game) != "hidden"
