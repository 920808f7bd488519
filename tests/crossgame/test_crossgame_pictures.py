"""Cross-game promises about pictures and archives, checked the same way for every game with a
demo (``python -m pbem.cli.demo GAME``: a whole game by mail, K revealed at its end):

* the last report's HTML part shows the game's picture inline (an ``<svg>`` element, not only
  the attached ``map.svg``), with every font size at least 11 px where the drawing is shown
  at its natural size;
* the full archive of the finished game shows a state and the game's own map on EVERY step
  (hidden draws replayed with the K the log reveals), never the public-export banner;
* the archive words every event as the reports do: no generic ``type: key=value`` dump;
* the report's map (its ``map.svg`` and the inline drawing) marks the reader's own pieces: a
  style rule for the reader's power, whose pieces the drawing classes by power;
* each power keeps one colour in the archive, given by the game (Ashes: by the power's name);
* at 420 px the archive's step page does not scroll sideways (the map scrolls in its box).

Every game with a demo gets these checks (``pbem.cli.demo.games_with_demos``), and every bundled
game must have one (``test_every_bundled_game_has_a_demo``); a game that omits a map, sentences
or colours fails them by name.
"""

from __future__ import annotations

import email
import json
import re
from email import policy
from html import unescape
from pathlib import Path

import pytest

from pbem.archive import build_archive
from pbem.archive.hooks import hooks_for
from pbem.cli.demo import games_with_demos
from pbem.game import registry
from tests.support.browser import chromium, url_of

GAMES = games_with_demos()
GENERIC_EVENT = re.compile(r"<li>[a-z_]+: [a-z_]+=")
_SITES: dict[str, Path] = {}


@pytest.fixture
def demo_of(demos):
    """``demo_of(game)``: (the export of the demo's finished game, the last report mail), from
    the session's one demo of the game (tests/conftest.py ``demos``)."""
    def get(game: str) -> tuple[Path, Path]:
        done = demos(game)
        return done.log, done.report

    return get


@pytest.fixture
def archive_of(demo_of, tmp_path_factory):
    """``archive_of(game)``: the full archive of the demo's finished game, built once per process
    in a directory of this process (the shared demo is only read)."""
    def get(game: str) -> Path:
        if game not in _SITES:
            export, _ = demo_of(game)
            site = tmp_path_factory.mktemp(f"archive-{game}")
            build_archive(export.read_bytes(), str(export), site)
            _SITES[game] = site
        return _SITES[game]

    return get


def test_every_bundled_game_has_a_demo() -> None:
    shipped = Path(__file__).resolve().parents[2] / "games"  # the checkout's games/
    bundled = [g for g in registry.available()
               if registry.game_dir(g).resolve().is_relative_to(shipped)]
    assert bundled and set(bundled) <= set(GAMES), f"bundled games without a demo: " \
        f"{sorted(set(bundled) - set(GAMES))}"


@pytest.mark.parametrize("game", GAMES)
def test_the_report_shows_the_picture_inline(game, demo_of):
    _, report = demo_of(game)
    msg = email.message_from_bytes(report.read_bytes(), policy=policy.default)
    html = msg.get_body(("html",))
    assert html is not None
    text = html.get_content()
    if game == "4000ad":  # its star map is an HTML table of the star field, drawn inline
        assert "▲ upper level" in text
        return
    assert "<svg" in text and 'role="img"' in text, f"{game}: no inline picture in the report"
    svg = text[text.index("<svg"):text.index("</svg>")]
    sizes = [float(s) for s in re.findall(r'font-size="([0-9.]+)"', svg)]
    assert sizes and min(sizes) >= 11, f"{game}: a text of {min(sizes)} px in the picture"
    assert "map.svg" in {p.get_filename() for p in msg.iter_attachments()}


@pytest.mark.parametrize("game", GAMES)
def test_the_reports_map_marks_the_readers_own_pieces(game, demo_of):
    """Whatever the game's power ids (B5's are hyphenated: "earth-alliance"), the reader's
    report draws his pieces in bold: the map carries a rule for his power's class."""
    _, report = demo_of(game)
    msg = email.message_from_bytes(report.read_bytes(), policy=policy.default)
    parts = {p.get_filename(): p.get_content() for p in msg.iter_attachments()}
    viewer = json.loads(parts["view.json"])["viewer"]
    svg = parts["map.svg"]
    svg = svg.decode() if isinstance(svg, bytes) else svg
    style = svg[svg.index("<style>"):svg.index("</style>")]
    assert f".p-{viewer}.dot{{stroke-width:2}}" in style, f"{game}: {viewer} is not marked"
    assert f"p-{viewer}" in svg[svg.index("</style>"):], f"{game}: no piece of {viewer} drawn"


@pytest.mark.parametrize("game", GAMES)
def test_every_step_of_a_finished_game_has_a_state_and_a_map(game, archive_of):
    site = archive_of(game)
    steps = sorted(site.glob("step-*.html"))
    assert len(steps) >= 4
    for page in steps:
        html = unescape(page.read_text())
        assert "not in this export" not in html and "is withheld" not in html, page.name
        assert '<svg xmlns="http://www.w3.org/2000/svg" class="map' in html \
            or '<svg class="map"' in html, f"{game} {page.name}: no map"
        assert not GENERIC_EVENT.search(html), \
            f"{game} {page.name}: an event as a raw dump: {GENERIC_EVENT.search(html)}"


@pytest.mark.parametrize("game", GAMES)
def test_each_power_has_the_colour_the_game_gives_it(game, archive_of):
    hooks = hooks_for(game)
    assert hooks.module is not None and hasattr(hooks.module, "archive_colours"), game
    site = archive_of(game)
    index = (site / "index.html").read_text()
    if game == "ashes":  # by name: red is drawn red, blue blue, whatever the seat
        for power, ink in (("red", "#b91c1c"), ("blue", "#1d4ed8"), ("green", "#047857")):
            assert re.search(rf'background[^;"]*{ink}[^<]*</span>\s*{power}', index) \
                or f"{ink}" in index, f"ashes: {power} is not drawn {ink}"


def test_a_hidden_draw_is_replayed_from_the_revealed_k(archive_of):
    """Ashes shuffles the deck in secret: without K the archive could show nothing after the
    deal; the demo's log reveals K at the end, so the first step after the deal has a table."""
    site = archive_of("ashes")
    page = unescape((site / "step-001.html").read_text())
    assert "Neutral galaxy" in page


@pytest.mark.parametrize("game", ["ashes", "b5cgs"])
def test_phone_width_archive_and_report(game, demo_of, archive_of, tmp_path):
    """At 420 px neither the archive's step page nor the report's HTML scrolls sideways (the
    map scrolls in its own box); screenshots at 420 and 1000 px are kept beside the site."""
    site = archive_of(game)
    _, report = demo_of(game)
    msg = email.message_from_bytes(report.read_bytes(), policy=policy.default)
    html = msg.get_body(("html",))
    assert html is not None
    page = tmp_path / "report.html"
    page.write_text(html.get_content())
    step = sorted(site.glob("step-*.html"))[2]
    for width in (420, 1000):
        with chromium(width=width, height=1400) as driver:
            for target in (step, page):
                driver.get(url_of(target))
                overflow = driver.execute_script(
                    "return document.documentElement.scrollWidth - "
                    "document.documentElement.clientWidth")
                assert overflow <= 0, f"{game} {target.name} scrolls sideways at {width} px"
                driver.save_screenshot(str(site / f"{target.stem}-{width}.png"))
