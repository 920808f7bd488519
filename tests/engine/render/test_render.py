"""The generic renderer: template lookup order, strictness, escaping, times, keepsakes."""

from __future__ import annotations

import pytest

from pbem.render import mails
from tests.support.ad_driver import AD, Table
from tests.support.report_scenario import CHECKPOINT, GAME

PLAYER = {"name": "Ann <ann@example.org>", "email": "ann@example.org", "tz": "Asia/Tokyo"}


def test_game_directory_templates_override_the_bundled_ones(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "rejection.subject.txt").write_text("[{{ game.id }}] NO\n")
    mail = mails.rejection(mails.Renderer("4000ad", tmp_path), ["bad"], PLAYER, GAME)
    assert mail.subject == "[test-game] NO"
    assert "bad" in mail.text, "the other templates still come from templates/common"
    plain = mails.rejection(mails.Renderer("4000ad"), ["bad"], PLAYER, GAME)
    assert plain.subject.startswith("[test-game] Orders rejected")


def test_game_templates_come_before_common_ones():
    r = mails.Renderer("4000ad")
    assert r.env.get_template("turn_report.txt").filename.endswith("templates/4000ad/"
                                                                    "turn_report.txt")
    assert r.env.get_template("receipt.txt").filename.endswith("templates/common/receipt.txt")


def test_a_missing_value_fails_loudly(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "x.txt").write_text("{{ nothing_here }}")
    with pytest.raises(mails.RenderError, match="nothing_here"):
        mails.Renderer("4000ad", tmp_path).render("x.txt", {})
    with pytest.raises(mails.RenderError, match="no template 'nope.txt'"):
        mails.Renderer("4000ad").render("nope.txt", {})


def test_html_is_escaped_text_is_not():
    r = mails.Renderer("4000ad")
    mail = mails.html_only_reply(r, PLAYER, GAME, subject="<b>orders</b> & more")
    assert '"<b>orders</b> & more"' in mail.text
    assert "&lt;b&gt;orders&lt;/b&gt; &amp; more" in mail.html
    assert "<b>orders</b>" not in mail.html


def test_deadline_in_utc_and_the_players_zone():
    when = mails.format_when("2026-12-02T18:00:00Z", "Europe/Paris")
    assert when == {"iso": "2026-12-02T18:00:00Z", "utc": "Wed 2 Dec 2026 18:00 UTC",
                    "local": "19:00 Europe/Paris", "tz": "Europe/Paris"}
    assert mails.format_when("2026-12-02T18:00:00Z", "Asia/Tokyo")["local"] == \
        "Thu 3 Dec 03:00 Asia/Tokyo"
    assert mails.format_when("2026-12-02T18:00:00Z", None)["local"] == ""
    assert mails.format_when(None, "Europe/Paris") is None


def test_report_shows_the_deadline_in_the_players_zone():
    t = Table()
    before = t.state
    events = t.play()
    mail = mails.turn_report(mails.Renderer("4000ad"), AD, before, t.state, events,
                              ["algol"], PLAYER, GAME)
    assert ("Orders for turn 2 are due Wed 2 Dec 2026 18:00 UTC (Thu 3 Dec 03:00 Asia/Tokyo "
            "your time).") in " ".join(mail.text.split())


def test_a_checkpoint_too_wide_for_80_columns_is_attached_whole():
    item = mails.keepsake(CHECKPOINT, "checkpoint.txt")
    assert item["attached"] and item["lines"] == []
    assert item["summary"] == "log 53 entries, head 9c41…4b"
    short = mails.keepsake("signed: abc\n sig=xyz\n", "receipt.txt")
    assert not short["attached"] and short["lines"] == ["signed: abc", " sig=xyz"]
    assert mails.keepsake(None, "x.txt") is None


def test_para_wraps_and_indents():
    text = mails.para("word " * 30, 4, "  - ")
    lines = text.splitlines()
    assert lines[0].startswith("  - word") and all(x.startswith("    word") for x in lines[1:])
    assert max(len(x) for x in lines) <= 79


def test_a_game_without_a_presenter_is_refused():
    class NoGame:
        id = "nosuchgame"

    with pytest.raises(Exception, match="nosuchgame"):
        mails.presenter(NoGame())  # type: ignore[arg-type]
