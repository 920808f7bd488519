"""Named crash points for the crash-safety tests.

``reached(name)`` kills the process with SIGKILL when the environment variable PBEM_CRASH_AT
equals ``name`` — exactly what a power cut or the OOM killer does at that point. The tests run
``pbem run`` as a real subprocess once per point and check that the next run completes the turn
exactly once. Unset (always, outside those tests), it does nothing.
"""

from __future__ import annotations

import os
import signal

ENV = "PBEM_CRASH_AT"


def reached(name: str) -> None:
    if os.environ.get(ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)
