"""The stand-in deck (games/ashes/data/standin-deck.yaml) and the deck check: the data is what
the documented rule generates, is marked as a stand-in, and has the shape the seed describes
("40 planet cards at 10 clusters in the 1. Degree"); a broken pack is refused with paths; an
owner's deck is taken through set-up and its digest recorded."""

from __future__ import annotations

import copy
import importlib

import pytest

from pbem import canonical
from pbem.errors import PbemError
from tests.support.ashes_driver import PLUGIN, deckmod

make = importlib.import_module("ashes.make_standin_deck")


def test_the_file_is_what_the_documented_rule_generates():
    assert deckmod.STANDIN.read_text(encoding="utf-8") == make.render()


def test_the_file_says_plainly_it_is_a_stand_in():
    text = deckmod.STANDIN.read_text(encoding="utf-8")
    assert text.startswith("# STAND-IN DECK") and "NOT the published cards" in text
    assert deckmod.standin()["standin"] is True


def test_forty_unique_cards_in_ten_complete_clusters():
    data = deckmod.standin()
    cards = data["cards"]
    assert len(cards) == 40
    assert len({c["code"] for c in cards}) == 40 and len({c["number"] for c in cards}) == 40
    for letter in data["letters"]:
        assert sorted(c["code"] for c in cards if c["code"][0] == letter) == [
            f"{letter}{d}" for d in range(1, 5)]
    assert ["A2", "C2", "E2", "F2", "G2", "H2"] in data["second_degree"]
    assert deckmod.check_components(data) == []


def test_reach_is_symmetric_and_every_card_is_reachable():
    cards = {c["number"]: c for c in deckmod.standin()["cards"]}
    for n, card in cards.items():
        for other in card["reach"]["D"]:
            assert n in cards[other]["reach"]["D"]
        assert len(card["reach"]["D"]) >= 3
    assert set().union(*(set(c["reach"]["D"]) for c in cards.values())) == set(cards)


def test_no_two_cards_of_a_first_degree_cluster_reach_each_other():
    """The stand-in's rule: a cluster must be conquered planet by planet."""
    cards = deckmod.standin()["cards"]
    number = {c["code"]: c["number"] for c in cards}
    for c in cards:
        mates = {number[o] for o in number if o[0] == c["code"][0] and o != c["code"]}
        assert not mates & set(c["reach"]["D"])


def broken(edit):
    data = copy.deepcopy(deckmod.standin())
    edit(data)
    return data


@pytest.mark.parametrize("edit,code,path", [
    (lambda d: d["cards"].pop(), "deck-count", "cards"),
    (lambda d: d["cards"][1].update(code="A1"), "card-duplicate", "cards[1].code"),
    (lambda d: d["cards"][0]["reach"]["D"].append(40), "reach-asymmetric", "cards[0].reach.D"),
    (lambda d: d["cards"][3].update(population=0), "card-population", "cards[3].population"),
    (lambda d: d["second_degree"].append(["A1", "B2"]), "second-degree", "second_degree[4]"),
])
def test_a_broken_pack_is_refused_with_paths(edit, code, path):
    problems = deckmod.check_components(broken(edit))
    assert (code, path) in [(p.code, p.path) for p in problems]
    assert PLUGIN.check_components(broken(edit))


@pytest.mark.parametrize("data", [None, 3, "deck", [], {"deck": "x"}, {"cards": {}}])
def test_check_components_never_raises(data):
    assert deckmod.check_components(data)


def test_an_owners_deck_is_taken_at_setup_and_its_digest_recorded():
    own = broken(lambda d: d.update(deck="owner-1", standin=False))
    for c in own["cards"]:
        c["population"] = 2
    state = PLUGIN.setup("sequential-2", {"game_id": "g", "components": own})
    assert state["options"] == {"deck": "owner-1", "deck_digest": canonical.digest(own)}
    assert state["catalogue"]["cards"]["A1"]["population"] == 2
    with pytest.raises(PbemError, match="deck is not usable"):
        PLUGIN.setup("sequential-2", {"game_id": "g", "components": broken(
            lambda d: d["cards"].pop())})


def test_check_components_never_raises_on_huge_numbers():
    data = broken(lambda d: d["cards"][0].update(code=10**5000, number=10**5000))
    data["cards"][1]["reach"]["D"].append(10**5000)
    data["cards"][2]["population"] = 10**5000
    problems = deckmod.check_components(data)
    assert {"card-code", "card-number", "card-population"} <= {p.code for p in problems}


def test_the_stand_in_is_the_default_component_pack():
    name, data = PLUGIN.default_components()
    assert name == "standin-deck.yaml" and data == deckmod.standin()
    assert PLUGIN.check_components(data) == []
