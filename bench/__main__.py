"""Run every benchmark module and print one line per figure."""

from __future__ import annotations

import importlib
import sys

# Each module has run() -> None printing its lines through bench.report.line.
MODULES = ("bench_rules", "bench_orders", "bench_store", "bench_mail", "bench_ingest",
           "bench_turnjob", "bench_audit", "bench_chance", "bench_scaling",
           "bench_ingest_scaling", "bench_idle", "bench_start")
MODULES += ("bench_windows",)  # a six-player many-window round: mails and syncs per window


def main() -> int:
    failed = 0
    for name in MODULES:
        try:
            importlib.import_module(f"bench.{name}").run()
        except Exception as exc:  # a broken benchmark must not hide the others
            failed += 1
            print(f"{name}: FAILED ({type(exc).__name__}: {exc})", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
