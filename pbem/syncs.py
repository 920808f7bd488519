"""fsyncs issued together: a group of files (or directories) made durable at once.

A group commit writes many small files and then must make each durable before the next step
(rename into place, the log entry, the acknowledgement). Issued one after the other, each
fsync waits for its own journal commit; issued at once, from a few threads, the file system
merges them into a few commits (ext4's jbd2 batches concurrent fsyncs; so do XFS and btrfs):
a group took a third to a tenth of the time it took one by one (bench/README.md, "Measurements
behind the code"). Every file still
gets its own ``fsync`` — the durability argument of each caller is unchanged; only the waiting
overlaps.

``os.fsync`` releases the GIL, so the threads do nothing but wait on the kernel. The pool is
made on first use (per process: a forked child makes its own), holds at most
:data:`THREADS` threads, and is used only for groups of at least :data:`GROUP_MIN` (a
one-mail ``pbem ingest --stdin`` makes no thread). Where a thread cannot start (a process
under a tight address-space cap: each thread reserves a stack), the group is fsynced one by
one, as before.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

T = TypeVar("T")
R = TypeVar("R")

#: Threads waiting on fsyncs at once: the more in flight, the more each journal commit takes
#: (64 gained little over 32; each thread reserves a stack of address space).
THREADS = 32
#: Smaller groups are fsynced one by one (a thread hand-off costs about what it saves).
GROUP_MIN = 4

_pools: dict[str, tuple[int, ThreadPoolExecutor]] = {}  # name -> (pid, pool)
_pool_lock = threading.Lock()


def _executor(name: str) -> ThreadPoolExecutor:
    from concurrent.futures import ThreadPoolExecutor  # (only a process with a group loads it)

    with _pool_lock:
        entry = _pools.get(name)
        if entry is None or entry[0] != os.getpid():  # (a forked child makes its own)
            entry = _pools[name] = (os.getpid(), ThreadPoolExecutor(
                max_workers=THREADS, thread_name_prefix=f"pbem-{name}"))
        return entry[1]


def fsync_each(fds: Sequence[int], meanwhile: Callable[[], object] | None = None) -> None:
    """``os.fsync`` every descriptor of ``fds``; return when all are durable. Raises the first
    OSError (after every fsync has finished: none is left running). ``meanwhile``: work of
    the calling thread's own, done while the fsyncs run (it would only wait otherwise); an
    exception from it is raised once they have finished, after theirs."""
    _at_once(os.fsync, fds, "fsync", GROUP_MIN, meanwhile)


def each(step: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """``step(item)`` for every item at once (threads of a pool of their own: a step may issue
    fsync groups itself), for steps that are mostly waiting on durable writes and share no
    state: the same step of a group commit for each of several games. Returns their results
    in the items' order once every one has finished; raises the first exception (the other
    steps ran to their end)."""
    return _at_once(step, items, "step", 2)


def _at_once(step: Callable[[T], R], items: Sequence[T], pool: str, least: int,
             meanwhile: Callable[[], object] | None = None) -> list[R]:
    """``step`` over ``items`` on the pool named ``pool`` (one by one below ``least`` items,
    or where no thread can start), and ``meanwhile()`` in the calling thread."""
    if len(items) < least:
        done = [step(item) for item in items]
        if meanwhile is not None:
            meanwhile()
        return done
    futures: list[Future[R]] = []
    try:
        executor = _executor(pool)
        for item in items:
            futures.append(executor.submit(step, item))
    except RuntimeError:  # no thread could start (or the interpreter is shutting down)
        rest = [step(item) for item in items[len(futures):]]
    else:
        rest = []
    error: BaseException | None = None
    if meanwhile is not None:
        try:
            meanwhile()
        except BaseException as exc:  # raised once the steps have finished
            error = exc
    failures = [exc for exc in (future.exception() for future in futures) if exc is not None]
    if failures:
        raise failures[0]
    if error is not None:
        raise error
    return [future.result() for future in futures] + rest


def fsync_dirs(directories: Sequence[Path | str]) -> None:
    """Make the new names in each of ``directories`` durable (each fsynced, together)."""
    fds: list[int] = []
    try:
        for directory in dict.fromkeys(directories):
            fds.append(os.open(directory, os.O_RDONLY | os.O_DIRECTORY))
        fsync_each(fds)
    finally:
        for fd in fds:
            os.close(fd)
