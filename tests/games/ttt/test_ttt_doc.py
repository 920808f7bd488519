"""docs/plugins.md's table gives Tic-Tac-Toe's size beside RPS's and High Card's: the line count
is the module's."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
MODULE = Path(__file__).with_name("__init__.py")


def test_the_docs_table_gives_the_modules_line_count() -> None:
    doc = (REPO / "docs" / "plugins.md").read_text(encoding="utf-8")
    lines = len(MODULE.read_text(encoding="utf-8").splitlines())
    row = next(line for line in doc.splitlines() if line.startswith("| Tic-Tac-Toe"))
    assert f"| {lines} lines in 1 module" in row, (lines, row)
