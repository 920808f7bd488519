"""Faction traits, technology effects and laws in play (games/ti4/traits.py, standing.py,
effects.py, setup.catalog; RULES.md T73-T76), on a real 4-player stand-in game: red plays
Aurel (frigates cost 1, +1 commodity; Seed Vaults), blue Brannock (bastion combat +1, a trade
good each status phase), green Cassiel (+2 commodities, tender move +1), yellow Drummond."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.ti4 import setup, traits
from games.ti4.agenda import agenda_phase
from games.ti4.board import Board, space
from games.ti4.combat import fire
from games.ti4.effects import apply
from games.ti4.status import status
from games.ti4.strategy import draft
from games.ti4.table import Table
from games.ti4.units import Catalog, cost_of
from pbem.game import registry
from pbem.render import mails
from tests.support.ti4_play import PLUGIN, resolve_step
from tests.support.ti4_table import Dice, table_game
from tests.support.ti4_views import played

PREFS = {"red": ["commerce", "blockade"], "blue": ["command", "research"],
         "green": ["warfare", "industry"], "yellow": ["counsel", "dominion"]}


def drafted(**table: Any) -> tuple[dict[str, Any], Catalog, Board, Table]:
    data, cat, board, t = table_game(4)
    t, _ = draft(t, data, PREFS)
    return data, cat, board, Table.from_data({**t.to_data(), **table})


def catalog_of(data: dict[str, Any], t: Table) -> Catalog:
    """The catalog as the referee builds it from a state (setup.catalog)."""
    return setup.catalog({"pack": data, "variant": "small-4", "options": {"players": 4},
                          "table": t.to_data()})


def test_unit_cost_trait_makes_the_unit_cheaper() -> None:
    """Aurel's frigates cost 1, everyone else's 2: red builds two at home for 2 trade goods,
    blue's same order falls 2 short."""
    data, cat, board, t = table_game(4)
    assert cat.unit("frigate", "red").cost == 1 and cat.unit("frigate", "blue").cost == 2
    assert cost_of({"frigate": 2}, cat.specs("red")) == 2
    home = [{"do": "produce_at_home"}]
    for p in ("red", "blue"):
        rich = t.with_seat(p, trade_goods=2)
        t2, b2, _, bad = apply(home, rich, board, data, cat, p,
                               [{"build": {"frigate": 2}, "trade_goods": 2}], "c")
        hq = data["factions"][t.factions[p]]["home"]
        if p == "red":
            assert not bad and b2.count(space(hq), "red", "frigate") == 2
            assert t2.players["red"].trade_goods == 0
        else:
            assert {x.code for x in bad} == {"pay-short"}


def test_unit_combat_trait_adds_to_rolls() -> None:
    """Brannock's bastions hit on 4 (the pack's 5, +1 to the roll); a 4 misses for anyone
    else's bastion."""
    data, cat, board, _ = table_game(4)
    assert cat.unit("bastion", "blue").combat.value == 4          # type: ignore[union-attr]
    assert cat.unit("bastion", "green").combat.value == 5         # type: ignore[union-attr]
    d = board.edit()
    d.add(space("S01"), "blue", "bastion")
    d.add(space("S01"), "green", "bastion")
    hits = {p: fire(d, cat, Dice({f"t:{p}:bastion": [4]}), [], "t", space("S01"), p,
                    lambda s: s.combat, "combat") for p in ("blue", "green")}
    assert hits == {"blue": 1, "green": 0}


def test_unit_move_trait_and_technology_add_to_move() -> None:
    """Cassiel's tenders move 2; Drummond's starting Long Sails does the same for his; a
    player who researches Fold Drives fields frigates that move 3, from the next catalog on."""
    data, cat, _, t = table_game(4)
    assert [cat.unit("tender", p).move for p in ("red", "green", "yellow")] == [1, 2, 2]
    t = t.with_seat("red", techs=(*t.players["red"].techs, "tblue1", "tblue2"))
    cat2 = catalog_of(data, t)
    assert cat2.unit("frigate", "red").move == 3 and cat2.unit("frigate", "blue").move == 2
    assert cat2.unit("frigate", "red").cost == 1           # the trait still counts


