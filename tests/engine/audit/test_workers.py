"""How many worker processes the audit starts (pbem.audit._parallel.workers_for): one per core
free beside the walk's own, judged from the cores this process may use (its affinity) and the
run queue (the load average, or the processes runnable now); none for a small log, on one core
or on a busy machine; what the caller asks for, whatever the machine. And how the walk shares
the chunks with them (pbem.audit._parallel._Share)."""

from __future__ import annotations

import os

import pytest

from pbem.audit import _parallel

BIG = _parallel.MIN_BYTES


@pytest.mark.parametrize(("cores", "others", "workers"), [
    (2, 0.0, 1), (2, 0.4, 1), (2, 0.95, 1),  # some of the other core free: a worker on it
    (2, 1.1, 0), (2, 3.0, 0), (2, 8.0, 0),  # the other core taken whole: the walk alone
    (1, 0.0, 0),  # one core (a container's affinity): no worker
    (4, 0.0, 3), (4, 1.2, 2), (16, 0.0, _parallel.MOST_WORKERS),
])
def test_one_worker_per_spare_core(cores, others, workers) -> None:
    assert _parallel.workers_for(BIG, None, (cores, others)) == workers


def test_a_small_log_is_audited_alone_and_the_callers_number_is_kept() -> None:
    assert _parallel.workers_for(BIG - 1, None, (8, 0.0)) == 0
    assert _parallel.workers_for(BIG, 2, (2, 8.0)) == 2
    assert _parallel.workers_for(BIG, 0, (8, 0.0)) == 0


def test_the_machine_is_read_from_this_process_and_the_run_queue() -> None:
    assert _parallel.cores() == len(os.sched_getaffinity(0))
    others = _parallel.others_running()
    assert 0.0 <= others <= os.getloadavg()[0]


def test_the_walk_keeps_more_chunks_while_the_workers_are_behind_and_fewer_after() -> None:
    share = _parallel._Share()
    assert not any(share.mine() for _ in range(50))  # at first the workers check every chunk
    for _ in range(30):
        share.found(ready=False)  # the walk found the workers' chunks unfinished
    assert share.kept == _parallel.MOST_KEPT
    kept = sum(share.mine() for _ in range(100))
    assert 85 <= kept <= 90  # nearly all, but some still go to the workers to sense a free core
    for _ in range(100):
        share.found(ready=True)
    assert share.kept == 0.0
