"""``pbem new --mode`` is offered for the games whose manifest declares turn modes (read from
the manifests, no game imported), refused with one sentence for a game without modes, and a
game whose manifest and PLUGIN.modes disagree does not load."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.game import registry
from pbem.protocol.keys import PrivateKey

REPO = Path(__file__).resolve().parents[3]


def pbem(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pbem", *args], capture_output=True,
                          text=True, cwd=REPO, env=env or dict(os.environ), check=False,
                          timeout=120)


def test_the_help_offers_mode_for_the_games_with_modes_only() -> None:
    assert registry.declared_modes() == {"4000ad": ("simultaneous", "sequential")}
    done = pbem("new", "--help")
    assert done.returncode == 0, done.stderr
    assert "only for a game with modes" in done.stdout and "4000ad: simultaneous" in done.stdout
    assert "rps" not in done.stdout.split("--mode", 1)[1].split("--gm", 1)[0]


def test_a_mode_for_a_game_without_modes_is_refused(tmp_path: Path) -> None:
    key = PrivateKey.generate().public.text()
    done = pbem("new", str(tmp_path / "rps-1"), "--game", "rps", "--variant", "best-of-3",
                "--mode", "sequential", "--power", f"red=r@example.org:{key}",
                "--power", f"blue=b@example.org:{key}")
    assert done.returncode != 0 and done.stderr.count("\n") == 1, done.stderr
    assert "game rps has no turn modes" in done.stderr
    assert not (tmp_path / "rps-1").exists()


def test_a_manifest_and_plugin_that_disagree_on_modes_fail_at_load(tmp_path: Path) -> None:
    copy = tmp_path / "rpsmodes"
    shutil.copytree(REPO / "tests" / "games" / "rps", copy,
                    ignore=shutil.ignore_patterns("__pycache__", "test_*"))
    (copy / "game.yaml").write_text("id: rpsmodes\ntitle: RPS\ninformation: simultaneous\n"
                                    "modes: [simultaneous, sequential]\n")
    with pytest.raises(registry.UnknownGame, match="modes"):
        registry.load_path(copy, "rpsmodes")
