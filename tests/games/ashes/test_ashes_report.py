"""The Ashes of Empire's reports (games/ashes/present.py, templates/ashes/): what a player's
turn report holds (the galaxy, the empires, his hand with reach, every battle's dice with their
labels, a pre-filled order form that the order check accepts) and the structural leak test: a
change in another player's hand leaves my report byte-identical and changes his."""

from __future__ import annotations

import importlib

import yaml

from pbem.render import mails
from tests.support.ashes_driver import PLUGIN, ScriptedChance, arranged, step, view
from tests.support.ashes_play import play

present = importlib.import_module("ashes.present")
GAME = {"game_id": "ashes-test", "title": "Ashes test", "deadline": None, "checkpoint": None,
        "seq": 3, "instance": "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"}
PLAYER = {"name": "", "email": "", "tz": ""}
LABEL = "battle:turn5:red"


def report(before, after, events, power):
    """One player's turn report, as the engine renders and mails it."""
    mail = mails.turn_report(mails.Renderer("ashes"), PLUGIN, before, after, events, [power],
                             PLAYER, GAME)
    return "\n".join([mail.subject, mail.text, mail.html,
                      *(b.decode() for _, _, b in mail.attachments)])


def battle_turn():
    state = arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0}, "blue": {"F1": 0, "J4": 0,
                                                                          "K3": 0}},
                     colonies={"red": {"A2": 6}, "blue": {"B1": 5}})
    chance = ScriptedChance(dice={LABEL + ":attacker": [6, 5, 5, 3, 2, 4],
                                  LABEL + ":defender": [6, 5, 5, 4, 4]})
    after, events = step(state, {"red": {"move": {"conquer": "B1", "from": "A2", "ships": 6}}},
                         chance)
    return state, after, events


def test_report_shows_the_battle_dice_with_their_labels_galaxy_empires_and_hand():
    before, after, events = battle_turn()
    text = report(before, after, events, "blue")
    assert "6 5 5 3 2 4 = 25" in text and "6 5 5 4 4 = 24" in text
    assert f"[{LABEL}:attacker]" in text and f"[{LABEL}:defender]" in text
    assert "THE NEUTRAL GALAXY" in text and "EMPIRES" in text
    assert "BLUE: YOUR HAND" in text and "F1 " in text


def test_the_prefilled_order_form_is_accepted_by_the_order_check():
    before, after, events = battle_turn()
    v = {**PLUGIN.view(after, "blue"), "instance": GAME["instance"]}  # as view.json
    form = present.order_form(v, 3)
    assert form in report(before, after, events, "blue")
    doc = yaml.safe_load(form)
    assert (doc["game"], doc["power"], doc["turn"], doc["seq"], doc["instance"]) == (
        "ashes-test", "blue", after["turn"], 3, GAME["instance"])
    _, problems = PLUGIN.normalize_orders(doc["orders"], v)
    assert problems == []


def test_another_players_hand_never_changes_my_report():
    before, after, events = battle_turn()
    (varied, knowers), = view.variations(after, "red")
    assert knowers == ("red",)
    assert report(before, varied, events, "blue") == report(before, after, events, "blue")
    assert report(before, varied, events, "red") != report(before, after, events, "red")


def test_every_event_has_a_sentence():
    before, after, events = battle_turn()
    for e in events:
        assert not present.sentence(e).startswith(e["type"] + ".")


def test_receipt_lines_restate_the_orders():
    state = arranged(hands={"red": {"D4": 0, "C2": 0, "G3": 0}}, colonies={"red": {"A2": 6}},
                     galaxy={"E4": 0})
    orders, problems = PLUGIN.normalize_orders(
        {"place": {"A2": 0, "D4": 1}, "move": {"conquer": "E4", "from": "A2", "ships": 3},
         "else": [{"exchange": "G3"}], "retreat": ["C2"]}, PLUGIN.view(state, "red"))
    assert problems == []
    lines = present.PRESENTER.receipt_lines(orders, PLUGIN.view(state, "red"))
    assert lines == ["Reinforcements: 0 on A2, 1 on D4, the rest by room",
                     "Movement: attack E4 (reached from A2) with 3 from A2.",
                     "Else: exchange G3.", "Ships sent home go first to C2."]


def test_welcome_game_end_and_gm_summary_render():
    """The end-of-game mail names the winner, the cluster and every hand (the winning hand
    proves the cluster); the referee's summary shows every hand; the welcome explains the
    deal."""
    state = arranged(hands={"red": {"A1": 0, "A2": 0, "G3": 0}},
                     colonies={"red": {"A3": 1, "D2": 5}}, galaxy={"A4": 0})
    chance = ScriptedChance(dice={LABEL + ":attacker": [6, 6, 6], LABEL + ":defender": [1, 1]})
    after, events = step(state, {"red": {"move": {"conquer": "A4", "from": "D2", "ships": 3}}},
                         chance)
    renderer = mails.Renderer("ashes")
    end = mails.game_end(renderer, PLUGIN, after, events, ["blue"], PLAYER, GAME, [])
    assert "Winner: Red." in end.text and "Cluster: A1, A2, A3, A4." in end.text
    assert "Red: A1, A2, G3" in end.text
    gm = mails.gm_summary(renderer, PLUGIN, state, after, events, GAME)
    assert "[private to " in gm.text and "(only you)" not in gm.text and "Blue:" in gm.text
    # the game master reads whose private event it was, in the third person
    assert not [ln for ln in gm.text.splitlines() if "[private to" in ln
                and ln.strip().startswith(("You ", "Your "))], gm.text
    start = PLUGIN.setup("sequential-3", {"game_id": "ashes-test"})
    hello = mails.welcome(renderer, PLUGIN, start, ["green"], PLAYER, GAME)
    assert "You play Green." in hello.text and "the deal" in hello.text


def test_the_shared_parts_are_made_from_the_public_view_alone():
    """The presenter makes the galaxy, the empires and the events' sentences once per
    resolution for every reader (present._tables, present._SENTENCES): what it hands from
    them is made from ``view(state, None)``, so it is what each reader's own view makes."""
    for _, _, after, events in play("rounds-3", 5, limit=12, to_the_end=False):
        public = PLUGIN.view(after, None)
        for p in after["powers"]:
            own = PLUGIN.view(after, p)
            assert present.public_part(own) == public
            shared = PLUGIN.presenter.shared([own], PLUGIN.view_events(events, p), [p])
            assert shared["galaxy"] == present.galaxy(own)
            assert shared["empires"] == present.empires(own)
            assert shared["events"] == [present.sentence(e)
                                        for e in PLUGIN.view_events(events, p)
                                        if e.get("type") != "chance"]
