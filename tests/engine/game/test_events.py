"""The engine's event addressing (pbem.game.events): recipients live under the reserved key
``_visible_to``, written only by ``private``; ``view_events`` reads that key alone, so a game
field named ``to`` (a move's destination) is just a field; an event misusing the reserved keys
stops the step before any log entry or mail holds it."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.game.chance import NO_CHANCE
from pbem.game.events import (
    VISIBLE_TO,
    EventError,
    event_problems,
    game_fields,
    is_private,
    private,
    view_events,
    visible_to,
)
from pbem.game.plugin import Resolution
from pbem.store import replay

MOVE = {"type": "moved", "token": "t7", "from": "1,1", "to": "1,0"}


def test_a_game_field_named_to_is_not_recipients():
    assert view_events([MOVE], "minbari") == [MOVE]
    assert view_events([MOVE], None) == [MOVE]
    assert not is_private(MOVE) and visible_to(MOVE) is None


def test_private_addresses_an_event_to_its_powers_only():
    hand = private({"type": "hand", "cards": ["C1"]}, "south", "north", "south")
    assert hand[VISIBLE_TO] == ["north", "south"] and visible_to(hand) == ["north", "south"]
    events = [MOVE, hand]
    assert [e["type"] for e in view_events(events, "north")] == ["moved", "hand"]
    assert [e["type"] for e in view_events(events, "east")] == ["moved"]
    assert [e["type"] for e in view_events(events, None)] == ["moved"]
    assert game_fields(hand) == {"type": "hand", "cards": ["C1"]}


def test_view_events_copies_so_a_reader_cannot_change_the_log():
    hand = private({"type": "hand", "cards": ["C1"]}, "north")
    seen = view_events([hand], "north")
    seen[0]["cards"].append("C2")
    assert hand["cards"] == ["C1"]


def test_an_event_is_addressed_once():
    with pytest.raises(EventError, match="already addressed"):
        private(private({"type": "x"}, "north"), "south")
    with pytest.raises(EventError, match="power names"):
        private({"type": "x"}, "")


@pytest.mark.parametrize("event,says", [
    ({"type": "x", "_to": ["north"]}, "'_to' starts with '_'"),
    ({"type": "x", VISIBLE_TO: "north"}, "sorted list of distinct power names"),
    ({"type": "x", VISIBLE_TO: ["south", "north"]}, "sorted list"),
    ({"type": "x", VISIBLE_TO: ["north", "north"]}, "distinct"),
    ({"type": "x", VISIBLE_TO: ["pluto"]}, "not powers of the game"),
    ({"no": "type"}, "not a dict with a type"),
])
def test_the_check_refuses_every_misuse_of_the_reserved_keys(event, says):
    problems = event_problems([MOVE, event], ["north", "south"])
    assert len(problems) == 1 and says in problems[0] and problems[0].startswith("event 1")


def test_the_check_passes_game_fields_and_the_helpers_addressing():
    assert event_problems([MOVE, private({"type": "x"}, "north")], ["north", "south"]) == []


class BadGame:
    """A game whose resolution writes the recipients by hand under a key of its own."""

    id = "badgame"

    def resolve(self, state: Any, orders: Any, chance: Any) -> Resolution:
        return Resolution(state, [{"type": "hand", "_recipients": ["north"]}])

    def concede(self, state: Any, power: str) -> Resolution:
        return Resolution(state, [{"type": "x", VISIBLE_TO: power}])


def test_a_resolution_with_a_bad_event_is_refused_naming_the_game():
    with pytest.raises(EventError, match="game 'badgame' produced events the engine refuses"):
        replay.resolve_step(BadGame(), {}, {}, NO_CHANCE)  # type: ignore[arg-type]
    with pytest.raises(EventError, match="_visible_to must be a sorted list"):
        replay.gm_resolution(BadGame(), {}, {"op": "concede", "power": "north"})  # type: ignore[arg-type]
