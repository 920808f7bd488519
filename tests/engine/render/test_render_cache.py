"""The renderer's cache (pbem.render.cache.RenderCache): a view's JSON is the canonical
encoding of it, byte for byte, whatever the views of one renderer share, and a shared object
is encoded once; a lasting object (read-only, declared so by its class) once per process."""

from __future__ import annotations

from typing import Any

import pytest

from pbem import canonical
from pbem.render import cache as cache_mod
from pbem.render.cache import RenderCache


def _views() -> list[dict[str, Any]]:
    board = {"stars": [{"id": i, "name": f"s{i}", "x": i * 1.5} for i in range(5)], "w": None}
    slots = ["a", "b"]
    out = []
    for power in ("north", "zed", "émile"):
        out.append({"board": board, "slots": slots, "viewer": power, "turn": 3,
                    "own": {"power": power, "ships": [1, 2]}, "empty": {}, "none": [],
                    "a": "first", "zz": "last", "é": True})
    return out


def test_views_are_their_canonical_encoding() -> None:
    cache = RenderCache()
    views = _views()
    for _ in range(2):  # a shared object seen once, then again, then encoded
        assert [cache.json(v) for v in views] == [canonical.encode(v) for v in views]
    assert cache.json({}) == b"{}"
    assert cache.json({1: "x"}) == canonical.encode({1: "x"})  # not str keys: encoded whole
    assert cache.json({"only": [1]}) == canonical.encode({"only": [1]})


def test_a_shared_object_is_encoded_once() -> None:
    """Each dict or list of a view is encoded once while the cache lives, and an object the
    views share (the board) once for all of them: the next views reuse its bytes, and a dict
    subclass (a game's read-only shared part) counts as a dict."""
    cache = RenderCache()
    views = _views()
    board = views[0]["board"]
    cache.json(views[0])
    assert cache.encoded[id(board)] == (board, canonical.dumps(board))
    kept = cache.encoded[id(board)], cache.encoded[id(views[0]["slots"])]
    for view in views[1:]:
        assert cache.json(view) == canonical.encode(view)
    # the very entries made for the first view: the shared objects were not encoded again
    assert cache.encoded[id(board)] is kept[0]
    assert cache.encoded[id(views[0]["slots"])] is kept[1]

    class Shared(dict[str, Any]):
        pass

    table = Shared(board)
    for doc in ({"t": table, "n": 1}, {"t": table, "n": 2}):
        assert cache.json(doc) == canonical.encode(doc)
    assert cache.encoded[id(table)] == (table, canonical.dumps(board))


class _Lasting(dict[str, Any]):
    """A lasting dict as a game declares one (games/b5cgs/frozen.py): every write refused."""

    __pbem_lasting__ = True

    def __setitem__(self, *_: Any) -> None:
        raise TypeError("read-only")


def test_a_lasting_object_is_encoded_once_for_the_process() -> None:
    """A dict whose class declares ``LASTING`` is encoded once while the process keeps it, by
    every renderer after the first, at the top of a view or as a value of a top-level dict (B5's
    view ``pack``: the shared tables with the step's pieces); the bytes are its encoding."""
    assert cache_mod.LASTING == "__pbem_lasting__"
    tables = _Lasting({"tokens": {"b": [1, 2], "a": "x"}, "n": 3})
    first = cache_mod.lasting_json(tables)
    assert first == canonical.dumps(tables)
    for _ in range(2):  # a new renderer (a resolution) each time: the process's bytes reused
        cache = RenderCache()
        doc = {"pack": {"tables": tables, "pieces": {"p1": [3]}}, "t": tables, "n": 1}
        assert cache.json(doc) == canonical.encode(doc)
        assert cache_mod.lasting_json(tables) is first  # the same text, not made again
    with pytest.raises(TypeError):
        tables["n"] = 4


def test_nothing_but_a_lasting_object_is_kept_past_its_renderer() -> None:
    """A plain dict (or a subclass that declares nothing) changed between two resolutions is
    encoded as it is now: only the renderer that saw it keeps its bytes, and a lasting object
    that differs is another object, encoded anew."""
    class Shared(dict[str, Any]):
        pass

    for kind in (dict, Shared):
        table = kind({"cost": 3})
        assert cache_mod.lasting_json(table) is None
        assert RenderCache().json({"t": table, "pack": {"tables": table}}) == \
            b'{"pack":{"tables":{"cost":3}},"t":{"cost":3}}'
        table["cost"] = 4  # changed in place between two resolutions
        assert RenderCache().json({"t": table, "pack": {"tables": table}}) == \
            b'{"pack":{"tables":{"cost":4}},"t":{"cost":4}}'
    old, new = _Lasting({"cost": 3}), _Lasting({"cost": 4})
    assert cache_mod.lasting_json(old) == '{"cost":3}'
    assert RenderCache().json({"pack": {"tables": new}}) == b'{"pack":{"tables":{"cost":4}}}'
