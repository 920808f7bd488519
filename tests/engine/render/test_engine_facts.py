"""The engine supplies every engine fact to every template context itself: a presenter that
returns none of them (here: nothing at all) cannot crash a mail after a logged resolution,
whether the game has templates of its own that read the facts or uses the generic ones of
templates/common/. (A game used to crash its first ``pbem run`` with ``KeyError:
'resolved_turn'`` after the resolution was logged.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from pbem.game import registry
from pbem.game.base import Presenter
from pbem.render import mails

GAME = {"game_id": "facts", "title": "Facts", "deadline": "2026-12-06T10:00:00Z",
        "checkpoint": None, "instance": "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61",
        "missed": {"blue": 2}, "seq": {"red": 3, "blue": 1}}


class Silent(Presenter):
    """A presenter that returns no key at all: every fact a template shows is the engine's."""

    def welcome(self, view: Any, readers: Sequence[str]) -> dict[str, Any]:
        return {}

    def report(self, before: Any, view: Any, *, readers: Sequence[str], missed: int,
               seq: int) -> dict[str, Any]:
        return {}

    def shared(self, views: Any, events: Any, readers: Sequence[str]) -> dict[str, Any]:
        return {}

    def gm(self, public: Any, views: Any, events: Any, secrets: Any) -> dict[str, Any]:
        return {}

    def game_end(self, view: Any, events: Any, readers: Sequence[str],
                 reveal: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        return {}


FACTS = ("turn {{ resolved_turn }}/{{ first.resolved_turn }}, missed {{ first.missed }}, "
         "{{ first.name }} ({{ first.power }}) seq {{ first.seq }} for turn {{ first.turn }}; "
         "next {{ turn }} ({{ step }}), over {{ over }}, names {{ names | join(',') }}, "
         "game {{ game.game_title }} {{ game.deadline.utc }}")


@pytest.fixture
def silent_rps(monkeypatch: pytest.MonkeyPatch) -> Any:
    plugin = registry.load("rps")
    monkeypatch.setattr(plugin, "presenter", Silent())
    return plugin


def _resolved(plugin: Any) -> tuple[dict[str, Any], Any]:
    state = plugin.setup("best-of-3", {"game_id": "facts"})
    return state, plugin.resolve(state, {"red": {"throw": "rock"}, "blue": {}}, None)


def test_a_games_own_templates_get_the_engine_facts_from_a_silent_presenter(
        silent_rps: Any, tmp_path: Path) -> None:
    own = tmp_path / "templates"
    own.mkdir()
    for ext in (".subject.txt", ".txt", ".html"):
        (own / f"turn_report{ext}").write_text(FACTS + "\n")
    renderer = mails.Renderer("rps", game_dir=tmp_path)
    before, result = _resolved(silent_rps)
    mail = mails.turn_report(renderer, silent_rps, before, result.state, result.events, ["blue"],
                             {}, GAME)
    assert mail.text.startswith("turn 1/1, missed 2, Blue (blue) seq 1 for turn 2; next 2 "
                                "(Round 2), over False, names Blue, game Rock, Paper, Scissors "
                                "Sun 6 Dec 2026 10:00 UTC"), mail.text


def test_every_generic_mail_renders_from_a_silent_presenter(silent_rps: Any) -> None:
    renderer = mails.Renderer("rps")
    before, result = _resolved(silent_rps)
    assert "Welcome" in mails.welcome(renderer, silent_rps, before, ["red"], {}, GAME).subject
    mail = mails.turn_report(renderer, silent_rps, before, result.state, result.events,
                             ["red", "blue"], {}, GAME)
    assert "Turn 1 report for Red and Blue" in mail.subject and "TURN 1" in mail.text
    gm = mails.gm_summary(renderer, silent_rps, before, result.state, result.events, GAME)
    assert "turn 1 resolved" in gm.subject
    ended = silent_rps.end_game(result.state, "agreed")
    end = mails.game_end(renderer, silent_rps, ended.state, ended.events, ["red"], {}, GAME, [])
    assert "THE GAME IS OVER" in end.text
