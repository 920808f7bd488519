"""Starting a process: what a command costs before it does anything (issue 30, "Fast start").

With ``.forward`` delivery every mail is a ``pbem ingest --stdin`` process of its own, and most
mail a public address gets is spam; a player types ``pbem --help`` and the other commands. Lines,
each a whole process (bytecode cached: ``floors.process_env``) beside ``python -c pass`` measured
in this same run, all of them taken in turn (a, b, c, a, b, c, ...: bench/report.py's
interleaved_medians), so the machine's load weighs on the figure and its floor alike:

- ``pbem ingest ROOT --stdin`` of spam (a stranger's mail without a signed block: quarantined,
  no reply). Target: ≤ 4× the floor.
- ``pbem ingest ROOT --stdin`` of a signed order mail (verified, judged by its game, a receipt
  rendered and queued). Target: ≤ 7× the floor.
- ``pbem --help`` (every command listed; no command's module imported).
- ``pbem gm status GAME`` and ``pbem run ROOT`` on an idle root (one game, its welcome sent,
  no turn due, nothing queued): what a game master and cron pay for a look.

Then the same commands' counts of modules imported, beside the interpreter's own (``python -c
...`` printing ``len(sys.modules)``): a count is what the load on a shared machine cannot
change, so it is the figure to compare between runs there. The root holds one game, its index
built by a first mail before anything is timed.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

from bench import floors
from bench.bench_ingest_scaling import mail, spam
from bench.bench_scaling import T0, create
from bench.report import interleaved_medians, line
from pbem.schedule import to_iso

NOW = to_iso(T0 + timedelta(hours=1))

#: A process that runs pbem's entry point as ``python -m pbem`` does, then prints how many
#: modules it imported (stderr: the command's own output stays on stdout).
COUNT = """
import sys
from pbem.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(len(sys.modules), file=sys.stderr)
"""


def _runner(cmd: list[str], inputs: Iterator[bytes] | None,
            cpu: list[float] | None = None) -> Callable[[], None]:
    """A whole process of ``cmd``; with ``cpu``, each run's CPU time (user + system of the
    process, seconds) is appended to it."""
    def run() -> None:
        data = next(inputs) if inputs is not None else None
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(cmd, input=data, capture_output=True, check=False,
                              env=floors.process_env())
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        assert done.returncode == 0, done.stderr.decode()[-500:]
        if cpu is not None:
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)

    return run


def _modules(args: list[str], data: bytes | None = None) -> int:
    done = subprocess.run([sys.executable, "-c", COUNT, *args], input=data, capture_output=True,
                          check=True, env=floors.process_env())
    return int(done.stderr.decode().strip().splitlines()[-1])


def run() -> None:
    work = Path(tempfile.mkdtemp(prefix="pbem-bench-start-"))
    try:
        repeat = int(os.environ.get("PBEM_BENCH_START_REPEAT", "7"))
        root = work / "root"
        create(root, "g00000")
        ingest = [sys.executable, "-m", "pbem", "ingest", str(root), "--stdin", "--now", NOW]
        first = _runner(ingest, iter([mail(root, "g00000")]))
        first()  # builds the root index and writes the bytecode cache (floors.process_env)
        idle = work / "idle"
        create(idle, "g00000")
        status = ["gm", "status", str(idle / "g00000"), "--now", NOW]
        cron = ["run", str(idle), "--now", NOW]
        pbem = [sys.executable, "-m", "pbem"]
        for cmd in ([sys.executable, "-c", "pass"], [*pbem, "--help"], [*pbem, *cron],
                    [*pbem, *status]):
            _runner(cmd, None)()  # (the first run sends the idle game's welcome mails)
        n = repeat + 1
        cpu: dict[str, list[float]] = {"pass": [], "spam": [], "order": []}
        figures = interleaved_medians({
            "pass": _runner([sys.executable, "-c", "pass"], None, cpu["pass"]),
            "spam": _runner(ingest, iter([spam() for _ in range(n)]), cpu["spam"]),
            "order": _runner(ingest, iter([mail(root, "g00000") for _ in range(n)]),
                             cpu["order"]),
            "help": _runner([*pbem, "--help"], None),
            "status": _runner([*pbem, *status], None),
            "run": _runner([*pbem, *cron], None),
        }, repeat=repeat)
        floor = figures["pass"] * 1e3
        print(f"floor measured now, in turn with the lines below: python -c pass {floor:.1f} ms",
              flush=True)
        line("pbem ingest --stdin of one spam mail (no block: quarantined, no reply), whole "
             "process (floor: python -c pass; target ratio ≤ 4)", figures["spam"] * 1e3, "ms",
             floor)
        line("pbem ingest --stdin of one signed order mail (accepted, receipt queued), whole "
             "process (floor: python -c pass; target ratio ≤ 7)", figures["order"] * 1e3, "ms",
             floor)
        cpu_floor = statistics.median(cpu["pass"]) * 1e3
        for name, what in (("spam", "one spam mail"), ("order", "one signed order mail")):
            line(f"pbem ingest --stdin of {what}, CPU of the process (user + system; floor: "
                 "python -c pass's, the same runs: less swayed by the load than wall time)",
                 statistics.median(cpu[name]) * 1e3, "ms", cpu_floor)
        line("pbem --help, whole process (floor: python -c pass)", figures["help"] * 1e3, "ms",
             floor)
        line("pbem gm status of an idle game, whole process (floor: python -c pass)",
             figures["status"] * 1e3, "ms", floor)
        line("pbem run of an idle root (one game, no turn due), whole process (floor: python -c "
             "pass)", figures["run"] * 1e3, "ms", floor)
        bare = int(subprocess.run([sys.executable, "-c", "import sys; print(len(sys.modules))"],
                                  capture_output=True, check=True, text=True,
                                  env=floors.process_env()).stdout)
        base = ["ingest", str(root), "--stdin", "--now", NOW]
        for name, args, data in (("pbem ingest --stdin of spam", base, spam()),
                                 ("pbem ingest --stdin of an order mail", base,
                                  mail(root, "g00000")),
                                 ("pbem --help", ["--help"], None),
                                 ("pbem gm status", status, None),
                                 ("pbem run of an idle root", cron, None)):
            line(f"{name}: modules imported (floor: the interpreter's own)", _modules(args, data),
                 "modules", bare)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    start = time.perf_counter()
    print(f"load average at start: {os.getloadavg()}", flush=True)
    run()
    print(f"load average at end: {os.getloadavg()} ({time.perf_counter() - start:.0f} s)")
