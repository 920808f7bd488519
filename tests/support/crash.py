"""A crash at a named stage of the outbox (a failpoint raising ``Crash``), for the
crash-window tests."""

from __future__ import annotations


class Crash(Exception):
    """Stands for the process dying at a stage of delivery."""


def crash_at(stage: str):
    def hook(at: str, ident: str) -> None:
        if at == stage:
            raise Crash(f"{stage} {ident}")

    return hook
