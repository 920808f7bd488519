"""Real small file systems for the disk-full tests: ``tiny_fs`` (a 256 KiB tmpfs, a fixture: needs
mount privileges, as make test and CI have) and ``fill`` (fill a directory's file system to
ENOSPC)."""

from __future__ import annotations

import errno
import os
import subprocess
from pathlib import Path

import pytest


@pytest.fixture
def tiny_fs(tmp_path):
    """A real 256 KiB tmpfs (needs mount privileges: run as root, as make test and CI do)."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mnt)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail("this test mounts a 256 KiB tmpfs, which failed "
                    f"({done.stderr.decode().strip()}): run make test as root (CI does)")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def fill(directory: Path) -> None:
    fd = os.open(directory / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)
