"""The benchmarks still run (tiny sizes, no timing asserted): a broken benchmark is found by the
test suite, not by the next person who runs ``make bench``.

``PBEM_BENCH_SMOKE`` (bench/report.py, ``runs``) makes each timed function run once instead of
its repeats (the floors' too): every code path of every benchmark still runs, once."""

from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize("module,env", [
    ("bench_turnjob", {"PBEM_BENCH_GAMES": "3", "PBEM_BENCH_STEP_REPEAT": "1"}),
    ("bench_ingest", {"PBEM_BENCH_MAILS": "5", "PBEM_BENCH_BATCH_GAMES": "2",
                      "PBEM_BENCH_BATCH_TRIALS": "1"}),
    ("bench_audit", {"PBEM_BENCH_AUDIT_TURNS": "12"}),
    ("bench_mail", {"PBEM_BENCH_TRIAGE_MAILS": "4"}),  # one mail of each of the four shapes
    ("bench_rules", {}),
    ("bench_orders", {}),
    ("bench_store", {}),
    ("bench_scaling", {"PBEM_BENCH_LONG_TURNS": "7"}),
    ("bench_ingest_scaling", {"PBEM_BENCH_INGEST_GAMES": "11", "PBEM_BENCH_HANDLED": "20"}),
    ("bench_idle", {"PBEM_BENCH_IDLE_TURNS": "7", "PBEM_BENCH_IDLE_RUN_GAMES": "3"}),
    ("bench_start", {"PBEM_BENCH_START_REPEAT": "1"}),
])
def test_benchmark_runs(module, env, monkeypatch, capsys):
    monkeypatch.setenv("PBEM_BENCH_SMOKE", "1")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    importlib.import_module(f"bench.{module}").run()
    out = capsys.readouterr().out
    assert "(floor " in out and "ratio " in out


def test_bench_runs_only_the_benchmarks_named(capsys):
    """``python -m bench rules orders`` runs those two (the ``bench_`` prefix optional), in the
    order named, between the load average at start and at end; no name runs them all; an
    unknown name runs none and says which ones there are."""
    from bench import __main__ as bench_main

    assert bench_main.chosen([]) == list(bench_main.MODULES)
    assert bench_main.chosen(["orders", "bench_rules"]) == ["bench_orders", "bench_rules"]
    assert bench_main.main(["rules"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("load average at start: ")
    assert out[-1].startswith("load average at end: ")
    assert any(line.startswith("rules") or "resolve" in line for line in out[1:-1])
    assert bench_main.main(["nosuch"]) == 2
    err = capsys.readouterr().err
    assert "no benchmark nosuch" in err and "audit" in err