def test_upgrade_then_modifiers_stack() -> None:
    """A unit upgrade replaces the pack's fields first; a combat bonus then adds to it."""
    data, _, _, t = table_game(4)
    t = t.with_seat("blue", techs=("tred1", "tblue1", "tyellow2", "ubastion"))
    assert catalog_of(data, t).unit("bastion", "blue").combat.value == 3  # type: ignore[union-attr]


def test_extra_commodities_on_refresh() -> None:
    """A refill reaches the faction's value plus every extra_commodities: red 3+1+1 (trait
    and Seed Vaults), blue 2, green 4+2."""
    data, cat, board, t = table_game(4)
    for p, top in (("red", 5), ("blue", 2), ("green", 6), ("yellow", 2)):
        t2, _, _, bad = apply([{"do": "refresh_commodities"}], t, board, data, cat, p, [{}], "c")
        assert not bad and t2.players[p].commodities == top == traits.commodity_value(data, t, p)


def test_trait_one_shot_at_status() -> None:
    """Brannock's trait gives a trade good at the end of each status phase, once, after the
    split (which is not disturbed); nobody else's one-shot acts in a 4-player game."""
    data, cat, board, t = drafted()
    r = status(t, board, data, cat, {"blue": {"pools": {"tactic": 5, "fleet": 3,
                                                        "strategy": 2}}})
    assert [r.table.players[p].trade_goods for p in t.seats] == [0, 1, 0, 0]
    assert r.board.pools["blue"] == {"tactic": 5, "fleet": 3, "strategy": 2}
    assert [e["player"] for e in r.events if e["type"] == "trade-goods"] == ["blue"]


def test_fallow_trait_tokens_land_after_the_split() -> None:
    """A trait's tokens come after the split, into the tactic pool, never past 16."""
    data, cat, board, t = table_game(6)
    t, _ = draft(t, data, {p: [c] for p, c in zip(t.seats, data["strategy_cards"],
                                                    strict=False)})
    r = status(t, board, data, cat, {})
    assert r.board.pools["black"]["tactic"] == 3 + 2 + 1
    assert r.board.tokens_of("black") == 8 + 2 + 1


def _fallow_spends(ready_first: bool) -> Any:
    """Black (Fallow: "ready 1 planet(s)", each status phase) exhausted his home planet fallow
    (5 resources) in the action phase and pays o1-coin (spend 8 resources) with it and 3 trade
    goods in the status phase."""
    data, cat, board, t = table_game(6)
    t, _ = draft(t, data, {p: [c] for p, c in zip(t.seats, data["strategy_cards"],
                                                    strict=False)})
    t = replace(t, publics=("o1-coin",)).with_seat("black", trade_goods=3)
    d = board.edit()
    d.exhausted = {"fallow"}
    pay = {"black": {"public": "o1-coin", "resources": {"exhaust": ["fallow"],
                                                        "trade_goods": 3}}}
    return status(t, d.freeze(), data, cat, pay, ready_first=ready_first)


def test_a_ready_planets_trait_readies_a_planet_before_the_scoring() -> None:
    """RULES.md T83: a ``ready_planets`` trait acts at the start of the status phase, before
    the scoring (at its end every planet has just been readied: it would do nothing), on the
    player's exhausted planets with the most resources first: fallow is readied and pays
    o1-coin. Rules version 1 (``ready_first`` false) acted at the end: the score falls short."""
    r = _fallow_spends(ready_first=True)
    kinds = [(e["type"], e.get("player")) for e in r.events]
    assert kinds.index(("ready", "black")) < kinds.index(("vp", "black"))
    assert [e["text"] for e in r.events if e["type"] == "ready" and e.get("player")] == \
        ["black readies fallow."]
    black = r.table.players["black"]
    assert (black.scored, black.vp, black.trade_goods) == (("o1-coin",), 1, 0)
    old = _fallow_spends(ready_first=False)
    assert old.table.players["black"].vp == 0
    assert [e["player"] for e in old.events if e["type"] == "not-scored"] == ["black"]
    assert not [e for e in old.events if e["type"] == "ready" and e.get("player")]


