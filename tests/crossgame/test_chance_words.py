"""What players are told about fair chance, for every game (issue 26): the welcome mail of a
game with dice carries the genesis hash, the referee's ``referee_tip`` and the signing line with
``--view``; every report of a step that drew lists each public draw in words and says how to
re-check it; the steps drawn without the reader's value are said; 4000 A.D. has no dice, and
none of these words appear in its mails."""

from __future__ import annotations

import json
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.render import mails
from pbem.render.notes import draw_words
from tests.support.pbem_host import Host, at

GAMES = {"ashes": "rounds-2", "b5cgs": "basic-2", "4000ad": "independents-3", "ti4": "small-3"}
WITH_DICE = ("ashes", "b5cgs", "ti4")
PLAYER = {"name": "", "email": "", "tz": ""}
DRAWS = [{"label": "battle:turn3:red:attacker", "kind": "roll", "faces": [1, 2, 3, 4, 5, 6],
          "count": 3, "result": [6, 2, 4]},
         {"label": "first-player", "kind": "below", "n": 3, "result": 1}]


@pytest.fixture(scope="module", params=list(GAMES))
def host(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Host:
    game = request.param
    h = Host(tmp_path_factory.mktemp(game), GAMES[game], game=game, game_id=f"{game}-words")
    h.run(at(0.1))  # the welcome mails
    return h


def welcome_text(h: Host, power: str) -> str:
    mail = h.sent(f"{power}@example.org")[0]  # the first mail a player gets
    body = mail.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def test_the_welcome_carries_the_genesis_and_referee_tip_where_the_game_draws(host: Host
                                                                                ) -> None:
    game = host.plugin.id
    power = host.powers[0]
    text = welcome_text(host, power)
    genesis = host.game().genesis
    if game in WITH_DICE:
        assert f"referee_tip: {genesis['random']['referee_tip']}" in text
        assert f"genesis: {host.game().log.entries[0].hash}" in text
        assert "pbem orders sign orders.yaml --key YOUR.key --view WELCOME.eml" in text
    else:
        assert "referee_tip" not in text and "FAIR CHANCE" not in text
        assert "--view view.json" in text  # its signing line works too


def test_dice_verify_takes_the_referee_tip_from_the_welcome_mail(host: Host,
                                                                 tmp_path: Path) -> None:
    """The welcome mail saved as a file is what --referee-tip reads."""
    from pbem.cli.dice import _referee_tip

    mail = host.sent(f"{host.powers[0]}@example.org")[0]
    path = tmp_path / "welcome.eml"
    path.write_bytes(bytes(mail))
    if host.plugin.id in WITH_DICE:
        assert _referee_tip(str(path)).hex() == host.game().genesis["random"]["referee_tip"]
    else:
        with pytest.raises(Exception, match="gives no referee_tip"):
            _referee_tip(str(path))


def report(h: Host, chance: dict | None) -> mails.RenderedMail:
    state = h.state()
    power = h.powers[0]
    events = [{"type": "chance", "step": 3, "draws": DRAWS}] if chance else []
    info = {"game_id": h.game_id, "title": h.game_id, "deadline": None, "checkpoint": None,
            "seq": 1, "chance": chance, "instance": "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"}
    return mails.turn_report(mails.Renderer(h.plugin.id), h.plugin, state, state, events,
                             [power], PLAYER, info)


def test_a_report_that_drew_lists_each_draw_in_words_and_how_to_recheck_it(host: Host) -> None:
    if host.plugin.id not in WITH_DICE:
        mail = report(host, None)
        for word in ("FAIR CHANCE", "dice verify", "chance."):
            assert word not in mail.text and word.lower() not in mail.html.lower()
        return
    power = host.powers[0]
    mail = report(host, {"step": 3, "draws": DRAWS, "referee_tip": "ab" * 32,
                         "missing": {power: [[2, 3]]}})
    text = " ".join(mail.text.split())
    assert "FAIR CHANCE, STEP 3" in text
    assert "pbem dice verify THIS.eml" in text and "chance-step-3.json" in text
    assert "--referee-tip WELCOME.eml" in text
    for draw in DRAWS:
        assert draw_words(draw) in text
    assert "battle turn3 red attacker: rolled 6, 2, 4" in text
    assert "Steps 2–3 were drawn without your value" in text
    assert "pbem dice verify THIS.eml" in mail.html
    assert "\nchance.\n" not in mail.text  # no bare event line
    section = mail.text.split("FAIR CHANCE", 1)[1].split("\n\n", 1)[0]
    assert all(len(line) <= 80 for line in section.splitlines())


def test_the_signing_line_of_the_welcome_works_with_the_mail_as_saved(host: Host,
                                                                     tmp_path: Path) -> None:
    """The welcome mail saved as WELCOME.eml is a view the tool reads (view.json inside)."""
    from pbem.protocol.orderfile import load_view

    power = host.powers[0]
    mail = host.sent(f"{power}@example.org")[0]
    path = tmp_path / "WELCOME.eml"
    path.write_bytes(bytes(mail))
    view = load_view(path)
    assert view["viewer"] == power
    if host.plugin.id in WITH_DICE:
        assert view["chance"]["tip"] is None  # the set-up: sign commits a tip


def test_a_message_without_the_tip_is_one_line(tmp_path: Path) -> None:
    from pbem.cli.dice import _referee_tip

    msg = EmailMessage()
    msg["Subject"] = "hello"
    msg.set_content(json.dumps({"no": "tip"}))
    path = tmp_path / "x.eml"
    path.write_bytes(bytes(msg))
    with pytest.raises(Exception, match="gives no referee_tip"):
        _referee_tip(str(path))
