"""Babylon 5 CGS's reports (games/b5cgs/present.py and the modules it draws on): the hex map as
text within 80 columns and as SVG, with units, facings and damage, face-down pieces drawn as
such with nothing of what they are; every power's scoring banks; every roll with its label, die,
faces and result; the threats in range (by range and arc) of each of the reader's units; a
pre-filled order form the referee's check accepts; and the structural leak test (another
power's private answer never changes my report)."""

from __future__ import annotations

import importlib
import re

import yaml

from pbem.render import mails
from tests.support.b5cgs_driver import PLUGIN, clear, expose_all, new_game, put

present = importlib.import_module("b5cgs.present")
mapmodel = importlib.import_module("b5cgs.mapmodel")
hexmap_text = importlib.import_module("b5cgs.hexmap_text")
hexmap_svg = importlib.import_module("b5cgs.hexmap_svg")
threats = importlib.import_module("b5cgs.threats")
sentences = importlib.import_module("b5cgs.sentences")
orderform = importlib.import_module("b5cgs.orderform")
viewmod = importlib.import_module("b5cgs.view")
GAME = {"game_id": "b5-test", "title": "B5 test", "deadline": None, "checkpoint": None,
        "seq": 3, "instance": "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"}
PLAYER = {"name": "", "email": "", "tz": ""}
EA, MB, VC = "earth-alliance", "minbari", "valdri"
ROLL = {"type": "roll", "label": "move0:t7:hex", "die": "b5", "faces": [0, 1, 2, 3, 4, 5],
        "count": 3, "result": [2, 0, 5], "for": "Damage Indicator 3 at 1,1 (t7 entering)"}


def report(before, after, events, power):
    """One player's turn report, as the engine renders and mails it: text, HTML, map.svg."""
    mail = mails.turn_report(mails.Renderer("b5cgs"), PLUGIN, before, after, events, [power],
                             PLAYER, GAME)
    svg = dict((n, b.decode()) for n, _, b in mail.attachments)["map.svg"]
    return mail, svg


def battle():
    """Earth's Hyperion at 1,1 facing north; a Minbari cruiser two hexes north of it facing
    south (its heavy weapon's F arc covers the Hyperion); a crippled Valdri lancer behind the
    Hyperion facing away (its arcs do not cover it); every piece face up but one."""
    st = clear(new_game("basic-3"))
    expose_all(st)
    slot = next(s for s in st["map"]["slots"] if s["kind"] == "deal")
    slot["exposed"] = False  # one piece stays face down
    piece = slot["piece"]
    slot["piece"] = None
    st["referee"]["pieces"][str(slot["slot"])] = piece
    for h in slot["hexes"]:
        st["hexes"].pop(h, None)
    hyperion = put(st, "ea-hyperion", EA, "1,1", 1)
    cruiser = put(st, "mf-cruiser", MB, "1,-1", 4)
    lancer = put(st, "vc-lancer", VC, "1,2", 4, crippled=True)
    base = put(st, "ea-base-2", EA, "2,1", None)
    return st, {"hyperion": hyperion, "cruiser": cruiser, "lancer": lancer, "base": base,
                "facedown": slot, "piece": piece}


def test_text_map_fits_80_columns_and_names_every_hex_on_3_and_4_player_maps():
    for variant in ("basic-3", "basic-4"):
        st = new_game(variant)
        view = PLUGIN.view(st, st["seats"][0])
        lines = hexmap_text.render(mapmodel.cells(view))
        assert max(map(len, lines)) <= 78
        text = "\n".join(lines)
        for slot in view["map"]["slots"]:
            for h in slot["hexes"]:
                assert re.search(rf"(^|\s){re.escape(h)}(\s|$)", text, re.M), h
        mail, _ = report(st, st, [], st["seats"][0])
        assert max(len(line) for line in mail.text.splitlines()) <= 80


