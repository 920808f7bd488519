"""Golden files of every mail template, rendered from scripted games through the real plugin and
the real templates. Regenerate only on purpose: ``PBEM_REGEN_GOLDEN=1 .venv/bin/pytest
tests/engine/render/test_report_golden.py`` (then read the diff before committing it)."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest
import yaml

from pbem import canonical
from pbem.errors import Problem
from pbem.render import mails as render
from pbem.render import press as render_press
from pbem.render.mails import RenderedMail
from pbem.resources import templates_root
from tests.support.ad_driver import AD
from tests.support.report_scenario import (
    GAME,
    PLAYERS,
    alliances_game,
    golden_game,
    reveal,
    wild_game,
)

GOLDEN = Path(__file__).parent / "golden"
REGEN = os.environ.get("PBEM_REGEN_GOLDEN") == "1"
RECEIPT_SIG = "pbem-receipt game=test-game power=algol turn=2 seq=1\n sig=c2lnbmVkLXJlY2VpcHQ"
PRESS_SIG = ("pbem-press from=algol game=test-game index=0 log=12 text_sha256=5b2c to=regulus "
             "turn=2\n sig=c2lnbmVkLXByZXNz")
PRESS_RECEIPT_SIG = "pbem-press-receipt game=test-game power=algol turn=2\n sig=c2lnbmVk"


@cache
def mails() -> dict[str, RenderedMail]:
    """Every template, rendered once for the scripted games."""
    r = render.Renderer("4000ad")
    t, rounds = golden_game()
    out: dict[str, RenderedMail] = {}
    for index, power in ((0, "regulus"), (1, "algol"), (2, "algol"), (2, "pavo"),
                         (3, "pavo"), (3, "antares")):
        rd = rounds[index]
        out[f"turn{index + 1}_{power}"] = render.turn_report(
            r, AD, rd.before, rd.after, rd.events, [power], PLAYERS[power], GAME)
    _, arounds = alliances_game()
    a = arounds[0]
    out["turn1_pavo_antares"] = render.turn_report(
        r, AD, a.before, a.after, a.events, ["pavo", "antares"], PLAYERS["pavo"],
        {**GAME, "checkpoint": None, "deadline": None})
    first = rounds[0].before
    out["welcome_algol"] = render.welcome(
        r, AD, first, ["algol"], PLAYERS["algol"],
        {**GAME, "checkpoint": None, "schedule": "Orders are due every 48 hours; a turn is "
         "resolved early when every order is in.",
         "roster": [{"power": p, "name": p.capitalize(), "email": PLAYERS[p]["email"]}
                    for p in ("algol", "regulus", "pavo", "antares")]})
    out["receipt_algol"] = render.receipt(
        r, AD, rounds[1].before, "algol", rounds[1].orders["algol"], PLAYERS["algol"], GAME,
        seq=1, signature=RECEIPT_SIG)
    out["receipt_regulus"] = render.receipt(
        r, AD, rounds[0].before, "regulus", rounds[0].orders["regulus"], PLAYERS["regulus"],
        GAME, seq=3)
    out["rejection_algol"] = render.rejection(
        r, [Problem("ships", "orders.depart.ships", "you have 3 ships at Vega, not 5"),
            Problem("unknown-star", "orders.warps[2].arrive",
                    'no star named "Hamall" — did you mean Hamal?'),
            "the signature does not verify with the key registered for algol"],
        PLAYERS["algol"], GAME, power="algol", turn=2, seq=4)
    out["reminder_algol"] = render.reminder(r, AD, rounds[1].before, ["algol"],
                                            PLAYERS["algol"], GAME)
    out["late_notice_antares"] = render.late_notice(
        r, "antares", PLAYERS["antares"], GAME, turn=3, received="2026-12-02T18:05:00Z")
    out["late_notice_deadline_antares"] = render.late_notice(
        r, "antares", PLAYERS["antares"], {**GAME, "deadline": None}, turn=3,
        received="2026-12-02T20:55:00Z",
        late={"deadline": "2026-12-02T18:00:00Z", "grace_end": "2026-12-02T20:00:00Z"})
    out["superseded_algol"] = render.superseded(
        r, "algol", PLAYERS["algol"], GAME, turn=2, seq=3, newer=4, used=False,
        received="2026-12-02T17:05:00Z")
    out["superseded_used_algol"] = render.superseded(
        r, "algol", PLAYERS["algol"], GAME, turn=2, seq=3, newer=4, used=True,
        received="2026-12-02T19:05:00Z")
    out["receipt_notready_algol"] = render.receipt(
        r, AD, rounds[1].before, "algol", rounds[1].orders["algol"], PLAYERS["algol"], GAME,
        seq=2, ready=False)
    out["receipt_late_regulus"] = render.receipt(
        r, AD, rounds[0].before, "regulus", rounds[0].orders["regulus"], PLAYERS["regulus"],
        GAME, seq=3, late={"deadline": "2026-12-02T18:00:00Z",
                           "grace_end": "2026-12-02T18:00:00Z"},
        received="2026-12-02T18:55:00Z")
    out["reminder_late_algol"] = render.reminder(
        r, AD, rounds[1].before, ["algol"], PLAYERS["algol"], {**GAME, "deadline": None},
        late={"deadline": "2026-12-02T18:00:00Z", "until": "2026-12-02T20:00:00Z"})
    gm_time = "2026-12-02T09:30:00Z"
    out["notice_extend_algol"] = render.gm_notice(
        r, {"op": "extend", "time": gm_time, "deadline": "2026-12-03T18:00:00Z", "turn": 2},
        [{"power": "algol", "name": "Algol", "due": True, "seq": 2, "ready": True}],
        PLAYERS["algol"], {**GAME, "deadline": "2026-12-03T18:00:00Z"})
    out["notice_pause_regulus"] = render.gm_notice(
        r, {"op": "pause", "time": gm_time, "reason": "holidays", "turn": 2},
        [{"power": "regulus", "name": "Regulus", "due": True, "seq": None, "ready": None}],
        PLAYERS["regulus"], {**GAME, "paused": True})
    out["notice_replace_pavo"] = render.gm_notice(
        r, {"op": "replace", "time": gm_time, "power": "pavo", "turn": 2},
        [{"power": "pavo", "name": "Pavo", "due": True, "seq": None, "ready": None}],
        PLAYERS["pavo"], {**GAME, "last_seq": {"pavo": 4}},
        {"pavo": AD.view(rounds[1].before, "pavo")})
    rd = rounds[2]
    out["gm_summary"] = render.gm_summary(r, AD, rd.before, rd.after, rd.events, GAME)
    end = AD.end_game(t.state, "ended by agreement")
    out["game_end_algol"] = render.game_end(r, AD, end.state, end.events, ["algol"],
                                            PLAYERS["algol"], {**GAME, "deadline": None},
                                            reveal(rounds))
    rd = rounds[1]
    out["turn2_notes_algol"] = render.turn_report(
        r, AD, rd.before, rd.after, rd.events, ["algol"], PLAYERS["algol"],
        {**GAME, "seq": {"algol": 3}, "last_seq": {"algol": 2},
         "notices": [{"op": "extend", "time": gm_time, "deadline": "2026-12-02T18:00:00Z",
                      "turn": 2},
                     {"op": "replace", "time": gm_time, "power": "pavo"}],
         "nmr": {"algol": {"turn": 2, "escrow": ["2"], "stale": [], "total": 2,
                           "in_a_row": 2, "alerted": True}},
         "order": ["algol", "regulus", "pavo", "antares"]})
    _, wrounds = wild_game()
    w = wrounds[0]
    out["turn1_wild_algol"] = render.turn_report(r, AD, w.before, w.after, w.events, ["algol"],
                                                 PLAYERS["algol"], GAME)
    out["gm_summary_wild"] = render.gm_summary(r, AD, w.before, w.after, w.events,
                                               {**GAME, "press": {"algol": 3, "pavo": 1}})
    out["press_regulus"] = render_press.relay(
        r, PLAYERS["regulus"], GAME, recipient="regulus", sender="algol", turn=2,
        to=["regulus"], text="Shall we take Mira together?\n\nI keep Hamal; you take Vega.\n",
        signature=PRESS_SIG)
    out["press_grey_pavo"] = render_press.relay(
        r, PLAYERS["pavo"], GAME, recipient="pavo", sender="anonymous", turn=2, to=["all"],
        text="Algol is weak at home.\n", signature=PRESS_SIG.replace("algol", "anonymous"))
    out["press-receipt_algol"] = render_press.receipt(
        r, PLAYERS["algol"], GAME, power="algol", turn=2, signature=PRESS_RECEIPT_SIG,
        messages=[{"to": ["regulus"], "all": False, "anonymous": False,
                   "text": "Shall we take Mira together?\n"},
                  {"to": ["regulus", "pavo", "antares"], "all": True, "anonymous": True,
                   "text": "Algol is weak at home.\n"}])
    out["press-rejection_antares"] = render_press.rejection(
        r, PLAYERS["antares"], GAME, "antares", 2,
        [Problem("unknown-power", "press[0].to[1]", "no power 'sirius' in game test-game "
                 "(the powers: algol, regulus, pavo, antares, or all)"),
         Problem("press-limit", "press", "antares has sent 30 press message(s) in turn 2; "
                 "these 2 would pass the cap of 30 per power per turn")])
    out["html_only_reply"] = render.html_only_reply(r, PLAYERS["regulus"], GAME,
                                                    subject="orders for turn 2")
    out["no_orders_reply"] = render.no_orders_reply(
        r, PLAYERS["regulus"], GAME, subject="my orders",
        notes=["attachment 'orders.zip': a zip archive is not read; attach the signed .txt"])
    return out


NAMES = ["turn1_regulus", "turn2_algol", "turn3_algol", "turn3_pavo", "turn4_pavo",
         "turn4_antares", "turn1_pavo_antares", "welcome_algol", "receipt_algol",
         "receipt_regulus", "rejection_algol", "reminder_algol", "late_notice_antares",
         "gm_summary", "gm_summary_wild", "turn1_wild_algol", "game_end_algol",
         "html_only_reply", "no_orders_reply", "late_notice_deadline_antares",
         "receipt_notready_algol", "receipt_late_regulus", "reminder_late_algol",
         "notice_extend_algol", "notice_pause_regulus", "notice_replace_pavo",
         "turn2_notes_algol",
         "press_regulus", "press_grey_pavo",
         "press-receipt_algol", "press-rejection_antares", "superseded_algol",
         "superseded_used_algol"]


def _compare(path: Path, got: str) -> None:
    if REGEN:
        path.write_text(got, encoding="utf-8")
        return
    assert path.exists(), f"{path.name} missing: run with PBEM_REGEN_GOLDEN=1 once"
    want = path.read_text(encoding="utf-8")
    assert got == want, f"{path.name} differs from the golden (PBEM_REGEN_GOLDEN=1 regenerates)"


def test_every_template_is_covered():
    assert sorted(NAMES) == sorted(mails())
    kinds = {name.split("_")[0].rstrip("0123456789") for name in NAMES}
    templates = {p.name.split(".")[0] for d in ("common", "4000ad")
                 for p in (Path(templates_root()) / d).glob("*.subject.txt")}
    covered = {"turn": "turn_report", "welcome": "welcome", "receipt": "receipt",
               "rejection": "rejection", "reminder": "reminder", "late": "late_notice",
               "gm": "gm_summary", "game": "game_end", "html": "html_only_reply",
               "no": "no_orders_reply", "notice": "gm_notice",
               "press": "press", "press-receipt": "press_receipt",
               "press-rejection": "press_rejection", "superseded": "superseded"}
    assert {covered[k] for k in kinds} == templates


@pytest.mark.parametrize("name", NAMES)
def test_text_matches_golden(name):
    mail = mails()[name]
    _compare(GOLDEN / f"{name}.txt", f"Subject: {mail.subject}\n\n{mail.text}")


@pytest.mark.parametrize("name", NAMES)
def test_html_matches_golden(name):
    _compare(GOLDEN / f"{name}.html", mails()[name].html)


@pytest.mark.parametrize("name", NAMES)
def test_text_fits_80_columns(name):
    mail = mails()[name]
    long = [line for line in mail.text.splitlines() if len(line) > 80]
    assert not long, long
    assert len(mail.subject) < 200 and "\n" not in mail.subject


@pytest.mark.parametrize("name", NAMES)
def test_html_is_well_formed_and_self_contained(name):
    html = mails()[name].html
    root = ET.fromstring(html)  # strict XML: every tag closed, every entity known
    ns = "{http://www.w3.org/1999/xhtml}"
    assert root.tag == f"{ns}html"
    assert root.find(f"{ns}head/{ns}meta[@name='viewport']") is not None
    body = root.find(f"{ns}body")
    assert "max-width" in body[0].get("style"), "single column with a max width"
    for el in root.iter():
        assert el.tag not in (f"{ns}link", f"{ns}script", f"{ns}img", f"{ns}style"), el.tag
    assert "http://" not in html.replace("http://www.w3.org/1999/xhtml", "")
    assert "https://" not in html


@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith(("turn", "welcome",
                                                                      "game_end", "gm"))])
def test_attachments(name):
    mail = mails()[name]
    files = {f: (mime, data) for f, mime, data in mail.attachments}
    ET.fromstring(files["map.svg"][1])
    assert files["map.svg"][0] == "image/svg+xml"
    if name.startswith("gm_summary"):
        assert {"state.json", "events.json"} <= set(files)
        return
    views = {f: json.loads(data) for f, (mime, data) in files.items() if f.endswith(".json")
             and f.startswith("view")}
    assert views
    for data in views.values():
        assert data["viewer"] in data["powers"]
    if name == "turn1_pavo_antares":
        assert set(views) == {"view-pavo.json", "view-antares.json"}
    else:
        assert set(views) == {"view.json"}


def test_view_json_carries_the_last_accepted_seq():
    """The host's last accepted seq rides in view.json (for `pbem orders new --view`), and the
    form's seq is the next one: one rule for both."""
    files = {f: data for f, _, data in mails()["turn2_notes_algol"].attachments}
    view = json.loads(files["view.json"])
    assert view["last_seq"] == 2
    assert "seq: 3" in mails()["turn2_notes_algol"].text


