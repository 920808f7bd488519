"""TI4's transactions and the secret kept at set-up (games/ti4/deals.py, keep.py, trades.py;
RULES.md T77-T82), step by step through the plugin: "During your turn you may make one
transaction with each neighbour (a player whose units or planets share or border a system with
yours). You can swap trade goods, commodities, ..."; "Each pair of players may make 1
transaction per agenda, even if they are not neighbors"; "Each player draws 2 secret
objectives and keeps 1"."""

from __future__ import annotations

import argparse
from typing import Any

import pytest
import yaml

from games.ti4 import deals, orderform, sentences, setup, tool
from pbem.errors import UsageError
from tests.support.ti4_play import PLUGIN, resolve_step

State = dict[str, Any]
KEY = b"d" * 32


def resolve(state: State, orders: dict[str, Any] | None = None
            ) -> tuple[State, list[dict[str, Any]]]:
    r = resolve_step(state, orders, KEY)
    return r.state, r.events


def dealt(variant: str = "small-3") -> State:
    state = PLUGIN.setup(variant, {"game_id": "d"})
    return resolve(resolve(state)[0])[0]


def in_action() -> tuple[State, str, str, str]:
    """Round 1's first action step; (state, the active player, a neighbour, a player who is
    not one): the neighbour has a frigate next to the active player's home system."""
    state = resolve(dealt())[0]
    me = state["table"]["turn"]
    near, far = [p for p in state["table"]["seats"] if p != me]
    cat = setup.catalog(state)
    home = state["pack"]["factions"][state["table"]["factions"][me]]["home"]
    beside = sorted(s for s in cat.galaxy.adjacent(home)
                    if s not in state["board"]["space"] and not cat.galaxy.anomaly(s))[0]
    state["board"]["space"][beside] = {near: {"frigate": 1}}
    for p, tg, cm in ((me, 3, 2), (near, 4, 3), (far, 2, 2)):
        state["table"]["players"][p].update(trade_goods=tg, commodities=cm)
    assert deals.neighbours(setup.board_of(state), cat, me) == [near]
    return state, me, near, far


def goods(state: State, p: str) -> tuple[int, int]:
    seat = state["table"]["players"][p]
    return seat["trade_goods"], seat["commodities"]


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def test_transaction_needs_both_halves() -> None:
    """The active player's half alone moves nothing, and each party alone is told why; with
    the neighbour's standing accept of the same terms it is made, in public."""
    state, me, near, _ = in_action()
    half = {"with": near, "give": {"trade_goods": 2}, "get": {"commodities": 1}}
    after, events = resolve(state, {me: {"transactions": [half]}})
    assert goods(after, me) == goods(state, me) and goods(after, near) == goods(state, near)
    failed = of(events, "transaction-failed")
    assert sorted(tuple(e["_visible_to"]) for e in failed) == sorted([(me,), (near,)])
    assert not of(events, "transaction")
    accept = {"with": me, "give": {"commodities": 1}, "get": {"trade_goods": 2}}
    state["standing"][near] = {"accept": [accept]}
    after, events = resolve(state, {me: {"transactions": [half]}})
    made = of(events, "transaction")
    assert len(made) == 1 and "_visible_to" not in made[0]  # public once executed
    assert (made[0]["give"], made[0]["get"]) == ({"trade_goods": 2, "commodities": 0},
                                                 {"trade_goods": 0, "commodities": 1})
    assert goods(after, me) == (3 - 2 + 1, 2) and goods(after, near) == (4 + 2, 3 - 1)


def test_commodities_received_become_trade_goods() -> None:
    state, me, near, _ = in_action()
    state["standing"][near] = {"accept": [{"with": me, "give": {"commodities": 3},
                                           "get": {"commodities": 2}}]}
    after, _ = resolve(state, {me: {"transactions": [
        {"with": near, "give": {"commodities": 2}, "get": {"commodities": 3}}]}})
    assert goods(after, me) == (3 + 3, 0) and goods(after, near) == (4 + 2, 0)


def test_one_transaction_per_neighbour_per_turn() -> None:
    """Two halves with the same neighbour: the check refuses the second with its path; at
    resolution only the first is read."""
    state, me, near, _ = in_action()
    half = {"with": near, "give": {"trade_goods": 1}}
    view = PLUGIN.view(state, me)
    _, problems = PLUGIN.normalize_orders({"transactions": [half, half]}, view)
    assert [(p.code, p.path) for p in problems] == [("transaction-twice", "transactions[1].with")]
    state["standing"][near] = {"accept": [{"with": me, "get": {"trade_goods": 1}}]}
    after, events = resolve(state, {me: {"transactions": [half, half]}})
    assert len(of(events, "transaction")) == 1 and goods(after, me)[0] == 3 - 1