def test_a_ready_planets_law_readies_before_the_scoring_for_whom_it_acts() -> None:
    """An owner's pack whose a-census is a law readying 2 planets (For: for every player,
    T76) readies, at the start of each status phase, every player's two richest exhausted
    planets."""
    data, cat, board, t = drafted()
    data = {**data, "agendas": {**data["agendas"], "a-census": {
        "kind": "law", "outcome": "for_against",
        "effects": {"for": [{"do": "ready_planets", "count": 2}], "against": []}}}}
    t = replace(t, laws={"a-census": "for"})
    d = board.edit()
    d.exhausted = {"aurel", "aurel-minor", "brannock"}
    r = status(t, d.freeze(), data, cat, {})
    said = [e["text"] for e in r.events if e["type"] == "ready" and e.get("player")]
    assert said == ["red readies aurel, aurel-minor.", "blue readies brannock."]
    assert r.events.index(next(e for e in r.events if e["type"] == "ready")) == 0


@pytest.mark.parametrize("version", [1, 2])
def test_the_plugin_readies_first_from_rules_version_2(version: int) -> None:
    """A game plays the status phase of the rules version it recorded: orange (Fallow) has his
    exhausted home planet readied before the scoring under version 2, not under 1."""
    state = PLUGIN.setup("large-6", {"game_id": "v", "rules_version": version})
    for _ in range(80):
        if state["phase"] == "status":
            break
        state = resolve_step(state).state
    state["board"]["exhausted"] = ["fallow"]
    events = resolve_step(state).events
    ready = [e["text"] for e in events if e["type"] == "ready" and e.get("player")]
    assert ready == (["orange readies fallow."] if version == 2 else [])


def test_technology_effect_once_when_researched() -> None:
    """Ledger Minds gives a trade good when researched, and never again (a status phase later
    gives red none); Grand Archive researches the technology first by id, free."""
    data, cat, board, t = drafted()
    research = [{"do": "research", "count": 1, "cost": 0}]
    t2, b2, events, bad = apply(research, t, board, data, cat, "red", [{"tech": "tyellow1"}],
                                "c")
    assert not bad and t2.players["red"].trade_goods == 1
    r = status(t2, b2, data, cat, {})
    assert r.table.players["red"].trade_goods == 1
    rich = t.with_seat("red", techs=("tgreen1", "tyellow1", "tyellow2"))
    t3, _, _, bad = apply(research, rich, board, data, cat, "red", [{"tech": "tyellow3"}], "c")
    assert not bad and t3.players["red"].techs == ("tgreen1", "tyellow1", "tyellow2",
                                                   "tyellow3", "tblue1")


def test_starting_technology_one_shots_never_act() -> None:
    """Cassiel starts with Ledger Minds: it was not researched in the game, so no trade good."""
    data, cat, board, t = drafted()
    assert "tyellow1" in t.players["green"].techs
    assert status(t, board, data, cat, {}).table.players["green"].trade_goods == 0


