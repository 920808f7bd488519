"""Docs and docstrings name only what exists: every dotted ``pbem.x.y`` name cited in docs/*.md,
README.md, games/*/RULES.md, bench/README.md and the docstrings and comments under pbem/,
games/, bench/ and tools/ is an importable module (and attributes of it), every repository path
they cite is a file or folder of the repository, and nothing cites ``shared/notes`` or
``shared/seeds``, which are outside it (the fact goes into docs/, a measurement into
bench/README.md)."""

from __future__ import annotations

import importlib
import io
import re
import subprocess
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOTTED = re.compile(r"(?<![\w.@/-])pbem(?:\.[A-Za-z_]\w*)+")
TOPS = ("pbem", "games", "docs", "tests", "bench", "tools", "templates")
PATH = re.compile(r"(?<![\w./-])((?:" + "|".join(TOPS) + r")/[\w./*<>{}-]*[\w*>}])")
OUTSIDE = re.compile(r"shared/(?:notes|seeds)\b")
#: The reserved mail domain of pbem's default sender (RFC 2606), not a module.
NOT_MODULES = {"pbem.invalid"}


def _tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    return [ROOT / p for p in out]


def prose(path: Path) -> str:
    """A document's text, or a module's comments and docstrings (every string that is a
    statement of its own), one per line."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return text
    parts = []
    previous = tokenize.NEWLINE
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT or tok.type == tokenize.STRING and previous in (
                tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT):
            parts.append(tok.string)
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            previous = tok.type
    return "\n".join(parts)


def sources() -> list[Path]:
    docs = _tracked("docs/*.md", "README.md", "games/*/RULES.md", "bench/README.md")
    code = [p for p in _tracked("pbem", "games", "bench", "tools") if p.suffix == ".py"]
    return docs + code


def resolves(name: str) -> bool:
    """``pbem.a.b.c``: the longest importable prefix, then attributes of it."""
    parts = name.split(".")
    for i in range(len(parts), 1, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        try:
            for attr in parts[i:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return False
        return True
    return False


def cited_path(path: str) -> bool:
    """Whether ``path`` as cited is one of the repository's (``games/NAME`` alone is the
    example games root of README.md and `pbem new --help`, a folder the user makes; a path
    with a placeholder or a wildcard names no one file)."""
    parts = path.rstrip("/.").split("/")
    return not (parts[0] == "games" and len(parts) < 3) and not set("*<>{}") & set(path)


def stale(path: Path) -> list[str]:
    text = prose(path)
    out = [f"module {m}" for m in sorted(set(DOTTED.findall(text)) - NOT_MODULES)
           if not resolves(m)]
    out += [f"path {p}" for p in sorted(set(PATH.findall(text)))
            if cited_path(p) and not (ROOT / p.rstrip(".")).exists()]
    out += [f"outside the repository: {m.group(0)}" for m in OUTSIDE.finditer(text)]
    return out


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_cited_module_and_path_exists(path: Path) -> None:
    assert stale(path) == []


def test_the_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    doc = tmp_path / "x.py"
    doc.write_text('"""See pbem.log and pbem/accept.py; pbem.store.log.GameLog is fine."""\n'
                   "x = 'pbem.engine'  # the notes: ../shared/notes/a.md\n", encoding="utf-8")
    assert stale(doc) == ["module pbem.log", "path pbem/accept.py",
                          "outside the repository: shared/notes"]
