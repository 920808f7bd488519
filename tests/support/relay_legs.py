"""Six baton legs of the relay toy (tests/games/relay) played by the real turn job, every
runner at his own digest pace: what the mail-policy tests and the audit's ``mailed`` check
read."""

from __future__ import annotations

from pathlib import Path

from pbem.cli.main import main as pbem_main
from tests.support.pbem_host import Host, at

#: Each runner's digest pace (pbem gm digest).
PACES = {"red": "daily", "green": "when-due", "blue": "every-step"}


def six_legs(path: Path, game_id: str) -> Host:
    """A relay game whose first six baton legs were each answered by its runner (pace 2) and
    resolved by ``pbem run``; a day passes before leg 4."""
    host = Host(path, "round-12", game="relay", game_id=game_id, extra=["--deadline", "48h"])
    for power, pace in PACES.items():
        assert pbem_main(["gm", "digest", str(host.path), power, pace]) == 0
    hour = 0.1
    host.run(at(hour))
    for leg in range(1, 7):
        if leg == 4:
            hour += 25
        [power] = host.plugin.powers_due(host.state())
        host.submit(power, {"pace": 2}, at(hour))
        hour += 0.5
        [run] = host.run(at(hour))
        assert run.status == "resolved", run.line()
    return host


def standing_red_and_green(path: Path, game_id: str = "relay-4") -> Host:
    """The relay toy (round-6, early close off) after its first run, with Red's and Green's
    standing files in (``turn: standing``, pace 3): the next run resolves baton legs 1 and 2
    in one visit, the first committed and queued before the second is resolved (the turn
    job's ``_flush_pending``); the sprint (leg 3) waits for its deadline."""
    host = Host(path, "round-6", game="relay", game_id=game_id, extra=["--deadline", "48h"])
    config = host.path / "config.yaml"
    config.write_text(config.read_text().replace("early: true", "early: false"))
    host.run(at(0.1))
    for power in ("red", "green"):
        verdict = host.submit(power, {"pace": 3}, at(0.5), turn="standing")
        assert verdict.verdict == "accepted", verdict
    return host

