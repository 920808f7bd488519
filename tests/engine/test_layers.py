"""The layers of pbem/ import only downward (docs/architecture.md).

Each subpackage has a rank; a module may import its own subpackage and any of lower rank, never
one of the same or higher rank. The top-level modules (errors, canonical, framing, schedule, atomic,
failpoints, resources) are the base every layer may use; they import only each other. pbem/
names no game: no module imports a game package, and none defaults to one.
"""

from __future__ import annotations

import ast
from pathlib import Path

PBEM = Path(__file__).resolve().parents[2] / "pbem"

RANKS = {
    "base": 0,
    "protocol": 1,
    "chance": 1,
    "game": 2,
    "store": 3,
    "mail": 4,
    "render": 4,
    "audit": 4,
    "host": 5,
    "archive": 5,
    "cli": 6,
    "main": 7,
}


def layer_of(module: str) -> str:
    """``pbem.store.log`` -> ``store``; ``pbem.errors`` -> ``base``."""
    parts = module.split(".")
    if module == "pbem.__main__":
        return "main"  # ``python -m pbem``: the entry point above everything
    if len(parts) >= 2 and parts[1] in RANKS:
        return parts[1]
    return "base"


def module_name(path: Path) -> str:
    rel = path.relative_to(PBEM.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "pbem":
                found += [(node.lineno, f"pbem.{a.name}") for a in node.names]
            elif node.module.startswith("pbem."):
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("pbem.")]
    return found


def sources() -> list[Path]:
    return [p for p in sorted(PBEM.rglob("*.py"))
            if not {"_games", "_templates"} & set(p.relative_to(PBEM).parts)]


def test_every_subpackage_has_a_rank() -> None:
    packages = {p.name for p in PBEM.iterdir() if (p / "__init__.py").is_file()}
    missing = packages - set(RANKS)
    assert not missing, f"give these a rank in tests/engine/test_layers.py: {missing}"


def test_imports_only_go_downward() -> None:
    wrong = []
    for path in sources():
        own = layer_of(module_name(path))
        for line, target in imports_of(path):
            other = layer_of(target)
            if other == own:
                continue
            if RANKS[other] >= RANKS[own]:
                where = path.relative_to(PBEM.parent)
                wrong.append(f"{where}:{line}: {own} imports {target} ({other})")
    assert not wrong, "imports that go up or sideways:\n" + "\n".join(wrong)


def test_the_layer_check_catches_an_upward_import(tmp_path: Path) -> None:
    """The checker itself: a store module importing the host layer is reported."""
    assert layer_of("pbem.store.log") == "store" and layer_of("pbem.errors") == "base"
    bad = tmp_path / "x.py"
    bad.write_text("from pbem.host import turnjob\nfrom pbem import errors\n")
    assert imports_of(bad) == [(1, "pbem.host"), (2, "pbem.errors")]
    assert RANKS[layer_of("pbem.host.turnjob")] > RANKS["store"]


def test_pbem_names_no_game() -> None:
    games_dir = PBEM.parent / "games"
    packages = {p.name for p in games_dir.iterdir() if (p / "game.yaml").is_file()}
    wrong = []
    for path in sources():
        for line, target in imports_of(path):
            if target.split(".")[1] in packages:
                wrong.append(f"{path}:{line}: imports game package {target}")
    assert not wrong, "\n".join(wrong)


#: What a game may import of pbem (docs/architecture.md, "Pure core"): the contract, the
#: protocol's pure helpers and the errors; everything else reaches a game through pbem.game.
GAME_MAY_IMPORT = ("pbem.game", "pbem.protocol", "pbem.errors")


def game_sources() -> list[Path]:
    """Every module of the bundled games (games/*) and of the toy game (tests/toygame)."""
    root = PBEM.parent
    return [*sorted((root / "games").rglob("*.py")),
            *sorted((root / "tests" / "toygame").rglob("*.py"))]


def game_import_faults(paths: list[Path]) -> list[str]:
    wrong = []
    for path in paths:
        for line, target in imports_of(path):
            if target != "pbem" and not any(target == allowed or target.startswith(allowed + ".")
                                            for allowed in GAME_MAY_IMPORT):
                wrong.append(f"{path}:{line}: imports {target}")
    return wrong


def test_games_import_only_the_game_protocol_and_errors() -> None:
    wrong = game_import_faults(game_sources())
    assert not wrong, (f"a game imports only {', '.join(GAME_MAY_IMPORT)} (what else it needs "
                       "is offered by pbem.game, e.g. pbem.game.base, pbem.game.demo):\n"
                       + "\n".join(wrong))


