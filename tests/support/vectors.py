"""The test vectors of docs/protocol.md, read from the document's text (fenced blocks after
``<!-- vector: NAME -->``)."""

from __future__ import annotations

import re
from pathlib import Path

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
_BLOCK = re.compile(r"<!-- vector: ([\w-]+) -->\n```[a-z]*\n(.*?)```", re.S)


def vector_text(name: str) -> str:
    """The fenced block after ``<!-- vector: NAME -->`` in docs/protocol.md, verbatim."""
    found = dict(_BLOCK.findall(PROTOCOL.read_text(encoding="utf-8")))
    assert name in found, f"docs/protocol.md has no vector {name}"
    return found[name]


def vector(name: str) -> dict[str, str]:
    """A vector block of ``name: value`` lines."""
    return dict(line.split(": ", 1) for line in vector_text(name).splitlines() if line)


def vector_names() -> list[str]:
    return [name for name, _ in _BLOCK.findall(PROTOCOL.read_text(encoding="utf-8"))]
