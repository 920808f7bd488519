"""Relay (tests/games/relay), the many-window toy, played end to end by mail: a round of 44
windows (variant ``round-48``: baton legs, a sprint every sixteenth) ended by the players'
unanimous draw vote. Orders are signed by each player's key and mailed through ``pbem ingest
--stdin`` (the first legs written with the player's tool, ``pbem orders new`` / ``sign``); the
turn job is ``pbem run`` for the first legs and the last, the same job in this process between
(docs/plugins.md, "Window policies"; issue 31, "Must show"):

* a **standing file** (``turn: standing``) Red wrote while leg 41 was open reaches the
  referee after leg 41 resolved; it is accepted, named in its receipt ("Standing file
  received"), used at leg 43 where Red sends nothing, and named by the export and ``pbem
  audit``; leg 43 (``closes_when_answered``) needs no mail and resolves in the run that
  resolves leg 42 (the figures of docs/plugins.md, "One window at a time");
* silence in a ``silence: default`` window (a baton leg) is the default answer: no missed turn
  is counted, no report has a "Missed turn" section and the game master gets no alert, though
  ``nmr_alert`` is 1; silence in the sprint (the contract's default window) is a missed turn,
  and alerted;
* ``notify: due`` with ``when-due`` digests: each player's mails of the round are counted and
  printed against one report a step, and are far fewer; nobody reads another runner's split;
* quiet hours set by Blue's signed prefs mail hold his reminder back to their end, where Green,
  without them, is reminded at the half of his turn;
* a draw voted by every player (``pbem vote draw``, signed and mailed) ends the game, and
  ``pbem audit`` replays the export and passes.
"""

from __future__ import annotations

import time
from datetime import datetime
from email.message import EmailMessage
from typing import Any

import pytest
import yaml

from pbem.cli.main import main as pbem_main
from pbem.protocol.envelope import STANDING_TURN
from pbem.protocol.votedoc import sign_vote
from pbem.store import replay
from tests.support.mail_player import MailPlayer
from tests.support.pbem_host import Host, at
from tests.support.run import pbem_here, pbem_text
from tests.support.votes import mail_block

VARIANT, WINDOWS = "round-48", 44  # the game's legs; the windows resolved before the draw
SPRINTS = (16, 32)  # the sprints of the round played: every power due, silence is missed
SILENT = {2: "green", 30: "blue", 32: "blue"}  # leg -> the power that sends nothing
#: Red's standing file: written while leg 41 was open, mailed once it resolved, used at leg 43,
#: which it answers: the baton leg closes at once, in the run that resolves leg 42
WRITTEN, USED = 41, 43
QUIET = 30  # Blue's silent leg, in his quiet hours
TOOL_LEGS = (1, 2, 3)  # legs whose orders are written with the player's tool, run by pbem run


def _reports(mails: list[EmailMessage]) -> list[EmailMessage]:
    """Reports and digests among a player's mails (not the welcome, receipts, reminders,
    settings or vote notices)."""
    return [m for m in mails if "report" in str(m["Subject"]).lower()
            or "game is over" in str(m["Subject"]).lower()]


def _text(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return str(part.get_content())


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60 % 24:02d}:{minutes % 60:02d}"


