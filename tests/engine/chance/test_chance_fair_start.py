"""No draw before every player has contributed (docs/protocol.md, "Fair chance", the guarantees
table): the set-up step commits tips and draws nothing, the first drawing step takes every
player's value, a referee who re-runs ``pbem new`` learns nothing about the deal, the game waits
for a missing contribution instead of dealing a player out, a file without its contribution is
refused, and the powers a draw concerns (the defender, the target) add their values to it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem import canonical
from pbem.chance.errors import ChanceError
from pbem.chance.player import new_seed, player_reveal, player_tip
from pbem.chance.referee import RefereeChance, new_nonce
from pbem.chance.step import StepChance
from pbem.game import registry
from pbem.host import accept, gmops
from pbem.protocol.orderdoc import sign_orders
from pbem.store import chance
from pbem.store.log import Entry
from tests.support.ashes_driver import arranged
from tests.support.pbem_host import Host, at, instance_of

ASHES = registry.load("ashes")
B5 = registry.load("b5cgs")
SEEDS = {"north": b"\x01" * 32, "south": b"\x02" * 32}


def _signed(host: Host, power: str, seq: int, entropy: Any = None,
            orders: dict[str, Any] | None = None) -> str:
    doc: dict[str, Any] = {"pbem": 1, "game": host.game_id, "power": power,
                           "turn": host.plugin.orders_turn(host.state()), "seq": seq,
                           "instance": instance_of(host.path)}
    if entropy is not None:
        doc["entropy"] = entropy
    doc["orders"] = orders or {}
    return sign_orders(yaml.safe_dump(doc, sort_keys=False), host.keys[power])


def _send(host: Host, text: str, when: float, tag: str) -> accept.Verdict:
    return accept.handle_block(host.root, text, received=at(when),
                               message_id=f"<{tag}.{when}@example.org>")


def _tips(host: Host, seeds: dict[str, bytes], when: float = 1) -> None:
    for power, seed in seeds.items():
        verdict = _send(host, _signed(host, power, 0, {"tip": player_tip(seed).hex()}), when,
                        f"{power}-tip")
        assert verdict.verdict == "accepted", verdict.problems


def _values(host: Host, seeds: dict[str, bytes], step: int, seq: int, when: float) -> None:
    for power, seed in seeds.items():
        verdict = _send(host, _signed(host, power, seq, player_reveal(seed, step).hex()), when,
                        f"{power}-v{step}")
        assert verdict.verdict == "accepted", verdict.problems


# -- the grinding attack --------------------------------------------------------------------------
def test_a_referee_re_running_pbem_new_learns_nothing_before_the_last_contribution(
        tmp_path: Path) -> None:
    """The referee makes the same game (same players, same id) again and again: each time the
    set-up step draws nothing, so what he holds after it (the state, its digest, the log) is the
    same whatever the nonce; the deal comes only with the players' values, and the same
    player values in a re-made game give another deal (a new nonce, a new K and r)."""
    kitties, digests = [], set()
    for attempt in range(3):
        (tmp_path / f"try{attempt}").mkdir()
        host = Host(tmp_path / f"try{attempt}", "lucky-2", game="highcard", game_id="lucky-g")
        _tips(host, SEEDS)
        host.run(at(2))
        (setup,) = host.entries("resolve")
        assert "random" not in setup.body  # nothing drawn at step 1
        state = host.state()
        assert state["kitty"] is None and state["salt"] is None  # no deal on the referee's side
        digests.add(canonical.digest(state))
        _values(host, SEEDS, 2, 1, 3)  # the same seeds, so the same values, in every game
        host.run(at(4))
        first_draw = host.entries("resolve")[1].body["random"]
        assert set(first_draw["players"]) == {"north", "south"}
        assert None not in first_draw["players"].values()
        kitties.append((host.state()["kitty"], host.state()["salt"]))
    assert len(digests) == 1  # re-running pbem new changed nothing the referee could see
    assert len(set(kitties)) == 3  # and the same values never repeat a deal


def _ashes_deal(values: dict[str, bytes], nonce: bytes = b"\x00" * 16) -> dict[str, Any]:
    """The Ashes deal (deck order, hands, galaxy, first player) from these players' values."""
    rc = RefereeChance(b"\x07" * 32, "ashes-g", nonce)
    state = ASHES.setup("rounds-3", {"game_id": "ashes-g"})
    state = ASHES.resolve(state, {}, StepChance("ashes-g", 1, rc.reveal(1), {})).state  # set-up
    assert state["phase"] == "deal" and not state["deck"]
    dealt = ASHES.resolve(state, {}, StepChance("ashes-g", 2, rc.reveal(2), values, rc.k)).state
    return {"deck": dealt["deck"], "galaxy": dealt["galaxy"], "first": dealt["first"],
            "hands": {p: dealt["powers"][p]["hand"] for p in dealt["seats"]}}


