"""Relay (tests/games/relay), the many-window toy, played end to end by mail: a round of 12
legs, each player's digest pace set by ``pbem gm digest``, orders written with ``pbem orders
new`` and signed by each player's tool and mailed through ``pbem ingest --stdin``, the turn job
``pbem run``. It shows the window policies (docs/plugins.md, "Window policies"):

* silence in a ``silence: default`` window (a baton leg) is the default answer: the log says
  the power sent nothing, yet no missed turn is counted, no report has a "Missed turn" section
  and the game master gets no alert, though ``nmr_alert`` is 1; silence in the sprint (the
  contract's default window) is a missed turn, and alerted;
* ``notify: due`` with ``when-due`` digests: each player is mailed far fewer times than once
  a step (the counts are printed against that baseline), every mail after skipped steps
  carries what he saw of them, and nobody reads another runner's secret split;
* ``pbem export`` and ``pbem audit`` pass.
"""

from __future__ import annotations

from email.message import EmailMessage
from typing import Any

import pytest

from pbem.cli.main import main as pbem_main
from tests.support.mail_player import MailPlayer
from tests.support.pbem_host import Host, at
from tests.support.run import pbem_text

LEGS = 12
SILENT = {2: "green", 12: "blue"}  # leg -> the power that sends nothing for it


def _reports(host: Host, power: str) -> list[EmailMessage]:
    """The mails a player got after the game began: reports and digests (not the welcome,
    receipts or notices)."""
    return [m for m in host.sent(f"{power}@example.org") if "report" in str(m["Subject"]).lower()
            or "leg" in str(m["Subject"]).lower() or "game over" in str(m["Subject"]).lower()]


def _text(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("relay")
    host = Host(tmp, "round-12", game="relay", game_id="relay-1", extra=["--deadline", "2h"])
    config = host.path / "config.yaml"
    config.write_text(config.read_text().replace("nmr_alert: 2", "nmr_alert: 1"))
    for power in host.powers:
        assert pbem_main(["gm", "digest", str(host.path), power, "when-due"]) == 0
    players = {p: MailPlayer(host, p, tmp / "players") for p in host.powers}
    hour = 0.1
    assert host.run_cli(at(hour)).returncode == 0  # the welcome mails
    welcomed = {p: len(host.sent(f"{p}@example.org")) for p in host.powers}
    for leg in range(1, LEGS + 1):
        state = host.state()
        assert state["turn"] == leg
        due = host.plugin.powers_due(state)
        for power in due:
            if SILENT.get(leg) != power:
                players[power].newest_view()
                players[power].mail_orders(hour + 0.2, body={"pace": 1 + leg % 3})
        hour += 2.5 if leg in SILENT else 0.5  # a silent leg waits for its deadline
        done = host.run_cli(at(hour))
        assert done.returncode == 0, done.stderr
    assert host.plugin.is_over(host.state())
    export = tmp / "relay-1.export"
    assert pbem_main(["export", str(host.path), "-o", str(export)]) == 0
    audit = pbem_text("audit", export)
    return {"host": host, "welcomed": welcomed, "audit": audit}


def test_silence_in_a_default_window_is_the_default_answer_not_a_missed_turn(relay) -> None:
    host: Host = relay["host"]
    resolves = host.entries("resolve")
    leg2, last = resolves[1].body, resolves[-1].body
    assert leg2["due"] == ["green"] and leg2["used"] == {"green": None}  # the log says so
    assert leg2["silence"] == "default"
    ran = [e for e in leg2["events"] if e["type"] == "ran"]
    assert ran == [{"type": "ran", "turn": 2, "power": "green", "pace": 1, "jogged": True}]
    assert last["used"]["blue"] is None and "silence" not in last  # the sprint: missed
    assert host.game().log.summary.missed_turns() == {
        "red": {"total": 0, "in_a_row": 0}, "green": {"total": 0, "in_a_row": 0},
        "blue": {"total": 1, "in_a_row": 1}}
    gm = host.sent("gm@example.org")
    alerts = [str(m["Subject"]) for m in gm if "missed" in str(m["Subject"]).lower()]
    assert len(alerts) == 1 and "Blue" in alerts[0], alerts  # the sprint's, not leg 2's
    missed = {p: [str(m["Subject"]) for m in _reports(host, p) if "MISSED TURN" in _text(m)]
              for p in host.powers}
    assert missed["red"] == missed["green"] == []  # green's silent leg 2: no such section
    assert missed["blue"] and all("Turn 12" in s or "over" in s for s in missed["blue"])


def test_players_get_far_fewer_mails_than_one_a_step(relay) -> None:
    host: Host = relay["host"]
    counts = {p: len(host.sent(f"{p}@example.org")) - relay["welcomed"][p]
              for p in host.powers}
    reports = {p: len(_reports(host, p)) for p in host.powers}
    for p in host.powers:
        print(f"relay, {LEGS} legs: {p} got {reports[p]} reports/digests "
              f"({counts[p]} mails in all, receipts included) against {LEGS} "
              "at one report a step")
    assert all(0 < reports[p] <= LEGS // 2 for p in host.powers), reports
    gm = [m for m in host.sent("gm@example.org") if "missed" not in str(m["Subject"]).lower()]
    assert len([m for m in gm if "summary" in str(m["Subject"]).lower()
                or "leg" in str(m["Subject"]).lower()]) >= LEGS  # the GM's summary always


def test_a_digest_says_what_the_reader_saw_of_the_steps_he_was_not_mailed(relay) -> None:
    host: Host = relay["host"]
    secrets = {p: host.plugin.secrets(host.state(), p) for p in host.powers}
    digests = 0
    for power in host.powers:
        for msg in _reports(host, power):
            text = _text(msg) + "".join(str(part.get_content()) for part in
                                        msg.iter_attachments()
                                        if part.get_content_type().startswith(("text", "app")))
            for other, theirs in secrets.items():
                if other != power:
                    assert not [s for s in theirs if s in text], (power, other)
            if "SINCE YOUR LAST MAIL" in text:
                digests += 1
                assert "Step " in text
    assert digests >= len(host.powers)


def test_the_audit_passes(relay) -> None:
    audit = relay["audit"]
    assert audit.returncode == 0, audit.stdout + audit.stderr


def test_gm_digest_refuses_an_unknown_power_and_pace(relay, capsys) -> None:
    host: Host = relay["host"]
    assert pbem_main(["gm", "digest", str(host.path), "nobody", "daily"]) != 0
    with pytest.raises(SystemExit):
        pbem_main(["gm", "digest", str(host.path), "red", "hourly"])
    assert "when-due" in pbem_text("gm", "digest", "--help").stdout
