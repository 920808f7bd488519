"""What the game master is told (issue 13, operator points): the STOPPED mail names the field
that differs, ``pbem export`` refuses a log its audit rejects, the SMTP server's reply shows in
``pbem run`` and ``pbem gm status``, a passed deadline is flagged, log times never go backwards
(append refuses, the audit rejects), and ``pbem orders reveal`` says when there is nothing to
reveal. Every game here is a real one: keys, signed orders, the rules core, the cron job."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pbem import canonical
from pbem.audit import AuditFailure, audit_bytes
from pbem.cli.main import main as pbem_main
from pbem.game import registry
from pbem.protocol.keys import write_keypair
from pbem.store import log as glog
from pbem.store.log import Entry
from tests.support.mailservers import SMTPServers
from tests.support.pbem_host import Host, at, iso

AD = registry.load("4000ad")


def all_submit(host: Host, when: Any) -> None:
    """Every power sends orders; Algol sends 5 ships to Hamal (so the turn has events)."""
    for power in host.powers:
        body = {"depart": host.depart("algol", "Algol", 5, "Hamal")} if power == "algol" else None
        assert host.submit(power, body, when).verdict == "accepted"


def bump_first_number(events: list[dict[str, Any]]) -> str:
    """Add 40 to the first whole-number field of the first event; its path."""
    for i, event in enumerate(events):
        for key, value in sorted(event.items()):
            if type(value) is int:
                event[key] = value + 40
                return f"events[{i}].{key}"
    raise AssertionError(f"no numeric event field in {events}")


def rewrite_log(host: Host, change: Any) -> None:
    """The referee (or a disk) changed entries and re-hashed the chain after them; state.json
    is made stale so the next run replays the log."""
    items = [{"kind": e.kind, "time": e.time, "body": copy.deepcopy(e.body)}
             for e in host.entries()]
    change(items)
    chain: list[Entry] = []
    for item in items:
        chain.append(glog.make_entry(chain[-1] if chain else None, item["kind"], item["time"],
                                     item["body"]))
    (host.path / "log.jsonl").write_bytes(b"".join(e.line() for e in chain))
    state = host.path / "state.json"
    data = json.loads(state.read_text())
    data["log_length"] = 1
    state.write_text(json.dumps(data))


def resolve_index(items: list[dict[str, Any]]) -> int:
    return next(i for i, x in enumerate(items) if x["kind"] == "resolve")


def stopped_mails(host: Host) -> list[Any]:
    return [m for m in host.sent("gm@example.org") if "game stopped" in str(m["Subject"])]


# -- the STOPPED mail ---------------------------------------------------------------------------
def test_stopped_mail_names_the_event_field_that_differs(tmp_path: Path) -> None:
    host = Host(tmp_path)
    all_submit(host, at(1))
    host.run(at(2))

    changed: list[str] = []

    def change(items: list[dict[str, Any]]) -> None:
        changed.append(bump_first_number(items[resolve_index(items)]["body"]["events"]))

    rewrite_log(host, change)
    assert host.run(at(3))[0].status == "stopped"
    [mail] = stopped_mails(host)
    text = " ".join(mail.get_body(("plain",)).get_content().split())
    wanted = rf"what differs: {re.escape(changed[0])}: recorded \d+, replay \d+"
    assert re.search(wanted, text), text


def test_stopped_mail_names_the_state_field_when_state_json_holds_the_recorded_state(
        tmp_path: Path) -> None:
    host = Host(tmp_path)
    all_submit(host, at(1))
    host.run(at(2))
    cached = json.loads((host.path / "state.json").read_text())
    lying = copy.deepcopy(cached["state"])
    lying["turn"] = lying["turn"] + 7
    digest = canonical.digest(lying)

    def change(items: list[dict[str, Any]]) -> None:
        items[resolve_index(items)]["body"]["state"] = digest

    rewrite_log(host, change)
    (host.path / "state.json").write_text(json.dumps(
        {"log_length": 1, "head": "x", "digest": digest, "state": lying}))
    assert host.run(at(3))[0].status == "stopped"
    stopped = (host.path / "STOPPED").read_text()
    assert f"state.turn: recorded {lying['turn']}, replay {cached['state']['turn']}" in stopped
    [mail] = stopped_mails(host)
    assert "state.turn" in mail.get_body(("plain",)).get_content()


# -- export ---------------------------------------------------------------------------------------
def test_export_refuses_a_log_that_fails_its_audit(tmp_path: Path, capsys: Any) -> None:
    host = Host(tmp_path)
    all_submit(host, at(1))
    host.run(at(2))

    def change(items: list[dict[str, Any]]) -> None:
        bump_first_number(items[resolve_index(items)]["body"]["events"])

    rewrite_log(host, change)
    out = tmp_path / "game.export"
    assert pbem_main(["export", str(host.path), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "not exported, the log fails its audit" in err and "events" in err, err
    assert len(err.strip().splitlines()) == 1 and not out.exists()


def test_export_of_a_sound_game_still_works(tmp_path: Path) -> None:
    host = Host(tmp_path)
    all_submit(host, at(1))
    host.run(at(2))
    out = tmp_path / "game.export"
    assert pbem_main(["export", str(host.path), "-o", str(out)]) == 0
    assert audit_bytes(out.read_bytes(), str(out)).tally.resolutions == 1


# -- time order -----------------------------------------------------------------------------------
def test_an_entry_dated_before_the_last_one_is_refused(tmp_path: Path, capsys: Any) -> None:
    host = Host(tmp_path)
    all_submit(host, at(5))
    host.run(at(6))
    length = len(host.entries())
    assert pbem_main(["gm", "pause", str(host.path), "--now", iso(at(3))]) == 1
    err = capsys.readouterr().err.strip()
    assert "log times must not go backwards" in err and iso(at(3)) in err, err
    assert len(err.splitlines()) == 1
    assert len(host.entries()) == length  # nothing was appended
    assert pbem_main(["gm", "pause", str(host.path), "--now", iso(at(6))]) == 0  # same time: ok


def test_the_audit_rejects_a_log_whose_times_go_backwards(tmp_path: Path) -> None:
    host = Host(tmp_path)
    all_submit(host, at(5))
    host.run(at(6))
    items = [{"kind": e.kind, "time": e.time, "body": e.body} for e in host.entries()]
    items[-1]["time"] = iso(at(4))  # the resolution dated before the orders it resolved
    chain: list[Entry] = []
    for item in items:
        chain.append(glog.make_entry(chain[-1] if chain else None, item["kind"], item["time"],
                                     item["body"]))
    with pytest.raises(AuditFailure, match="must not go backwards") as err:
        audit_bytes(b"".join(e.line() for e in chain), "log.jsonl")
    assert err.value.seq == len(items) - 1


# -- gm status and pbem run ----------------------------------------------------------------------
def test_gm_status_flags_a_passed_deadline(tmp_path: Path, capsys: Any) -> None:
    host = Host(tmp_path)  # deadline 48h after T0
    assert pbem_main(["gm", "status", str(host.path), "--now", iso(at(47))]) == 0
    [line] = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("deadline")]
    assert line == f"deadline {iso(at(48))}"
    assert pbem_main(["gm", "status", str(host.path), "--now", iso(at(50.5))]) == 0
    [line] = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("deadline")]
    assert line.startswith(f"deadline {iso(at(48))} PASSED 2h30m ago"), line


def test_deadlines_of_a_game_made_on_the_real_clock_have_no_microseconds(
        tmp_path: Path, capsys: Any) -> None:
    _key, pub = write_keypair(tmp_path / "k")
    args = ["new", str(tmp_path / "root" / "g"), "--game", "4000ad", "--variant", "independents-3",
            "--deadline", "48h", "--gm", "gm@example.org"]
    for power in AD.variants()["independents-3"].powers:
        args += ["--power", f"{power}={power}@example.org:{pub}"]
    assert pbem_main(args) == 0
    out = capsys.readouterr().out
    [deadline] = re.findall(r"first deadline (\S+);", out)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", deadline), out


def test_the_smtp_reply_shows_in_pbem_run_and_gm_status(
        tmp_path: Path, smtp_servers: SMTPServers) -> None:
    server = smtp_servers.start("none")
    server.handler.fail_data.extend(["451 4.3.0 greylisted, try again later"] * 8)
    host = Host(tmp_path)
    (host.root / "mail.yaml").write_text(
        f"smtp: {{host: {server.host}, port: {server.port}, security: none}}\n")
    done = host.run_cli(at(1))
    assert done.returncode == 0, done.stderr
    assert "451 4.3.0 greylisted, try again later" in done.stdout, done.stdout
    status = subprocess.run([sys.executable, "-m", "pbem", "gm", "status", str(host.path),
                             "--now", iso(at(1))], capture_output=True, text=True, check=False)
    deferred = [ln for ln in status.stdout.splitlines() if ln.strip().startswith("deferred:")]
    assert deferred and all("451 4.3.0 greylisted" in ln for ln in deferred), status.stdout
    assert "attempt 1" in deferred[0]


# -- the player's tool ----------------------------------------------------------------------------
def test_reveal_with_nothing_in_flight_says_so_in_one_line(tmp_path: Path) -> None:
    view = AD.view(AD.setup("independents-4", {"game_id": "g1"}), "algol")
    # as the referee attaches it: with the game instance every order file names
    view = {**view, "instance": "5f0c2b7e91d4a3c86e1f0b9a7d2c4e61"}
    (tmp_path / "view.json").write_text(json.dumps(view))
    env = {"PBEM_VAULT": str(tmp_path / "vault.json")}

    def orders(*args: str) -> subprocess.CompletedProcess[str]:
        import os

        return subprocess.run([sys.executable, "-m", "pbem", "orders", *args], cwd=tmp_path,
                              capture_output=True, text=True, check=False,
                              env={**os.environ, **env})

    assert orders("new", "--view", "view.json", "-o", "o.yaml").returncode == 0
    done = orders("reveal", "o.yaml", "--view", "view.json")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["nothing to reveal: algol has no warp in hyperspace on "
                                        "turn 1"]
