"""The order the suite's files start in under ``pytest -n N --dist loadfile`` (make test), and
the files that share one worker because they read one played game.

xdist gives each worker a whole file at a time, so a long file is a unit of scheduling: started
last, it alone sets the suite's wall time while the other worker idles. xdist's own order (most
tests first) starts the files that play a whole game by mail (a few tests behind a long module
fixture) last. Here the files measured longest start first, longest first (the classic
longest-job-first rule), and the rest keep their collected order behind them.

``SHARED``: files whose tests read one game played once per process (``tests/support``'s
cache): scheduled as one unit, so they run on one worker and the game is played once.

The figures beside ``LONGEST`` are each file's worker time (set-up, calls and teardown summed
from ``--durations=0``) in one run of the whole suite on two workers (2026-12-06, under a load
average of 10-18 from other work: about five times a quiet machine's; their order is what
counts). Re-measure when a file grows (tests/README.md, "Running"). A file renamed or removed
must leave the lists: tests/engine/test_test_layout.py checks that every file named exists."""

from __future__ import annotations

import os
from typing import Any

import pytest

#: files (paths from the repository's root) started first, in this order: longest first
LONGEST: tuple[str, ...] = (
    "tests/engine/test_bench_smoke.py",  # 178 s
    "tests/crossgame/test_order_view.py",  # 161 s
    "tests/crossgame/test_random_play.py",  # 154 s
    "tests/engine/cli/test_cli_garbage.py",  # 140 s
    "tests/engine/test_installed.py",  # 124 s (39 of them building the wheel, once a session)
    "tests/games/ti4/test_ti4_transactions_by_mail.py",  # 117 s
    "tests/engine/host/test_turnjob_crash.py",  # 114 s
    "tests/games/ti4/test_ti4_plugin_leaks.py",  # 102 s with the e2e file (one unit: SHARED)
    "tests/crossgame/test_vote_cancel.py",  # 95 s
    "tests/engine/host/test_hostile_mail.py",  # 93 s
    "tests/games/b5cgs/test_b5cgs_windows_e2e.py",  # 85 s
    "tests/crossgame/test_player_text_sweep.py",  # 83 s
    "tests/engine/audit/test_audit_stream.py",  # 79 s
    "tests/engine/host/test_turnjob_phases.py",  # 77 s
    "tests/engine/test_newcomer.py",  # 69 s
    "tests/crossgame/test_crossgame_pictures.py",  # 62 s
    "tests/games/b5cgs/test_b5cgs_writers.py",  # 59 s
    "tests/games/b5cgs/test_b5cgs_leaks.py",  # 58 s
    "tests/crossgame/test_abandoned_seats.py",  # 57 s
    "tests/crossgame/test_vote_draw.py",  # 54 s
    "tests/crossgame/test_promises.py",  # 53 s
    "tests/games/b5cgs/test_b5cgs_e2e.py",  # 45 s
    "tests/crossgame/test_template_override.py",  # 37 s
    "tests/engine/host/test_turnjob_writes.py",  # 36 s
    "tests/engine/chance/test_chance_e2e.py",  # 36 s
    "tests/engine/host/test_press_e2e.py",  # 34 s
    "tests/engine/host/test_votes_e2e.py",  # 33 s
    "tests/games/relay/test_relay_e2e.py",  # 32 s
    "tests/engine/host/test_duelist.py",  # 31 s
    "tests/engine/cli/test_cli_orders.py",  # 31 s
    "tests/engine/host/test_permissions.py",  # 30 s
    "tests/engine/host/test_rootindex.py",  # 29 s
    "tests/games/ti4/test_ti4_demo.py",  # 29 s
)

#: file -> the unit it is scheduled in with the other files that read the same played game
SHARED: dict[str, str] = {
    # tests/crossgame/conftest.py ``played``: one game of every kind, played by mail
    "tests/crossgame/test_promises.py": "crossgame-played",
    "tests/crossgame/test_order_view.py": "crossgame-played",
    "tests/games/ti4/test_ti4_plugin_e2e.py": "ti4-small-3-by-mail",
    "tests/games/ti4/test_ti4_plugin_leaks.py": "ti4-small-3-by-mail",
    "tests/games/b5cgs/test_b5cgs_kept.py": "b5cgs-random-basic-4-modular-3",
    "tests/games/b5cgs/test_b5cgs_hexes_svg.py": "b5cgs-random-basic-4-modular-3",
}


def unit(path: str) -> str:
    """The scheduling unit of the test file at ``path``."""
    return SHARED.get(path, path)


def rank(path: str) -> int:
    """Where ``path``'s unit starts: its place in ``LONGEST`` (a unit of several files at its
    longest file's place), or after every file listed."""
    places = [i for i, f in enumerate(LONGEST) if unit(f) == unit(path)]
    return min(places, default=len(LONGEST))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """In an xdist worker: the longest units first, a unit's files together; otherwise the
    collected order (a stable sort: tests within a file keep theirs). Every worker collects, and
    sorts, the same way, as xdist requires. A run in one process keeps pytest's order (and
    ``--lf``/``--ff``'s)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    first: dict[str, int] = {}
    for item in items:
        first.setdefault(unit(item.nodeid.split("::", 1)[0]), len(first))
    items.sort(key=lambda item: (rank(path := item.nodeid.split("::", 1)[0]),
                                 first[unit(path)]))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under ``--dist loadfile``: xdist's file scheduler, with the units above and the collected
    order kept (xdist would otherwise start the files with the most tests first)."""
    if config.getoption("dist", None) != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class Units(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit(nodeid.split("::", 1)[0])

    config.option.loadscopereorder = False
    return Units(config, log)