def test_only_a_neighbour_trades_in_an_action_step() -> None:
    state, me, near, far = in_action()
    view = PLUGIN.view(state, me)
    _, problems = PLUGIN.normalize_orders(
        {"transactions": [{"with": far, "give": {"trade_goods": 1}}]}, view)
    assert [(p.code, p.path) for p in problems] == [("transaction-neighbour",
                                                     "transactions[0].with")]
    state["standing"][far] = {"accept": [{"with": me, "get": {"trade_goods": 1}}]}
    after, events = resolve(state, {me: {"transactions": [{"with": far,
                                                            "give": {"trade_goods": 1}}]}})
    assert goods(after, far) == goods(state, far) and not of(events, "transaction")
    # a listened power writes no transactions: his half is a standing accept
    _, problems = PLUGIN.normalize_orders(
        {"transactions": [{"with": me, "give": {"trade_goods": 1}}]}, PLUGIN.view(state, near))
    assert [p.code for p in problems] == ["not-your-turn"]


def test_every_problem_of_a_transaction_is_named_with_its_path() -> None:
    state, me, near, _ = in_action()
    view = PLUGIN.view(state, me)
    body = {"transactions": [{"with": near, "give": {"trade_goods": 9, "cards": 1},
                              "get": {"commodities": -1}, "note": "x"}],
            "standing": {"accept": [{"with": "nobody"}, {"with": near}]}}
    _, problems = PLUGIN.normalize_orders(body, view)
    assert {(p.code, p.path) for p in problems} == {
        ("unknown-field", "transactions[0].note"),
        ("transaction-pay", "transactions[0].give.trade_goods"),
        ("transaction-goods", "transactions[0].give.cards"),
        ("transaction-goods", "transactions[0].get.commodities"),
        ("transaction-with", "standing.accept[0].with"),
        ("transaction-empty", "standing.accept[1]")}


def test_both_must_pay_when_it_is_made() -> None:
    state, me, near, _ = in_action()
    state["table"]["players"][near]["commodities"] = 0
    state["standing"][near] = {"accept": [{"with": me, "give": {"commodities": 2}}]}
    after, events = resolve(state, {me: {"transactions": [{"with": near,
                                                            "get": {"commodities": 2}}]}})
    assert goods(after, me) == goods(state, me) and goods(after, near) == goods(state, near)
    assert all(f"{near} has 0 commodities" in e["text"]
               for e in of(events, "transaction-failed"))


def in_agenda() -> tuple[State, str, str]:
    """The agenda step of round 1 (the Custodians taken), two players who are not
    neighbours."""
    state, me, _, far = in_action()
    state["phase"] = "agenda"
    state["table"]["custodians_taken"] = True
    state["table"]["turn"] = None
    return state, me, far


def test_any_pair_may_trade_in_the_agenda_step() -> None:
    state, a, b = in_agenda()
    assert b not in deals.neighbours(setup.board_of(state), setup.catalog(state), a)
    half_a = {"with": b, "give": {"trade_goods": 2}, "get": {"commodities": 1}}
    half_b = {"with": a, "give": {"commodities": 1}, "get": {"trade_goods": 2}}
    for p, half in ((a, half_a), (b, half_b)):
        _, problems = PLUGIN.normalize_orders({"transactions": [half]}, PLUGIN.view(state, p))
        assert problems == []
    plain, _ = resolve(state)   # the agendas' own effects, without a transaction
    after, events = resolve(state, {a: {"transactions": [half_a]},
                                    b: {"transactions": [half_b]}})
    assert len(of(events, "transaction")) == 1
    assert events.index(of(events, "transaction")[0]) < events.index(of(events, "agenda")[0])
    tg, cm = goods(plain, a)
    assert goods(after, a) == (tg - 2 + 1, cm) and goods(after, b) == (
        goods(plain, b)[0] + 2, goods(plain, b)[1] - 1)
    # one half alone, or halves that differ: nothing moves, each told alone
    for other in ({}, {"transactions": [{**half_b, "give": {"commodities": 2}}]}):
        after, events = resolve(state, {a: {"transactions": [half_a]}, b: other})
        assert goods(after, a) == goods(plain, a) and not of(events, "transaction")
        assert sorted(e["_visible_to"][0] for e in of(events, "transaction-failed")) \
            == sorted([a, b])


def test_transactions_are_not_written_in_other_steps() -> None:
    state = dealt()
    view = PLUGIN.view(state, "red")
    _, problems = PLUGIN.normalize_orders(
        {"transactions": [{"with": "blue", "give": {"trade_goods": 1}}]}, view)
    assert [(p.code, p.path) for p in problems] == [("section-not-now", "transactions")]


