"""The README's paragraph on installing pbem names every bundled game (its id) and every
command its tool adds (`pbem orders NAME`, `pbem NAME`), as the wheel carries them: a newcomer
reading it learns every game he can play from an installed pbem (it had left TI4 out)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from pbem.game import registry

REPO = Path(__file__).resolve().parents[3]
BUNDLED = sorted(p.parent for p in (REPO / "games").glob("*/game.yaml"))


def _installing_paragraph() -> str:
    text = (REPO / "README.md").read_text()
    start = text.index("Installing pbem itself:")
    return " ".join(text[start:text.index("\n\n", start)].split())


def test_the_installing_paragraph_names_every_bundled_game_and_its_commands() -> None:
    paragraph = _installing_paragraph()
    assert BUNDLED
    for folder in BUNDLED:
        manifest = yaml.safe_load((folder / "game.yaml").read_text())
        assert f"(`{manifest['id']}`)" in paragraph, (manifest["id"], paragraph)
        for kind in registry.COMMAND_KINDS:
            for name in manifest.get(kind) or {}:
                command = f"pbem orders {name}" if kind == "orders" else f"pbem {name}"
                said = re.search(rf"`{re.escape(command)}[`|]", paragraph) or (
                    kind == "orders" and re.search(rf"`pbem orders [a-z|]*\b{name}\b", paragraph))
                assert said, (manifest["id"], command, paragraph)
