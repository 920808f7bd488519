"""Named crash points for the crash-safety tests.

``reached(name)`` kills the process with SIGKILL when the environment variable PBEM_CRASH_AT
equals ``name`` — exactly what a power cut or the OOM killer does at that point. The tests run
``pbem run`` as a real subprocess once per point and check that the next run completes the turn
exactly once. Unset (always, outside those tests), it does nothing. ``NAME#N`` kills at the
N-th time the point is reached in the process (a point reached by several writes, e.g.
``staged-synced``: each group's files fsynced, not yet in place — a kill there leaves them as
temporary files).
"""

from __future__ import annotations

import os
import signal

ENV = "PBEM_CRASH_AT"


_counts: dict[str, int] = {}


def reached(name: str) -> None:
    wanted = os.environ.get(ENV)
    if wanted is None or not wanted.startswith(name):
        return
    if wanted == name:
        os.kill(os.getpid(), signal.SIGKILL)
    elif wanted.startswith(name + "#"):
        _counts[name] = _counts.get(name, 0) + 1
        if wanted == f"{name}#{_counts[name]}":
            os.kill(os.getpid(), signal.SIGKILL)
