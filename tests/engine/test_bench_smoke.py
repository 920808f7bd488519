"""The benchmarks still run (tiny sizes, no timing asserted): a broken benchmark is found by the
test suite, not by the next person who runs ``make bench``."""

from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize("module,env", [
    ("bench_turnjob", {"PBEM_BENCH_GAMES": "3"}),
    ("bench_ingest", {"PBEM_BENCH_MAILS": "5", "PBEM_BENCH_BATCH_GAMES": "2",
                      "PBEM_BENCH_BATCH_TRIALS": "1"}),
    ("bench_audit", {"PBEM_BENCH_AUDIT_TURNS": "12"}),
    ("bench_mail", {}),
    ("bench_rules", {}),
    ("bench_orders", {}),
    ("bench_store", {}),
    ("bench_scaling", {"PBEM_BENCH_LONG_TURNS": "7"}),
    ("bench_ingest_scaling", {"PBEM_BENCH_INGEST_GAMES": "11", "PBEM_BENCH_HANDLED": "20"}),
    ("bench_idle", {"PBEM_BENCH_IDLE_TURNS": "7", "PBEM_BENCH_IDLE_RUN_GAMES": "3"}),
    ("bench_start", {"PBEM_BENCH_START_REPEAT": "1"}),
])
def test_benchmark_runs(module, env, monkeypatch, capsys):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    importlib.import_module(f"bench.{module}").run()
    out = capsys.readouterr().out
    assert "(floor " in out and "ratio " in out
