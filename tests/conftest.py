"""Shared fixtures."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

# The games the tests load: the bundled ones and the toy game that proves the plugin contract
# (tests/toygame/highcard) and the fourth game written from docs/plugins.md alone (tests/games/rps).
# Set before anything reads the games roots.
REPO = Path(__file__).resolve().parents[1]
_ROOTS = os.environ.get("PBEM_GAMES_DIR") or str(REPO / "games")
for _root in (str(REPO / "tests" / "toygame"), str(REPO / "tests" / "games")):
    if _root not in _ROOTS.split(os.pathsep):  # High Card; rps (tests/games/rps)
        _ROOTS += os.pathsep + _root
os.environ["PBEM_GAMES_DIR"] = _ROOTS

# The player's vault of the tests: one per test process (an xdist worker keeps a test file),
# never the user's ~/.pbem/vault.json, which the tests would otherwise fill with their games
# (and read back: its last seqs, its records) from run to run and from checkout to checkout.
_VAULT_DIR = tempfile.mkdtemp(prefix="pbem-test-vault-")
atexit.register(shutil.rmtree, _VAULT_DIR, True)
os.environ["PBEM_VAULT"] = os.path.join(_VAULT_DIR, "vault.json")

from pbem.game import registry  # noqa: E402

# Fixtures of tests/support/ offered to every test (the real mail servers, the small file systems):
# a test names them as arguments and imports nothing; and the order the files start in under
# xdist (tests/support/schedule.py).
pytest_plugins = ["tests.support.mailservers", "tests.support.filesystems",
                  "tests.support.schedule"]


@pytest.fixture(scope="session")
def ad():
    """The 4000 A.D. plugin object."""
    return registry.load("4000ad")


def _session_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's directory, which every xdist worker sees (each worker's own is below it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def installed_pbem(tmp_path_factory):
    """pbem as users install it (tests/support/installed.py): the checkout's wheel in a fresh venv,
    built once per session and shared by the xdist workers."""
    from tests.support.installed import shared

    return shared(_session_dir(tmp_path_factory))


@pytest.fixture(scope="session")
def demos(tmp_path_factory):
    """``demos(game)``: the game's demo as ``make demo`` plays it, played once per session and
    shared by the xdist workers (tests/support/demos.py). Read it; never write in it."""
    from tests.support.demos import shared_demo

    return lambda game: shared_demo(game, _session_dir(tmp_path_factory))


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A real 16 MB tmpfs (to fill to ENOSPC, or remount read-only). Mounting needs root: make
    test and CI run as root; elsewhere the test fails saying so."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mnt)],
                          capture_output=True, check=False)
    if done.returncode != 0:
        pytest.fail("this test mounts a 16 MB tmpfs, which failed "
                    f"({done.stderr.decode().strip()}): run make test as root (CI does)")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)
