"""Modules imported on first use, for the commands a process runs per mail.

Why: ``pbem ingest --stdin`` starts a process per delivered mail, and most mails (spam, a
duplicate, a quarantined message) need no rendered reply; importing the template engine up front
cost every one of them jinja2's import. ``module(name)`` returns the module object at once but
runs its code only when an attribute is first read (``importlib.util.LazyLoader``), so the
import statements stay at the top of the modules that use them.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def module(name: str) -> ModuleType:
    """``name`` (imported already, or to be imported on first attribute access)."""
    found = sys.modules.get(name)
    if found is not None:
        return found
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    lazy = importlib.util.module_from_spec(spec)
    sys.modules[name] = lazy
    loader.exec_module(lazy)
    return lazy