def test_law_acts_while_in_play() -> None:
    """The Charter elects blue: 2 tokens when it passes, then 2 more at the end of every
    status phase, after the split, once a phase."""
    data, cat, board, t = drafted(custodians_taken=True, agenda_deck=["a-charter"])
    r = agenda_phase(t, board, data, cat, {"red": [{"outcome": "blue", "exhaust": ["aurel"]}]})
    assert r.table.laws == {"a-charter": "blue"}
    assert r.board.tokens_of("blue") == 8 + 2
    assert sum(1 for e in r.events if e["type"] == "tokens" and e["player"] == "blue") == 1
    t2, _ = draft(r.table, data, PREFS)
    s = status(t2, r.board, data, cat, {"blue": {"pools": {"tactic": 6, "fleet": 4,
                                                           "strategy": 2}}})
    assert s.board.pools["blue"] == {"tactic": 6 + 2, "fleet": 4, "strategy": 2}
    assert sum(1 for e in s.events if e["type"] == "tokens" and e["player"] == "blue"
               and e["count"] == 2) == 2      # the status +2 and the law's 2


def test_planet_law_acts_for_whoever_controls_the_planet() -> None:
    """An elect-planet law (here one giving a trade good): its controller at each status phase
    gains it; when the planet changes hands, the new controller does; with no controller,
    nobody (each against the same status phase without the law: traits act too)."""
    data, cat, board, t = drafted(laws={"a-seat": "aurel"})
    data["agendas"]["a-seat"]["effects"]["elected"] = [{"do": "gain_trade_goods", "count": 1}]
    lawless = replace(t, laws={})

    def gained(b: Board) -> dict[str, int]:
        with_law = status(t, b, data, cat, {}).table.players
        without = status(lawless, b, data, cat, {}).table.players
        return {p: with_law[p].trade_goods - without[p].trade_goods for p in t.players
                if with_law[p].trade_goods != without[p].trade_goods}

    assert gained(board) == {"red": 1}
    d = board.edit()
    d.owner["aurel"] = "blue"
    assert gained(d.freeze()) == {"blue": 1}
    del d.owner["aurel"]
    assert gained(d.freeze()) == {}


def test_a_laws_victory_points_are_scored_once() -> None:
    """The Seat (1 VP to the elected planet's controller) scores as it passes, and never again
    at a status phase."""
    data, cat, board, t = drafted(custodians_taken=True, agenda_deck=["a-seat"])
    r = agenda_phase(t, board, data, cat, {"red": [{"outcome": "aurel", "exhaust": ["aurel"]}]})
    assert r.table.laws == {"a-seat": "aurel"}
    vp = r.table.players["red"].vp
    assert vp == t.players["red"].vp + 1
    t2, _ = draft(r.table, data, PREFS)
    s = status(t2, r.board, data, cat, {})
    assert s.table.players["red"].vp == vp
    assert not [e for e in s.events if e["type"] == "vp"]


def test_reports_show_traits_technologies_and_laws_with_what_they_do() -> None:
    """A player's report lists his traits and technologies with what they do and when, his
    commodity value with its extras, every player's traits, and each law in play with its
    effect and for whom it acts."""
    plugin = registry.load("ti4")
    renderer = mails.Renderer("ti4")
    before, after, events = next((b, a, e) for b, a, e in played("small-4", steps=4, seed=1)
                                 if a.get("table"))
    after = {**after, "table": {**after["table"], "laws": {"a-charter": "blue"}}}
    game = {"game_id": "views", "title": "Views", "deadline": None, "checkpoint": None,
            "missed": {}, "instance": "i-views"}
    mail = mails.turn_report(renderer, plugin, before, after, events, ["red"], {}, game)
    text = " ".join(mail.text.split())
    assert "commodities 0 of 5" in text
    assert "Traits: 1 more commodity when refilled (always); frigate cost 1 (always)." in text
    assert "tgreen1 (Seed Vaults: 1 more commodity when refilled, always)" in text
    assert "blue: traits bastion combat rolls +1 (always), +1 trade good(s) (each status " \
           "phase)" in text
    assert "a-charter (blue): +2 command token(s), at each status phase for blue" in text
    assert max(len(line) for line in mail.text.splitlines()) <= 80
    assert "Seed Vaults" in mail.html and "a-charter (blue)" in mail.html
