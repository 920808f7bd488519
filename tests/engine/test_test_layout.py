"""The tests are a map (tests/README.md): every test file sits where its subject is, and no module
imports a test module (what tests share lives in tests/support/).

- ``tests/engine/<layer>/``: one of pbem's layers (docs/architecture.md): a subpackage of pbem/,
  or ``base`` for the modules at the top of pbem/; ``tests/engine/`` itself for checks of the
  whole repository.
- ``tests/games/<id>/``: one game's tests, for a game the registry finds, or for a game package
  under construction (``games/<id>/`` without a manifest yet, which the registry ignores).
- ``tests/crossgame/``: the promises every game keeps.
- ``tests/support/``: helpers and fixtures, never a test.
Every folder of Python modules under tests/ is a package (an ``__init__.py``), but a games root
(tests/toygame), whose folders are games the registry loads by path."""

from __future__ import annotations

import ast
from pathlib import Path

from pbem.game import registry

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
LAYERS = {"base"} | {p.name for p in (REPO / "pbem").iterdir()
                     if (p / "__init__.py").is_file() and not p.name.startswith("_")}
#: folders under tests/ that hold games, not tests: loaded by the registry from their path
GAMES_ROOTS = {TESTS / "toygame"}


def python_files(top: Path) -> list[Path]:
    return sorted(p for p in top.rglob("*.py")
                  if "__pycache__" not in p.parts and not any(
                      root in p.parents for root in GAMES_ROOTS))


def where_allowed(path: Path) -> bool:
    """Whether a test file at ``path`` sits on the map."""
    parts = path.relative_to(TESTS).parts[:-1]
    match parts:
        case ("engine",) | ("crossgame",):
            return True
        case ("engine", layer):
            return layer in LAYERS
        case ("games", game):
            return game in registry.available() or (REPO / "games" / game / "__init__.py").is_file()
    return False


def test_every_test_file_sits_on_the_map() -> None:
    tests = [p for p in python_files(TESTS) if p.name.startswith("test_")]
    assert len(tests) > 100  # the walk finds the suite
    off = [str(p.relative_to(REPO)) for p in tests if not where_allowed(p)]
    assert off == [], "move these to tests/engine/<layer>/, tests/games/<id>/ or tests/crossgame/"


def test_every_folder_of_modules_is_a_package() -> None:
    folders = {p.parent for p in python_files(TESTS)}
    assert [str(f.relative_to(REPO)) for f in sorted(folders)
            if not (f / "__init__.py").is_file()] == []


def imported_modules(text: str, package: str) -> list[str]:
    """Every module a module of ``package`` with source ``text`` imports, by dotted name
    (relative imports resolved)."""
    tree = ast.parse(text)
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            out.append(base)
            out += [f"{base}.{alias.name}" for alias in node.names]
    return out


def test_no_module_imports_a_test_module() -> None:
    """A test module shares nothing: what two tests need is in tests/support/ (or a fixture of
    tests/conftest.py). bench/ and tools/ read the same helpers."""
    found = []
    for path in [*python_files(TESTS), *python_files(REPO / "bench"),
                 *python_files(REPO / "tools")]:
        package = ".".join(path.relative_to(REPO).parts[:-1])
        for name in imported_modules(path.read_text(encoding="utf-8"), package):
            last = name.split(".")
            if name.startswith("tests.") and (
                    any(part.startswith("test_") for part in last) or "conftest" in last):
                found.append(f"{path.relative_to(REPO)} imports {name}")
    assert found == []


def test_the_checks_see_what_they_look_for() -> None:
    assert where_allowed(TESTS / "engine" / "store" / "test_x.py")
    assert where_allowed(TESTS / "games" / "4000ad" / "test_x.py")
    assert not where_allowed(TESTS / "engine" / "nolayer" / "test_x.py")
    assert not where_allowed(TESTS / "games" / "nogame" / "test_x.py")
    assert not where_allowed(TESTS / "support" / "test_x.py")
    assert not where_allowed(TESTS / "test_x.py")
    names = imported_modules("from tests.engine.audit.test_audit_game import x\n"
                             "from . import test_y\n", "tests.engine.store")
    assert "tests.engine.audit.test_audit_game" in names
    assert "tests.engine.store.test_y" in names


def test_every_file_the_schedule_names_exists() -> None:
    """tests/support/schedule.py starts the longest files first and keeps the files that share
    a played game on one worker: a file renamed or removed must leave its lists, or the order
    it was measured for silently goes."""
    from tests.support import schedule

    named = [*schedule.LONGEST, *schedule.SHARED]
    assert [f for f in named if not (REPO / f).is_file()] == []
    assert len(set(schedule.LONGEST)) == len(schedule.LONGEST)
