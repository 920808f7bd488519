"""The renderer's cache (pbem.render.cache.RenderCache): a view's JSON is the canonical
encoding of it, byte for byte, whatever the views of one renderer share, and a shared object
is encoded once."""

from __future__ import annotations

from typing import Any

from pbem import canonical
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
