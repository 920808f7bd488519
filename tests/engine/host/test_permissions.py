"""Files that hold secrets are private, pbem says when they are not, and no path under ROOT is
followed out of ROOT (issue 11, point 7).

Everything runs on real files, through the real ``pbem`` entry point where a user would see the
result (stderr, exit code).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.atomic import SymlinkRefused
from pbem.cli.main import main as pbem_main
from pbem.host import gmops
from pbem.store.gamedir import GameDir
from pbem.store.lock import try_lock
from tests.support.pbem_host import Host, at, iso
from tests.support.run import pbem_text as pbem


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def host_in(directory: Path, game_id: str = "g1") -> Host:
    directory.mkdir()
    return Host(directory, game_id=game_id)


def test_everything_pbem_writes_under_the_root_is_private(tmp_path):
    old = os.umask(0o022)  # the usual umask: files would be 0644 unless pbem asks for 0600
    try:
        host = Host(tmp_path)
        for power in host.powers:
            assert host.submit(power, {}, at(1)).verdict == "accepted"
        assert host.run(at(49))[0].status == "resolved"
    finally:
        os.umask(old)
    secret = [host.root / "referee.key", host.path / "log.jsonl", host.path / "state.json",
              host.path / "config.yaml"]
    for path in secret:
        assert mode(path) == 0o600, path
    # sent-mail/ is the test's stand-in for the SMTP server: what is there has left pbem
    # (a symbolic link has no permissions of its own on Linux: its target is checked instead)
    written = [p for p in host.root.rglob("*") if p.is_file() and not p.is_symlink()
               and p.name != "referee.pub" and "sent-mail" not in p.parts]
    kinds = {p.relative_to(host.path).parts[0] for p in written if host.path in p.parents}
    assert {"outbox", "submissions", "log.jsonl", "state.json"} <= kinds
    assert {str(p): oct(mode(p)) for p in written if mode(p) & 0o077} == {}
    dirs = [host.root, host.path, *(p for p in host.path.rglob("*") if p.is_dir())]
    made_by_atomic = [d for d in dirs if d.name not in ("outbox", "pending", "sent", "failed",
                                                          "keys") or d == host.path]
    assert {str(d): oct(mode(d)) for d in made_by_atomic if mode(d) != 0o700} == {}


def test_a_shared_referee_key_and_root_get_one_warning_line(tmp_path):
    host = Host(tmp_path)
    (host.root / "referee.key").chmod(0o644)
    host.root.chmod(0o777)
    for power in host.powers:
        assert host.submit(power, {}, at(1)).verdict == "accepted"
    out = host.run_cli(at(49))
    assert out.returncode == 0, out.stderr
    warnings = [line for line in out.stderr.splitlines() if line.startswith("warning:")]
    key, root = host.root / "referee.key", host.root
    assert warnings == [
        f"warning: {key} is readable by others (mode 0644); run chmod 600 {key}; "
        f"{root} is readable and writable by others (mode 0777); run chmod 700 {root}"
    ]
    assert out.stderr.count("\n") == 1  # once per run, though the key signed several things
    (host.root / "referee.key").chmod(0o600)
    host.root.chmod(0o700)
    assert "warning" not in host.run_cli(at(50)).stderr


def test_a_symlinked_lock_is_refused_and_its_target_not_truncated(tmp_path):
    host = host_in(tmp_path / "a")
    precious = tmp_path / "precious.txt"
    precious.write_text("do not truncate me\n")
    (host.path / "lock").unlink(missing_ok=True)
    (host.path / "lock").symlink_to(precious)
    with pytest.raises(SymlinkRefused, match="lock is a symbolic link"):
        try_lock(host.path)
    out = host.run_cli(at(49))
    assert out.returncode == 1
    assert "g1: error" in out.stdout and "lock is a symbolic link" in out.stdout
    assert "Traceback" not in out.stderr
    assert precious.read_text() == "do not truncate me\n"


@pytest.mark.parametrize("name", ["state.json", "log.jsonl", "outbox", "mailed.json"])
def test_a_symlinked_game_file_is_refused_with_a_sentence(tmp_path, name):
    host = host_in(tmp_path / "a")
    outside = tmp_path / f"outside-{name}"
    target = host.path / name
    if target.exists():
        target.rename(outside)
    else:
        outside.write_text("{}\n")
    target.symlink_to(outside)
    before = outside.read_bytes() if outside.is_file() else None
    with pytest.raises(SymlinkRefused, match=f"{name} is a symbolic link"):
        GameDir.open(host.path)
    out = pbem("gm", "pause", str(host.path))
    assert out.returncode == 1 and out.stderr.count("\n") == 1
    assert f"{name} is a symbolic link: pbem does not follow links" in out.stderr
    if before is not None:
        assert outside.read_bytes() == before


def test_a_symlinked_game_dir_is_refused_and_the_other_games_still_run(tmp_path):
    host = Host(tmp_path, game_id="g1")
    other = host_in(tmp_path / "elsewhere", "g2")
    (host.root / "g2").symlink_to(other.path)
    log_before = (other.path / "log.jsonl").read_bytes()
    for power in host.powers:
        assert host.submit(power, {}, at(1)).verdict == "accepted"
    out = host.run_cli(at(49))
    lines = out.stdout.splitlines()
    assert any(line.startswith("g1: resolved") for line in lines), out.stdout
    refused = [line for line in lines if line.startswith("g2:")]
    assert len(refused) == 1 and "g2 is a symbolic link: pbem does not follow links" \
        in refused[0]
    assert "Traceback" not in out.stderr and out.returncode == 1
    assert (other.path / "log.jsonl").read_bytes() == log_before
    assert not (other.path / "lock").exists()


@pytest.mark.parametrize("email", ["garbage", "a@b.org\nBcc: x@y.org", "", "<>"])
def test_gm_replace_with_a_bad_address_changes_nothing(tmp_path, email):
    host = Host(tmp_path)
    pbem_main(["keygen", str(tmp_path / "newbie")])
    files = {p: p.read_bytes() for p in host.path.rglob("*") if p.is_file() and p.name != "lock"}
    out = pbem("gm", "replace", str(host.path), "algol", "--email", email,
               "--key", str(tmp_path / "newbie.pub"))
    assert out.returncode == 1 and out.stderr.count("\n") == 1, out.stderr
    assert "is not an email address" in out.stderr and "Traceback" not in out.stderr
    after = {p: p.read_bytes() for p in host.path.rglob("*") if p.is_file() and p.name != "lock"}
    assert after == files
    GameDir.open(host.path)  # the config still loads
    assert pbem("gm", "status", str(host.path)).returncode == 0


def test_gm_concede_of_an_unknown_power_is_one_line(tmp_path):
    host = Host(tmp_path)
    out = pbem("gm", "concede", str(host.path), "nosuch")
    assert out.returncode == 1 and "no power 'nosuch'" in out.stderr
    assert "Traceback" not in out.stderr and out.stderr.count("\n") == 1


@pytest.mark.parametrize("ops", [["pause"], ["pause", "resume"], ["extend"]])
def test_a_gm_operation_that_changes_no_state_leaves_the_cache_current(tmp_path, ops):
    host = Host(tmp_path)
    for op in ops:
        if op == "pause":
            gmops.pause(host.path, at(1), "holiday")
        elif op == "resume":
            gmops.resume(host.path, at(2))
        else:
            gmops.extend(host.path, at(1), to=None, by="24h")
    out = host.run_cli(at(3))
    assert out.returncode == 0, out.stderr
    assert "stale" not in out.stdout and "rebuilt" not in out.stdout, out.stdout
    status = pbem("gm", "status", str(host.path), "--now", iso(at(3)))
    assert status.returncode == 0 and "stale" not in status.stdout + status.stderr


def test_mail_in_and_out_is_private_too(tmp_path):
    """Issue 27: ``sent-mail/*.eml`` (the file transport's copies) were 0644, and the inbox's
    and outbox's folders 0755 under the usual umask. Every file under the root is 0600 and
    every folder 0700 (``referee.pub`` alone is published), through a real ``pbem ingest``
    and ``pbem run``."""
    from email.message import EmailMessage

    old = os.umask(0o022)
    try:
        host = Host(tmp_path)
        for power in host.powers:
            msg = EmailMessage()
            msg["From"], msg["To"] = f"{power}@example.org", "referee@example.org"
            msg["Subject"], msg["Message-ID"] = "orders", f"<{power}@example.org>"
            msg.set_content(host.orders_text(power, {}))
            done = subprocess.run([sys.executable, "-m", "pbem", "ingest", str(host.root),
                                   "--stdin", "--now", iso(at(1))], input=bytes(msg),
                                  capture_output=True, check=False)
            assert done.returncode == 0, done.stderr
        assert host.run_cli(at(49)).returncode == 0
    finally:
        os.umask(old)
    assert list((host.root / "sent-mail").glob("*.eml"))
    files = [p for p in host.root.rglob("*") if p.is_file() and not p.is_symlink()
             and p.name != "referee.pub"]
    assert {str(p): oct(mode(p)) for p in files if mode(p) != 0o600} == {}
    dirs = [host.root, *(p for p in host.root.rglob("*") if p.is_dir() and not p.is_symlink())]
    assert {str(d): oct(mode(d)) for d in dirs if mode(d) != 0o700} == {}