def test_the_game_import_check_catches_a_command_line_import(tmp_path: Path) -> None:
    bad = tmp_path / "demo.py"
    bad.write_text("from pbem.cli.demo import run\nfrom pbem.game.demo import OUT\n"
                   "from pbem import canonical\nimport pbem.numbers\n")
    assert game_import_faults([bad]) == [f"{bad}:1: imports pbem.cli.demo",
                                         f"{bad}:3: imports pbem.canonical",
                                         f"{bad}:4: imports pbem.numbers"]
    assert game_sources() and all(p.suffix == ".py" for p in game_sources())


#: 4000 A.D.'s words, which the shared code and the common templates must not use: pbem's own
#: text is game-neutral, the game supplies its words (presenter, templates, tool).
GAME_WORDS = ("warp", "hyperspace", "fleet", "4000ad")

#: (path under the checkout, word): the places where a 4000 A.D. word is justified.
ALLOWED = {
    # docstrings that explain the generic sealed values with the flagship game as the example
    # (and name docs/protocol.md's 4000 A.D. field names)
    ("pbem/protocol/commitment.py", "fleet"),
    ("pbem/protocol/commitment.py", "warp"),
    ("pbem/protocol/escrow.py", "fleet"),
    ("pbem/protocol/escrow.py", "warp"),
    # an example id in a docstring, a config example and an example in `pbem new --help`
    # (never a default: test_no_command_defaults_to_a_game)
    ("pbem/game/registry.py", "4000ad"),
    ("pbem/store/gameconfig.py", "4000ad"),
    ("pbem/cli/new.py", "4000ad"),
    # the archive's map hook, explained with the game that uses it
    ("pbem/archive/hooks.py", "fleet"),
}


def shared_files() -> list[Path]:
    root = PBEM.parent
    templates = sorted((root / "templates" / "common").glob("*"))
    return [*sources(), *(p for p in templates if p.is_file())]


def test_shared_code_and_common_templates_use_no_4000ad_words() -> None:
    root = PBEM.parent
    wrong = []
    for path in shared_files():
        rel = path.relative_to(root).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            low = line.lower()
            wrong += [f"{rel}:{n}: {word!r}: {line.strip()}" for word in GAME_WORDS
                      if word in low and (rel, word) not in ALLOWED]
    assert not wrong, ("4000 A.D. words in shared code or templates/common (say it in the "
                       "game's words through its presenter or templates, or justify it in "
                       "ALLOWED):\n" + "\n".join(wrong))


def test_every_allowed_place_still_needs_it() -> None:
    """An allow-list entry whose file no longer holds the word is stale: remove it."""
    root = PBEM.parent
    stale = [f"{p}: {w}" for p, w in sorted(ALLOWED)
             if w not in (root / p).read_text(encoding="utf-8").lower()]
    assert not stale, "remove from ALLOWED:\n" + "\n".join(stale)


def test_no_command_defaults_to_a_game() -> None:
    """No argparse option or function parameter defaults to a game id: the game is read from
    the game directory or the view."""
    wrong = []
    for path in sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "default" and \
                    isinstance(node.value, ast.Constant) and node.value.value == "4000ad":
                wrong.append(f"{path}:{node.lineno}")
            elif isinstance(node, ast.arguments):
                for d in [*node.defaults, *(k for k in node.kw_defaults if k is not None)]:
                    if isinstance(d, ast.Constant) and d.value == "4000ad":
                        wrong.append(f"{path}:{d.lineno}")
    assert not wrong, "defaults to 4000ad:\n" + "\n".join(wrong)


def test_the_architecture_doc_shows_every_layer_and_module() -> None:
    """docs/architecture.md's table has a row for every ranked layer, naming its package and
    every module in it (a base module by its file name), so the map stays the code's."""
    doc = (PBEM.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = {}
    for line in doc.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 4 and cells[0] in RANKS:
            rows[cells[0]] = " ".join(cells[1:])
    assert set(rows) == set(RANKS), set(RANKS) ^ set(rows)
    missing = []
    for path in sources():
        name = module_name(path)
        layer = layer_of(name)
        stem = name.rsplit(".", 1)[-1]
        if layer == "main" or name == "pbem" or name == f"pbem.{layer}":
            continue
        if f"`{stem}`" not in rows[layer] and f"{stem}.py`" not in rows[layer]:
            missing.append(f"{name} (the {layer} row)")
    missing += [f"pbem/{layer}/ (its row)" for layer in RANKS
                if layer not in ("base", "main") and f"`pbem/{layer}/`" not in rows[layer]]
    assert not missing, "docs/architecture.md does not name: " + ", ".join(missing)