def test_report_states_notices_missed_turn_and_order_of_play():
    text = mails()["turn2_notes_algol"].text
    assert "GAME MASTER NOTICES" in text and "moved the deadline for turn 2" in text
    assert "Pavo to a new player" in text
    assert "Algol sent no orders for turn 2: its standing orders were used." in text
    assert "warp 2" in text and "Turns missed so far: 2 (2 in a row)." in text
    assert "in this order: Algol, Regulus, Pavo, Antares." in " ".join(text.split())
    html = mails()["turn2_notes_algol"].html
    assert "Game master notices" in html and "Order of play this round" in html


def test_view_json_is_the_canonical_view():
    t, rounds = golden_game()
    rd = rounds[2]
    mail = mails()["turn3_algol"]
    files = {f: data for f, _, data in mail.attachments}
    assert files["view.json"] == canonical.encode(AD.view(rd.after, "algol")) + b"\n"
    assert files["checkpoint.txt"].decode() == GAME["checkpoint"]


def test_order_forms_in_reports_load_as_yaml():
    for name in NAMES:
        text = mails()[name].text
        while "----- 8< ----- order file" in text:
            start = text.index("\n", text.index("----- 8< ----- order file")) + 1
            end = text.index("----- 8< ----- end of order file")
            doc = yaml.safe_load(text[start:end])
            assert doc["pbem"] == 1 and doc["game"] == "test-game"
            assert doc["instance"] == GAME["instance"]  # a copied form names its instance
            assert doc["seq"] == 3 if name == "turn2_notes_algol" else doc["seq"] in (0, 1)
            text = text[end + 10:]
