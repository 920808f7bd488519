"""Printing one benchmark figure beside its floor (bench/README.md, "One machine's floor")."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable


def line(name: str, value: float, unit: str, floor: float, *, rate: bool = False) -> str:
    """``NAME: VALUE UNIT (floor FLOOR UNIT, ratio R)``; R is how many times the floor it costs.

    For a cost (ms, µs) R = value / floor; for a rate (per second) R = floor / value.
    """
    ratio = floor / value if rate else value / floor
    text = f"{name}: {value:.3g} {unit} (floor {floor:.3g} {unit}, ratio {ratio:.2f})"
    print(text, flush=True)
    return text


def runs(n: int) -> int:
    """How many times a benchmark repeats what it times: ``n``, or once under
    ``PBEM_BENCH_SMOKE`` (tests/engine/test_bench_smoke.py), which runs every code path of every
    benchmark and reads no figure."""
    return 1 if os.environ.get("PBEM_BENCH_SMOKE") else n


def median_seconds(fn: Callable[[], object], *, repeat: int = 7, number: int = 1) -> float:
    """Median wall time of ``number`` calls, over ``repeat`` runs, in seconds per call (each
    count :func:`runs`)."""
    repeat, number = runs(repeat), runs(number)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def interleaved_medians(fns: dict[str, Callable[[], object]], *, repeat: int = 7,
                        number: int = 1) -> dict[str, float]:
    """Each function's median wall time per call (seconds), over ``repeat`` runs of ``number``
    calls, the runs of the functions taken in turn (a, b, a, b, ...): a figure compared with
    another (turn 300 beside turn 5) then sees the same machine, where measuring one after the
    other let the load and clock of a shared machine drift between them. (Each count
    :func:`runs`.)"""
    repeat, number = runs(repeat), runs(number)
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.perf_counter()
            for _ in range(number):
                fn()
            times[name].append((time.perf_counter() - start) / number)
    return {name: statistics.median(t) for name, t in times.items()}
