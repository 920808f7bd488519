"""The commands games add to the player's tool (pbem.game.tool.Tool), e.g. 4000 A.D.'s
``pbem distance`` and ``pbem orders depart|reveal``.

pbem's own commands know no game; each loadable game under the games roots registers its
commands here when the parser is built. A game that cannot be loaded adds none: its error is
reported when it is used (``pbem new --game``), and after any usage error of the command line
(``unloadable``), so ``pbem orders b5`` from an install that lost B5's templates says why
``b5`` is not a choice instead of only that it is not.
"""

from __future__ import annotations

import argparse
from typing import Any

from pbem.game import registry
from pbem.game.tool import Tool


def tools() -> list[Tool]:
    """The player's-tool part of every game that loads, in game id order."""
    out: list[Tool] = []
    try:
        ids = registry.available()
    except registry.UnknownGame:  # a broken manifest: reported by the command that needs it
        return out
    for game_id in ids:
        try:
            tool = registry.load(game_id).tool
        except registry.UnknownGame:
            continue
        if tool is not None:
            out.append(tool)
    return out


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for tool in tools():
        tool.register_commands(sub)


def register_orders(cmds: Any) -> None:
    """The games' subcommands of ``pbem orders``."""
    for tool in tools():
        tool.register_orders(cmds)


def unloadable() -> list[str]:
    """One sentence per game under the games roots that cannot be loaded (its commands are
    missing), in game id order; [] when every game loads."""
    try:
        ids = registry.available()
    except registry.UnknownGame as exc:
        return [str(exc)]
    out = []
    for game_id in ids:
        try:
            registry.load(game_id)
        except registry.UnknownGame as exc:
            out.append(f"{exc}; its commands are missing")
    return out
