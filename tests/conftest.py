"""Shared fixtures."""

from __future__ import annotations

import importlib

import pytest

from pbem.game import registry


@pytest.fixture(scope="session")
def ad():
    """The 4000 A.D. plugin object."""
    return registry.load("4000ad")


def ad_module(name: str):
    """A submodule of the 4000 A.D. plugin package (e.g. "board", "rules")."""
    registry.load("4000ad")
    return importlib.import_module(f"{registry.module_name('4000ad')}.{name}")
