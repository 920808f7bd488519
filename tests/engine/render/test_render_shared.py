"""Fragments a resolution's mails share are drawn once, with the same bytes as drawn whole:
the map's star cells (``_map_cells.svg``, the same for every reader: the reader's own are marked
by CSS) are rendered once per renderer and put into each reader's map.svg, and each view is
computed once per state and power."""

from __future__ import annotations

from pbem.game import registry
from pbem.render import mails
from pbem.store import replay
from tests.support.pbem_host import Host, at


def test_the_map_from_shared_cells_is_the_map_drawn_whole(tmp_path):
    host = Host(tmp_path)
    for power in host.powers:
        body = {"depart": host.depart(power, host.state()["powers"][power]["home"], 3,
                                      "Hamal" if power == "algol" else "Vega")}
        assert host.submit(power, body, at(1)).verdict == "accepted"
    assert host.run(at(2))[0].status == "resolved"
    plugin = registry.load("4000ad")
    state = replay.load_state(plugin, host.game()).state
    renderer = mails.Renderer("4000ad")
    pres = mails.presenter(plugin)
    readers = [[p] for p in host.powers] + [host.powers[:2], []]
    for group in readers:
        view = renderer.view(plugin, state, group[0] if group else None)
        drawing = pres.map_context(dict(view), group, None)
        ctx = {**drawing, "title": "t", "turn": view["turn"], "readers_css": mails.READERS_CSS}
        whole = renderer.render("map.svg", ctx)  # the template's own path: no cells given
        shared = mails._svg(renderer, pres, view, group, "t")
        css = "".join(f".p-{p}.dot{{stroke-width:2}}.p-{p}.name{{font-weight:bold}}"
                      for p in sorted(group))
        assert shared == [("map.svg", "image/svg+xml",
                           whole.replace(mails.READERS_CSS, css).encode())]
    # One grid for every reader of the state: the cells were rendered once.
    assert len(renderer.cache.cells) == 1 and renderer.cache.cells[0][1] is not None


def test_each_view_is_computed_once_per_state_and_power(tmp_path):
    host = Host(tmp_path)
    plugin = registry.load("4000ad")
    state = host.state()
    renderer = mails.Renderer("4000ad")
    first = {p: renderer.view(plugin, state, p) for p in [*host.powers, None]}
    again = {p: renderer.view(plugin, state, p) for p in [*host.powers, None]}
    assert all(first[p] is again[p] for p in first)
    assert all(first[p] == plugin.view(dict(state), p) for p in first)
    other = dict(state)  # an equal state that is another object: computed afresh
    assert renderer.view(plugin, other, host.powers[0]) is not first[host.powers[0]]
