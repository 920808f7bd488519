"""Every user-visible command has --help; errors are one clear line, a traceback only with
--verbose."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.cli.main import build_parser, main
from tests.support.run import pbem_text

COMMANDS = [
    ["distance"], ["keygen"], ["new"], ["ingest"], ["run"], ["export"], ["audit"],
    ["verify-receipt"], ["archive"],
    ["orders"], ["orders", "new"], ["orders", "depart"], ["orders", "reveal"],
    ["orders", "check"], ["orders", "sign"],
    ["gm"], ["gm", "status"], ["gm", "pause"], ["gm", "resume"], ["gm", "extend"],
    ["gm", "replace"], ["gm", "concede"], ["gm", "end"], ["gm", "quarantine"], ["gm", "release"],
    ["dice"], ["dice", "verify"], ["dice", "roll"],
    ["press"], ["press", "sign"], ["press", "verify"], ["vote"],
    ["components"], ["components", "check"], ["rules"],
]


def test_every_registered_command_is_listed_here():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    assert sorted(sub.choices) == sorted({c[0] for c in COMMANDS})


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help(command, capsys):
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: pbem " + " ".join(command))
    assert len(out.splitlines()) > 3


def test_errors_are_one_line_and_verbose_adds_the_traceback(tmp_path):
    cmd = [sys.executable, "-m", "pbem", "gm", "status", str(tmp_path / "missing")]
    plain = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert plain.returncode == 1
    assert plain.stderr.count("\n") == 1 and "missing" in plain.stderr
    verbose = subprocess.run([sys.executable, "-m", "pbem", "--verbose", *cmd[3:]],
                             capture_output=True, text=True, check=False)
    assert verbose.returncode == 1 and "Traceback" in verbose.stderr


@pytest.mark.parametrize("command", [["run"], ["ingest", "--maildir", "md"]])
def test_a_mistyped_root_fails_loudly_and_creates_nothing(tmp_path, capsys, command):
    root = tmp_path / "no-such-root"
    assert main([command[0], str(root), *command[1:]]) == 1
    assert "no such directory" in capsys.readouterr().err
    assert not root.exists()


def test_a_usage_error_names_a_game_that_did_not_load_and_so_lacks_its_commands(tmp_path):
    """A game that fails to load adds no command; a usage error says which game and why (an
    install without B5's templates answered ``pbem orders b5`` with "invalid choice" alone)."""
    toy = Path(__file__).resolve().parents[2] / "toygame" / "highcard"
    broken = tmp_path / "highcard"
    shutil.copytree(toy, broken, ignore=shutil.ignore_patterns("__pycache__"))
    present = broken / "present.py"  # a map, and no map.svg to draw it with
    present.write_text(present.read_text().replace(
        "PRESENTER = HandPresenter()",
        "HandPresenter.map_kind = 'cards'\nPRESENTER = HandPresenter()"))
    env = {**os.environ, "PBEM_GAMES_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from pbem.cli.main import main; sys.exit(main())",
         "orders", "play", "--help"],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert "invalid choice: 'play'" in done.stderr
    assert "game 'highcard'" in done.stderr and "map.svg" in done.stderr
    assert "its commands are missing" in done.stderr


@pytest.mark.parametrize(("command", "says"), [
    (["vote"], "`pbem vote prefs --set KEY=VALUE ...` signs your own settings"),
    (["orders", "new"], "With --standing, an empty standing file (turn: standing)"),
    (["audit"], "or the saved mail itself (report.eml)"),
    (["new"], "without --power, `pbem new` names the variant's powers"),
])
def test_help_says_what_a_newcomer_looks_for(command, says):
    """The help a player or game master reads for what the README sends him to it for."""
    done = pbem_text(*command, "--help", env={"COLUMNS": "2000"})
    assert done.returncode == 0 and says in " ".join(done.stdout.split()), done.stdout
