"""``make demo GAME=b5cgs`` end to end (in a temporary directory): three players play Babylon 5
CGS by email (keys, vaults, signed orders through a Maildir, the referee's ingest and run), the
deal and every die from the committed chance; the export passes the audit, and the last three
lines name the game, the log and a report.

The demo is games/b5cgs/demo.py's ``main()``; ``python -m pbem.cli.demo b5cgs`` (what ``make
demo GAME=b5cgs`` runs) loads the game and calls it."""

from __future__ import annotations

from collections.abc import Callable

from tests.support.demos import Demo


def test_the_b5_demo_plays_by_email_explores_fights_and_the_audit_passes(
        demos: Callable[[str], Demo]) -> None:
    done = demos("b5cgs")
    events = done.events()
    kinds = {e["type"] for e in events}
    assert {"placed", "built", "moved", "explored", "roll", "volley"} <= kinds, kinds
    assert done.log.stat().st_size > 0
    mail = done.report
    msg = done.report_mail()
    assert "resolved" in str(msg["Subject"])
    body = msg.get_body(("plain",))
    assert body is not None
    text = body.get_content()
    assert "THE MAP" in text and "SCORING BANKS" in text and "THREATS IN RANGE" in text
    assert (mail.parent / "map.svg").read_text().startswith("<?xml")
    for power in ("earth-alliance", "minbari", "valdri"):
        assert any(ln.startswith(f"{power}$ pbem orders sign ") for ln in done.lines)
        assert any(ln.startswith(f"{power}$ pbem orders b5 ") for ln in done.lines)
