"""The 4000 A.D. presenter: threat lists against brute force, a sentence for every event, the
text star map, the order form."""

from __future__ import annotations

import random
import re

import pytest
import yaml

from pbem.protocol import safeyaml
from pbem.protocol.envelope import check_envelope
from pbem.render import mails
from tests.support.ad_driver import AD, Table, ad_module, random_body

PRES = mails.presenter(AD)
BOARD = AD.board
COMMITMENT = "ab" * 32


def _warp_state(origin: str, travelled: int, ships: int, mine: dict[str, int]) -> Table:
    """Pavo has a warp from ``origin`` that has travelled ``travelled``; Algol holds ``mine``."""
    t = Table()
    for star, n in mine.items():
        t.put(star, "algol", n)
    t.set("warps.pavo.1", {
        "from": origin, "sector": BOARD.lookup(origin).sector.name, "departed": 1,
        "travelled": travelled, "ships": {"pavo": ships}, "commitment": COMMITMENT,
        "escrow": None,
    })
    return t


def _brute_force(origin: str, travelled: int) -> list[str]:
    """Stars a warp from ``origin`` could come out at next turn, by the rulebook's count over
    all 48 stars: exactly travelled + 1 sectors away, unless that is beyond the furthest star."""
    reach = max(BOARD.distance(origin, s) for s in BOARD.stars)
    nxt = travelled + 1
    if nxt > reach:
        return []
    return sorted(s for s in BOARD.stars if BOARD.distance(origin, s) == nxt)


SECTOR_ORIGINS = [stars[0].name for stars in BOARD.by_sector.values()]


@pytest.mark.parametrize("origin", SECTOR_ORIGINS)
def test_threat_list_is_exactly_the_stars_at_travelled_plus_one(origin):
    held = {"Hamal": 4, "Mira": 9, "Vega": 6, "Deneb": 1, "Sabik": 5}
    for travelled in range(1, BOARD.max_distance + 2):
        t = _warp_state(origin, travelled, 6, held)
        view = t.view("algol")
        threats = PRES.threats(view, "pavo", "1", ["algol"])
        assert sorted(x["star"] for x in threats) == _brute_force(origin, travelled)
        for x in threats:
            assert x["mine"] == (x["star"] in held or x["star"] == "Algol")
            if x["mine"]:
                defence = held.get(x["star"], 15)
                assert x["danger"] == ("win" if defence < 6 else
                                       "equal" if defence == 6 else "hold")
        entry = PRES.other_warps(view, ["algol"])[0]
        text = " ".join(entry["where"].split())
        for star in _brute_force(origin, travelled):
            assert re.search(rf"\b{star}\b", text, re.IGNORECASE), (origin, travelled, star)
        reach = max(BOARD.distance(origin, s) for s in BOARD.stars)
        if travelled + 1 > reach:
            assert "lost in hyperspace next turn" in entry["note"]
            assert not entry["threats"]
        elif travelled + 1 == reach:
            assert "Furthest reach: it must come out next turn" in entry["note"]
        else:
            assert entry["note"] == ""


def test_threats_flag_the_readers_stars_and_compare_ships():
    t = _warp_state("Vega", 2, 6, {"Hamal": 6, "Pavo": 2})
    # Vega is K-yellow; 3 sectors on: J-red (Pavo), ... Hamal is D-yellow: 3 rows up = 4.
    t.set("warps.pavo.1.travelled", 3)
    view = t.view("algol")
    by_star = {x["star"]: x for x in PRES.threats(view, "pavo", "1", ["algol"])}
    assert by_star["Hamal"]["verdict"] == "6 against your 6: equal, it would not engage"
    text = PRES.other_warps(view, ["algol"])[0]["where"]
    assert "HAMAL (yours: 6 against your 6" in text


def test_own_warp_shows_no_destination_and_the_reveal_hint():
    t = Table()
    t.play(algol=t.body("algol", ("Algol", 5, "Hamal")))
    view = t.view("algol")
    (w, free) = PRES.own_warps(view, "algol")
    assert free["free"] and not w["free"]
    assert "Hamal" not in w["line"] + w["note"]
    assert "If its destination is 2 sectors from A-yellow, it arrives next turn" in w["note"]


