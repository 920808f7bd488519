"""The MTA pipe: ``|pbem ingest ROOT --stdin`` as a mail server runs it (a subprocess, the message
on standard input, the exit status as the answer).

- a handled message exits 0 (the MTA forgets it): accepted, receipt queued;
- the same message piped twice is handled once (the second run finds the duplicate);
- a root that cannot be written exits 75 (EX_TEMPFAIL: the MTA keeps the message and retries);
  the retry once the root is writable again is handled normally;
- a message arriving while another pbem process handles the inbox is stored and exits 0; the
  next ``pbem run`` handles it;
- the 20 MB corpus message exits 0 and is quarantined with its reason.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.mail.inbox import Inbox
from pbem.store.lock import try_lock
from tests.support.ingest_helpers import (
    REPO,
    World,
    done_records,
    ingest_cli,
    order_mail,
    pristine,
    queued,
    registered,
)
from tests.support.mail_corpus import build
from tests.support.pbem_host import at, iso


@pytest.fixture(scope="session")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return pristine(tmp_path_factory)


@contextlib.contextmanager
def read_only_copy(world: World, where: Path) -> Iterator[Path]:
    """A copy of the world's root that nobody can write: a read-only tmpfs when we are root
    (permissions do not stop root), read-only modes otherwise. Yields the root's path."""
    where.mkdir()
    if os.geteuid() != 0:
        root = world.clone(where / "root")
        dirs = [root, *(p for p in root.rglob("*") if p.is_dir() and not p.is_symlink())]
        for d in dirs:
            d.chmod(0o555)
        try:
            yield root
        finally:
            for d in dirs:
                d.chmod(0o755)
        return
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", str(where)],
                             capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.fail("this test mounts a 32 MB tmpfs, which failed "
                    f"({mounted.stderr.decode().strip()}): run make test as root (CI does)")
    try:
        root = world.clone(where / "root")
        subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)
        yield root
    finally:
        subprocess.run(["umount", str(where)], check=True)


def test_handled_message_exits_0_and_the_same_message_twice_is_handled_once(
        world: World, tmp_path: Path) -> None:
    root = world.clone(tmp_path / "root")
    raw = order_mail(world.sign("algol"), msgid="<pipe-1@example.org>")
    first = ingest_cli(root, "--stdin", stdin=raw)
    assert first.returncode == 0, first.stderr.decode()
    assert "accepted: demo-1/algol turn 3" in first.stdout.decode()
    [(_game, receipt)] = queued(root)
    assert receipt["To"] == registered("algol")
    log = (root / "demo-1" / "log.jsonl").read_bytes()

    # The MTA delivers it again (a retry after a lost exit status), with another Received line.
    second = ingest_cli(root, "--stdin", stdin=b"Received: from mx2 by mx\r\n" + raw)
    assert second.returncode == 0, second.stderr.decode()
    assert second.stdout.decode().startswith(
        "1 message(s): 0 order block(s), 1 duplicate(s)")
    assert (root / "demo-1" / "log.jsonl").read_bytes() == log
    assert len(queued(root)) == 1 and len(done_records(root)) == 1


def test_unwritable_root_exits_75_so_the_mta_retries(world: World, tmp_path: Path) -> None:
    raw = order_mail(world.sign("algol"), msgid="<pipe-ro@example.org>")
    with read_only_copy(world, tmp_path / "ro") as root:
        done = ingest_cli(root, "--stdin", stdin=raw)
        assert done.returncode == 75, (done.stdout.decode(), done.stderr.decode())
        assert "Read-only file system" in done.stderr.decode() or os.geteuid() != 0
        assert "Traceback" not in done.stderr.decode()
        snapshot = tmp_path / "after"
        shutil.copytree(root, snapshot, symlinks=True)
    # The MTA retries once the disk is writable again: handled, exit 0.
    retry = ingest_cli(snapshot, "--stdin", stdin=raw)
    assert retry.returncode == 0, retry.stderr.decode()
    assert "accepted: demo-1/algol turn 3" in retry.stdout.decode()


def test_message_piped_while_another_process_handles_the_inbox_is_kept_for_it(
        world: World, tmp_path: Path) -> None:
    root = world.clone(tmp_path / "root")
    raw = order_mail(world.sign("algol"), msgid="<pipe-busy@example.org>")
    inbox = Inbox(root)
    lock = try_lock(inbox.inbox_dir)
    assert lock is not None
    with lock:
        done = ingest_cli(root, "--stdin", stdin=raw)
    assert done.returncode == 0, done.stderr.decode()
    assert "1 left for the next run" in done.stdout.decode()
    assert [s.message_id for s in inbox.pending()] == ["<pipe-busy@example.org>"]
    assert not queued(root)
    run = subprocess.run([sys.executable, "-m", "pbem", "run", str(root), "--now", iso(at(5)),
                  "--no-send"], capture_output=True, text=True, cwd=REPO, check=False)
    assert "inbox: accepted: demo-1/algol turn 3" in run.stdout, run.stdout + run.stderr
    assert not inbox.pending()
    assert [str(m["To"]) for _, m in queued(root)] == [registered("algol")]


def test_twenty_megabytes_on_stdin_exit_0_and_are_quarantined(world: World,
                                                              tmp_path: Path) -> None:
    [big] = [c for c in build() if c.name == "twenty-mb"]
    root = world.clone(tmp_path / "root")
    done = ingest_cli(root, "--stdin", stdin=big.raw)
    assert done.returncode == 0, done.stderr.decode()
    [(_sha, reason)] = Inbox(root).quarantined()
    assert reason.startswith("message-too-big:")
    assert not queued(root)
