"""``make demo GAME=ti4`` end to end (in a temporary directory): four players play TI4 (the
stand-in pack) by email (keys, vaults, every step written with ``pbem orders ti4`` from the
player's view, signed orders through a Maildir, the referee's ingest and run), two full rounds
with the Custodians taken in round 1 so that both rounds have an agenda phase; the export
passes the audit, and the last three lines name the game, the log and a report.

The demo is games/ti4/demo.py's ``main()``; ``python -m pbem.cli.demo ti4`` (what ``make demo
GAME=ti4`` runs) loads the game and calls it."""

from __future__ import annotations

from collections.abc import Callable

from tests.support.demos import Demo


def test_the_ti4_demo_plays_two_rounds_with_agendas_by_email_and_the_audit_passes(
        demos: Callable[[str], Demo]) -> None:
    done = demos("ti4")
    events = done.events()
    kinds = {e["type"] for e in events}
    assert {"pick", "strategic", "secondary", "move", "control", "custodians", "space-combat",
            "roll", "vote", "agenda", "resolved", "secret-kept", "transaction"} <= kinds, kinds
    # by signed mail: red kept the second secret he drew (told to him alone), and an agenda
    # step's transaction was made from both players' halves, in public
    kept = {e["player"]: e for e in events if e["type"] == "secret-kept"}
    assert kept["red"]["_visible_to"] == ["red"]
    drew = next(e for e in events if e["type"] == "secrets-drawn" and e["player"] == "red")
    assert kept["red"]["kept"] == drew["drawn"][-1:]
    assert not [e for e in events if e["type"] == "transaction-failed"]
    assert all("_visible_to" not in e for e in events if e["type"] == "transaction")
    phases = [(e["round"], e["phase"]) for e in events if e["type"] == "phase"]
    for r in (1, 2):
        assert (r, "status") in phases and (r, "agenda") in phases, phases
    assert not [e for e in events if e["type"] == "refused"], "a scripted order was refused"
    assert done.log.stat().st_size > 0
    msg = done.report_mail()
    assert "report" in str(msg["Subject"]).lower()
    body = msg.get_body(("plain",))
    assert body is not None and body.get_content().strip()
    lines = done.lines
    for power in ("red", "blue", "green", "yellow"):
        assert any(ln.startswith(f"{power}$ pbem orders sign ") for ln in lines)
        assert any(ln.startswith(f"{power}$ pbem orders ti4 ") for ln in lines)
    assert any("--custodians" in ln for ln in lines) and any("--vote" in ln for ln in lines)
