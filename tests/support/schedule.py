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
from ``--durations=0``) in one ``make test``-like run; re-measure when a file grows (tests/
README.md, "Running"). A file that is renamed or removed must leave the list:
tests/engine/test_test_layout.py checks that every file named here exists."""

from __future__ import annotations

from typing import Any

import pytest

#: files (paths from the repository's root) started first, in this order: longest first
LONGEST: tuple[str, ...] = (
)

#: file -> the unit it is scheduled in with the other files that read the same played game
SHARED: dict[str, str] = {
    "tests/games/ti4/test_ti4_plugin_e2e.py": "ti4-small-3-by-mail",
    "tests/games/ti4/test_ti4_plugin_leaks.py": "ti4-small-3-by-mail",
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
    """The longest units first, a unit's files together; otherwise the collected order (a
    stable sort: tests within a file keep theirs). Every xdist worker collects, and sorts, the
    same way, as xdist requires."""
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
