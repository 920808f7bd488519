"""What B5 keeps between calls to draw a step once (issue 30, "a B5 step ≤ 1.5× a 4000 A.D.
game-turn"): the text map's blank frame, each SVG hex per content, the cells of empty face-down
pieces, a state's views' shared parts (the component tables read-only, their bytes kept for the
process), the units and guns of a board, the Scrap Yards, the map drawn once for every reader.
Each gives what it would give made afresh, and a state changed in
place between two views shows in the second."""

from __future__ import annotations

import copy
import importlib

import pytest

from pbem import canonical
from pbem.render import mails
from tests.support.b5cgs_driver import PLUGIN, ScriptedChance, new_game, put
from tests.support.b5cgs_play import played

hexmap_text = importlib.import_module("b5cgs.hexmap_text")
hexmap_svg = importlib.import_module("b5cgs.hexmap_svg")
mapmodel = importlib.import_module("b5cgs.mapmodel")
threats = importlib.import_module("b5cgs.threats")
view_mod = importlib.import_module("b5cgs.view")
present = importlib.import_module("b5cgs.present")
turn = importlib.import_module("b5cgs.turn")
frozen = importlib.import_module("b5cgs.frozen")

EA, MF = "earth-alliance", "minbari"


def _views():
    for variant, seed in (("basic-4", 7), ("modular-3", 8)):
        for _, _, after, events in played(variant, seed, 16):
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


def test_the_scrap_yards_kept_for_a_board_are_the_yards_made_afresh():
    st = new_game()
    tid = put(st, "ea-hyperion", EA, "1,0", 1)
    st["tokens"][tid]["scrap"] = True
    for view, _ in [*_views(), (PLUGIN.view(st, None), [])]:
        for p in view["seats"]:
            fresh = [f"{t} {mapmodel.token_type(view, v).get('title') or v['type']}"
                     for t, v in sorted(view["tokens"].items())
                     if v.get("owner") == p and v.get("scrap")]
            assert present._bank(view, p)["scrap"] == fresh
    assert present._bank(PLUGIN.view(st, None), EA)["scrap"]


#: A view's containers every view of a state shares (its reader's own part, ``you``, is not).
_PUBLIC = ("options", "seats", "order", "window", "map", "hexes", "tokens", "powers", "pack")


def _nested(value):
    """Every dict and list object within ``value``, itself included, by identity."""
    seen = {}
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict | list) and id(item) not in seen:
            seen[id(item)] = item
            stack.extend(item.values() if isinstance(item, dict) else item)
    return seen


def test_the_views_of_a_state_share_their_public_parts_and_nothing_writable_of_the_state():
    for variant, seed in (("basic-4", 7), ("modular-3", 8)):
        for _, _, after, _ in played(variant, seed, 16):
            views = [PLUGIN.view(after, p) for p in (None, *after["seats"])]
            for key in _PUBLIC:
                assert all(v[key] is views[0][key] for v in views), key
            mine = [v["you"] for v in views[1:]]
            assert len({id(y) for y in mine}) == len(mine)
            assert all(y["contested"] == after["powers"][p]["contested"]
                       for y, p in zip(mine, after["seats"], strict=True))
            held = _nested(after)
            for v in views:  # nothing writable the state holds is handed out in a view
                shared = set(_nested(v)) & set(held)
                assert all(type(held[i]) in (frozen.Frozen, frozen.FrozenList) for i in shared)


def test_a_view_holds_what_a_view_of_the_state_made_afresh_holds():
    for _, _, after, _ in played("modular-3", 8, 16):
        for power in (None, *after["seats"]):
            kept = PLUGIN.view(after, power)
            for key in ("seats", "order", "options", "window", "result"):
                view_mod._BOARD.pop(key, None)
            assert PLUGIN.view(copy.deepcopy(after), power) == kept


def test_a_state_whose_small_parts_change_in_place_shows_them_in_its_next_view():
    st = new_game()
    before = PLUGIN.view(st, EA)
    st["order"].reverse()
    st["options"]["extra"] = True
    st["current"] = MF
    after = PLUGIN.view(st, EA)
    assert after["order"] == list(reversed(before["order"]))
    assert after["options"]["extra"] is True and "extra" not in before["options"]
    assert after["window"]["due"] == [MF] != before["window"]["due"]


