"""``staged.Group``: files written now, fsynced together and put in place later (a group commit's
phase), and ``pbem.syncs``, which issues a group's fsyncs at once."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from pbem import atomic, staged, syncs
from tests.support.filesystems import fill


def names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_nothing_shows_before_the_flush_and_everything_after(tmp_path: Path) -> None:
    group = staged.Group()
    for n in range(10):
        group.add(tmp_path / f"f{n}", f"data {n}".encode(), mtime_ns=(n + 1) * 10**9)
    assert tmp_path / "f3" in group and len(group) == 10
    assert not any(p.name.startswith("f") for p in tmp_path.iterdir())  # temporary names only
    group.flush()
    assert names(tmp_path) == [f"f{n}" for n in range(10)]
    assert [(tmp_path / f"f{n}").read_bytes() for n in range(10)] == [
        f"data {n}".encode() for n in range(10)]
    assert (tmp_path / "f4").stat().st_mtime_ns == 5 * 10**9
    assert (tmp_path / "f4").stat().st_mode & 0o777 == atomic.PRIVATE
    assert tmp_path / "f3" not in group and len(group) == 0


def test_create_never_overwrites_other_bytes_and_accepts_the_same(tmp_path: Path) -> None:
    (tmp_path / "same").write_bytes(b"same")
    (tmp_path / "other").write_bytes(b"old")
    group = staged.Group()
    group.add(tmp_path / "same", b"same", create=True)
    group.add(tmp_path / "new", b"new", create=True)
    group.add(tmp_path / "other", b"new", create=True)
    group.add(tmp_path / "after", b"after", create=True)
    with pytest.raises(atomic.FileExists) as caught:
        group.flush()
    assert caught.value.path == tmp_path / "other"
    assert (tmp_path / "other").read_bytes() == b"old"  # never overwritten
    assert (tmp_path / "new").read_bytes() == b"new"  # put in place before the conflict
    assert names(tmp_path) == ["new", "other", "same"]  # nothing after it; no temporary file


@pytest.mark.parametrize("count", [2, 8])  # below syncs.GROUP_MIN (one by one), and above
def test_named_files_get_their_names_from_their_bytes_while_the_fsyncs_run(
        tmp_path: Path, count: int) -> None:
    """``named``: the name is computed in the calling thread during the flush (the fsyncs'
    wait); until then only a temporary name beside ``path`` shows the file."""
    named_in: list[str] = []

    def name(data: bytes) -> str:
        named_in.append(threading.current_thread().name)
        return data.decode() + ".txt"

    group = staged.Group()
    group.add(tmp_path / "first", b"plain")
    for n in range(count):
        group.add(tmp_path / "later", f"m{n}".encode(), named=name)
    assert named_in == [] and tmp_path / "later" not in group and len(group) == count + 1
    assert all(p.name.startswith(".later.tmp-") for p in tmp_path.iterdir()
               if p.name.startswith(".later"))
    assert group.flush() == [str(tmp_path / "first"),
                             *(str(tmp_path / f"m{n}.txt") for n in range(count))]
    assert named_in == [threading.current_thread().name] * count
    assert names(tmp_path) == ["first", *(f"m{n}.txt" for n in range(count))]
    assert (tmp_path / "m1.txt").read_bytes() == b"m1"

    def fails(data: bytes) -> str:
        raise ValueError("no name")

    for n in range(count):
        group.add(tmp_path / "later", f"x{n}".encode(), named=fails)
    with pytest.raises(ValueError, match="no name"):
        group.flush()
    assert len(group) == 0 and names(tmp_path) == ["first", *(f"m{n}.txt" for n in range(count))]


def test_discard_leaves_nothing(tmp_path: Path) -> None:
    group = staged.Group()
    group.add(tmp_path / "a", b"a")
    group.discard()
    group.flush()
    assert names(tmp_path) == []


def test_many_files_flush_in_rounds_of_bounded_open_files(tmp_path: Path) -> None:
    group = staged.Group()
    for n in range(staged.MANY_OPEN * 2 + 3):
        group.add(tmp_path / f"f{n:03d}", b"x")
        assert len(group) <= staged.MANY_OPEN
    group.flush()
    assert len(names(tmp_path)) == staged.MANY_OPEN * 2 + 3


def test_flushing_groups_together_keeps_each_groups_order(tmp_path: Path) -> None:
    first, second = staged.Group(), staged.Group()
    first.add(tmp_path / "a", b"1")
    second.add(tmp_path / "b", b"2")
    first.add(tmp_path / "a", b"3")  # the later one wins, as renames in order do
    staged.flush_groups([first, second])
    assert (tmp_path / "a").read_bytes() == b"3" and (tmp_path / "b").read_bytes() == b"2"


def test_disk_full_while_writing_names_the_file_and_leaves_nothing(
        tiny_fs: Path) -> None:
    group = staged.Group()
    group.add(tiny_fs / "small", b"small")
    fill(tiny_fs)
    with pytest.raises(atomic.DiskFull, match=r"big: No space left"):
        group.add(tiny_fs / "big", b"x" * 100_000)
    group.discard()
    assert names(tiny_fs) == ["filler"]


def test_fsync_each_waits_for_every_fsync_and_reports_a_failure(tmp_path: Path) -> None:
    fds = [os.open(tmp_path / f"f{n}", os.O_WRONLY | os.O_CREAT, 0o600) for n in range(8)]
    try:
        syncs.fsync_each(fds)
        closed = os.open(tmp_path / "gone", os.O_WRONLY | os.O_CREAT, 0o600)
        os.close(closed)
        with pytest.raises(OSError):
            syncs.fsync_each([*fds, closed])  # EBADF, after the others finished
    finally:
        for fd in fds:
            os.close(fd)
    syncs.fsync_dirs([tmp_path, tmp_path, tmp_path.parent])


@pytest.mark.parametrize("count", [2, 8])  # below syncs.GROUP_MIN (one by one), and above
def test_fsync_each_does_the_callers_own_work_meanwhile_and_raises_after(tmp_path: Path,
                                                                          count: int) -> None:
    """``meanwhile`` runs once in the calling thread while the fsyncs run; its exception is
    raised once they have all finished, an fsync's failure first."""
    fds = [os.open(tmp_path / f"f{n}", os.O_WRONLY | os.O_CREAT, 0o600) for n in range(count)]
    try:
        done: list[str] = []
        syncs.fsync_each(fds, meanwhile=lambda: done.append(threading.current_thread().name))
        assert done == [threading.current_thread().name]

        def fails() -> None:
            raise ValueError("meanwhile failed")

        with pytest.raises(ValueError, match="meanwhile failed"):
            syncs.fsync_each(fds, meanwhile=fails)
        closed = os.open(tmp_path / "gone", os.O_WRONLY | os.O_CREAT, 0o600)
        os.close(closed)
        with pytest.raises(OSError):
            syncs.fsync_each([*fds, closed], meanwhile=fails if count > 2 else None)
    finally:
        for fd in fds:
            os.close(fd)


