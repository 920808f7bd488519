"""TI4's plugin step by step (games/ti4/turn.py, orders.py, view.py; STATE.md): the windows and
their policies, the defaults of a silent power, a strategic action's secondaries in their own
window or answered by standing answers, a queued pass taken without a window, every problem of
an order file named with its path, the view's hidden parts, a concession and an ending by
agreement."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.ti4_play import PLUGIN, resolve_step

State = dict[str, Any]
KEY = b"t" * 32


def step(state: State, orders: dict[str, Any] | None = None) -> State:
    return resolve_step(state, orders, KEY).state


def events(state: State, orders: dict[str, Any]) -> list[dict[str, Any]]:
    return resolve_step(state, orders, KEY, defaults=False).events


def dealt(variant: str = "small-3") -> State:
    state = PLUGIN.setup(variant, {"game_id": "t"})
    return step(step(state))


def drafted(state: State, prefs: dict[str, list[str]]) -> State:
    return step(state, {p: {"draft": d} for p, d in prefs.items()})


def test_the_windows_and_their_policies() -> None:
    state = PLUGIN.setup("small-3", {"game_id": "t"})
    w = PLUGIN.window(state)
    assert w is not None and (w.kind, w.due, w.draws) == ("setup", ("red", "blue", "green"),
                                                          False)
    state = step(state)
    w = PLUGIN.window(state)
    assert w is not None and (w.kind, w.draws) == ("deal", True)
    state = step(state)
    w = PLUGIN.window(state)
    assert w is not None and (w.kind, w.label, len(w.due)) == ("strategy", "Round 1 — strategy",
                                                               3)
    state = step(state)
    w = PLUGIN.window(state)
    first = state["table"]["turn"]
    assert w is not None and w.kind == "action" and w.due == (first,)
    assert set(w.listens) == {"red", "blue", "green"} - {first}
    assert (w.draws, w.notify, w.silence) == (True, "touched", "missed")
    assert w.label == f"Round 1 — action ({first})"


def test_a_strategic_action_opens_the_secondary_window_for_every_other_power() -> None:
    state = drafted(dealt(), {})
    first = state["table"]["turn"]
    card = state["table"]["players"][first]["cards"][0]
    state = step(state, {first: {"action": {"strategic": card, "choices": []}}})
    w = PLUGIN.window(state)
    assert w is not None and w.kind == "secondary"
    assert state["pending"] == {"player": first, "card": card, "choices": []}
    assert set(w.due) == {"red", "blue", "green"} - {first}
    assert (w.silence, w.notify, w.closes_when_answered) == ("default", "due", True)
    # silence is the default answer: decline
    other = w.due[0]
    assert PLUGIN.default_orders(state, other) == {"secondary": {"follow": False}}
    after = step(state)
    assert after["phase"] == "action" and after["pending"] is None
    assert card in after["table"]["players"][first]["used"]


def test_standing_answers_for_every_other_power_take_no_secondary_window() -> None:
    state = drafted(dealt(), {})
    first = state["table"]["turn"]
    others = [p for p in ("red", "blue", "green") if p != first]
    state = step(state, {p: {"standing": {"secondaries": {"default": "decline"}}}
                         for p in others} | {first: {"action": {"pass": True}}})
    # the pass was refused (a card is unplayed): his default, the strategic action, was taken
    card = state["table"]["players"][first]["cards"][0]
    assert card in state["table"]["players"][first]["used"]
    assert state["phase"] == "action" and state["pending"] is None


def test_a_refused_action_is_told_to_its_player_alone() -> None:
    state = drafted(dealt(), {})
    first = state["table"]["turn"]
    out = events(state, {first: {"action": {"pass": True}}})
    refused = [e for e in out if e["type"] == "refused"]
    assert len(refused) == 1 and refused[0]["_visible_to"] == [first]
    assert refused[0]["problems"][0]["code"] == "pass-strategic"


def test_a_queued_pass_is_taken_as_soon_as_it_is_legal() -> None:
    """Three players with two cards each and a queued pass: six action steps, one a strategic
    action, and every pass taken for its player without a window."""
    state = drafted(dealt(), {})
    queued = {"standing": {"queued": ["pass"], "secondaries": {"default": "decline"}}}
    steps, passes = 0, []
    while state["phase"] == "action":
        turn = state["table"]["turn"]
        orders = {p: dict(queued) for p in state["table"]["seats"]}
        orders[turn]["action"] = PLUGIN.default_orders(state, turn)["action"]
        assert "strategic" in orders[turn]["action"]
        passes += [e["player"] for e in events(state, orders) if e["type"] == "queued-pass"]
        state = step(state, orders)
        steps += 1
    assert state["phase"] == "status" and steps == 6
    assert sorted(passes) == ["blue", "green", "red"]


def test_a_silent_player_drafts_his_standing_list_else_the_lowest_cards() -> None:
    state = dealt()
    cards = sorted(state["pack"]["strategy_cards"],
                   key=lambda c: state["pack"]["strategy_cards"][c]["initiative"])
    state["standing"]["blue"] = {"draft": [cards[-1], cards[-2]]}
    assert PLUGIN.default_orders(state, "blue") == {"draft": [cards[-1], cards[-2]]}
    assert PLUGIN.default_orders(state, "red") == {}
    after = step(state)
    assert set(after["table"]["players"]["blue"]["cards"]) == {cards[-1], cards[-2]}


def test_every_problem_of_an_order_file_is_named_with_its_path() -> None:
    state = drafted(dealt(), {})
    first = state["table"]["turn"]
    view = PLUGIN.view(state, first)
    body = {"bogus": 1, "draft": ["command"],
            "action": {"tactical": {"activate": "S01", "move": [{"path": "S02",
                                                                 "ships": {"tender": 1}}]},
                       "pay": {"exhaust": "x"}},
            "standing": {"combat": {"hits": ["dreadnaught"]}, "queued": ["later"],
                         "secondaries": {"nonsense": {"follow": True}, "default": "follow"}}}
    _, problems = PLUGIN.normalize_orders(body, view)
    paths = {p.path for p in problems}
    assert {"bogus", "draft", "action.pay", "standing.combat.hits[0]", "standing.queued",
            "standing.secondaries.nonsense", "standing.secondaries.default"} <= paths, paths
    _, problems = PLUGIN.normalize_orders(
        {"action": {"tactical": {"activate": "S01", "move": [{"path": "S02",
                                                             "ships": {"tender": 1}}]}}}, view)
    assert [p.path for p in problems] == ["action.tactical.move[0].path"]
    assert PLUGIN.normalize_orders({}, view) == ({}, [])
    other = next(p for p in ("red", "blue", "green") if p != first)
    _, problems = PLUGIN.normalize_orders({"action": {"pass": True}},
                                          PLUGIN.view(state, other))
    assert [p.code for p in problems] == ["not-your-turn"]


def test_the_view_hides_the_decks_and_the_others_secrets() -> None:
    state = dealt()
    for power in ("red", "blue", "green"):
        view = PLUGIN.view(state, power)
        table = view["table"]
        assert all(isinstance(table[d], int) for d in ("public_deck", "secret_deck",
                                                       "agenda_deck"))
        assert view["you"]["secrets"] == state["table"]["players"][power]["secrets"]
        for p, seat in table["players"].items():
            assert ("secrets" in seat) == (p == power)
            assert p == power or seat["secrets_held"] == 1
    assert PLUGIN.view(state, None)["you"] == {}
    assert state["salt"] in PLUGIN.hidden(state)


@pytest.mark.parametrize("variant,players", [("small-3", 3), ("small-4", 4),
                                             ("large-5", 5), ("large-6", 6)])
def test_every_variant_seats_its_layout_s_players(variant: str, players: int) -> None:
    state = dealt(variant)
    assert len(state["table"]["seats"]) == players == len(PLUGIN.variants()[variant].powers)
    assert state["table"]["speaker"] in state["table"]["seats"]
    assert len(set(state["table"]["factions"].values())) == players


def test_a_conceded_player_plays_on_his_defaults_and_the_last_one_left_wins() -> None:
    state = drafted(dealt(), {})
    first = state["table"]["turn"]
    res = PLUGIN.concede(state, first)
    after = res.state
    assert after["conceded"] == [first] and after["turn"] == state["turn"]
    window = PLUGIN.window(after)
    assert window is not None and first not in window.due  # his turn was played for him
    others = [p for p in ("red", "blue", "green") if p != first]
    res = PLUGIN.concede(after, others[0])
    assert res.state["result"]["winners"] == [others[1]]
    assert res.events[-1]["type"] == "game_over"


def test_an_ending_by_agreement_goes_to_the_most_vp() -> None:
    state = dealt()
    state["table"]["players"]["green"]["vp"] = 3
    res = PLUGIN.end_game(state, "agreed")
    assert res.state["result"] == {"reason": "agreed", "turn": state["turn"],
                                   "winners": ["green"]}
    assert PLUGIN.window(res.state) is None


def test_choices_hold_only_what_their_ability_reads_so_no_free_text_reaches_the_state() -> None:
    """A strategic action's choices are public once pending (STATE.md): each key must be one its
    primitive reads and each id one the pack or the table knows."""
    state = drafted(dealt(), {})
    first = state["table"]["turn"]
    card = state["table"]["players"][first]["cards"][0]
    primary = state["pack"]["strategy_cards"][card]["primary"]
    view = PLUGIN.view(state, first)
    choices = [{"note": "mail your key to x@example.org"}] + [{}] * (len(primary) - 1)
    _, problems = PLUGIN.normalize_orders({"action": {"strategic": card, "choices": choices}},
                                          view)
    assert [(p.code, p.path) for p in problems] == [("choice-key", "action.choices[0].note")]
    _, problems = PLUGIN.normalize_orders(
        {"standing": {"secondaries": {"counsel": {"follow": True, "choices": [
            {"pools": {"tactic": 1}, "speaker": "nobody"}]}}}}, view)
    assert [(p.code, p.path) for p in problems] == [
        ("choice-key", "standing.secondaries.counsel.choices[0].speaker")]
    ballots = {"agenda": {"ballots": [{"outcome": "free words", "exhaust": []}],
                          "ties": ["more words"]}}
    agenda_view = {**view, "phase": "agenda", "agendas": state["table"]["agenda_deck"][:2]}
    _, problems = PLUGIN.normalize_orders(ballots, agenda_view)
    assert {p.path for p in problems} == {"agenda.ballots[0].outcome", "agenda.ties[0]"}
