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
from ``--durations=0``) in one run of the whole suite on two workers (2026-12-06, load average
0.7 at its start, nothing else running: 672 worker-seconds, 363 s of wall time; files under
5 s keep their collected order). Re-measure when a file grows (tests/README.md, "Running").
A file renamed or removed must leave the lists: tests/engine/test_test_layout.py checks that
every file named exists."""

from __future__ import annotations

import os
from typing import Any

import pytest

#: files (paths from the repository's root) started first, in this order: longest first
LONGEST: tuple[str, ...] = (
    "tests/crossgame/test_random_play.py",  # 64 s
    "tests/crossgame/test_order_view.py",  # 39 s (53 s with the next: one unit, SHARED)
    "tests/crossgame/test_promises.py",  # 14 s
    "tests/engine/cli/test_cli_garbage.py",  # 28 s
    "tests/engine/test_installed.py",  # 26 s
    "tests/engine/host/test_hostile_mail.py",  # 21 s
    "tests/crossgame/test_crossgame_pictures.py",  # 21 s
    "tests/engine/host/test_turnjob_crash.py",  # 21 s
    "tests/engine/host/test_turnjob_phases.py",  # 16 s
    "tests/engine/audit/test_audit_stream.py",  # 13 s
    "tests/crossgame/test_vote_cancel.py",  # 11 s
    "tests/engine/test_bench_smoke.py",  # 10 s
    "tests/engine/host/test_turnjob_writes.py",  # 9 s
    "tests/games/ti4/test_ti4_plugin_e2e.py",  # 7 s (9 s with the next: one unit, SHARED)
    "tests/games/ti4/test_ti4_plugin_leaks.py",  # 2 s
    "tests/engine/mail/test_mail_compose_wire.py",  # 9 s
    "tests/games/b5cgs/test_b5cgs_e2e.py",  # 8 s
    "tests/engine/game/test_conformance.py",  # 8 s
    "tests/engine/cli/test_cli_orders.py",  # 8 s
    "tests/crossgame/test_player_text_sweep.py",  # 8 s
    "tests/engine/host/test_permissions.py",  # 7 s
    "tests/engine/archive/test_archive_browser.py",  # 7 s
    "tests/engine/host/test_duelist.py",  # 7 s
    "tests/engine/game/test_rules_versions.py",  # 7 s
    "tests/engine/host/test_ingest_group_commit.py",  # 7 s
    "tests/games/ttt/test_ttt_e2e.py",  # 7 s
    "tests/engine/host/test_rootindex.py",  # 7 s
    "tests/crossgame/test_standing_by_tool.py",  # 7 s
    "tests/engine/host/test_ingest_group_commit_games.py",  # 7 s
    "tests/engine/host/test_ingest_routing.py",  # 6 s
    "tests/games/ashes/test_ashes_report_writers.py",  # 6 s
    "tests/games/relay/test_relay_e2e.py",  # 6 s
    "tests/games/4000ad/test_4000ad_properties.py",  # 6 s
    "tests/engine/chance/test_chance_e2e.py",  # 6 s
    "tests/crossgame/test_vote_draw.py",  # 6 s
    "tests/crossgame/test_crossgame_problems.py",  # 6 s
    "tests/games/b5cgs/test_b5cgs_properties.py",  # 6 s
    "tests/crossgame/test_abandoned_seats.py",  # 6 s
    "tests/crossgame/test_installed.py",  # 5 s
    "tests/engine/host/test_notices.py",  # 5 s
    "tests/games/highcard/test_toygame_e2e.py",  # 5 s
    "tests/engine/game/test_problem_catalogue.py",  # 5 s
    "tests/engine/host/test_press_e2e.py",  # 5 s
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