def test_the_deal_is_a_function_of_every_players_value() -> None:
    """Changing any one player's value changes the Ashes deal; the same values under another
    nonce (the game made again) give another deal; a fresh seed per set-up gives other values."""
    seeds = {p: bytes([i + 1]) * 32 for i, p in enumerate(("red", "blue", "green"))}
    values = {p: player_reveal(s, 2) for p, s in seeds.items()}
    base = _ashes_deal(values)
    for power in values:
        other = dict(values, **{power: player_reveal(b"\x09" * 32, 2)})
        assert _ashes_deal(other)["deck"] != base["deck"], power
    assert _ashes_deal(values, nonce=new_nonce())["deck"] != base["deck"]
    assert new_seed() != new_seed()  # each player's tool makes a fresh seed per set-up


def test_a_draw_before_every_player_has_contributed_raises_naming_the_rule() -> None:
    """The engine's rule (pbem.store.chance.draw_values): at step 1 nobody has a value on a tip
    committed earlier, so a game that deals at set-up fails loudly; nor may the first draw go
    without one due power's value."""
    ledger = chance.Ledger()
    with pytest.raises(ChanceError, match="first draw needs a value from every power due"):
        chance.draw_values(ledger, ["north", "south"], [], {})
    tips = [Entry(i + 1, "", "orders", "t", {"power": p, "entropy": {
        "tip": player_tip(s).hex()}}, "") for i, (p, s) in enumerate(SEEDS.items())]
    for entry in tips:
        ledger.add(entry)
    with pytest.raises(ChanceError, match="value is on a tip not committed before"):
        chance.draw_values(ledger, ["north"], [], {
            "north": {"entropy": player_reveal(SEEDS["north"], 1).hex()}})
    ledger.add(Entry(3, "", "resolve", "t", {"used": {}}, ""))  # the set-up step
    standing = {"north": {"entropy": player_reveal(SEEDS["north"], 2).hex()}}
    with pytest.raises(ChanceError, match="south has contributed no value yet"):
        chance.draw_values(ledger, ["north", "south"], [], standing)
    standing["south"] = {"entropy": player_reveal(SEEDS["south"], 2).hex()}
    assert None not in chance.draw_values(ledger, ["north", "south"], [], standing).values()


# -- nobody is dealt out silently -----------------------------------------------------------------
def test_a_missing_set_up_file_makes_the_game_wait_and_the_gm_is_told_once(
        tmp_path: Path) -> None:
    host = Host(tmp_path, "lucky-2", game="highcard", game_id="lucky-w")
    _tips(host, {"north": SEEDS["north"]})
    for hours in (60, 70, 80):  # past the deadline (48 h) and any grace: still waiting
        (run,) = host.run(at(hours))
        assert run.status == "waiting" and not host.entries("resolve")
    alerts = [m for m in host.sent("gm@example.org") if "Waiting for south" in str(m["Subject"])]
    assert len(alerts) == 1
    body = alerts[0].get_body(preferencelist=("plain",))
    assert body is not None
    assert "the game waits for south's set-up file" in body.get_content()
    lines = "\n".join(gmops.status(host.path, at(80)))
    assert ("the game waits for south's set-up file: it does not start without every "
            "player's contribution; `pbem gm replace") in lines
    assert f"`pbem gm end {host.path}`" in lines
    _tips(host, {"south": SEEDS["south"]}, when=81)
    (run,) = host.run(at(82))
    assert run.status == "resolved"


def test_the_first_drawing_step_waits_too_and_later_steps_do_not(tmp_path: Path) -> None:
    host = Host(tmp_path, "lucky-2", game="highcard", game_id="lucky-d")
    _tips(host, SEEDS)
    host.run(at(2))
    _values(host, {"north": SEEDS["north"]}, 2, 1, 3)
    (run,) = host.run(at(200))
    assert run.status == "waiting" and len(host.entries("resolve")) == 1
    assert "the game waits for south's round file" in "\n".join(gmops.status(host.path, at(200)))
    _values(host, {"south": SEEDS["south"]}, 2, 1, 201)
    assert host.run(at(202))[0].status == "resolved"
    _values(host, {"north": SEEDS["north"]}, 3, 2, 203)  # south withholds at a later step
    assert host.run(at(300))[0].status == "resolved"
    assert host.entries("resolve")[-1].body["random"]["players"]["south"] is None