def test_units_facings_and_damage_on_both_maps():
    st, t = battle()
    mail, svg = report(st, st, [], EA)
    view = PLUGIN.view(st, EA)
    cells = {c["name"]: c for c in mapmodel.cells(view)}
    at = {k: view["tokens"][t[k]]["hex"] for k in ("hyperion", "cruiser", "lancer")}
    # one name: the id orders use, a ship's facing, the owner's letter (* crippled) under it
    assert (cells[at["hyperion"]]["unit"], cells[at["hyperion"]]["owner"]) == (
        f"{t['hyperion']}:1", "E")
    assert (cells[at["cruiser"]]["unit"], cells[at["cruiser"]]["owner"]) == (
        f"{t['cruiser']}:4", "M")
    assert (cells[at["lancer"]]["unit"], cells[at["lancer"]]["owner"]) == (
        f"{t['lancer']}:4", "V*")
    for k in ("hyperion", "cruiser", "lancer"):
        assert re.search(rf"(^|\s){t[k]}:\d(\s|$)", mail.text, re.M), k
        assert f">{t[k]}:" in svg
        assert not re.search(rf"\b[EMV]{mapmodel.number(t[k])}\b", mail.text), k
    assert "CRIPPLED" in mail.text and "Hyperion Cr. at 1,1, facing 1" in mail.text
    # the SVG: a disc per ship, a square per base, dashed when crippled, a facing pointer
    assert svg.count('class="dot p-') == 4 and "<rect x=" in svg
    assert svg.count('stroke-dasharray="3 2"') == 1
    drawing = hexmap_svg.drawing(mapmodel.cells(PLUGIN.view(st, EA)),
                                 mapmodel.colours(PLUGIN.view(st, EA)))
    ship = next(u for u in drawing["units"] if u["power"] == EA and not u["base"])
    assert ship["tip_x"] == ship["x"] and ship["tip_y"] < ship["y"]  # facing 1 points north
    south = next(u for u in drawing["units"] if u["power"] == "minbari")
    assert south["tip_x"] == south["x"] and south["tip_y"] > south["y"]


def test_a_face_down_piece_shows_nothing_of_what_it_is():
    st, t = battle()
    view = PLUGIN.view(st, EA)
    cells = [c for c in mapmodel.cells(view) if c["piece"] == t["facedown"]["slot"]]
    assert len(cells) == 7 and all(not c["exposed"] and c["marks"] in ([], ["B5"])
                                   for c in cells)
    mail, svg = report(st, st, [], EA)
    title = st["pack"]["pieces"][t["piece"]]["title"]
    for shown in (mail.text, mail.html, svg):
        assert t["piece"] not in shown and title not in shown
    assert "face down" in mail.text and "facedown" in svg


def test_every_roll_is_listed_with_label_die_faces_and_result():
    st, _ = battle()
    mail, _ = report(st, st, [ROLL], EA)
    assert "[move0:t7:hex] 3 x b5 (faces 0 1 2 3 4 5): 2 0 5 = 7" in mail.text
    assert "move0:t7:hex" in mail.html and "2 0 5 = 7" in mail.html
    assert present.rolls([ROLL])[0]["result"] == [2, 0, 5]


def test_every_power_s_scoring_banks_are_shown():
    st, _ = battle()
    view = PLUGIN.view(st, EA)
    rows = {b["power"]: b for b in present.banks(view)}
    assert set(rows) == set(st["seats"])
    assert rows[EA]["reserve"] == st["powers"][EA]["reserve"] and rows[EA]["you"]
    mail, _ = report(st, st, [], EA)
    assert "SCORING BANKS" in mail.text and "gross" in mail.text and "upkeep" in mail.text
    assert f"reserve {st['powers'][EA]['reserve']}" in mail.text


def test_threats_in_range_by_range_and_arc():
    """D5.3, D5.4: the Minbari cruiser's heavy weapon (range 2, arc F) covers the Hyperion two
    hexes south of it, its lasers (range 1) do not reach; the crippled lancer south of the
    Hyperion faces away from it, so only a weapon with an aft arc (its lasers: F FL FR A)
    reaches it; turned away, the cruiser threatens nothing."""
    st, t = battle()
    view = PLUGIN.view(st, EA)
    rows = {r["id"]: r for r in threats.threats(view, EA)}
    hyperion = rows[t["hyperion"]]["threats"]
    cruiser = next(x for x in hyperion if x["id"] == t["cruiser"])
    assert cruiser["weapons"] == [{"weapon": "heavy", "points": 1, "range": 2}]
    assert "heavy up to 1 at range 2" in cruiser["text"]
    # the lancer at 1,2 faces south (4); the Hyperion at 1,1 is north of it, in its A arc,
    # where its (crippled) lasers fire: laser 1 at range 1
    lancer = next(x for x in hyperion if x["id"] == t["lancer"])
    assert lancer["weapons"] == [{"weapon": "laser", "points": 1, "range": 1}]
    # turned to face north, the cruiser's F arc misses the Hyperion (it is behind it)
    st["tokens"][t["cruiser"]]["facing"] = 1
    view = PLUGIN.view(st, EA)
    hyperion = {r["id"]: r for r in threats.threats(view, EA)}[t["hyperion"]]["threats"]
    assert all(x["id"] != t["cruiser"] for x in hyperion)
    mail, _ = report(st, st, [], EA)
    assert "THREATS IN RANGE" in mail.text


