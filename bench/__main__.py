"""Run the benchmark modules and print one line per figure: ``python -m bench`` runs them all
(``make bench``), ``python -m bench audit start`` only those named (``audit`` is
``bench_audit``; the ``bench_`` prefix may be given too). The load average is printed at the
start and the end: a figure taken under load is no final figure."""

from __future__ import annotations

import importlib
import os
import sys
import time

# Each module has run() -> None printing its lines through bench.report.line.
MODULES = ("bench_rules", "bench_orders", "bench_store", "bench_mail", "bench_ingest",
           "bench_turnjob", "bench_audit", "bench_chance", "bench_scaling",
           "bench_ingest_scaling", "bench_idle", "bench_start")
MODULES += ("bench_windows",)  # a six-player many-window round: mails and syncs per window
MODULES += ("bench_ti4_mail",)  # a six-player TI4 round by mail: mails per player per round


def chosen(args: list[str]) -> list[str]:
    """The modules ``args`` name, in the order given (all of them for no argument); raises
    ValueError naming an unknown one and the known ones."""
    if not args:
        return list(MODULES)
    names = [a if a.startswith("bench_") else f"bench_{a}" for a in args]
    unknown = [a for a, n in zip(args, names, strict=True) if n not in MODULES]
    if unknown:
        known = ", ".join(m.removeprefix("bench_") for m in MODULES)
        raise ValueError(f"no benchmark {', '.join(unknown)} (known: {known})")
    return names


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    try:
        names = chosen(sys.argv[1:] if argv is None else argv)
    except ValueError as exc:
        print(f"python -m bench: {exc}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    print(f"load average at start: {_load()}", flush=True)
    failed = 0
    for name in names:
        try:
            importlib.import_module(f"bench.{name}").run()
        except Exception as exc:  # a broken benchmark must not hide the others
            failed += 1
            print(f"{name}: FAILED ({type(exc).__name__}: {exc})", file=sys.stderr)
    print(f"load average at end: {_load()} ({time.perf_counter() - start:.0f} s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