def test_a_process_that_cannot_start_a_thread_fsyncs_one_by_one(tmp_path: Path) -> None:
    """Under an address-space cap too small for a thread's stack (a hostile-input test's
    cap, say), a group is still made durable: one fsync after the other."""
    script = textwrap.dedent(f"""
        import resource, threading
        from pathlib import Path
        from pbem import staged
        threading.stack_size(1 << 30)  # no thread can reserve this under the cap
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (768 << 20, hard))
        group = staged.Group()
        for n in range(20):
            group.add(Path({str(tmp_path)!r}) / f"f{{n}}", b"x")
        group.flush()
        try:
            threading.Thread(target=print).start()
        except RuntimeError:
            print("no thread")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False, cwd=Path(__file__).resolve().parents[3])
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "no thread"
    assert len(names(tmp_path)) == 20


def test_shared_bytes_are_one_file_with_a_name_each(tmp_path: Path) -> None:
    group = staged.Group()
    for n in range(5):
        group.add(tmp_path / f"a{n}", b"2026-12-01T12:00:00Z", share=True)
    group.add(tmp_path / "other", b"2026-12-01T12:00:01Z", share=True)
    group.add(tmp_path / "own", b"2026-12-01T12:00:00Z")  # not shared: a file of its own
    group.flush()
    inodes = {(tmp_path / f"a{n}").stat().st_ino for n in range(5)}
    assert len(inodes) == 1 and (tmp_path / "a0").stat().st_nlink == 5
    assert (tmp_path / "other").stat().st_ino not in inodes
    assert (tmp_path / "own").stat().st_ino not in inodes
    assert [(tmp_path / f"a{n}").read_bytes() for n in range(5)] == [b"2026-12-01T12:00:00Z"] * 5
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    atomic.write_bytes(tmp_path / "a1", b"changed")  # a replacement is a new file: others keep
    assert (tmp_path / "a2").read_bytes() == b"2026-12-01T12:00:00Z"


def test_each_runs_every_step_and_reports_the_first_failure_after_all(tmp_path: Path) -> None:
    done: list[int] = []

    def step(n: int) -> None:
        (tmp_path / f"s{n}").write_text(str(n))
        done.append(n)
        if n in (3, 5):
            raise ValueError(f"step {n} failed")

    with pytest.raises(ValueError, match=r"step [35] failed"):
        syncs.each(step, list(range(8)))
    assert sorted(done) == list(range(8))  # the others ran to their end
    syncs.each(step, [0])  # one step: no thread
    assert len(names(tmp_path)) == 8
