"""``pip install .`` (not editable) must carry the games and the templates inside the package."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_contains_games_and_templates(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = tmp_path.glob("pbem-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    game = "pbem/_games/fourthousand_ad"
    for needed in (f"{game}/game.yaml", f"{game}/board.yaml", f"{game}/__init__.py",
                   "pbem/_templates/4000ad/turn_report.txt",
                   "pbem/_templates/common/receipt.txt", "pbem/cli/main.py",
                   "pbem/_games/ashes/RULES.md", "pbem/_games/b5cgs/RULES.md"):
        assert needed in names, needed
    assert not [n for n in names if "__pycache__" in n]
    entry = [n for n in names if n.endswith("entry_points.txt")]
    assert entry and b"pbem = pbem.cli.main:main" in zipfile.ZipFile(wheel).read(entry[0])
