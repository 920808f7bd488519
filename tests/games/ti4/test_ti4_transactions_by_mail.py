"""TI4's transactions in an action step through the real mail path (RULES.md T77-T79): the seed's
"During your turn you may make one transaction with each neighbour (a player whose units or
planets share or border a system with yours)". Four players by email (``small-4``): each writes
his orders with ``pbem orders new`` from the view.json of his last mail, signs them with ``pbem
orders sign`` and mails them through ``pbem ingest --stdin``; ``pbem run`` resolves.

Blue's half is a standing file (``turn: standing``) mailed in round 1's strategy step: follow
commerce's secondary (his commodities refilled), queue his pass, and ``accept:`` red's offer of
2 trade goods for 2 commodities. Red takes commerce (3 trade goods, commodities refilled), moves
his frigate to S11 between his home and blue's (they are neighbours from then on), then offers
blue other terms in his action file (1 trade good for 1 commodity: no matching half, told to
red and blue alone), then the terms blue accepts: the transaction is made, in public."""

from __future__ import annotations

import email
import functools
import random
from email import policy
from email.message import EmailMessage
from typing import Any

import pytest

from pbem import canonical
from pbem.store import replay
from pbem.store.gamedir import GameDir
from tests.support.ti4_mail import Played, play

BETWEEN = "S11"          # adjacent to red's home H1 and to blue's home H2 in small-4
ACCEPTED = {"give": {"trade_goods": 2}, "get": {"commodities": 2}}   # red's side
OTHER_TERMS = {"give": {"trade_goods": 1}, "get": {"commodities": 1}}
BLUE = {"secondaries": {"commerce": {"follow": True, "choices": []}, "default": "decline"},
        "queued": ["pass"],
        "accept": [{"with": "red", "give": {"commodities": 2}, "get": {"trade_goods": 2}}]}


