"""pbem.game.shared.SharedParts: the part of a report every reader of one resolution shares,
made once for equal public inputs, made again for other inputs, the oldest forgotten."""

from __future__ import annotations

from pbem.game.shared import SharedParts


def test_equal_inputs_share_one_value_made_once() -> None:
    made: list[str] = []
    parts: SharedParts[list[str]] = SharedParts(keep=2)

    def make(tag: str) -> list[str]:
        made.append(tag)
        return [tag]

    first = parts.get(({"board": [1, 2]}, [{"type": "move"}]), lambda: make("a"))
    again = parts.get(({"board": [1, 2]}, [{"type": "move"}]), lambda: make("a2"))
    assert again is first and made == ["a"]
    # equal data built anew (not the last object compared): the digest finds it
    assert parts.get(({"board": [1, 2]}, [{"type": "move"}]), lambda: make("x")) is first


def test_other_inputs_make_their_own_and_the_oldest_is_forgotten() -> None:
    made: list[str] = []
    parts: SharedParts[str] = SharedParts(keep=2)

    def get(inputs: object, tag: str) -> str:
        return parts.get(inputs, lambda: made.append(tag) or tag)

    assert get({"v": 1}, "one") == "one"
    assert get({"v": 2}, "two") == "two"        # another reader's public part differs
    assert get({"v": 1}, "one again") == "one"  # still kept (and now the newest)
    assert get({"v": 3}, "three") == "three"    # keep=2: {"v": 2} is forgotten
    assert get({"v": 2}, "two again") == "two again"
    assert made == ["one", "two", "three", "two again"]
