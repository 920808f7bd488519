"""``make demo GAME=<game>``: the dispatcher of the scripted demos.

Each game plays its own scripted demo by email in ``games/<package>/demo.py`` (a ``main() ->
int``), built from the kit in ``pbem/game/demo.py`` (a game may import the game layer, not the
command line). ``python -m pbem.cli.demo GAME`` (what ``make demo GAME=...`` runs) loads the game
from the games roots, installs the command line the kit's ``run`` calls and calls its demo.
"""

from __future__ import annotations

import importlib
import sys

from pbem.cli.main import main as pbem
from pbem.errors import PbemError
from pbem.game import demo, registry


def games_with_demos() -> list[str]:
    return [g for g in registry.available() if (registry.game_dir(g) / "demo.py").is_file()]


def for_game(argv: list[str]) -> int:
    """``python -m pbem.cli.demo GAME``: load the game and run its ``demo.main()``."""
    have = ", ".join(games_with_demos()) or "none"
    if len(argv) != 1:
        raise SystemExit(f"demo: name one game (make demo GAME=...; there are: {have})")
    game = argv[0]
    if game not in games_with_demos():
        raise SystemExit(f"demo: no demo for game {game!r} (there are: {have})")
    try:
        registry.load(game)
    except PbemError as exc:
        raise SystemExit(f"demo: {exc}") from None
    demo.use_command_line(pbem)
    module = importlib.import_module(f"{registry.module_name(game)}.demo")
    return int(module.main())


if __name__ == "__main__":
    sys.exit(for_game(sys.argv[1:]))