EVENTS = {
    "departure": {"power": "pavo", "warp": 1, "origin": "Pavo", "sector": "J-red", "ships": 5,
                  "fleet": {"pavo": 5}, "commitment": COMMITMENT, "notes": [],
                  "same_sector": False},
    "departure_failed": {"power": "algol", "alternative": 1, "origin": "Hamal",
                         "reason": "you have no ships at Hamal", "_visible_to": ["algol"]},
    "arrival": {"power": "pavo", "star": "Vega", "fleets": [{"power": "pavo", "warp": 1,
                                                             "ships": 5}], "ships": {"pavo": 5}},
    "battle": {"power": "pavo", "star": "Mira", "fleets": [{"power": "pavo", "warp": 1,
                                                            "ships": 7}],
               "attackers": {"pavo": 7}, "defenders": {"algol": 4}, "attack": 7, "defence": 4,
               "winner": "attacker"},
    "tie": {"power": "pavo", "star": "Mira", "fleets": [{"power": "pavo", "warp": 1,
                                                         "ships": 4}],
            "attack": 4, "defence": 4, "defenders": {"algol": 4}},
    "diverted": {"power": "pavo", "star": "Mira", "to_star": "Menkar", "reason": "equal forces",
                 "fleets": [{"power": "pavo", "warp": 1, "ships": 4}]},
    "held_in_hyperspace": {"power": "pavo", "star": "Menkar", "reason": "equal forces",
                           "fleets": [{"power": "pavo", "warp": 1, "ships": 4}]},
    "lost_in_hyperspace": {"power": "pavo", "warp": 2, "sector": "J-red", "travelled": 8,
                           "ships": 3},
    "reveal_refused": {"power": "algol", "warp": 1, "star": "Hamal", "reason": "bad nonce",
                       "_visible_to": ["algol"]},
    "production": {"power": "algol", "ships": 2, "circles": 2, "crosses": 3,
                   "stars": ["Algol"], "home": "Algol"},
    "no_production": {"power": "algol", "reason": "Algol is not held by algol"},
    "home_captured": {"power": "pavo", "owner": "algol", "star": "Algol"},
    "home_regained": {"power": "algol", "star": "Algol"},
    "home_held_by_ally": {"power": "regulus", "owner": "algol", "star": "Algol"},
    "surrender": {"star": "Vega", "from_power": "pavo", "to_power": "algol", "ships": 3},
    "surrender_arrival": {"power": "pavo", "warp": 1, "star": "Vega", "ships": 3},
    "elimination": {"power": "pavo", "reason": "did not regain Pavo in time"},
    "alliance_proposed": {"power": "algol", "other": "regulus",
                          "_visible_to": ["algol", "regulus"]},
    "alliance_formed": {"members": ["algol", "regulus"], "_visible_to": ["algol", "regulus"]},
    "alliance_announced": {"members": ["algol", "regulus"], "why": "combined arrival at X"},
    "alliance_ended": {"power": "algol", "other": "regulus"},
    "permissions": {"power": "algol", "home": ["regulus"], "lend": [], "_visible_to": ["algol"]},
    "resources_assigned": {"power": "algol", "star": "Caph", "ally": "regulus"},
    "agreement_failed": {"power": "algol", "star": "Caph", "ally": "regulus", "reason": "no",
                         "_visible_to": ["algol"]},
    "vote": {"power": "algol", "vote_end": True, "_visible_to": ["algol"]},
    "concession": {"power": "pavo"},
    "withdrawal_proposed": {"power": "algol", "other": "pavo", "_visible_to": ["algol", "pavo"]},
    "mutual_withdrawal": {"powers": ["algol", "pavo"], "moves": [
        {"power": "algol", "from": "Pavo", "to": "Algol", "ships": 3}]},
    "withdrawal_refused": {"power": "pavo", "other": "algol"},
    "game_over": {"reason": "last power standing", "winners": ["algol"]},
}