def test_the_prefilled_order_form_is_accepted_by_the_order_check():
    st, _ = battle()
    mail, _ = report(st, st, [], st["current"])
    view = {**PLUGIN.view(st, st["current"]), "instance": GAME["instance"]}  # as view.json
    form = orderform.order_form(view, 3)
    assert form in mail.text
    assert max(map(len, form.splitlines())) <= 80
    doc = yaml.safe_load(form)
    assert (doc["game"], doc["power"], doc["turn"], doc["seq"], doc["instance"]) == (
        st["game_id"], st["current"], st["turn"], 3, GAME["instance"])
    _, problems = PLUGIN.normalize_orders(doc["orders"], view)
    assert problems == []
    setup = PLUGIN.setup("basic-3", {"game_id": "t"})
    first = {**PLUGIN.view(setup, setup["seats"][0]), "instance": GAME["instance"]}
    doc = yaml.safe_load(orderform.order_form(first, 0))
    assert doc["orders"] == {} and PLUGIN.normalize_orders({}, first)[1] == []


def test_another_power_s_private_answer_never_changes_my_report():
    st, _ = battle()
    (varied, knowers), = viewmod.variations(st, MB)
    assert knowers == (MB,)
    assert report(st, varied, [], EA)[0].text == report(st, st, [], EA)[0].text
    assert report(st, varied, [], EA)[1] == report(st, st, [], EA)[1]


def test_every_event_of_the_state_document_has_a_sentence():
    st, t = battle()
    view = PLUGIN.view(st, EA)
    events = [
        ROLL, {"type": "order_of_play", "order": st["order"]},
        {"type": "homeworld", "power": EA, "slot": 7, "piece": "piece:earth", "position": 1},
        {"type": "placed", "power": EA, "token": t["hyperion"], "token_type": "ea-hyperion",
         "hex": "1,1", "facing": 1},
        {"type": "economy", "power": EA, "reserve": 27, "why": "starting fleet"},
        {"type": "dealt", "slots": [1, 2], "why": "C1.42"},
        {"type": "turn_begins", "power": EA, "round": 1},
        {"type": "moved", "power": EA, "token": t["hyperion"], "from": "1,1", "to": "1,0",
         "facing": 1, "how": "forward"},
        {"type": "jumped", "power": EA, "token": t["hyperion"], "from": "1,1", "to": "1,-2",
         "via": "engine", "fleet_of": None},
        {"type": "explored", "power": EA, "token": t["hyperion"], "slot": 3,
         "piece": "piece:gas-giant", "rotation": 2, "flip": 1},
        {"type": "activated", "token": t["hyperion"], "hex": "1,1", "element": "damage",
         "indicator": 3, "doubled": True, "damage": 14},
        {"type": "mine_removed", "hex": "1,1", "token": "t30"},
        {"type": "swept", "power": EA, "token": t["hyperion"], "mine": "t30", "hex": "1,0",
         "dg": 1, "dice": 2},
        {"type": "move_void", "power": EA, "entry": 2, "reason": "the hex is occupied"},
        {"type": "damage", "token": t["hyperion"], "points": 7, "cause": "volley",
         "result": "crippled"},
        {"type": "contested_answer", "power": EA, "_visible_to": [EA]},
        {"type": "turn_ends", "power": EA},
        {"type": "victory", "winners": [EA], "reason": "economic"},
        {"type": "start_void", "power": EA, "entry": 0, "reason": "occupied", "_visible_to": [EA]},
        {"type": "built", "power": EA, "token": t["base"], "token_type": "ea-base-2",
         "hex": "2,1", "facing": None, "by": t["hyperion"], "cost": 5, "from_scrap": False},
        {"type": "repaired", "power": EA, "token": t["hyperion"], "cost": 5},
        {"type": "mine_laid", "power": EA, "token": "t31", "token_type": "mine-3",
         "hex": "1,0", "by": t["hyperion"], "cost": 3},
        {"type": "allocate_void", "power": EA, "entry": "build[0]", "reason": "no money"},
        {"type": "move_skipped", "power": EA, "entry": 1, "token": t["hyperion"],
         "why": "crippled"},
        {"type": "declared", "power": EA, "victory": "economic"},
        {"type": "declaration_refused", "power": EA, "victory": "economic", "reason": "x"},
        {"type": "declaration_lapsed", "power": EA, "victory": "economic"},
        {"type": "surrenders", "power": EA, "net": -2},
        {"type": "surrender_refused", "power": EA, "reason": "net 3"},
        {"type": "surrendered", "power": EA, "removed": ["t1"]},
        {"type": "volley", "power": EA, "volley": 0, "target": t["cruiser"],
         "target_type": "mf-cruiser", "target_owner": MB, "with": [t["hyperion"]],
         "passed_over": []},
        {"type": "volley_total", "power": EA, "volley": 0, "target": t["cruiser"],
         "scores": {}, "total": 5, "dg": 1, "damage": 4},
        {"type": "volley_void", "power": EA, "volley": 1, "tried": ["t40"]},
        {"type": "fire_skipped", "power": EA, "volley": 1, "token": "t9", "reason": "x"},
        {"type": "war_token", "from": EA, "to_power": MB},
        {"type": "revealed", "pieces": {"3": "piece:gas-giant"}, "aside": []},
    ]
    for e in events:
        text = sentences.sentence(e, view)
        assert not text.startswith(f"{e['type']}:"), text
    assert "Hyperion Cr." in sentences.sentence(events[7], view)
    assert sentences.sentence({"type": "novel", "x": 1}, view) == "novel: x 1."


