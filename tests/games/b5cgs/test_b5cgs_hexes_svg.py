"""B5's map.svg hexes (hexmap_svg.hexes_svg, written in Python for speed), kept small by design
(issue 30: the map goes twice into every B5 mail): each hex a short path with the six corners
the polygons had, its fill and class once per run of hexes of one kind in the order they are
painted, the names grouped by fill, numbers without a needless ``.0``. Checked over played
games of both variants, early and late, the game master's map and a reader's: the structural
facts (hex count, the corners, classes and fills per kind, the names and marks) and a size
bound per hex; and, in headless Chromium, that the map draws the same pixels as the same map
written the way the polygons wrote it (each hex a polygon with its own fill and class, each text
its own attributes, in (q, r) order)."""

from __future__ import annotations

import importlib
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from pbem.render import mails
from tests.support.b5cgs_driver import PLUGIN
from tests.support.b5cgs_play import played
from tests.support.browser import chromium, url_of

hexmap_svg = importlib.import_module("b5cgs.hexmap_svg")
mapmodel = importlib.import_module("b5cgs.mapmodel")
present = importlib.import_module("b5cgs.present")

NS = "{http://www.w3.org/2000/svg}"
#: fill and class of a hex: Babylon 5's, an exposed one, a face-down one
KINDS = {"b5": "#fde68a", "exposed": "#f8fafc", "facedown": "#9ca3af"}
#: SVG 1.1 elements every program that shows SVG at all draws (no <use>, no <foreignObject>)
ELEMENTS = {"svg", "title", "style", "defs", "marker", "path", "rect", "text", "g", "circle",
            "line"}
#: bytes at most: hexes_svg per hex (path, name, the runs' share) and per hex with marks (the
#: element, beside its text; the polygons took 195 a hex), the whole map.svg per hex of a board
#: with no unit on it (was 245)
PER_HEX, PER_MARKS, MAP_PER_HEX = 115, 32, 170


