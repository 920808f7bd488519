"""Durable writes on real file systems: a real full tmpfs, a real read-only remount, a real
unprivileged process (os.setuid in a subprocess) and /dev/full. Nothing is simulated."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from pbem import atomic
from tests.support.filesystems import fill


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if ".tmp-" in p.name)


def test_write_replaces_whole_file_and_leaves_no_temp(tmp_path):
    target = tmp_path / "state.json"
    atomic.write_bytes(target, b"old")
    atomic.write_bytes(target, b"new content")
    assert target.read_bytes() == b"new content"
    assert leftovers(tmp_path) == []


def test_write_json_is_canonical_with_newline(tmp_path):
    target = tmp_path / "x.json"
    atomic.write_json(target, {"b": 1, "a": "é"})
    assert target.read_bytes() == '{"a":"é","b":1}\n'.encode()
    assert json.loads(target.read_text(encoding="utf-8")) == {"a": "é", "b": 1}


def test_write_text_mode(tmp_path):
    target = tmp_path / "k.pub"
    atomic.write_text(target, "hello\n", mode=0o600)
    assert target.read_text() == "hello\n"
    assert target.stat().st_mode & 0o777 == 0o600


def test_create_never_overwrites(tmp_path):
    target = tmp_path / "sub.txt"
    assert atomic.create_bytes(target, b"orders") is True
    assert atomic.create_bytes(target, b"orders") is False  # a retry is harmless
    with pytest.raises(atomic.FileExists, match="sub.txt exists already"):
        atomic.create_bytes(target, b"other orders")
    assert target.read_bytes() == b"orders"
    assert leftovers(tmp_path) == []


def test_append_and_expected_size(tmp_path):
    target = tmp_path / "log"
    assert atomic.append_bytes(target, b"one\n") == 4
    assert atomic.append_bytes(target, b"two\n", expect_size=4) == 8
    with pytest.raises(atomic.FileChanged, match="is 8 bytes, expected 4"):
        atomic.append_bytes(target, b"three\n", expect_size=4)
    assert target.read_bytes() == b"one\ntwo\n"


def test_write_onto_a_directory_fails_cleanly(tmp_path):
    (tmp_path / "state.json").mkdir()
    with pytest.raises(atomic.StorageError, match="state.json"):
        atomic.write_bytes(tmp_path / "state.json", b"x")
    assert leftovers(tmp_path) == []


def test_append_to_dev_full_is_disk_full():
    if not Path("/dev/full").exists():
        pytest.fail("this test writes to /dev/full, which this machine lacks: run make test on "
                    "Linux (CI does)")
    with pytest.raises(atomic.DiskFull, match="/dev/full: No space left on device") as info:
        atomic.append_bytes("/dev/full", b"line\n")
    assert info.value.errno == errno.ENOSPC


def test_disk_full_keeps_old_file(tiny_fs):
    target = tiny_fs / "state.json"
    atomic.write_bytes(target, b"old state")
    log = tiny_fs / "log.jsonl"
    atomic.append_bytes(log, b"entry 0\n")
    fill(tiny_fs)
    with pytest.raises(atomic.DiskFull, match=r"state\.json: No space left.*old file is unchanged"):
        atomic.write_bytes(target, b"x" * 100_000)
    assert target.read_bytes() == b"old state"
    assert leftovers(tiny_fs) == []
    with pytest.raises(atomic.DiskFull, match=r"log\.jsonl.*the file is unchanged"):
        atomic.append_bytes(log, b"y" * 100_000 + b"\n")
    assert log.read_bytes() == b"entry 0\n"
    (tiny_fs / "filler").unlink()  # space is back: the next write completes
    atomic.write_bytes(target, b"new state")
    assert target.read_bytes() == b"new state"


def test_read_only_remount(tiny_fs):
    target = tiny_fs / "state.json"
    atomic.write_bytes(target, b"old state")
    subprocess.run(["mount", "-o", "remount,ro", str(tiny_fs)], check=True)
    with pytest.raises(atomic.NotWritable, match="Read-only file system") as info:
        atomic.write_bytes(target, b"new")
    assert info.value.errno == errno.EROFS
    with pytest.raises(atomic.NotWritable):
        atomic.append_bytes(tiny_fs / "log.jsonl", b"x\n")
    assert target.read_bytes() == b"old state"


def test_permission_denied_as_unprivileged_user():
    """A real permission failure: a child process drops to uid 65534 (after importing pbem) and
    tries to replace a file in a root-owned 0755 directory it can read but not write."""
    if os.geteuid() != 0:
        pytest.fail("this test switches to an unprivileged user, which needs root: run make "
                    "test as root (CI does)")
    directory = Path(tempfile.mkdtemp(prefix="pbem-perm-"))
    try:
        directory.chmod(0o755)
        target = directory / "state.json"
        atomic.write_bytes(target, b"old state")
        script = textwrap.dedent(f"""
            import os, sys
            from pbem import atomic
            os.setgid(65534); os.setuid(65534)
            try:
                atomic.write_bytes({str(target)!r}, b"new")
            except atomic.NotWritable as exc:
                print(type(exc).__name__, exc.errno, exc)
                sys.exit(0)
            sys.exit("wrote without permission")
        """)
        out = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            cwd=Path(__file__).resolve().parents[3],
            check=False,
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith(f"NotWritable {errno.EACCES} cannot write {target}")
        assert "Permission denied" in out.stdout
        assert target.read_bytes() == b"old state"
        assert leftovers(directory) == []
    finally:
        shutil.rmtree(directory)


def test_refuse_links_refuses_links_and_what_leads_out_of_the_root(tmp_path: Path) -> None:
    """refuse_links resolves each path's parent once and adds the name (a path that is not a
    link resolves to where its parent does): the same verdicts as resolving every path."""
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "game").mkdir(parents=True)
    outside.mkdir()
    (root / "game" / "state.json").write_text("{}")
    (root / "game" / "plain").write_text("x")
    (outside / "secret").write_text("s")
    (root / "game" / "link").symlink_to(outside / "secret")
    (root / "away").symlink_to(outside)
    (root / "inside").symlink_to(root / "game")
    game = root / "game"
    # Plain files, missing ones and names under a file (ENOTDIR) pass.
    atomic.refuse_links(root, [game / "state.json", game / "missing", game / "plain" / "x"])
    with pytest.raises(atomic.SymlinkRefused, match="link is a symbolic link"):
        atomic.refuse_links(root, [game / "state.json", game / "link"])
    # A file reached through a linked directory: not a link itself, but outside the root.
    with pytest.raises(atomic.SymlinkRefused, match="resolves to .*outside"):
        atomic.refuse_links(root, [root / "away" / "secret"])
    # Through a link that stays inside the root: allowed, as resolving it says.
    atomic.refuse_links(root, [root / "inside" / "state.json"])
    (root / "top.txt").write_text("t")
    with pytest.raises(atomic.SymlinkRefused, match="resolves to .*outside"):
        atomic.refuse_links(game, [game / ".." / "top.txt"])


def test_a_root_swapped_for_a_link_after_its_first_check_is_refused(tmp_path: Path) -> None:
    """The root's resolution is kept per process (atomic._real_root): a root replaced by a link
    to elsewhere afterwards makes what lies there refused, never accepted."""
    root = tmp_path / "root"
    (root / "g1").mkdir(parents=True)
    atomic.refuse_links(root, [root / "g1"])  # resolved and kept
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "g1").mkdir(parents=True)
    root.rename(tmp_path / "moved")
    root.symlink_to(elsewhere)
    with pytest.raises(atomic.SymlinkRefused):
        atomic.refuse_links(root, [root / "g1"])


def test_overwrite_writes_a_plain_file_in_place_and_cuts_it_to_length(tmp_path: Path) -> None:
    path = tmp_path / "cache.json"
    path.write_bytes(b"x" * 100)
    os.chmod(path, 0o644)
    inode = path.stat().st_ino
    assert atomic.overwrite(path, b"short\n")
    assert path.read_bytes() == b"short\n"
    assert path.stat().st_ino == inode
    assert stat.S_IMODE(path.stat().st_mode) == atomic.PRIVATE


def test_overwrite_writes_nothing_through_a_link_a_second_name_or_a_fifo(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_bytes(b"keep")
    (tmp_path / "symlink").symlink_to(target)
    os.link(target, tmp_path / "hardlink")
    os.mkfifo(tmp_path / "fifo")  # no reader: a blocking open would wait for ever
    for name in ("symlink", "hardlink", "fifo", "missing"):
        assert not atomic.overwrite(tmp_path / name, b"new")
    assert target.read_bytes() == b"keep"
    assert not (tmp_path / "missing").exists()