def _reminded(host: Host, power: str) -> int:
    return len([m for m in host.sent(f"{power}@example.org")
                if str(m["Subject"]).split("] ", 1)[-1].startswith("Reminder")])


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    started = time.monotonic()
    tmp = tmp_path_factory.mktemp("relay")
    host = Host(tmp, VARIANT, game="relay", game_id="relay-1", extra=["--deadline", "2h"])
    config = host.path / "config.yaml"
    config.write_text(config.read_text().replace("nmr_alert: 2", "nmr_alert: 1"))
    for power in host.powers:
        assert pbem_main(["gm", "digest", str(host.path), power, "when-due"]) == 0
    players = {p: MailPlayer(host, p, tmp / "players") for p in host.powers}
    out: dict[str, Any] = {"host": host, "reminders": {}}
    minute = 6  # the clock, in minutes after T0 (2026-12-01 00:00 UTC)
    assert host.run_cli(at(minute / 60)).returncode == 0  # the welcome mails
    out["welcomed"] = {p: len(host.sent(f"{p}@example.org")) for p in host.powers}
    vote_seq = dict.fromkeys(host.powers, 1)
    out["per_run"] = []  # steps resolved by each run of the turn job
    while (leg := int((state := host.state())["turn"])) <= WINDOWS:
        if leg == WRITTEN:  # Red writes his standing answer now, mails it once leg 41 is over
            out["standing"] = host.orders_text("red", {"pace": 3}, turn="standing",
                                               seq=players["red"].seq)
        if leg == WRITTEN + 1:
            players["red"].deliver(out["standing"], (minute + 6) / 60)
            out["standing_after"] = len(host.entries("resolve"))
        if leg == QUIET:  # Blue is quiet from 50 to 90 minutes into his leg (a 2 h turn)
            prefs = {"pbem": 1, "game": host.game_id, "power": "blue", "seq": 1,
                     "prefs": {"quiet": f"{_hhmm(minute + 50)}-{_hhmm(minute + 90)}",
                               "tz": "UTC"}}
            mail_block(host, "blue", sign_vote(yaml.safe_dump(prefs), host.keys["blue"]),
                       hours=(minute + 6) / 60)
            vote_seq["blue"] = 2
        for power in host.plugin.powers_due(state):
            if SILENT.get(leg) == power:
                continue
            body = {"pace": 1 + leg % 3}
            if leg in TOOL_LEGS:
                players[power].newest_view()
                players[power].mail_orders((minute + 12) / 60, body=body)
            else:
                players[power].process = False  # the process path is proven on the first legs
                players[power].deliver(host.orders_text(power, body, seq=players[power].seq),
                                       (minute + 12) / 60)
        if leg in (2, QUIET):  # the silent runner's half-way: reminded, unless quiet
            out["reminders"][leg, "before"] = _reminded(host, SILENT[leg])
            host.run(at((minute + 60) / 60))
            out["reminders"][leg, "half"] = _reminded(host, SILENT[leg])
            host.run(at((minute + 95) / 60))
            out["reminders"][leg, "quiet end"] = _reminded(host, SILENT[leg])
        minute += 150 if leg in SILENT else 30  # a silent leg waits for its deadline
        if leg in TOOL_LEGS:
            before = len(host.entries("resolve"))
            done = host.run_cli(at(minute / 60))
            assert done.returncode == 0, done.stderr
            out["per_run"].append((leg, len(host.entries("resolve")) - before))
        else:
            out["per_run"].append((leg, sum(len(r.resolved) for r in host.run(at(minute / 60)))))
    assert len(host.entries("resolve")) == WINDOWS and not host.plugin.is_over(host.state())
    for power in host.powers:  # the draw, voted by every player
        vote = players[power].pbem("vote", "draw", "--game", host.game_id, "--power", power,
                                   "--key", str(players[power].key),
                                   "--seq", str(vote_seq[power]))
        assert vote.returncode == 0, vote.stderr
        mail_block(host, power, vote.stdout.decode(), hours=(minute + 6) / 60)
    done = host.run_cli(at((minute + 12) / 60))
    assert done.returncode == 0, done.stderr
    export = tmp / "relay-1.export"
    assert pbem_main(["export", str(host.path), "-o", str(export)]) == 0
    out["audit"] = pbem_text("audit", export)
    out["mails"] = {p: host.sent(f"{p}@example.org") for p in host.powers}
    out["gm"] = host.sent("gm@example.org")
    out["seconds"] = time.monotonic() - started
    print(f"relay, {WINDOWS} windows by mail: the fixture took {out['seconds']:.1f} s")
    return out


def test_the_round_has_more_than_40_windows(relay) -> None:
    host: Host = relay["host"]
    resolves = host.entries("resolve")
    assert len(resolves) == WINDOWS >= 40
    assert [r.body["due"] for r in resolves if len(r.body["due"]) > 1] == [
        list(host.powers)] * len(SPRINTS)