EXPECTED = {
    "departure": "Pavo's warp 1 left Pavo (sector J-red) with 5 ships, destination unknown.",
    "battle": "Pavo's warp 1 (7 ships) attacked Mira, 7 ships against 4: the attack won. Your "
              "4 ships there were destroyed; the attackers lost none.",
    "arrival": "Pavo's warp 1 (5 ships) came out of hyperspace at Vega unopposed.",
    "home_captured": "Algol, your home star, was captured by Pavo. You must regain it on your "
                     "next turn or be eliminated.",
    "production": "Production: you built 2 ships at Algol (2 circles and 3 crosses among the "
                  "stars held).",
    "lost_in_hyperspace": "Pavo's warp 2 (3 ships), out from sector J-red for 8 turns, was lost "
                          "in hyperspace.",
    "elimination": "Pavo was eliminated: did not regain Pavo in time.",
    "alliance_announced": "The alliance of you and Regulus is now public (combined arrival at "
                          "X).",
    "game_over": "The game is over (last power standing). Winner: you.",
}


@pytest.mark.parametrize("kind", sorted(EVENTS))
def test_every_event_type_has_a_plain_sentence(kind):
    event = {"type": kind, "turn": 3, "slot": 0, **EVENTS[kind]}
    text = PRES.sentence(event, PRES.Voice(["algol"]), "independents")
    assert not text.startswith(kind + ":"), "no generic fallback for a known event"
    assert (text[0].isupper() or text[0].isdigit()) and text.endswith("."), text
    assert "{" not in text and "None" not in text
    if kind in EXPECTED:
        assert text == EXPECTED[kind]


def test_every_event_the_rules_emit_is_covered():
    import pathlib

    src = "".join(p.read_text() for p in pathlib.Path("games/fourthousand_ad").glob("*.py")
                  if p.name != "presenter.py")
    emitted = set(re.findall(r'emit\(\s*"([a-z_]+)"', src))
    assert emitted <= set(EVENTS), emitted - set(EVENTS)


def test_text_star_map_fits_80_columns_and_shows_every_star():
    t = Table().put("Capella", "algol", 120).put("Capella", "regulus", 3, holder="algol")
    view = t.view("algol")
    lines = PRES.star_map_text(view, ["algol"])
    assert len(lines) == 4 * 5
    assert max(len(line) for line in lines) <= 80
    text = "\n".join(lines)
    for star in BOARD.stars:
        assert star in text
    assert "▲ Capella    ○+ ALG 120&" in text
    assert "▼ Pavo*      ○+ PAV  15" in text
    assert PRES.map_notes(view, ["algol"]) == ["Capella: Algol 120, Regulus 3 (held by Algol)"]


@pytest.mark.parametrize("turns", [0, 1, 2])
def test_order_form_is_valid_yaml_and_standing_orders(turns):
    t = Table()
    if turns:
        t.play(algol=t.body("algol", ("Algol", 5, "Antares")))
    if turns > 1:
        t.play(algol=t.body("algol", ("Algol", 4, "Pavo")))
    view = {**t.view("algol"), "instance": "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"}  # as view.json
    form = PRES.order_form(view, "algol", 1)
    assert max(len(line) for line in form.splitlines()) <= 80
    doc = yaml.safe_load(form)
    assert doc == safeyaml.load_order_yaml(form)
    envelope, problems = check_envelope(doc, game="test-game", power="algol", turn=view["turn"])
    assert not problems and envelope is not None
    assert envelope.instance == view["instance"]  # a player who copies the form names it
    _, problems = AD.normalize_orders(envelope.orders or {}, view)
    assert not problems, [str(p) for p in problems]
    flying = [k for k, w in view["warps"]["algol"].items() if w]
    assert sorted((envelope.orders or {}).get("warps", {})) == sorted(int(k) for k in flying)
    assert all(v == "continue" for v in (envelope.orders or {}).get("warps", {}).values())
    # the commented departure template, uncommented, is still YAML of the documented shape
    lines = form.splitlines()
    at = lines.index("  # depart:")
    block = ["  depart:"] + [line.replace("  #   ", "    ", 1) for line in lines[at + 1:at + 5]]
    uncommented = "\n".join(lines[:at] + block) + "\n"
    depart = yaml.safe_load(uncommented)["orders"]["depart"]
    assert set(depart) == {"warp", "from", "ships", "commitment"}


