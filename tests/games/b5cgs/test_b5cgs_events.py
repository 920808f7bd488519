"""Who sees a Babylon 5 CGS event (pbem.game.events): a move or a jump is public, so the
other players read it in their reports, the game master in his summary and anybody in the
archive, each as a sentence. Before the engine's recipients had a reserved key, the move's
destination field ``to`` was read as its recipients and the event reached nobody (issue 28)."""

from __future__ import annotations

import re

from pbem.archive.hooks import hooks_for
from pbem.render import mails
from tests.support.b5cgs_driver import PLUGIN, ScriptedChance, blank, put

GAME = {"game_id": "b5-test", "title": "B5 test", "deadline": None, "checkpoint": None,
        "seq": 3, "instance": "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"}
PLAYER = {"name": "", "email": "", "tz": ""}
EA, MB = "earth-alliance", "minbari"
SHIP = r"Earth Alliance's Hyperion Cr\. \(t\d+\)"
MOVED = re.compile(rf"{SHIP} moved \(forward\) from 2,1 to 3,0, facing 2\.")
JUMPED = re.compile(rf"{SHIP} jumped \(engine\) from 0,1 to 2,-1\.")
VOID = "move entry 2 was void"


def earth_moves_and_jumps():
    """Earth's turn: one ship moves forward, another jumps, a third entry is void (a unit
    that does not exist): (state before, state after, events)."""
    st = blank("basic-4")
    mover = put(st, "ea-hyperion", EA, "2,1", 2)
    jumper = put(st, "ea-hyperion", EA, "0,1", 2)
    st["powers"][EA]["turns"] = 2
    orders, problems = PLUGIN.normalize_orders(
        {"move": [{"unit": mover, "to": "3,0", "facing": 2}, {"unit": jumper, "jump": "2,-1"}]},
        PLUGIN.view(st, EA))
    assert problems == []
    orders["move"].append({"unit": "t999", "to": "5,5", "facing": 1})  # voided at resolution
    result = PLUGIN.resolve(st, {EA: orders}, ScriptedChance(lenient=True))
    kinds = [e["type"] for e in result.events]
    assert {"moved", "jumped", "move_void"} <= set(kinds), kinds
    return st, result.state, result.events


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_a_move_and_a_jump_appear_in_the_other_players_report_as_sentences():
    before, after, events = earth_moves_and_jumps()
    for reader in (MB, EA):
        mail = mails.turn_report(mails.Renderer("b5cgs"), PLUGIN, before, after, events,
                                 [reader], PLAYER, GAME)
        text = flat(mail.text)
        assert MOVED.search(text) and JUMPED.search(text), (reader, text[:3000])
        assert not re.search(r"moved \(forward\)[^.]*\. \(only you\)", text)
        html = flat(mail.html)
        assert "moved (forward) from 2,1 to 3,0" in html and "from 0,1 to 2,-1" in html


def test_a_private_event_stays_with_its_player_and_the_gm_sees_whom_it_went_to():
    before, after, events = earth_moves_and_jumps()
    renderer = mails.Renderer("b5cgs")
    mine = flat(mails.turn_report(renderer, PLUGIN, before, after, events, [EA], PLAYER,
                                  GAME).text)
    theirs = flat(mails.turn_report(renderer, PLUGIN, before, after, events, [MB], PLAYER,
                                    GAME).text)
    assert f"{VOID}" in mine and "(only you)" in mine
    assert VOID not in theirs and "t999" not in theirs
    gm = flat(mails.gm_summary(renderer, PLUGIN, before, after, events, GAME).text)
    assert MOVED.search(gm) and JUMPED.search(gm)
    assert "(only you)" not in gm
    assert re.search(rf"{VOID}: [^\[]*\[private to Earth Alliance\]", gm), gm[:3000]


def test_the_archive_shows_the_public_move_and_jump_as_the_reports_sentences():
    before, after, events = earth_moves_and_jumps()
    public = PLUGIN.view_events(events, None)
    assert {"moved", "jumped"} <= {e["type"] for e in public}
    assert "move_void" not in {e["type"] for e in public}
    hooks = hooks_for("b5cgs")
    view = PLUGIN.view(after, None)
    lines = [hooks.event(e, view) for e in public]
    assert any(MOVED.fullmatch(line) for line in lines), lines
    assert any(JUMPED.fullmatch(line) for line in lines), lines
    bare = [hooks.event(e, None) for e in public if e["type"] == "moved"]
    assert bare and "moved (forward) from 2,1 to 3,0" in bare[0]