def test_a_standing_file_sent_after_its_leg_resolved_is_used_two_legs_later(relay) -> None:
    host: Host = relay["host"]
    [entry] = [e for e in host.entries("orders") if e.body["turn"] == STANDING_TURN]
    assert entry.body["power"] == "red" and entry.body["orders"] == {"pace": 3}
    assert relay["standing_after"] == WRITTEN  # it arrived once leg 41 had resolved
    resolves = host.entries("resolve")
    assert resolves[WRITTEN - 1].seq < entry.seq < resolves[WRITTEN].seq
    leg = resolves[USED - 1].body
    assert leg["due"] == ["red"] and leg["used"] == {"red": entry.body["sha256"]}
    assert "silence" in leg  # a default window, answered by the standing file
    ran = [e for e in leg["events"] if e["type"] == "ran"]
    assert ran == [{"type": "ran", "turn": USED, "power": "red", "pace": 3, "jogged": False}]


def test_a_step_every_due_power_answered_by_standing_file_closes_at_once(relay) -> None:
    """Leg 43 (``closes_when_answered``) needs nobody's mail: the run that resolves leg 42
    resolves it too, two hours before its deadline. Every other run resolved one step."""
    per_run = relay["per_run"]
    closed = [(leg, n) for leg, n in per_run if n != 1]
    print(f"relay: {len(per_run)} runs resolved {sum(n for _, n in per_run)} steps; "
          f"more than one at once: {closed} (leg, steps)")
    assert closed == [(USED - 1, 2)]
    host: Host = relay["host"]
    resolves = host.entries("resolve")
    assert resolves[USED - 2].time == resolves[USED - 1].time
    opened = [host.entries()[0].time, *(r.time for r in resolves)]
    waits = [_minutes(r.time) - _minutes(start)
             for start, r in zip(opened[:-1], resolves, strict=True)]
    at_once = [i + 1 for i, w in enumerate(waits) if w == 0]
    print(f"relay: the round's {len(waits)} windows were open {sum(waits) / 60:.1f} h in all "
          f"(the test's clock: a runner answers 12 min after his leg opens, the turn job runs "
          f"every 30 min); {len([w for w in waits if w >= 120])} waited for their 2 h deadline "
          f"(silence); closed at once by a standing answer: legs {at_once}")
    assert at_once == [USED]


