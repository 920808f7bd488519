"""canonical.Digests, the audit's state digests (pbem.audit._walk): the digest of
``canonical.digest`` for every state of a sequence whose states share parts by identity, a
shared part encoded once, a part replaced (by an equal or another value) encoded again.
Checked with every installed game's own initial state."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from pbem import canonical
from pbem.game import registry

GAMES = registry.available()


def _initial(game_id: str) -> dict[str, Any]:
    plugin = registry.load(game_id)
    variant = next(iter(plugin.variants()))
    state: dict[str, Any] = plugin.setup(variant, {"game_id": "digest-test"})
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_the_digests_of_states_sharing_parts(game_id: str) -> None:
    state = _initial(game_id)
    digests = canonical.Digests()
    keys = sorted(state)
    states = [state, dict(state)]  # the second shares every part with the first
    for n, key in enumerate(keys):  # then each part in turn replaced, the rest shared
        nxt = dict(states[-1])
        nxt[key] = json.loads(json.dumps(nxt[key]))  # an equal value, another object
        states.append(nxt)
        if n % 2:  # and another value
            other = dict(nxt)
            other[key] = {"changed": n}
            states.append(other)
    states.append({k: v for k, v in states[-1].items() if k != keys[0]})  # a part gone
    states.append({**states[-1], "zz-new": [1, 2.5, True, None, "é"]})  # a part added
    for s in states:
        assert digests.digest(s) == canonical.digest(s)


def test_what_is_no_mapping_of_strings_is_digested_whole() -> None:
    digests = canonical.Digests()
    for value in [{"b": [1], "a": {"x": 1}}, [1, {"a": 2}], {1: "one"}, {}, "text", None]:
        assert digests.digest(value) == canonical.digest(value)


def test_a_part_copied_deeply_is_encoded_again() -> None:
    digests = canonical.Digests()
    board = {"stars": [{"name": "a", "x": 1}]}
    first = {"board": board, "turn": 1}
    second = {"board": board, "turn": 2}
    assert digests.digest(first) == canonical.digest(first)
    assert digests.digest(second) == canonical.digest(second)  # the board kept from here
    third = {"board": copy.deepcopy(board), "turn": 3}
    third["board"]["stars"][0]["x"] = 2  # another object: not the bytes kept
    assert digests.digest(third) == canonical.digest(third)