def _maps() -> Any:
    """(view, events, map.svg) of early and late steps of played games, both variants, for
    the game master and two readers (the reader's rule put in)."""
    pres = mails.presenter(PLUGIN)
    renderer = mails.Renderer("b5cgs")
    for variant, seed in (("basic-4", 7), ("modular-3", 8)):
        steps = played(variant, seed, 16)  # the games test_b5cgs_kept.py reads
        for i in sorted({0, 1, len(steps) // 2, len(steps) - 1}):
            after, events = steps[i][2], steps[i][3]
            for reader in (None, after["seats"][0], after["seats"][-1]):
                view = PLUGIN.view(after, reader)
                shared = {"drawing": present.board(present.public_part(view), events)["drawing"]}
                svg = mails._map(renderer, pres, view, [reader] if reader else [],
                                 f"{variant} step {i}", shared)
                yield view, events, svg


MAPS = list(_maps())


def _corners(d: str) -> list[tuple[float, float]]:
    """The corners a hex's path visits, in order (M, implicit and explicit L, H; closed)."""
    assert re.fullmatch(r"M[-\d. HLz]+z", d), d
    points: list[tuple[float, float]] = []
    for op, args in re.findall(r"([MLH])([^MLHz]*)", d):
        nums = [float(v) for v in args.split()]
        if op == "H":
            points += [(x, points[-1][1]) for x in nums]
        else:
            points += list(zip(nums[::2], nums[1::2], strict=True))
    return points


def _kind(cell: dict[str, Any]) -> tuple[str, str]:
    fill = KINDS["b5" if "B5" in cell["marks"] else
                 "exposed" if cell["exposed"] else "facedown"]
    return fill, "hex" if cell["exposed"] else "hex facedown"


@pytest.mark.parametrize("index", range(len(MAPS)))
def test_the_hexes_are_the_cells_in_order_with_their_corners_kinds_and_names(index):
    view, _, svg = MAPS[index]
    cells = mapmodel.cells(view)
    root = ET.fromstring(svg[svg.index("<svg"):])
    hexes, names = root.findall(f"{NS}g")[:2]
    assert (hexes.get("class"), hexes.get("stroke"), hexes.get("stroke-width")) == \
        ("hexes", "#cbd5e1", "0.8")
    painted = [((run.get("fill"), run.get("class")), path.get("d"))
               for run in hexes for path in run]
    assert all(len(run) for run in hexes) and all(  # runs: no empty one, none like the last
        (a.get("fill"), a.get("class")) != (b.get("fill"), b.get("class"))
        for a, b in zip(hexes[:-1], hexes[1:], strict=True))
    assert len(painted) == len(cells) == 7 * len(view["map"]["slots"])
    layout = hexmap_svg._layout(tuple(c["hex"] for c in cells),
                                tuple(c["piece"] for c in cells))
    for cell, (kind, d), spot in zip(cells, painted, layout.spots, strict=True):
        assert kind == _kind(cell), cell["name"]
        want = [(round(x, 1), round(y, 1)) for x, y in
                (hexmap_svg.corner(spot.x, spot.y, i) for i in range(6))]
        assert _corners(d) == want, cell["name"]  # the polygon's corners, in its order
    # names: white on a face-down hex, grey on an exposed one; the marks bold blue
    assert names.get("class") == "hex-names" and names.get("font-size") == "11"
    text = {g.get("fill"): [(t.get("x"), t.get("y"), t.text) for t in g] for g in names}
    for exposed, fill in ((False, "#f9fafb"), (True, "#4b5563")):
        assert [t[2] for t in text.get(fill, [])] == [c["name"] for c in cells
                                                      if bool(c["exposed"]) == exposed]
    marks = [" ".join(c["marks"]) for c in cells if c["exposed"] and c["marks"]]
    assert [t[2] for t in text.get("#1e40af", [])] == marks
    if marks:
        assert names[-1].get("class") == "marks" and names[-1].get("font-weight") == "bold"


@pytest.mark.parametrize("index", range(len(MAPS)))
def test_the_map_is_small_by_design_and_plain_svg(index):
    view, _, svg = MAPS[index]
    cells = mapmodel.cells(view)
    drawing = present.board(present.public_part(view))["drawing"]
    written = str(drawing["hexes_svg"])
    marks = [" ".join(c["marks"]) for c in cells if c["exposed"] and c["marks"]]
    assert len(written.encode()) <= (PER_HEX * len(cells) + PER_MARKS * len(marks)
                                     + len("".join(marks)))
    if not any(c["token"] for c in cells):
        assert len(svg.encode()) <= MAP_PER_HEX * len(cells)
    for part in (written, drawing["border_path"], svg[svg.index("<svg"):]):
        assert not re.search(r"\d\.0(?!\d)", part)  # no needless .0 (but XML's version)
        assert max(len(line.encode()) for line in part.splitlines()) <= 998  # a mail line
    root = ET.fromstring(svg[svg.index("<svg"):])
    assert {e.tag.removeprefix(NS) for e in root.iter()} <= ELEMENTS
    # its accessible name, and the classes the reader's rule and the tests read
    title = root.find(f"{NS}title")
    assert title is not None and root.get("aria-label") == title.text and \
        root.get("role") == "img"
    assert ("facedown" in svg) == any(not c["exposed"] for c in cells)
    reader = view.get("viewer")
    if reader and any(c["token"] and c["token"]["power"] == reader for c in cells):
        assert f".p-{reader}.dot{{" in svg and f'class="dot p-{reader}"' in svg


def test_no_board_is_two_empty_groups():
    assert str(hexmap_svg.drawing([], {})["hexes_svg"]) == (
        '<g class="hexes" stroke="#cbd5e1" stroke-width="0.8">\n</g>\n'
        '<g class="hex-names" font-size="11" text-anchor="middle">\n</g>\n')


def test_every_kind_and_mark_is_seen():
    seen = {(_kind(c), bool(c["marks"])) for view, _, _ in MAPS for c in mapmodel.cells(view)}
    assert {((KINDS["facedown"], "hex facedown"), False), ((KINDS["exposed"], "hex"), True),
            ((KINDS["exposed"], "hex"), False), ((KINDS["b5"], "hex"), True)} <= seen


def _as_polygons(svg: str) -> str:
    """``svg`` with its hexes written as the polygons wrote them: a polygon per hex with the
    points of its path, its run's fill and class its own, then every name and marks text with
    its group's attributes its own, in (q, r) order (a hex's name before its marks): the text
    main's hexmap_svg wrote for these hexes, but for the numbers' needless ``.0``."""
    start, end = svg.index('<g class="hexes"'), svg.index('<path class="pieces"')
    root = ET.fromstring(svg[svg.index("<svg"):])
    hexes, names = root.findall(f"{NS}g")[:2]
    out = ['<g class="hexes" stroke="#cbd5e1" stroke-width="0.8">\n']
    for run in hexes:
        for path in run:
            points = " ".join(f"{x},{y}" for x, y in _corners(path.get("d", "")))
            out.append(f'<polygon points="{points}" fill="{run.get("fill")}" '
                       f'class="{run.get("class")}"/>\n')
    out.append('</g>\n<g class="hex-names" font-size="11" text-anchor="middle">\n')
    texts = []
    for group in names:
        marks = group.get("class") == "marks"
        extra = ' font-weight="bold"' if marks else ""
        for t in group:
            x, y = float(t.get("x", "")), float(t.get("y", ""))
            centre = y - hexmap_svg.SIZE * 0.78 if marks else y + hexmap_svg.SIZE * 0.55
            texts.append(((x, centre, marks),
                          f'<text x="{t.get("x")}" y="{t.get("y")}"{extra} '
                          f'fill="{group.get("fill")}"'
                          + (' class="marks"' if marks else "") + f">{t.text}</text>\n"))
    texts.sort()
    # a hex's name before its marks (its centre, worked out from a rounded y, may sort after)
    for i in range(len(texts) - 1):
        (x, c, marks), (x2, c2, marks2) = texts[i][0], texts[i + 1][0]
        if marks and not marks2 and x == x2 and abs(c - c2) < 1:
            texts[i], texts[i + 1] = texts[i + 1], texts[i]
    out += [text for _, text in texts]
    out.append("</g>\n")
    return svg[:start] + "".join(out) + svg[end:]


def test_the_map_draws_the_pixels_the_polygons_drew(tmp_path):
    picks = [MAPS[0], MAPS[len(MAPS) // 2 + 1], MAPS[-2]]  # early and late, GM and readers
    assert {m[0].get("viewer") is None for m in picks} == {True, False}
    with chromium(width=900, height=1000) as driver:
        for i, (view, _, svg) in enumerate(picks):
            old = _as_polygons(svg)
            assert old.count("<polygon ") == len(mapmodel.cells(view))
            shots = []
            for name, text in (("new", svg), ("polygons", old)):
                page = tmp_path / f"{i}-{name}.svg"
                page.write_text(text)
                driver.get(url_of(page))
                shots.append(driver.get_screenshot_as_png())
            assert shots[0] == shots[1], f"map {i}: the pixels differ"