def _minutes(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() / 60


def test_the_receipt_and_the_audit_name_the_standing_file(relay) -> None:
    host: Host = relay["host"]
    receipts = [m for m in relay["mails"]["red"]
                if "Standing file received" in str(m["Subject"])]
    assert len(receipts) == 1
    words = " ".join(_text(receipts[0]).split())
    assert f"checked against turn {WRITTEN + 1}" in words
    assert "Your standing answers: - pace: 3" in words, words
    audit = relay["audit"]
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "1 standing files (turn: standing)" in audit.stdout, audit.stdout
    used = [e for e in host.entries("resolve") if "red" in e.body["used"]
            and e.body["used"]["red"] is not None and e.body["turn"] == USED]
    assert len(used) == 1  # the export carries the log, the resolution naming the file


def test_silence_in_a_default_window_is_the_default_answer_not_a_missed_turn(relay) -> None:
    host: Host = relay["host"]
    resolves = host.entries("resolve")
    leg2, sprint = resolves[1].body, resolves[SPRINTS[1] - 1].body
    assert leg2["due"] == ["green"] and leg2["used"] == {"green": None}  # the log says so
    assert leg2["silence"] == "default"
    ran = [e for e in leg2["events"] if e["type"] == "ran"]
    assert ran == [{"type": "ran", "turn": 2, "power": "green", "pace": 1, "jogged": True}]
    assert resolves[QUIET - 1].body["used"] == {"blue": None}
    assert sprint["used"]["blue"] is None and "silence" not in sprint  # the sprint: missed
    assert host.game().log.summary.missed_turns() == {
        "red": {"total": 0, "in_a_row": 0}, "green": {"total": 0, "in_a_row": 0},
        "blue": {"total": 1, "in_a_row": 0}}
    alerts = [str(m["Subject"]) for m in relay["gm"] if "missed" in str(m["Subject"]).lower()]
    assert len(alerts) == 1 and "Blue" in alerts[0], alerts  # the sprint's, not leg 2's
    missed = {p: [str(m["Subject"]) for m in _reports(relay["mails"][p])
                  if "MISSED TURN" in _text(m)] for p in host.powers}
    assert missed["red"] == missed["green"] == []  # green's silent leg 2: no such section
    assert missed["blue"] and all(f"Turn {SPRINTS[1]}" in s for s in missed["blue"])


def test_players_get_far_fewer_mails_than_one_a_step(relay) -> None:
    host: Host = relay["host"]
    mails = {p: len(relay["mails"][p]) - relay["welcomed"][p] for p in host.powers}
    reports = {p: len(_reports(relay["mails"][p])) for p in host.powers}
    for p in host.powers:
        print(f"relay, {WINDOWS} windows: {p} got {reports[p]} reports/digests ({mails[p]} "
              f"mails in all, receipts, reminders and vote notices included) against "
              f"{WINDOWS} at one report a step")
    assert all(0 < reports[p] <= WINDOWS // 2 for p in host.powers), reports
    summaries = [m for m in relay["gm"] if "summary" in str(m["Subject"]).lower()]
    assert len(summaries) >= WINDOWS  # the GM's summary always


def test_a_digest_says_what_the_reader_saw_of_the_steps_he_was_not_mailed(relay) -> None:
    host: Host = relay["host"]
    secrets = {p: host.plugin.secrets(host.state(), p) for p in host.powers}
    digests = 0
    for power in host.powers:
        for msg in _reports(relay["mails"][power]):
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


def test_quiet_hours_hold_a_reminder_back(relay) -> None:
    """Green, with no quiet hours, is reminded at the half of his silent leg 2; Blue, quiet
    from 50 to 90 minutes into his silent leg 30, is not reminded at its half, but once his
    quiet hours end."""
    config = yaml.safe_load((relay["host"].path / "config.yaml").read_text())
    assert config["players"]["blue"]["prefs"]["quiet"]
    got = relay["reminders"]
    assert (got[2, "before"], got[2, "half"], got[2, "quiet end"]) == (0, 1, 1)
    assert (got[QUIET, "before"], got[QUIET, "half"], got[QUIET, "quiet end"]) == (0, 0, 1)


def test_a_unanimous_draw_vote_ends_the_game_and_the_audit_replays_it(relay) -> None:
    host: Host = relay["host"]
    ops = [e.body for e in host.entries(replay.GM)]
    assert [o["op"] for o in ops] == ["prefs", "vote", "vote", "vote", "end"]
    end = ops[-1]
    assert end["vote"] == "draw" and len(end["votes"]) == len(host.powers)
    assert host.plugin.is_over(host.state())
    result = host.state()["result"]
    assert "draw agreed" in result["reason"] and result["winners"] == [], result
    told = [m for m in relay["mails"]["green"] if "over" in str(m["Subject"]).lower()]
    assert told, [str(m["Subject"]) for m in relay["mails"]["green"]]
    audit = relay["audit"]
    assert audit.returncode == 0 and "audit passed" in audit.stdout, audit.stdout + audit.stderr


def test_gm_digest_refuses_an_unknown_power_and_pace(relay) -> None:
    host: Host = relay["host"]
    assert pbem_main(["gm", "digest", str(host.path), "nobody", "daily"]) != 0
    with pytest.raises(SystemExit):
        pbem_main(["gm", "digest", str(host.path), "red", "hourly"])
    assert "when-due" in pbem_here("gm", "digest", "--help").stdout.decode()


def test_relay_variants_are_data(relay) -> None:
    """The six-runner round of bench/bench_windows.py is a variant of the same game."""
    host: Host = relay["host"]
    six = host.plugin.variants()["round-48-six"].powers
    assert len(six) == 6 and set(host.powers) < set(six)
