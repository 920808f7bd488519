"""Per-player preferences by signed mail (a ``prefs:`` file in the vote armor, piped to ``pbem
ingest --stdin``): written to ``players.<power>.prefs`` in config.yaml, confirmed to the player,
shown by ``gm status``, and applied by the cron job: quiet hours hold a reminder back to their
end, or bring it before they start when the deadline would pass (docs/operations.md, "Player
preferences")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from pbem.protocol.votedoc import sign_vote
from tests.support.ingest_helpers import queued, registered, text_of
from tests.support.pbem_host import Host, at
from tests.support.run import pbem_ok
from tests.support.votes import gm_ops, mail_block

# T0 is 2026-12-01 00:00 UTC; the deadline at(48); the game reminds 24 h before, at(24).


def send_prefs(host: Host, power: str, seq: int, prefs: dict[str, Any]) -> str:
    doc = {"pbem": 1, "game": host.game_id, "power": power, "seq": seq, "prefs": prefs}
    return mail_block(host, power, sign_vote(yaml.safe_dump(doc), host.keys[power]))


def reminded(host: Host) -> set[str]:
    return {str(m["To"]) for m in host.sent() if "remind" in str(m["Subject"]).lower()
            or "due" in str(m["Subject"]).lower()}


def test_quiet_hours_hold_a_reminder_back(tmp_path: Path) -> None:
    host = Host(tmp_path)
    pavo, antares, regulus, algol = host.powers
    host.submit(algol, {}, at(1))
    # Pavo sleeps 23:00-08:00 UTC: the game's reminder at 00:00 waits until 08:00, at(32).
    send_prefs(host, pavo, 1, {"quiet": "23:00-08:00", "tz": "UTC", "digest": "daily"})
    # Regulus wants 3 h, at(45) = 21:00, but is quiet 20:00-00:30: the end would be past the
    # deadline, so he is reminded before his quiet hours start (19:59, at(43.98)).
    send_prefs(host, regulus, 1, {"reminder": "3h", "quiet": "20:00-00:30"})
    assert gm_ops(host) == ["prefs", "prefs"]
    config = yaml.safe_load((host.path / "config.yaml").read_text())
    assert config["players"][pavo]["prefs"] == {"quiet": "23:00-08:00", "tz": "UTC",
                                                "digest": "daily"}
    told = [text_of(m) for _g, m in queued(host.root) if m["To"] == registered(pavo)
            and "your settings" in str(m["Subject"])]
    assert told and "quiet 23:00-08:00" in told[0]
    assert f"settings: {regulus} reminder 3h, quiet 20:00-00:30" in pbem_ok(
        "gm", "status", host.path, "--now", "2026-12-01T02:00:00Z")

    host.run(at(25))
    assert reminded(host) == {registered(antares)}
    host.run(at(31.9))
    assert reminded(host) == {registered(antares)}
    host.run(at(32))
    assert reminded(host) == {registered(antares), registered(pavo)}
    host.run(at(43.9))
    assert registered(regulus) not in reminded(host)
    host.run(at(44))
    assert registered(regulus) in reminded(host)
    pbem_ok("audit", host.path)


def test_bad_prefs_are_refused_with_every_problem(tmp_path: Path) -> None:
    host = Host(tmp_path)
    pavo = host.powers[0]
    out = send_prefs(host, pavo, 1, {"quiet": "late", "digest": "hourly", "colour": "red"})
    assert "rejected" in out and "prefs.quiet" in out and "prefs.digest" in out, out
    assert gm_ops(host) == []


def test_pbem_vote_prefs_signs_settings_the_referee_takes(tmp_path: Path) -> None:
    """``pbem vote prefs --set`` (the line the welcome mail gives) writes and signs a prefs file
    ingest takes whole; a bad setting is refused before anything is signed."""
    host = Host(tmp_path, "independents-4")
    power = host.powers[0]
    keyfile = tmp_path / "keys" / f"{host.game_id}-{power}.key"
    block = pbem_ok("vote", "prefs", "--game", host.game_id, "--power", power, "--key", keyfile,
                    "--seq", "1", "--set", "reminder=12h", "--set", "quiet=22:00-07:00",
                    "--set", "tz=Europe/Paris", "--set", "tell_when_due=true")
    mail_block(host, power, block)
    prefs = host.game().config.prefs[power]
    assert prefs.to_data() == {"reminder": "12h", "quiet": "22:00-07:00", "tz": "Europe/Paris",
                               "tell_when_due": True}
    out = pbem_ok("vote", "prefs", "--game", host.game_id, "--power", power, "--key", keyfile,
                  "--set", "digest=weekly", ok=False)
    assert "prefs.digest" in out and "every-step, daily, when-due" in out, out


def test_the_welcome_mail_gives_each_power_its_settings(tmp_path: Path) -> None:
    host = Host(tmp_path, "independents-4")
    welcome = [" ".join(text_of(m).split()) for _g, m in queued(host.root)
               if str(m["To"]) == registered(host.powers[0])][0]
    assert (f"{host.powers[0].capitalize()}: reminder 1d before the deadline (the game's); "
            "no quiet hours (zone UTC); digest every-step; tell when due off.") in welcome
    assert f"pbem vote prefs --game {host.game_id} --power {host.powers[0]}" in welcome
