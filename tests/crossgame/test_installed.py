"""Promise: pbem as users install it (the checkout's wheel in a fresh venv, not editable:
tests/support/installed.py, built once per session) starts a game of every kind and offers every
game's tool. tests/engine/test_installed.py already checks each bundled game's tool commands
answer --help and whole demos play from the wheel; here every game the suite knows, the toy
game included (a game from a games directory beside the installed pbem, as a new game's author
would have it), gets ``pbem new --game G``, a first ``pbem run`` that mails every player his
welcome (the game's data, view and mail templates as the wheel carries them) and ``pbem orders
--help`` listing its tool's subcommands."""

from __future__ import annotations

import argparse
import os
import subprocess
from pathlib import Path

import pytest

from pbem.game import registry
from pbem.protocol.keys import PrivateKey
from tests.crossgame.adapters import adapter
from tests.support.installed import clean_env

GAMES = registry.available()


def _env(installed_pbem, tmp_path: Path, game: str) -> dict[str, str]:
    """The installed pbem's environment; a game not bundled in the wheel is found where it
    lives, beside the wheel's own games (PBEM_GAMES_DIR)."""
    env = clean_env()
    home = registry.game_dir(game).parent
    if Path(__file__).resolve().parents[2] / "games" != home:
        done = subprocess.run([str(installed_pbem.python), "-c",
                               "import pbem.resources as r; print(r.games_root())"],
                              env=env, cwd=tmp_path, capture_output=True, text=True, check=True)
        env["PBEM_GAMES_DIR"] = os.pathsep.join([done.stdout.strip(), str(home)])
    return env


def _orders_subcommands(game: str) -> list[str]:
    tool = registry.load(game).tool
    if tool is None:
        return []
    orders = argparse.ArgumentParser().add_subparsers()
    tool.register_orders(orders)
    return list(orders.choices)


@pytest.mark.parametrize("game", GAMES)
def test_the_installed_pbem_starts_every_game_and_lists_its_tool(installed_pbem, tmp_path,
                                                                 game) -> None:
    env = _env(installed_pbem, tmp_path, game)
    pbem = str(installed_pbem.venv / "bin" / "pbem")
    row = adapter(game)
    powers = registry.load(game).variants()[row.variant].powers
    keys = [a for p in powers
            for a in ("--power", f"{p}={p}@example.org:{PrivateKey.generate().public.text()}")]
    done = subprocess.run([pbem, "new", str(tmp_path / "root" / "g-1"), "--game", game,
                           "--variant", row.variant, "--deadline", "48h",
                           "--gm", "gm@example.org", *keys],
                          env=env, cwd=tmp_path, capture_output=True, text=True, check=False,
                          timeout=120)
    assert done.returncode == 0, f"{game}: pbem new from the wheel: {done.stderr}"
    assert (tmp_path / "root" / "g-1" / "log.jsonl").stat().st_size > 0
    ran = subprocess.run([pbem, "run", str(tmp_path / "root")], env=env, cwd=tmp_path,
                         capture_output=True, text=True, check=False, timeout=120)
    assert ran.returncode == 0, f"{game}: pbem run from the wheel: {ran.stdout}{ran.stderr}"
    sent = [p.read_bytes() for p in (tmp_path / "root" / "sent-mail").glob("*.eml")]
    for power in powers:
        assert any(f"{power}@example.org".encode() in m for m in sent), (
            f"{game}: no welcome mail to {power} from the wheel: {ran.stdout}")
    helped = subprocess.run([pbem, "orders", "--help"], env=env, cwd=tmp_path,
                            capture_output=True, text=True, check=False, timeout=120)
    assert helped.returncode == 0, helped.stderr
    listed = helped.stdout.split("positional arguments:")[1].split("options:")[0]
    subcommands = _orders_subcommands(game)
    assert subcommands or registry.load(game).tool is None, (
        f"{game} has a tool with no subcommand of pbem orders for its players")
    for sub in subcommands:
        assert f"\n    {sub} " in listed, f"{game}: pbem orders --help does not list {sub}"
