"""The mail contexts pbem.game.shapes declares are the ones the engine builds: for each game mail,
a template made of every declared key (and every key of a nested declared shape) renders under
StrictUndefined, so a key the declaration names and the context lacks fails here, not in a
game's first report."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import pytest

from pbem.game import (
    GameEndContext,
    GmSummaryContext,
    MailFacts,
    PlayerInfo,
    ReportContext,
    WelcomeContext,
    registry,
)
from pbem.render import mails

GAME: MailFacts = {"game_id": "shapes", "title": "Shapes", "deadline": "2026-12-06T10:00:00Z",
                   "checkpoint": None, "instance": "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61",
                   "missed": {"blue": 1}, "seq": {"red": 2, "blue": 1}, "roster": []}
PLAYER: PlayerInfo = {"name": "Ann", "email": "ann@example.org", "tz": "Europe/Paris"}


def _nested(shape: Any) -> Any:
    """The TypedDict a key holds (itself, or the items of a list of them), or None."""
    if typing.is_typeddict(shape):
        return shape
    if typing.get_origin(shape) is list:
        (item,) = typing.get_args(shape)
        return item if typing.is_typeddict(item) else None
    return None


def template_of(shape: Any) -> str:
    """One line per declared key: ``{{ key }}``, and for a nested shape each of its keys."""
    lines = []
    for key, hint in typing.get_type_hints(shape).items():
        lines.append(f"{key}={{{{ {key} }}}}")
        inner = _nested(hint)
        if inner is not None:
            at = f"{key}[0]" if typing.get_origin(hint) is list else key
            lines += [f"{key}.{sub}={{{{ {at}[{sub!r}] }}}}"
                      for sub in typing.get_type_hints(inner)]
    return "\n".join(lines) + "\n"


SHAPES = {"welcome": WelcomeContext, "turn_report": ReportContext,
          "gm_summary": GmSummaryContext, "game_end": GameEndContext}


@pytest.fixture
def renderer(tmp_path: Path) -> mails.Renderer:
    own = tmp_path / "templates"
    own.mkdir()
    for name, shape in SHAPES.items():
        for ext in (".subject.txt", ".txt", ".html"):
            (own / f"{name}{ext}").write_text(template_of(shape))
    return mails.Renderer("rps", game_dir=tmp_path)


def test_every_declared_key_is_in_every_game_mails_context(renderer: mails.Renderer) -> None:
    plugin = registry.load("rps")
    before = plugin.setup("best-of-3", {"game_id": "shapes"})
    after = plugin.resolve(before, {"red": {"throw": "rock"}, "blue": {}}, None)
    ended = plugin.end_game(after.state, "agreed")
    rendered = {
        "welcome": mails.welcome(renderer, plugin, before, ["red"], PLAYER, GAME),
        "turn_report": mails.turn_report(renderer, plugin, before, after.state, after.events,
                                         ["red", "blue"], PLAYER, GAME),
        "gm_summary": mails.gm_summary(renderer, plugin, before, after.state, after.events,
                                       GAME),
        "game_end": mails.game_end(renderer, plugin, ended.state, ended.events, ["red"], PLAYER,
                                   GAME, []),
    }
    for name, mail in rendered.items():
        for key in typing.get_type_hints(SHAPES[name]):
            assert f"\n{key}=" in f"\n{mail.text}", (name, key)
    report = rendered["turn_report"].text
    assert "first.resolved_turn=1\n" in report and "reports.missed=0\n" in report, report
    assert "game.title=Shapes\n" in report and "player.tz=Europe/Paris\n" in report, report