def test_receipt_lines_restate_the_orders():
    st, t = battle()
    view = PLUGIN.view(st, EA)
    lines = present.PRESENTER.receipt_lines({
        "start": [{"token": "ea-transport", "hex": "1,4", "facing": 2}],
        "record": {"declare": "economic"},
        "allocate": {"build": [{"token": "base-4", "hex": "2,2", "by": t["hyperion"]}],
                     "repair": [{"token": t["hyperion"], "by": t["base"]}]},
        "move": [{"unit": t["hyperion"], "to": "1,0", "facing": 1},
                 {"unit": t["hyperion"], "jump": "1,-3", "fleet": ["t9"], "flip": 2}],
        "fire": [{"target": t["cruiser"], "with": [t["hyperion"]], "else": [t["lancer"]]}],
        "contested": {"default": "deny", "allow": [MB]}}, view)
    text = "\n".join(lines)
    assert "Starting fleet: E.A. Transport (ea-transport) at 1,4 facing 2." in text
    assert "economic victory" in text and "Build Base-4 (base-4) at 2,2" in text
    assert f"Move 1: {t['hyperion']} (Hyperion Cr.) to 1,0 facing 1." in text
    assert "jumps to 1,-3 with t9 (flip 2)" in text and "else at" in text
    assert "Contested space: deny by default, allow minbari." in text
    assert present.PRESENTER.receipt_lines({}, view)[0].startswith("No orders")


def test_welcome_game_end_and_gm_summary_render():
    renderer = mails.Renderer("b5cgs")
    start = PLUGIN.setup("basic-3", {"game_id": "b5-test"})
    hello = mails.welcome(renderer, PLUGIN, start, [EA], PLAYER, GAME)
    assert "You play Earth Alliance." in hello.text and "set-up" in hello.text
    assert max(len(line) for line in hello.text.splitlines()) <= 80
    st, t = battle()
    gm = mails.gm_summary(renderer, PLUGIN, st, st, [ROLL], GAME)
    assert "referee summary" in gm.subject and "2 0 5 = 7" in gm.text
    over = PLUGIN.end_game(st, "agreement").state
    end = mails.game_end(renderer, PLUGIN, over, [], [EA], PLAYER, GAME, [])
    assert "THE GAME IS OVER" in end.text
    assert st["pack"]["pieces"][t["piece"]]["title"] in end.text or t["piece"] in end.text


def test_the_purchase_table_is_in_the_report_and_the_order_form():
    """What the reader may buy, with the cost he pays now, upkeep, weapons with their arcs
    (heavy 3/1 in F FR FL for the Hyperion), defense rating and movement, in the text part,
    the HTML part and the order form; the starting-fleet step's costs are the starting fleet's
    (C4.3: build less upkeep for his empire's tokens)."""
    st, _ = battle()
    power = st["current"]
    assert power == EA
    mail, _ = report(st, st, [], power)
    view = PLUGIN.view(st, power)
    rows = {r["type"]: r for r in orderform.purchases(view)}
    hyperion = rows["ea-hyperion"]
    assert (hyperion["heavy"], hyperion["laser"], hyperion["dr"]) == (
        "3/1 F FR FL", "2/1 F FR AR AL FL", "6/4")
    assert "forward" in hyperion["moves"] and not any(t.startswith("mf-") for t in rows)
    for text in (mail.text, orderform.order_form({**view, "instance": GAME["instance"]}, 3)):
        assert "What you can buy" in text
        assert re.search(r"ea-hyperion +ship +cost +\d+, upkeep 3, DR 6/4", text)
        assert "heavy 3/1 F FR FL; laser 2/1 F FR AR AL FL" in text
        assert max(map(len, text.splitlines())) <= 80 or text is mail.text
    assert "What you can buy" in mail.html and "Hyperion" in mail.html
    assert "3/1 F FR FL" in mail.html
    st["phase"] = "fleet"  # Earth's starting-fleet step (rules version 3, ruling R7)
    first = {r["type"]: r for r in orderform.purchases(PLUGIN.view(st, EA))}
    assert first["ea-hyperion"]["cost"] == 16 - 3 and "jumpgate" not in first
