"""The renderer's environment keeps each template's globals as one plain dict
(DictFirstEnvironment.make_globals) instead of Jinja's ChainMap: the mails come out exactly as
with Jinja's own, and a template's globals stay its own."""

from __future__ import annotations

import jinja2
import pytest

from pbem.render import mails
from pbem.render.jinjaenv import DictFirstEnvironment
from tests.support.ad_driver import AD, Table
from tests.support.report_scenario import GAME

PLAYER = {"name": "Ann", "email": "ann@example.org", "tz": "Asia/Tokyo"}


class _ChainMapGlobals(DictFirstEnvironment):
    """The same environment with Jinja's own template globals (a ChainMap)."""

    make_globals = jinja2.Environment.make_globals


def _stock(renderer: mails.Renderer) -> mails.Renderer:
    ours = renderer.env
    env = _ChainMapGlobals(loader=ours.loader, undefined=ours.undefined,
                           autoescape=ours.autoescape, trim_blocks=True, lstrip_blocks=True,
                           keep_trailing_newline=True, auto_reload=False)
    env.filters.update(ours.filters)
    env.globals.update({k: v for k, v in ours.globals.items() if k not in env.globals})
    other = mails.Renderer("4000ad")
    other.env = env
    return other


def test_mails_are_the_same_as_with_jinjas_globals() -> None:
    ours = mails.Renderer("4000ad")
    stock = _stock(ours)
    assert type(ours.env.get_template("receipt.html").globals) is dict
    table = Table()
    before = table.state
    events = table.play()
    pair = (ours, stock)
    made = [mails.turn_report(r, AD, before, table.state, events, ["algol"], PLAYER, GAME)
            for r in pair]
    assert made[0] == made[1]
    made = [mails.rejection(r, ["bad"], PLAYER, GAME) for r in pair]
    assert made[0] == made[1]
    orders, _ = AD.normalize_orders({}, AD.view(dict(table.state), "algol"))
    made = [mails.receipt(r, AD, table.state, "algol", orders, PLAYER, GAME, seq=3,
                          signature="sig", late={"deadline": "2026-12-02T18:00:00Z",
                                                 "grace_end": "2026-12-02T18:00:00Z"},
                          received="2026-12-02T19:00:00Z") for r in pair]
    assert made[0] == made[1] and "seq 3" in made[0].text

def test_a_templates_globals_stay_its_own() -> None:
    env = mails.Renderer("4000ad").env
    names = dict(env.globals)
    with_x = env.from_string("{{ x }} {{ range(2) | list }}", globals={"x": "mine"})
    assert with_x.render() == "mine [0, 1]"
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ x }}").render()
    assert env.globals == names
