"""A window that closes when answered (pbem.game.plugin.Window ``closes_when_answered``),
resolved by the real turn job in a game whose ``schedule.early`` is false: the relay toy's
baton legs close as soon as the runner's file is in; its sprint (on the contract's defaults)
waits for the deadline though every file is in."""

from __future__ import annotations

from tests.support.pbem_host import Host, at
from tests.support.relay_legs import standing_red_and_green


def test_a_step_that_closes_when_answered_does_not_wait_for_the_deadline(tmp_path) -> None:
    host = Host(tmp_path, "round-6", game="relay", game_id="relay-3",
                extra=["--deadline", "48h"])
    config = host.path / "config.yaml"
    config.write_text(config.read_text().replace("early: true", "early: false"))
    host.run(at(0.1))
    for leg, hour in ((1, 1.0), (2, 2.0)):
        [power] = host.plugin.powers_due(host.state())
        host.submit(power, {"pace": 2}, at(hour))
        [run] = host.run(at(hour + 0.1))
        assert run.status == "resolved", (leg, run.line())
    assert host.state()["turn"] == 3  # leg 3 is a sprint: every power, the defaults
    for power in host.powers:
        host.submit(power, {"pace": 1}, at(3.0))
    [run] = host.run(at(3.1))
    assert run.status != "resolved", run.line()  # early: false, and no closes_when_answered
    [run] = host.run(at(2.1 + 48))
    assert run.status == "resolved", run.line()


def test_standing_files_answer_a_step_that_closes_when_answered(tmp_path) -> None:
    """Red and Green each send a standing file (``turn: standing``) while leg 1 is open: their
    baton legs 1 and 2 need no file of the step and close in one run, long before their
    deadline; the sprint (leg 3, not ``closes_when_answered``) still waits for its deadline
    though a standing file stands for two of its three runners."""
    host = standing_red_and_green(tmp_path)
    [run] = host.run(at(0.6))
    assert len(run.resolved) == 2 and host.state()["turn"] == 3, run.line()
    standing = host.game().log.summary.standing_files
    used = [r.body["used"] for r in host.entries("resolve")]
    assert used == [{"red": standing["red"]["sha256"]}, {"green": standing["green"]["sha256"]}]
    host.submit("blue", {"pace": 1}, at(1.0))
    [run] = host.run(at(1.1))
    assert not run.resolved, run.line()  # the sprint: early false, no closes_when_answered
