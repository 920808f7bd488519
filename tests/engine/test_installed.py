"""What users install, used as users use it: the wheel built from the checkout, installed (not
editable) into a fresh venv (tests/support/installed.py), loads every game, offers every game's
commands and plays whole demos. An editable install reads games/ and templates/ from the
checkout and would hide a file the wheel forgets (issue 28: from the wheel, ``pbem new --game
b5cgs`` failed and ``pbem orders b5`` did not exist).

What proves what, for every bundled game: tests/engine/test_packaging.py, that the wheel holds
every file of pbem/, games/ and templates/ (so a game's data, templates and demo.py are there,
at the place its own module finds them: each game reads its files beside its ``__file__``);
here, that every game loads from the wheel and every command of its tool answers; in
tests/crossgame/test_installed.py, that the installed pbem starts a game of every kind and
mails its welcome (the game's data, views and mail templates read from the wheel); in
tests/games/*/test_*_demo.py and tests/engine/test_demo.py, that every game's demo plays a
whole game by mail from the checkout; and here every game's demo plays a whole game from the
wheel: the turn job, reports, maps, tools, export and audit as installed (a demo from the wheel
costs 3-8 s of CPU; ti4's the most: kept, since a game's report path is its own code)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
import yaml

from pbem.game import registry

# Every bundled game (games/; not the toy game of tests/toygame, which is not bundled), and
# those with a scripted demo (demo.py: every bundled game has one today).
BUNDLED = {yaml.safe_load(m.read_text(encoding="utf-8"))["id"]: m.parent
           for m in (Path(__file__).resolve().parents[2] / "games").glob("*/game.yaml")}
GAMES = sorted(BUNDLED)
DEMOS = sorted(g for g, path in BUNDLED.items() if (path / "demo.py").is_file())
# The demos played whole from the wheel: every one (the module's docstring).
WHOLE = tuple(DEMOS)


def test_the_whole_demos_are_bundled_games_with_demos():
    assert set(WHOLE) <= set(DEMOS), (WHOLE, DEMOS)


def ok(done) -> str:
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def test_the_installed_pbem_reads_the_wheels_files_not_the_checkouts(installed_pbem, tmp_path):
    out = ok(installed_pbem.run(
        "python", "-c", "import json, pbem, pbem.resources as r; print(json.dumps("
        "[pbem.__file__, str(r.games_root()), str(r.templates_root())]))", cwd=tmp_path))
    for path in json.loads(out):
        assert Path(path).is_relative_to(installed_pbem.venv), path


def test_every_bundled_game_loads_from_the_wheel(installed_pbem, tmp_path):
    out = ok(installed_pbem.run(
        "python", "-c", "from pbem.game import registry\n"
        "print(' '.join(registry.load(g).id for g in registry.available()))", cwd=tmp_path))
    assert out.split() == GAMES


def tool_commands(game: str) -> list[list[str]]:
    """The commands a game's tool adds (``orders NAME`` and top-level ``NAME``), as the
    checkout's plugin registers them."""
    tool = registry.load(game).tool
    if tool is None:
        return []
    orders = argparse.ArgumentParser().add_subparsers()
    top = argparse.ArgumentParser().add_subparsers()
    tool.register_orders(orders)
    tool.register_commands(top)
    return [["orders", name] for name in orders.choices] + [[name] for name in top.choices]


@pytest.mark.parametrize("game", GAMES)
def test_every_games_tool_commands_answer_help_from_the_wheel(installed_pbem, tmp_path, game):
    commands = tool_commands(game)
    assert commands or registry.load(game).tool is None
    for command in commands:
        out = ok(installed_pbem.run("pbem", *command, "--help", cwd=tmp_path))
        assert out.startswith("usage: pbem " + " ".join(command)), command


@pytest.mark.parametrize("game", WHOLE)
def test_a_games_demo_plays_from_the_wheel_and_the_audit_passes(installed_pbem, tmp_path, game):
    """``python -m pbem.cli.demo GAME`` (``make demo``): ``pbem new --game``, the welcome, each
    player's tool, signed orders by mail, the referee's runs, export and audit."""
    out = ok(installed_pbem.run("python", "-m", "pbem.cli.demo", game, cwd=tmp_path,
                                timeout=600))
    assert "audit passed" in out
    assert f"--game {game}" in out
    game_dir = Path(out.strip().splitlines()[-3].removeprefix("game: "))
    assert (game_dir / "log.jsonl").stat().st_size > 0
