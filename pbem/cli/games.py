"""The commands games add to the player's tool (pbem.game.tool.Tool), e.g. 4000 A.D.'s
``pbem distance`` and ``pbem orders depart|reveal``.

pbem's own commands know no game; each loadable game under the games roots registers its
commands here when the parser is built. A game that cannot be loaded adds none (its error is
reported when it is used, e.g. by ``pbem new --game``).
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
