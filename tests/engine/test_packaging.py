"""``pip install .`` (not editable) must carry every file of pbem, its games and its templates:
the wheel built from the checkout holds exactly the checkout's files under pbem/, games/ and
templates/ (games/ and templates/ inside the package as pbem/_games and pbem/_templates), so a
file a game adds (a template, a data file, a picture, its RULES.md) can never be left out."""

from __future__ import annotations

import zipfile

# Where a checkout file lands in the wheel; the two symbolic links are how it gets there.
INTO = {"games/": "pbem/_games/", "templates/": "pbem/_templates/", "pbem/": "pbem/"}
LINKS = {"pbem/_games", "pbem/_templates"}


def shipped(path: str) -> str | None:
    if path in LINKS:
        return None
    for top, inside in INTO.items():
        if path.startswith(top):
            return inside + path.removeprefix(top)
    return None


def test_the_wheel_holds_every_file_of_pbem_the_games_and_the_templates(installed_pbem):
    names = set(zipfile.ZipFile(installed_pbem.wheel).namelist())
    in_package = {n for n in names if n.startswith("pbem/")}
    wanted = {s for p in installed_pbem.files if (s := shipped(p)) is not None}
    assert sorted(wanted - in_package) == [], "files of the checkout the wheel lacks"
    assert sorted(in_package - wanted) == [], "files in the wheel the checkout lacks"
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_the_wheel_carries_the_b5_templates_and_every_games_rules(installed_pbem):
    """The files issue 28 found missing (``pbem new --game b5cgs``: "it lacks templates")."""
    names = set(zipfile.ZipFile(installed_pbem.wheel).namelist())
    for needed in ("pbem/_games/b5cgs/templates/welcome.subject.txt",
                   "pbem/_games/b5cgs/templates/map.svg", "pbem/_games/b5cgs/RULES.md",
                   "pbem/_games/ashes/RULES.md", "pbem/_games/ashes/data/standin-deck.yaml",
                   "pbem/_games/fourthousand_ad/board.yaml",
                   "pbem/_templates/common/receipt.txt", "pbem/archive/assets/site.css",
                   "pbem/py.typed"):
        assert needed in names, needed


def test_the_wheel_declares_the_pbem_command(installed_pbem):
    wheel = zipfile.ZipFile(installed_pbem.wheel)
    entry = [n for n in wheel.namelist() if n.endswith("entry_points.txt")]
    assert entry and b"pbem = pbem.cli.main:main" in wheel.read(entry[0])
