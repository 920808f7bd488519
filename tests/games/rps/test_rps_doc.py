"""docs/plugins.md walks a newcomer through rock, paper, scissors with the whole module quoted:
the quote is the module (every line of it, in order), and the line count beside High Card's is
the module's."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
MODULE = Path(__file__).with_name("__init__.py")


def test_the_walk_through_quotes_the_whole_module_as_it_is() -> None:
    doc = (REPO / "docs" / "plugins.md").read_text(encoding="utf-8")
    walk = doc[doc.index("## 2. Your first game"):doc.index("## 3. The rules")]
    quoted = "".join(re.findall(r"```python\n(.*?)```", walk, re.S))
    module = MODULE.read_text(encoding="utf-8")
    assert [line for line in quoted.splitlines() if line.strip()] == [
        line for line in module.splitlines() if line.strip()]
    lines = len(module.splitlines())
    assert f"| {lines} lines in 1 module" in doc, lines