# -- a file without the contribution ---------------------------------------------------------
def test_a_file_without_its_contribution_is_refused_with_the_sentence(tmp_path: Path) -> None:
    host = Host(tmp_path, "lucky-2", game="highcard", game_id="lucky-r")
    verdict = _send(host, _signed(host, "north", 0), 1, "bare")
    assert verdict.verdict == "rejected"
    (problem,) = verdict.problems
    assert problem.path == "entropy"
    assert "north: this file carries no entropy: it must carry your chance tip" in problem.message
    assert "`pbem orders sign FILE --key KEY --view view.json`" in problem.message
    _tips(host, SEEDS)
    host.run(at(2))
    tip_again = _signed(host, "north", 1, {"tip": player_tip(SEEDS["north"]).hex()})
    for text in (_signed(host, "north", 1), tip_again):
        verdict = _send(host, text, 3, f"deal{len(text)}")
        assert verdict.verdict == "rejected"
        assert "your chance value for step 2 (entropy: …)" in verdict.problems[0].message


# -- every power a draw concerns contributes ------------------------------------------------------
def test_the_defenders_value_enters_the_battle_dice() -> None:
    """Ashes: the mover's turn listens to every other live power; blue, the defender, sent a
    value: changing it changes the battle's dice."""
    state = arranged("sequential-3", hands={"red": {"D4": 0, "C2": 0, "G3": 0},
                                            "blue": {"F1": 0, "J4": 0, "K3": 0}},
                     colonies={"red": {"A2": 6}, "blue": {"B1": 5}}, active="red")
    window = ASHES.window(state)
    assert window.due == ("red",) and window.listens == ("blue", "green") and window.draws
    norm, problems = ASHES.normalize_orders(
        {"move": {"conquer": "B1", "from": "A2", "ships": 6}}, ASHES.view(state, "red"))
    assert not problems, problems
    r = b"\x05" * 32

    def dice(blue: bytes | None) -> list[Any]:
        drawn = StepChance("ashes-test", 5, r, {"red": b"\x03" * 32, "blue": blue,
                                                 "green": None})
        events = ASHES.resolve(state, {"red": norm}, drawn).events
        (battle,) = [e for e in events if e["type"] == "battle"]
        return [battle["attacker_dice"], battle["defender_dice"]]

    assert dice(b"\x04" * 32) != dice(b"\x06" * 32) != dice(None)


def test_listened_powers_are_in_the_seed_and_a_b5_target_is_listened() -> None:
    """The seed takes the due and the listened powers (null for one that sent nothing); in B5
    every other live player, the Defense Grid's target among them, is listened to."""
    state = B5.setup("3p", {"game_id": "b5-t"}) if "3p" in B5.variants() else B5.setup(
        next(iter(B5.variants())), {"game_id": "b5-t"})
    assert B5.window(state).kind == "setup" and not B5.window(state).draws
    ledger = chance.Ledger(step=4, tips={"a": b"1" * 32, "b": b"2" * 32, "c": b"3" * 32},
                           tip_steps={"a": 1, "b": 1, "c": 1}, drawn=2)
    standing = {"a": {"entropy": "aa" * 32}, "b": {"entropy": "bb" * 32}}
    values = chance.draw_values(ledger, ["a"], ["b", "c"], standing)
    assert values == {"a": b"\xaa" * 32, "b": b"\xbb" * 32, "c": None}
    seeds = {StepChance("b5-t", 5, b"\x05" * 32, dict(values, b=v)).public_seed
             for v in (b"\xbb" * 32, b"\xcc" * 32, None)}
    assert len(seeds) == 3  # the target's value (or its absence) changes the roll's seed


def test_pbem_orders_check_refuses_a_signed_file_without_its_contribution() -> None:
    """`pbem orders check --view` holds a signed file to the referee's rule, from view.json's
    ``chance.contribute``, with the same sentence."""
    from pbem.cli.orders import _contribution_problems

    view = {"viewer": "north", "chance": {"step": 2, "tip": "ab" * 32, "contribute": "value"}}
    (problem,) = _contribution_problems(view, None)
    assert problem.message == chance.missing_sentence("north", "value", 2)
    assert _contribution_problems(view, {"tip": "ab" * 32}) != []
    assert _contribution_problems(view, "cd" * 32) == []
    assert _contribution_problems({**view, "chance": {**view["chance"], "contribute": "offer"}},
                                  None) == []