def test_receipt_lines_restate_the_orders():
    t = Table()
    t.play(algol=t.body("algol", ("Algol", 5, "Antares")))
    body = t.body("algol", ("Algol", 3, "Mira"))
    body["depart"]["else"] = [{"warp": 2, "from": "Algol", "ships": "all", "to": "Caph"}]
    norm, problems = t.check("algol", body)
    assert not problems
    lines = PRES.receipt_lines(norm, t.view("algol"))
    assert lines[0] == "Warp 1 continues, step 2 of its journey from sector A-yellow (5 ships)."
    assert lines[1].startswith("Departure: warp 2 from Algol with 3 ships to a secret "
                               "destination, commitment ")
    assert "Mira" not in lines[1]
    assert lines[2] == ("If that cannot leave, alternative 1: warp 2 from Algol with all ships "
                        "to Caph (same sector: it arrives this turn).")


def test_svg_map_is_well_formed_xml():
    import xml.etree.ElementTree as ET

    t = Table().put("Hamal", "pavo", 3)
    view = t.view("algol")
    r = mails.Renderer("4000ad")
    svg = r.render("map.svg", {**PRES.map_context(view, ["algol"], None),
                               "title": "A & B <test>", "turn": 1, "readers_css": ""})
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = [el.text for el in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "A & B <test>" in texts, "titles are escaped in SVG"
    assert sum(1 for el in root.iter("{http://www.w3.org/2000/svg}circle")
               if el.get("r") == "8") == 48


@pytest.mark.parametrize("options", [{}, {"mode": "sequential"}, {"production_turns": "odd"},
                                     {"mode": "sequential", "production_turns": "odd"}])
def test_the_resolved_production_turn_is_the_view_befores(options: dict) -> None:
    """The report's ``resolved_production`` is the view before's ``production_turn`` for every
    resolution of random games to their end; in simultaneous play before the end it is read
    from the view after alone (the view before, made when first read, is not read)."""
    contexts = ad_module("contexts")
    for seed in range(3):
        rng, t = random.Random(seed), Table("wild-4", **options)
        for _ in range(40):
            if AD.is_over(t.state):
                break
            before = t.state
            t.play(**{p: random_body(t, p, rng) for p in AD.powers_due(before)})
            for power in t.state["powers"]:
                view_before = AD.view(before, power)
                view_after = AD.view(t.state, power)
                assert (contexts.resolved_production(view_before, view_after)
                        is view_before["production_turn"])
                if options.get("mode") != "sequential" and t.state["result"] is None:
                    assert contexts.resolved_production({}, view_after) \
                        is view_before["production_turn"]


def test_the_shared_parts_star_map_cells_are_made_when_read() -> None:
    """A report's shared part holds ``map`` (the star field's cells with the readers' stars
    marked) only once something reads it: the writers never do; a game directory's own
    template gets the cells ``star_map`` draws for those readers, through Jinja as well."""
    from pbem.render.jinjaenv import environment

    t = Table()
    t.put("Mira", "algol", 5)
    view = AD.view(t.state, "algol")
    shared = PRES.shared([view], [], ["algol"])
    assert "map" not in shared and "legend" in shared
    template = environment(()).from_string(
        "{% for row in shared.map %}{% for area in row %}{% for s in area.stars %}"
        "{{ s.name if s.mine }}{% endfor %}{% endfor %}{% endfor %}")
    mine = "".join(cell["name"] for row in PRES.star_map(view, ["algol"]) for area in row
                   for cell in area["stars"] if cell["mine"])
    assert "Mira" in mine and template.render(shared=shared) == mine
    assert shared["map"] == PRES.star_map(view, ["algol"]) and "map" in shared
    with pytest.raises(KeyError):
        shared["nothing"]
