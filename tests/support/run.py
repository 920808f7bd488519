"""The one way the tests start ``pbem`` as a whole process (``python -m pbem ARGS``), as a player,
a game master or a mail server runs it.

Use it where the test is about the command line or the process: exit codes, what a user reads,
``--stdin`` as an MTA pipes it, a SIGKILL, hostile input under a memory cap. Elsewhere call the
code in-process (``pbem.cli.main.main``, ``pbem.host``): a process costs ~0.2 s of CPU.

- :func:`pbem`: bytes in and out, every process under the memory cap (hostile-input tests need it;
  it costs nothing to the others).
- :func:`pbem_text`: text out (``stdout``/``stderr`` as ``str``), for commands people type.
- :func:`cap_memory`: the ``preexec_fn`` of the cap, for a test that builds its own command.
- :func:`pbem_here`: the same command line in this process (``pbem.cli.main.main``, standard
  input, output and environment swapped for the call), with the same result shape: for tests
  that play through the commands without being about the process.
"""

from __future__ import annotations

import contextlib
import io
import os
import resource
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
#: bytes of address space for a capped pbem process: a regression that reads a hostile mail into
#: memory whole fails the test instead of the machine.
MEMORY_CAP = 1 << 30


def cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def _env(env: Mapping[str, str] | None) -> dict[str, str]:
    return {**os.environ, **(env or {})}


def pbem(*args: str | Path, stdin: bytes | None = None, cwd: Path | None = None,
         env: Mapping[str, str] | None = None, capped: bool = True, timeout: float = 300,
         ) -> subprocess.CompletedProcess[bytes]:
    """``pbem ARGS`` as a separate process (``env`` is added to this process's environment)."""
    return subprocess.run([sys.executable, "-m", "pbem", *map(str, args)], input=stdin,
                          capture_output=True, cwd=cwd or REPO, check=False, timeout=timeout,
                          env=_env(env), preexec_fn=cap_memory if capped else None)


def pbem_text(*args: str | Path, stdin: str | None = None, cwd: Path | None = None,
              env: Mapping[str, str] | None = None, capped: bool = False, timeout: float = 300,
              ) -> subprocess.CompletedProcess[str]:
    """``pbem ARGS`` as a separate process, its output as text."""
    return subprocess.run([sys.executable, "-m", "pbem", *map(str, args)], input=stdin,
                          capture_output=True, text=True, cwd=cwd or REPO, check=False,
                          timeout=timeout, env=_env(env),
                          preexec_fn=cap_memory if capped else None)


def pbem_ok(*args: str | Path, ok: bool = True, **kwargs: object) -> str:
    """``pbem ARGS`` that must succeed (or, with ``ok=False``, fail): its stdout and stderr."""
    done = pbem_text(*args, **kwargs)  # type: ignore[arg-type]
    assert (done.returncode == 0) == ok, done.stdout + done.stderr
    return done.stdout + done.stderr


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def pbem_here(*args: str | Path, stdin: bytes | None = None,
              env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    """``pbem ARGS`` run by ``pbem.cli.main.main`` in this process (about 10 times cheaper than
    a process): exit status, standard output and error as :func:`pbem` gives them."""
    from pbem.cli.main import main

    out, err = io.BytesIO(), io.BytesIO()
    text_out = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    text_err = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    text_in = io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8")
    argv = [str(a) for a in args]
    saved_in = sys.stdin
    sys.stdin = text_in
    try:
        with _environment(env), contextlib.redirect_stdout(text_out), \
                contextlib.redirect_stderr(text_err):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse's usage errors
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved_in
    text_out.flush()
    text_err.flush()
    return subprocess.CompletedProcess(["pbem", *argv], code, out.getvalue(), err.getvalue())
