"""Abandoned seats (pbem.host.seats, docs/operations.md "Abandoned seats"), through the real cron
job and acceptance on a 4000 A.D. game: the game master's alert offers autopilot and
replacement; ``abandoned: {after: 2, action: autopilot}`` makes the cron job put the seat on
autopilot by itself; the turn no longer waits for it and nobody reminds it; its player takes the
seat back by sending orders (his receipt says so); the audit re-counts the missed steps, and
catches a referee who logs an autopilot the missed steps do not bear out."""

from __future__ import annotations

from pathlib import Path

from pbem.host import gmops, seats
from pbem.schedule import to_iso
from pbem.store import replay
from pbem.store.gamedir import GameDir
from pbem.store.referee import referee_key
from tests.support.pbem_host import Host, at
from tests.support.run import pbem_ok

SILENT = "algol"


def _text(msg) -> str:  # type: ignore[no-untyped-def]
    body = msg.get_body(("plain",))
    return " ".join(str(body.get_content()).split())


def _turn(host: Host, submit_at: float, run_at: float) -> None:
    for power in host.powers:
        if power != SILENT:
            verdict = host.submit(power, when=at(submit_at))
            assert verdict.verdict.value == "accepted", verdict.line()
    host.run(at(run_at))


def _abandoned_game(tmp_path: Path) -> Host:
    host = Host(tmp_path, "independents-4")
    host.run(at(0.5))  # the welcome mails
    with (host.path / "config.yaml").open("a", encoding="utf-8") as f:
        f.write("abandoned: {after: 2, action: autopilot}\n")
    _turn(host, 1, 49)  # algol silent: the turn waits for the deadline (48h)
    _turn(host, 50, 98)  # the second missed turn: the game master is alerted
    return host


def test_the_cron_job_puts_an_abandoned_seat_on_autopilot_and_its_player_takes_it_back(
        tmp_path: Path) -> None:
    host = _abandoned_game(tmp_path)
    alert = [_text(m) for m in host.sent("gm@example.org") if "missed 2 turns" in str(m["Subject"])]
    assert alert and f"pbem gm autopilot {host.path} {SILENT}" in alert[0], alert
    assert f"pbem gm replace {host.path} {SILENT}" in alert[0], alert
    assert "after 2 missed due steps" in alert[0], alert

    host.run(at(99))  # the next visit applies the config's rule
    entry = host.entries(replay.GM)[-1].body
    assert (entry["op"], entry["power"], entry["missed"], entry["auto"], entry["after"]) == (
        "autopilot", SILENT, 2, True, 2), entry
    assert any("is on autopilot" in str(m["Subject"]) for m in host.sent("gm@example.org"))
    for power in host.powers:
        told = [_text(m) for m in host.sent(f"{power}@example.org")
                if "Algol's seat on autopilot" in _text(m)]
        assert told and "sends orders again" in told[0], power
    assert f"autopilot: {SILENT}" in "\n".join(gmops.status(host.path, at(99)))

    # The next turn no longer waits for algol: the other three resolve it early; no reminder,
    # no second alert.
    resolved = len(host.entries(replay.RESOLVE))
    _turn(host, 100, 100.5)
    assert len(host.entries(replay.RESOLVE)) == resolved + 1
    host.run(at(100.6))  # its mail delivered
    report = [_text(m) for m in host.sent(f"{SILENT}@example.org")
              if "seat is on autopilot" in _text(m)]
    assert report and "Send orders to take the seat back" in report[-1], report
    assert "The game master has been told" not in report[-1]
    host.run(at(140))  # well into the reminder window of the next turn
    assert not [m for m in host.sent(f"{SILENT}@example.org")
                if "remind" in str(m["Subject"]).lower()]
    assert not [m for m in host.sent("gm@example.org") if "missed 3 turns" in str(m["Subject"])]

    # algol's player comes back: his orders take the seat back, and his receipt says so.
    verdict = host.submit(SILENT, when=at(141))
    assert verdict.verdict.value == "accepted", verdict.line()
    host.run(at(141.5))
    receipt = [_text(m) for m in host.sent(f"{SILENT}@example.org")
               if "Your seat was on autopilot" in _text(m)]
    assert receipt and "these orders take it back" in receipt[0], receipt
    assert GameDir.open(host.path).log.summary.on_autopilot() == {}
    assert "autopilot:" not in "\n".join(gmops.status(host.path, at(142)))
    pbem_ok("audit", host.path)


def test_the_game_master_puts_a_seat_on_autopilot_once(tmp_path: Path) -> None:
    host = Host(tmp_path, "independents-4")
    out = pbem_ok("gm", "autopilot", host.path, SILENT)
    assert out.startswith("autopilot: logged as entry"), out
    assert "on autopilot already" in pbem_ok("gm", "autopilot", host.path, SILENT, ok=False)
    assert "no power" in pbem_ok("gm", "autopilot", host.path, "nobody", ok=False)
    pbem_ok("audit", host.path)


def test_the_audit_recounts_the_missed_steps_of_an_autopilot(tmp_path: Path) -> None:
    """A referee logs an autopilot claiming five missed steps where there was none: the entry is
    signed and chained, but the audit's own count says otherwise."""
    host = Host(tmp_path, "independents-4")
    game = GameDir.open(host.path)
    key, _ = referee_key(game.root)
    body = {"op": "autopilot", "power": SILENT, "missed": 5, "auto": True, "after": 3,
            "time": to_iso(at(1))}
    game.log.append(replay.GM, at(1), replay.sign_gm(key, body))
    game.save_state(host.state())
    out = pbem_ok("audit", host.path, ok=False)
    assert "field missed" in out and "0 (the due steps algol missed in a row" in out, out


def test_a_crash_after_the_cron_jobs_autopilot_entry_loses_no_mail(tmp_path: Path) -> None:
    """The cron job logs the autopilot and dies before any mail is queued (the log is durable,
    the outbox untouched): the next visit queues the game master's mail and every player's
    notice, once each, with the entry's other notices."""
    host = _abandoned_game(tmp_path)
    game = GameDir.open(host.path)
    entries = seats.apply_abandoned(game, referee_key(game.root)[0], at(99))  # then the crash
    assert [e.body["power"] for e in entries] == [SILENT]
    assert not [m for m in host.sent("gm@example.org") if "is on autopilot" in str(m["Subject"])]

    host.run(at(99.2))
    host.run(at(99.4))  # nothing left to catch up: nothing sent twice
    gm = [_text(m) for m in host.sent("gm@example.org") if "is on autopilot" in str(m["Subject"])]
    assert len(gm) == 1 and f"log entry {entries[0].seq}" in gm[0], gm
    for power in host.powers:
        told = [m for m in host.sent(f"{power}@example.org")
                if "Algol's seat on autopilot" in _text(m)]
        assert len(told) == 1, (power, len(told))
    pbem_ok("audit", host.path)
