"""A window that closes when answered (pbem.game.plugin.Window ``closes_when_answered``),
resolved by the real turn job in a game whose ``schedule.early`` is false: the relay toy's
baton legs close as soon as the runner's file is in; its sprint (on the contract's defaults)
waits for the deadline though every file is in."""

from __future__ import annotations

from tests.support.pbem_host import Host, at


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