def test_secret_kept_by_choice() -> None:
    """After the deal each player's view shows the two secrets he drew (nobody else's); in
    the strategy step his keep: chooses one, the other goes to the bottom of the deck, and
    only he is told which."""
    state = dealt()
    hands = state["drawn"]
    for p in state["table"]["seats"]:
        view = PLUGIN.view(state, p)
        assert view["you"]["drawn"] == hands[p] and len(hands[p]) == 2
        assert view["you"]["secrets"] == hands[p][:1]
        others = [o for q in hands if q != p for o in hands[q]]
        assert not any(o in str(view["you"]) for o in others)
    red = hands["red"]
    deck = state["table"]["secret_deck"]
    _, problems = PLUGIN.normalize_orders({"draft": [], "keep": red[1]},
                                          PLUGIN.view(state, "red"))
    assert problems == []
    _, problems = PLUGIN.normalize_orders({"keep": ["s-nope"]}, PLUGIN.view(state, "red"))
    assert [(p.code, p.path) for p in problems] == [("keep-secret", "keep[0]")]
    after, events = resolve(state, {"red": {"keep": [red[1]]}})
    assert after["table"]["players"]["red"]["secrets"] == [red[1]]
    assert after["table"]["secret_deck"] == [red[0] if o == red[1] else o for o in deck]
    assert after["drawn"] == {}
    kept = of(events, "secret-kept")
    assert {e["_visible_to"][0]: e["kept"] for e in kept} == {
        p: [h[1]] if p == "red" else [h[0]] for p, h in hands.items()}
    assert "drawn" not in PLUGIN.view(after, "red")["you"]
    _, problems = PLUGIN.normalize_orders({"keep": [red[1]]}, PLUGIN.view(after, "red"))
    assert [p.code for p in problems] == ["section-not-now"]


def test_silence_keeps_the_first_secret() -> None:
    state = dealt()
    after, _ = resolve(state)
    for p, hand in state["drawn"].items():
        assert after["table"]["players"][p]["secrets"] == hand[:1]
    assert after["table"]["secret_deck"] == state["table"]["secret_deck"]


def test_which_secret_was_kept_changes_no_other_view() -> None:
    state = dealt()
    red = state["drawn"]["red"]
    one, _ = resolve(state, {"red": {"keep": [red[0]]}})
    two, _ = resolve(state, {"red": {"keep": [red[1]]}})
    for p in ("blue", "green", None):
        assert PLUGIN.view(one, p) == PLUGIN.view(two, p)
    assert PLUGIN.view(one, "red") != PLUGIN.view(two, "red")


def test_the_tool_writes_halves_accepts_and_the_secret_kept() -> None:
    """``pbem orders ti4 --with --give --get [--accept]`` and ``--keep``, through the real
    parser; a half replaces the one with the same power."""
    p = argparse.ArgumentParser(prog="pbem orders")
    tool.TOOL.register_orders(p.add_subparsers())

    def written(*flags: str, orders: dict[str, Any] | None = None) -> dict[str, Any]:
        return tool.body(orders or {}, p.parse_args(["ti4", "o.yaml", *flags]))

    half = written("--with", "blue", "--give", "tg=2", "--get", "commodities=1")
    assert half == {"transactions": [{"with": "blue", "give": {"trade_goods": 2},
                                      "get": {"commodities": 1}}]}
    again = written("--with", "blue", "--give", "c=1", orders=half)
    assert again == {"transactions": [{"with": "blue", "give": {"commodities": 1}}]}
    assert written("--with", "red", "--get", "tg=2", "--accept") == {
        "standing": {"accept": [{"with": "red", "get": {"trade_goods": 2}}]}}
    assert written("--keep", "s-tech") == {"keep": ["s-tech"]}
    for flags, words in ((["--give", "tg=1"], "go with --with"),
                         (["--with", "blue", "--give", "cards=1"], "is not tg=N")):
        with pytest.raises(UsageError) as refused:
            written(*flags)
        assert words in str(refused.value)


def test_the_order_form_offers_the_keep_and_the_neighbours() -> None:
    state = dealt()
    form = orderform.order_form({**PLUGIN.view(state, "red"), "instance": "i"}, 0)
    assert f"keep: [{state['drawn']['red'][0]}]" in form
    body = yaml.safe_load(form)["orders"]
    assert PLUGIN.normalize_orders(body, PLUGIN.view(state, "red"))[1] == []
    state, me, near, _ = in_action()
    form = orderform.order_form({**PLUGIN.view(state, me), "instance": "i"}, 0)
    assert f"your neighbours: {near}" in " ".join(form.replace("#", "").split())


def test_a_transaction_in_words() -> None:
    e = {"type": "transaction", "player": "red", "with": "blue", "kind": "agenda",
         "give": {"trade_goods": 2, "commodities": 0}, "get": {"commodities": 1}}
    assert sentences.sentence(e) == ("Red and Blue make a transaction in the agenda phase: Red "
                                     "gives 2 trade goods and gets 1 commodity (commodities "
                                     "received become trade goods).")
