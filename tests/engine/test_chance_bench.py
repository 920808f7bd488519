"""The chance benchmark still runs and prints its three lines beside their floors (no timing is
asserted: the figures are for people, the shape is for this test)."""

from __future__ import annotations

import re

from bench import bench_chance
from bench.__main__ import MODULES


def test_the_chance_benchmark_runs_and_is_registered(capsys):
    assert "bench_chance" in MODULES
    bench_chance.run()
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[1].strip() for line in lines] == [
        "derive one step's seeds and 100 d6 rolls",
        "referee's value for a step, checkpoints in memory",
        "referee's value for step 1, first walk in a process"]
    for line in lines:
        assert re.fullmatch(r"chance: [^:]+: [\d.e+-]+ ms \(floor [\d.e+-]+ ms, ratio [\d.]+\)",
                            line), line
