"""The receipt written without Jinja (pbem.render.plain) is the receipt its templates write: every
branch of the three templates, for every game, compared byte for byte with Jinja's rendering of
the same context; and a changed template (a game's override, an edit) is rendered by Jinja."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path
from typing import Any

import pytest
from markupsafe import Markup

from pbem.game import registry
from pbem.render import mails, plain
from pbem.render.environment import Renderer, format_when, keepsake
from pbem.resources import templates_root

LONG_SIG = "pbem-receipt game=g power=algol turn=2 seq=1\n sig=" + "A" * 120
SHORT_SIG = "pbem-receipt game=g power=algol turn=2 seq=1\n sig=c2ln"


def _jinja(renderer: Renderer, name: str, ctx: dict[str, Any]) -> str:
    return renderer.env.get_template(name).render(**ctx)


def _contexts() -> list[dict[str, Any]]:
    """A receipt context for each combination of what its templates branch on."""
    out = []
    games = [
        {"id": "g1", "title": "g1", "game_title": "4000 A.D.", "referee": "", "schedule": "",
         "checkpoint": None, "deadline": format_when("2026-12-02T18:00:00Z", "Asia/Tokyo")},
        {"id": "g<2>", "title": "Tom & Jerry's \"war\"", "game_title": "", "referee": "",
         "schedule": "", "checkpoint": None, "deadline": format_when("2026-12-02T18:00:00Z")},
        {"id": "g3", "title": "Third", "game_title": "Ashes", "referee": "", "schedule": "",
         "checkpoint": None, "deadline": None},
    ]
    lines = [[], ["Fleet 3 at Vega moves to Mira (2 ships).", Markup("<b>kept</b> & said"),
                  "An order whose words run on and on past the width of one line of a text "
                  "mail, so that it wraps onto a second and a third line with <angles> & "
                  "ampersands"]]
    late = {"deadline": format_when("2026-12-02T18:00:00Z", "Asia/Tokyo"),
            "received": format_when("2026-12-02T19:30:00Z", "Asia/Tokyo")}
    seats = (None, "Your seat was on autopilot: these orders take it back <now> & here.")
    for game, line_set, standing, is_late, early, ready, chance, sig, seat in itertools.product(
            games, lines, (False, True), (False, True), (True, False), (True, False),
            (None, "Your chance value for step 3 was not in this file: <drawn> & used."),
            (None, SHORT_SIG, LONG_SIG), seats):
        out.append({**({"seat": seat} if seat else {}),
                    "game": game, "player": {"name": "Ann", "email": "a@x", "tz": ""},
                    "power": "algol", "name": "Algol <the first>", "turn": 7, "seq": 3,
                    "next_seq": 4, "ready": ready, "early": early,
                    "late": late if is_late else None, "lines": line_set, "chance": chance,
                    "standing": standing, "signature": keepsake(sig, "receipt.txt"),
                    "subject": "[g1] Orders received: Algol <the first>, turn 7 (seq 3)"})
    return out


@pytest.mark.parametrize("game", registry.available())
def test_the_plain_receipt_is_jinjas_for_every_branch(game: str) -> None:
    renderer = Renderer(game)
    contexts = _contexts()
    assert len(contexts) > 500
    common = templates_root() / "common"
    for name, (_, sources, _digest) in plain.WRITERS.items():
        own = [s for s in sources if next(p for p in renderer.search_path
                                          if (Path(p) / s).is_file()) != common]
        if own:  # a game's own template: Jinja renders it unless it is the same
            continue  # (test_an_override_of_a_receipt_template_is_rendered_by_jinja)
        assert plain.fits(name, renderer.search_path), (
            f"{name} or a template it uses changed: make pbem.render.plain write it as the "
            "templates do, then put the new sources_digest in plain.WRITERS")
        for ctx in contexts:
            assert plain.render(name, ctx) == _jinja(renderer, name, ctx), (name, ctx)


def test_a_summary_in_the_keepsake_is_written_as_jinja_writes_it() -> None:
    renderer = Renderer("4000ad")
    ctx = _contexts()[2]  # (a short signature, no seat)
    ctx["signature"] = {**ctx["signature"], "summary": "log 3 entries, head ab…cd <x>"}
    for name in ("receipt.txt", "receipt.html"):
        assert plain.render(name, ctx) == _jinja(renderer, name, ctx)


def test_a_receipt_mail_is_the_same_with_or_without_jinja() -> None:
    """A whole receipt (mails.receipt: the game's presenter, the view) through the renderer
    without Jinja and through Jinja alone."""
    from tests.support.ad_driver import AD, Table
    from tests.support.report_scenario import GAME

    table = Table()
    orders, _ = AD.normalize_orders({}, AD.view(dict(table.state), "algol"))
    player = {"name": "Ann", "email": "ann@example.org", "tz": "Asia/Tokyo"}
    made = []
    for use_plain in (True, False):
        renderer = mails.Renderer("4000ad")
        if not use_plain:
            renderer._plain = dict.fromkeys(plain.WRITERS, False)
        made.append(mails.receipt(renderer, AD, table.state, "algol", orders, player, GAME,
                                  seq=3, signature=SHORT_SIG))
        assert ("env" in vars(renderer)) is not use_plain  # no Jinja environment was made
    assert made[0] == made[1] and "seq 3" in made[0].text


def test_an_override_of_a_receipt_template_is_rendered_by_jinja(tmp_path: Path) -> None:
    """A game directory's own receipt.txt (or one it includes) is no source plain was written
    from: the renderer loads the templates, and the mail says what the override says."""
    common = templates_root() / "common"
    (tmp_path / "templates").mkdir()
    shutil.copy(common / "footer.txt", tmp_path / "templates" / "footer.txt")
    with (tmp_path / "templates" / "footer.txt").open("a", encoding="utf-8") as f:
        f.write("Our own footer.\n")
    renderer = Renderer("4000ad", tmp_path)
    assert not plain.fits("receipt.txt", renderer.search_path)
    assert plain.fits("receipt.html", renderer.search_path)
    ctx = _contexts()[0]
    assert renderer.render("receipt.txt", ctx).endswith("Our own footer.\n")
    assert renderer.render("receipt.html", ctx) == plain.render("receipt.html", ctx)
