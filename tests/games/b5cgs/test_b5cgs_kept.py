"""What B5 keeps between calls to draw a step once (issue 30, "a B5 step ≤ 1.5× a 4000 A.D.
game-turn"): the text map's blank frame, each SVG hex per content, the cells of empty face-down
pieces, a state's views' shared parts, the units and guns of a board. Each gives what it would
give made afresh, and a state changed in place between two views shows in the second."""

from __future__ import annotations

import importlib

from tests.support.b5cgs_driver import PLUGIN, new_game, put
from tests.support.b5cgs_play import play

hexmap_text = importlib.import_module("b5cgs.hexmap_text")
hexmap_svg = importlib.import_module("b5cgs.hexmap_svg")
mapmodel = importlib.import_module("b5cgs.mapmodel")
threats = importlib.import_module("b5cgs.threats")

EA, MF = "earth-alliance", "minbari"


def _views():
    for variant, seed in (("basic-4", 7), ("modular-3", 8)):
        for _, _, after, events in play(variant, seed, 16):
            for power in (None, *after["seats"]):
                yield PLUGIN.view(after, power), events


def test_the_text_map_over_its_frame_is_the_map_drawn_whole():
    for view, _ in _views():
        cells = mapmodel.cells(view)
        frame = hexmap_text._frame(tuple(c["hex"] for c in cells),
                                   tuple(str(c["name"]) for c in cells))
        whole = []
        for head, band in frame:
            whole += [*head, *hexmap_text._band([cells[i] for i in band.cells])]
        assert hexmap_text.render(cells) == whole


def test_two_cells_in_one_place_are_drawn_in_order():
    cells = [{"hex": (0, 0), "name": "0,0", "exposed": True, "marks": ["e3"], "unit": "t1:2",
              "owner": "E"},
             {"hex": (0, 0), "name": "0,0", "exposed": False, "marks": [], "unit": None,
              "owner": None},
             {"hex": (1, 0), "name": "1,0", "exposed": True, "marks": [], "unit": None,
              "owner": None}]
    lines = hexmap_text.render(cells)
    # the later cell drawn over the earlier, its blank lines too; the frame is not used
    assert [line.strip() for line in lines[:2]] == ["0,0", ":::::"]
    assert "e3" not in "\n".join(lines) and "t1:2" not in "\n".join(lines)
    assert lines == hexmap_text._band(cells)


def test_a_hex_drawn_again_is_the_hex_drawn_first():
    for view, events in _views():
        cells = mapmodel.cells(view)
        colours = mapmodel.colours(view)
        lines = hexmap_svg.step_lines(view, events)
        kept = hexmap_svg.drawing(cells, colours, lines)
        hexmap_svg._layout.cache_clear()  # every spot's hexes drawn anew
        fresh = hexmap_svg.drawing(cells, colours, lines)
        assert repr(kept) == repr(fresh)


def test_the_cells_of_empty_face_down_pieces_are_the_cells_made_afresh():
    for view, _ in _views():
        kept = mapmodel.cells(view)
        mapmodel._facedown.cache_clear()
        assert mapmodel.cells(view) == kept


def test_a_state_changed_in_place_shows_in_its_next_view():
    st = new_game()
    before = PLUGIN.view(st, EA)
    assert PLUGIN.view(st, MF)["powers"] is before["powers"]  # one part for a state's views
    st["powers"][EA]["reserve"] += 7
    tid = put(st, "ea-hyperion", EA, "1,0", 1)
    after = PLUGIN.view(st, MF)
    assert after["powers"][EA]["reserve"] == before["powers"][EA]["reserve"] + 7
    assert tid in after["tokens"] and tid not in before["tokens"]
    assert after["powers"][EA]["banks"]["upkeep"] > before["powers"][EA]["banks"]["upkeep"]
    assert [u["id"] for u in threats.threats(after, EA)] == threats.units(after, EA)
    assert tid in [u["id"] for u in threats.threats(after, EA)]
