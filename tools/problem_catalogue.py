"""Write docs/problems.md, the catalogue of problem codes, from the code itself.

A problem code (``Problem(code, path, message)``, pbem.errors) is stable: players, scripts and
the audit match on it. This lists every code pbem and the bundled games raise, the layer or game
that raises it, and its meaning: the sentence of its first use, with the parts filled in at run
time shown as ``…``. A code is found where it is written as a string constant:
``Problem("code", ...)``, a problem collector's ``bad("code", ...)`` or ``problem("code", ...)``,
and a ``code="code"`` keyword (pbem.game.checker.Checker).

    python tools/problem_catalogue.py           rewrite docs/problems.md
    python tools/problem_catalogue.py --check   exit 1 if docs/problems.md is out of date

tests/engine/game/test_problem_catalogue.py runs the check.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "problems.md"
#: Where problem codes are raised: pbem's layers, the bundled games, the toy game.
SOURCES = (ROOT / "pbem", ROOT / "games", ROOT / "tests" / "toygame")


#: The meaning of a code whose every sentence is computed where it is raised (the rules'
#: reason, a parser's error), so the code shows none.
COMPUTED = {
    "board": "the board file (a component pack) is wrong: the sentence names the field",
    "build": "a build (D3.2) the rules refuse: the sentence gives the rule",
    "charset": "a part names a character set that cannot decode it; what could be read is read",
    "duration": "a duration in the game's config is not one pbem reads (e.g. 48h, 2d)",
    "entropy": "the signed file lacks the chance contribution its step needs (tip or value)",
    "facing": "a facing is 1..6",
    "flip": "a flip is 1..3",
    "mine": "a mine laid (D3.23) the rules refuse: the sentence gives the rule",
    "rejected": "a stored rejection whose reason was kept as a sentence only",
    "repair": "a repair (D3.3) the rules refuse: the sentence gives the rule",
    "seq": "a signed file's seq is not above the last this power sent (a replay or reordering)",
    "unknown-star": "no star of that name on the board (with the closest names)",
}


@dataclass(frozen=True)
class Use:
    code: str
    owner: str  # the layer (pbem/protocol -> "protocol") or the game's id
    meaning: str
    where: str  # path:line, for sorting only


def _text(node: ast.expr | None) -> str:
    """A message argument as a reader sees it: constants as written, the rest as …."""
    if node is None:
        return ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str)
                       else "…" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _text(node.left) + _text(node.right)
    if isinstance(node, ast.Lambda):
        return _text(node.body)
    return "…"


def _owner(path: Path) -> str:
    rel = path.relative_to(ROOT).parts
    if rel[0] == "pbem":
        return rel[1] if len(rel) > 2 else "base"
    if rel[0] == "tests":
        return "highcard (the toy game)"
    manifest = ROOT / "games" / rel[1] / "game.yaml"
    if not manifest.is_file():  # a game not yet playable (no manifest): its package's name
        return f"{rel[1]} (not yet playable)"
    for line in manifest.read_text(encoding="utf-8").splitlines():
        if line.startswith("id:"):
            return line.split(":", 1)[1].strip().strip("\"'")
    return rel[1]


@dataclass(frozen=True)
class Collector:
    """A function that makes a Problem: where its code and message are, and a default code."""

    code: int
    message: int
    default: str | None = None


#: Problem itself; Checker.bad (pbem.game.checker) in a module that imports the checker.
PROBLEM = Collector(0, 2)


def _collectors(tree: ast.Module) -> dict[str, Collector]:
    """The problem-making functions of a module: Problem, and every function whose parameters
    name a ``code`` (its position, its message's, its default)."""
    found = {"Problem": PROBLEM}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "pbem.game.checker":
            found["bad"] = PROBLEM
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        names = [a.arg for a in node.args.args if a.arg not in ("self", "cls")]
        if "code" not in names or node.name == "__init__":
            continue
        defaults = node.args.defaults
        offset = len(node.args.args) - len(defaults)
        default = None
        for arg, value in zip(node.args.args[offset:], defaults, strict=True):
            if arg.arg == "code" and isinstance(value, ast.Constant):
                default = str(value.value)
        found[node.name] = Collector(names.index("code"),
                                     names.index("message") if "message" in names else -1,
                                     default)
    return found


def _code(node: ast.expr) -> str | None:
    """A code written as a constant, or an f-string (its run-time part shown as …)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return _text(node)
    return None


def uses(path: Path) -> Iterator[Use]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    owner, rel = _owner(path), path.relative_to(ROOT).as_posix()
    collectors = _collectors(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else (
            func.attr if isinstance(func, ast.Attribute) else "")
        keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg}
        said = keywords.get("say", keywords.get("message"))
        where = f"{rel}:{node.lineno}"
        collector = collectors.get(name)
        if collector is not None:
            code_node = (node.args[collector.code] if len(node.args) > collector.code
                         else keywords.get("code"))
            if said is None and 0 <= collector.message < len(node.args):
                said = node.args[collector.message]
            code = _code(code_node) if code_node is not None else collector.default
            if code is not None:
                yield Use(code, owner, _text(said), where)
        elif "code" in keywords:
            code = _code(keywords["code"])
            if code is not None:
                yield Use(code, owner, _text(said), where)


def catalogue() -> str:
    found: dict[str, list[Use]] = {}
    for source in SOURCES:
        for path in sorted(source.rglob("*.py")):
            if "_games" in path.parts or "_templates" in path.parts:
                continue
            for use in uses(path):
                found.setdefault(use.code, []).append(use)
    lines = [
        "# Problem codes",
        "",
        "<!-- Generated by tools/problem_catalogue.py from the code: do not edit by hand. -->",
        "",
        "Every rejection carries problems `Problem(code, path, message)` (pbem/errors.py): the",
        "code is stable (scripts and the audit match on it), the path names the field, the",
        "message is a plain sentence. This is every code pbem and the bundled games raise, who",
        "raises it (pbem's layer, or the game's id) and what it means: the sentence of its first",
        "use, `…` standing for what is filled in when it is raised.",
        "",
        f"{len(found)} codes.",
        "",
        "| code | raised by | meaning |",
        "|---|---|---|",
    ]
    for code in sorted(found):
        seen = sorted(found[code], key=lambda u: (not u.meaning.strip("…"), u.where))
        owners = sorted({u.owner for u in seen})
        meaning = " ".join(seen[0].meaning.split()).replace("|", "\\|")
        if not meaning.strip("…"):
            meaning = COMPUTED.get(code, "…")
        lines.append(f"| `{code}` | {', '.join(owners)} | {meaning} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if docs/problems.md is out of date, writing nothing")
    args = parser.parse_args(argv)
    text = catalogue()
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.is_file() else ""
        if current != text:
            print("docs/problems.md is out of date: run python tools/problem_catalogue.py",
                  file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
