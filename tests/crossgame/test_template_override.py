"""The game master's own templates, for every game (docs/plugins.md, "Templates" and
"Writers"): a template put in the game directory's ``templates/`` is what the players' next
reports are rendered from, for the text part and the HTML part alike. A game whose reports are
written without Jinja while its bundled templates are unchanged (4000 A.D.'s writers) must
still honour an override of any template a report is made from: here the common
``_turn_notes.txt`` and ``layout.html`` every game's report includes.

The players' tools and mail run in the test process (tests.support.run: ``pbem_here``): the
promise is the rendering; their processes are proven in every game's end-to-end files."""

from __future__ import annotations

import email
from email import policy
from pathlib import Path

import pytest

from pbem.game import registry
from pbem.render.environment import Renderer
from tests.crossgame.adapters import adapter
from tests.support.mail_player import MailPlayer
from tests.support.pbem_host import Host, at

GAMES = registry.available()
MARK = "GM-TEMPLATE-OVERRIDE-7Q"


def _source(game: str, name: str) -> str:
    """The template ``name`` as a game directory without templates of its own loads it."""
    for folder in Renderer(game).search_path:
        path = Path(folder) / name
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise AssertionError(f"{game}: no template {name}")


@pytest.mark.parametrize("game", GAMES)
def test_a_template_in_the_game_directory_reaches_the_next_report(tmp_path: Path,
                                                                   game: str) -> None:
    host = Host(tmp_path, adapter(game).variant, game=game, game_id=f"override-{game}")
    host.run(at(0.1))
    own = host.path / "templates"
    own.mkdir()
    (own / "_turn_notes.txt").write_text(f"{MARK} text\n" + _source(game, "_turn_notes.txt"),
                                         encoding="utf-8")
    layout = _source(game, "layout.html")
    assert "{% block body %}" in layout, game
    (own / "layout.html").write_text(
        layout.replace("{% block body %}", f"<p>{MARK} html</p>\n{{% block body %}}", 1),
        encoding="utf-8")
    before = set(host.sent_files())
    resolved = 0
    for step in range(1, 4):  # each due player mails his tool's orders; past the deadline
        hour = 49.0 * step
        for power in host.plugin.powers_due(host.state()):
            player = MailPlayer(host, power, tmp_path / f"work-{power}", process=False)
            player.newest_view()
            player.mail_orders(hour - 40)
        [run] = host.run(at(hour))
        resolved += len(run.resolved)
        if resolved:
            break
    assert resolved, f"{game}: no step resolved past the deadline"
    players = {f"{p}@example.org" for p in host.powers}
    new = [email.message_from_bytes(raw, policy=policy.default)
           for name, raw in host.sent_files().items() if name not in before]
    mails = [m for m in new if any(a in str(m["To"]) for a in players)]
    assert mails, f"{game}: no mail to a player after the resolution"
    reports = 0
    for msg in mails:
        html = msg.get_body(("html",))
        if html is not None:
            assert f"<p>{MARK} html</p>" in str(html.get_content()), (game, msg["Subject"])
        text = str(msg.get_body(("plain",)).get_content())  # type: ignore[union-attr]
        reports += MARK in text
    assert reports, f"{game}: no player's report was rendered from the game's own templates"