class Red:
    """Red's action steps: commerce; the frigate to S11; other terms with a strategic
    action; the accepted terms with a pass. The others play their cards, then pass."""

    def __init__(self) -> None:
        self.offers = [OTHER_TERMS, ACCEPTED]

    def __call__(self, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        me, phase = view["viewer"], view["phase"]
        cards = sorted(view["pack"]["strategy_cards"],
                       key=lambda c: view["pack"]["strategy_cards"][c]["initiative"])
        if phase == "strategy":
            rest = [c for c in cards if c != "commerce"]
            return {"draft": ["commerce", *rest] if me == "red" else [*rest, "commerce"]}
        if phase == "secondary":
            return {"secondary": {"follow": me == "blue" and view["pending"]["card"] ==
                                  "commerce", "choices": []}}
        if phase != "action":
            return {}
        seat = view["table"]["players"][me]
        unused = [c for c in seat["cards"] if c not in seat["used"]]
        if me != "red":
            return {"action": {"strategic": unused[0], "choices": []} if unused
                    else {"pass": True}}
        if "commerce" in unused:
            return {"action": {"strategic": "commerce", "choices": []}}
        if "red" not in view["board"]["space"].get(BETWEEN, {}):
            return {"action": {"tactical": {"activate": BETWEEN, "move": [
                {"path": ["H1", BETWEEN], "ships": {"frigate": 1}}]}}}
        body: dict[str, Any] = {"action": {"strategic": unused[0], "choices": []} if unused
                                else {"pass": True}}
        if self.offers:
            body["transactions"] = [{"with": "blue", **self.offers.pop(0)}]
        return body


def _round_one_over(state: dict[str, Any]) -> bool:
    return state["phase"] == "status"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """Every player's commands run in this process (``processes=False``): the same command
    lines; the path through ``pbem`` processes is proven for TI4 by the end-to-end game
    (test_ti4_plugin_e2e.py), and the transactions are in the orders' bodies, not the
    process."""
    return play(tmp_path_factory.mktemp("ti4deal"), "small-4", "ti4-deal", _round_one_over,
                orders=Red(), standing={"blue": BLUE}, processes=False)


def _resolved(played: Played, kind: str) -> list[tuple[int, dict[str, Any]]]:
    """(the step's index in ``played.steps``, the event) of every event of ``kind``."""
    out, seen = [], set()
    for i, step in enumerate(played.steps):
        turn = step.state["turn"] - 1
        if i == 0 or turn in seen:  # the welcome, and the game master's ending: no step
            continue
        seen.add(turn)
        entry = next(r for r in played.host.entries("resolve") if r.body["turn"] == turn)
        out += [(i, e) for e in entry.body["events"] if e["type"] == kind]
    return out


@functools.cache
def _parsed(raw: bytes) -> EmailMessage:
    """A mail, parsed once for all the tests (the parse with ``policy.default`` is slow)."""
    msg = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


@functools.cache
def _words(raw: bytes) -> str:
    """A mail's plain text in lower case (the reports capitalise the powers' names), its
    lines joined (a sentence may be wrapped)."""
    msg = _parsed(raw)
    body = msg.get_body(("plain",))
    assert body is not None
    return " ".join(str(body.get_content()).split()).lower()


def _reader(raw: bytes) -> str:
    msg = _parsed(raw)
    return str(msg["To"]).split("@")[0].strip("<> ").split()[-1].lstrip("<")


def _mails_from(played: Played, index: int) -> dict[str, list[str]]:
    """Each player's mails from step ``index`` on, as plain text."""
    out: dict[str, list[str]] = {p: [] for p in played.host.powers}
    for step in played.steps[index:]:
        for raw in step.mails:
            out[_reader(raw)].append(_words(raw))
    return out


def test_both_halves_by_mail_make_the_transaction_in_public(game: Played) -> None:
    """Red's ``transactions:`` in his signed action file, blue's standing ``accept:`` of the
    same terms (his standing file, logged as turn 0): made at the start of red's step, the
    commodities blue gave becoming red's trade goods; the event is public and every player
    reads it in a mail."""
    standing = [e.body["orders"]["standing"] for e in game.host.entries("orders")
                if e.body["power"] == "blue" and e.body["turn"] == 0]
    assert [s["accept"] for s in standing] == [BLUE["accept"]]
    red = [e.body["orders"]["transactions"] for e in game.host.entries("orders")
           if e.body["power"] == "red" and "transactions" in e.body["orders"]]
    assert red == [[{"with": "blue", **OTHER_TERMS}], [{"with": "blue", **ACCEPTED}]]
    made = _resolved(game, "transaction")
    assert len(made) == 1, made
    index, event = made[0]
    assert "_visible_to" not in event
    assert (event["player"], event["with"], event["kind"]) == ("red", "blue", "action")
    assert event["give"] == {"trade_goods": 2, "commodities": 0}
    assert event["get"] == {"trade_goods": 0, "commodities": 2}
    before, after = game.steps[index - 1].state, game.steps[index].state
    red0, red1 = (s["table"]["players"]["red"] for s in (before, after))
    blue0, blue1 = (s["table"]["players"]["blue"] for s in (before, after))
    assert red1["trade_goods"] == red0["trade_goods"] - 2 + 2
    assert blue1["trade_goods"] == blue0["trade_goods"] + 2
    assert blue0["commodities"] == 2 and blue1["commodities"] == 0
    for power, mails in _mails_from(game, index).items():
        assert any("red and blue make a transaction: red gives 2 trade goods and gets 2 "
                   "commodities" in m for m in mails), power


def test_a_half_without_its_match_is_told_to_the_two_sides_alone(game: Played) -> None:
    """Red's first offer names terms blue's ``accept:`` does not hold: nothing moves, red and
    blue are each told why in their own mail, green and yellow read nothing of it."""
    failed = _resolved(game, "transaction-failed")
    assert sorted(tuple(e["_visible_to"]) for _, e in failed) == [("blue",), ("red",)]
    index = failed[0][0]
    assert {i for i, _ in failed} == {index}
    assert index < _resolved(game, "transaction")[0][0]
    before, after = game.steps[index - 1].state, game.steps[index].state
    for p in ("red", "blue"):
        seat0, seat1 = before["table"]["players"][p], after["table"]["players"][p]
        assert seat1["commodities"] == seat0["commodities"]
    mails = _mails_from(game, index)
    assert any("your transaction with blue was not made" in m for m in mails["red"])
    assert any("red's transaction with you was not made: red offered 1 trade goods for 1 "
               "commodities" in m for m in mails["blue"])
    for p in ("green", "yellow"):
        assert mails[p], p
        assert not any("was not made" in m for m in mails[p]), p


def test_the_game_with_its_transactions_replays_to_the_same_state(game: Played) -> None:
    g = GameDir.open(game.host.path)
    again = replay.replay(game.host.plugin, g.log.entries, g.initial_state(game.host.plugin),
                          replay.chance_key(g))
    assert canonical.encode(again) == canonical.encode(game.host.state())