def test_each_readers_map_is_the_drawing_with_his_rule_put_in():
    """The map B5's presenter draws once per resolution (present.map_context hands every
    reader the shared drawing): each mail's map.svg and inline map are that drawing with the
    readers' rule put in, for one reader, two, and the game master's summary."""
    for _, _, after, events in played("basic-4", 7, 8)[-2:]:
        renderer = mails.Renderer("b5cgs")
        seats = list(after["seats"])
        groups = [[p] for p in seats] + [seats[:2]]
        for group in groups:
            mail = mails.turn_report(renderer, PLUGIN, after, after, events, group,
                                     {"name": "x", "email": "x@y"}, _GAME)
            seen = [PLUGIN.view_events(list(events), p) for p in group]
            union = [e for e in events if any(e in s for s in seen)]
            views = [renderer.view(PLUGIN, after, p) for p in group]
            pres = mails.presenter(PLUGIN)
            svg = mails._map(renderer, pres, views[0], group,
                             f"Check — after turn {after['turn']}",
                             pres.shared(views, union, group))
            attached = dict((n, b) for n, _, b in mail.attachments)["map.svg"]
            assert attached == svg.encode()
            inline = svg[svg.index("?>") + 2:].lstrip()
            assert inline in mail.html
            css = "".join(f".p-{p}.dot{{stroke-width:2}}.p-{p}.name{{font-weight:bold}}"
                          for p in sorted(group))  # B5's ids are hyphenated: CSS names too
            assert f"<style>{css}</style>" in inline and all(f"p-{p}" in css for p in group)
        gm = mails.gm_summary(renderer, PLUGIN, after, after, events, _GAME)
        assert b"<style></style>" in dict((n, b) for n, _, b in gm.attachments)["map.svg"]


_GAME = {"game_id": "g", "title": "Check", "deadline": None, "checkpoint": None, "missed": {},
         "instance": "0" * 32}


def test_the_views_component_tables_refuse_every_write_and_their_copies_are_plain():
    """The pack's tables every view of a game shares (view._pack_tables) are read-only to the
    bottom (frozen.freeze), which is what lets the renderer keep their bytes for the process
    (pbem.render.cache.lasting_json); a copy of a view (deepcopy, or the pickle of the order
    checks' plain_copy) is plain data, free to change."""
    v = PLUGIN.view(new_game(), EA)
    pack = v["pack"]
    base = pack["tokens"]["base-2"]
    writes = [lambda: pack["tokens"].__setitem__("x", {}), lambda: base.update(build=1),
              lambda: base.__setitem__("build", 1), lambda: base["dr"].append(1),
              lambda: base["dr"].__setitem__(0, 9), lambda: base["arcs"]["laser"].clear(),
              lambda: pack["dice"].pop("b5"), lambda: base["dr"].sort()]
    for write in writes:
        with pytest.raises(TypeError, match="states and views are never changed"):
            write()
    assert base["build"] == 5 and base["dr"] == [4, 2]
    for made in (copy.deepcopy(v), turn.plain_copy(v), copy.copy(pack["tokens"])):
        tokens = made["pack"]["tokens"] if "pack" in made else made
        assert type(tokens) is dict and tokens == pack["tokens"]
        tokens["base-2"] = {"build": 1}
    assert pack["tokens"]["base-2"]["build"] == 5


def test_a_changed_pack_gets_its_own_tables_and_bytes():
    """A game whose pack differs (another pack, or a copy of one changed) gets its own tables
    in its views, and its view.json shows them: the bytes kept for the process belong to the
    old tables' object, which the new views do not hold."""
    st = new_game()
    renderer = mails.Renderer("b5cgs")
    old = PLUGIN.view(st, EA)
    assert b'"build":5' in renderer.cache.json(old)
    changed = copy.deepcopy(st)
    changed["pack"]["tokens"]["base-2"]["build"] = 6
    new = PLUGIN.view(changed, EA)
    assert new["pack"]["tokens"] is not old["pack"]["tokens"]
    assert new["pack"]["tokens"]["base-2"]["build"] == 6
    for view in (new, old, PLUGIN.view(st, EA)):  # and back: the old pack's tables again
        plain = turn.plain_copy(view)
        assert mails.Renderer("b5cgs").cache.json(view) == canonical.encode(plain)
    assert b'"build":6' in mails.Renderer("b5cgs").cache.json(new)


def _step(st):
    return PLUGIN.resolve(st, {}, ScriptedChance(lenient=True)).state


def test_a_resolved_states_pack_is_read_only_and_one_per_equal_pack():
    """A step's new state holds its pack read-only (turn.shared_pack), one copy for every
    state whose pack is equal (another game of the same pack: its bytes kept for the process,
    pbem.render.cache.lasting_json), while a state whose pack differs gets its own; each
    state's state.json is the canonical encoding of it as plain data."""
    st = new_game()
    after = _step(st)
    other = _step(copy.deepcopy(st))  # another game, its own pack
    assert other["pack"] is after["pack"] and isinstance(after["pack"], frozen.Frozen)
    with pytest.raises(TypeError, match="states and views are never changed"):
        after["pack"]["tokens"]["base-2"]["dr"][0] = 9
    changed = copy.deepcopy(st)
    changed["pack"]["tokens"]["base-2"]["build"] = 6
    mine = _step(changed)
    assert mine["pack"] is not after["pack"] and mine["pack"]["tokens"]["base-2"]["build"] == 6
    assert after["pack"]["tokens"]["base-2"]["build"] == 5
    again = _step(copy.deepcopy(st))  # the first pack once more
    assert again["pack"]["tokens"]["base-2"]["build"] == 5
    for state in (after, mine, again):
        encoded = mails.Renderer("b5cgs").cache.state_json(state)
        assert encoded == canonical.encode(turn.plain_copy(state))
    assert b'"build":6' in mails.Renderer("b5cgs").cache.state_json(mine)
